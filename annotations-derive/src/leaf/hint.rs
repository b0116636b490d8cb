//! The four hints, as the attribute names them and the docs describe them. A leaf: it imports
//! nothing of the crate.

/// The four hints.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum HintKind {
    ReadOnly,
    Destructive,
    Idempotent,
    OpenWorld,
}

impl HintKind {
    pub(crate) const ALL: [HintKind; 4] = [
        HintKind::ReadOnly,
        HintKind::Destructive,
        HintKind::Idempotent,
        HintKind::OpenWorld,
    ];

    /// The key as written in `#[tool(...)]`.
    pub(crate) const fn key(self) -> &'static str {
        match self {
            HintKind::ReadOnly => "read_only",
            HintKind::Destructive => "destructive",
            HintKind::Idempotent => "idempotent",
            HintKind::OpenWorld => "open_world",
        }
    }

    /// The runtime's `ToolAnnotations` field that holds the hint.
    pub(crate) fn field(self) -> &'static str {
        match self {
            HintKind::ReadOnly => "read_only_hint",
            HintKind::Destructive => "destructive_hint",
            HintKind::Idempotent => "idempotent_hint",
            HintKind::OpenWorld => "open_world_hint",
        }
    }

    /// How the hint reads in a sentence, for `value`.
    pub(crate) fn describe(self, value: bool) -> &'static str {
        match (self, value) {
            (HintKind::ReadOnly, true) => "read-only",
            (HintKind::ReadOnly, false) => "not read-only",
            (HintKind::Destructive, true) => "destructive",
            (HintKind::Destructive, false) => "not destructive",
            (HintKind::Idempotent, true) => "idempotent",
            (HintKind::Idempotent, false) => "not idempotent",
            (HintKind::OpenWorld, true) => "open-world",
            (HintKind::OpenWorld, false) => "closed-world",
        }
    }

    pub(crate) fn from_key(key: &str) -> Option<HintKind> {
        HintKind::ALL.into_iter().find(|kind| kind.key() == key)
    }
}

/// The hints' keys, then `others`, as one list of `N` keys (`N` is the hints' count plus the
/// others'; a wrong `N` fails while compiling): a list of keys an attribute accepts names the
/// hints through [`HintKind::ALL`], never one by one.
pub(crate) const fn keys_with<const N: usize>(others: &[&'static str]) -> [&'static str; N] {
    let mut keys = [""; N];
    let mut at = 0;
    while at < HintKind::ALL.len() {
        keys[at] = HintKind::ALL[at].key();
        at += 1;
    }
    let mut other = 0;
    while other < others.len() {
        keys[at] = others[other];
        at += 1;
        other += 1;
    }
    assert!(at == N, "N is the hints' count plus the others'");
    keys
}
