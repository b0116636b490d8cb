//! The protocol's four tool hints as one list: each one's wire name, attribute key, protocol
//! default, words for each side, and the claim it makes at its trusted value. Every package
//! walks [`Hint::ALL`]: the runtime's wire form, listings, findings and diff, the macros'
//! keys and messages, `verify`'s judgement and the audit's reports.

/// One of the protocol's tool hints.
///
/// ```
/// use mcp_annotations_rules::Hint;
///
/// assert_eq!(Hint::ReadOnly.wire_name(), "readOnlyHint");
/// assert_eq!(Hint::from_key("open_world"), Some(Hint::OpenWorld));
/// // Unset, a hint takes its pessimistic default; the other side is what a host trusts.
/// assert!(Hint::Destructive.default_value() && !Hint::Destructive.trusted_value());
/// assert_eq!(Hint::Destructive.claim(), "nonDestructive");
/// assert_eq!(Hint::OpenWorld.words(false), "closed-world");
/// ```
///
/// Not `#[non_exhaustive]`: a fifth hint is a protocol change that every `match` on it must
/// answer, so each place that must handle it fails to compile until it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Hint {
    /// `readOnlyHint`: the tool changes nothing in its environment.
    ReadOnly,
    /// `destructiveHint`: the tool may destroy or overwrite what was there.
    Destructive,
    /// `idempotentHint`: calling it again with the same arguments has no further effect.
    Idempotent,
    /// `openWorldHint`: the tool may reach an open world of outside entities.
    OpenWorld,
}

impl Hint {
    /// What the protocol says of the hints [read-only settles](Self::implied_by_read_only),
    /// in a sentence.
    pub const IGNORED_BESIDE_READ_ONLY: &'static str =
        "destructiveHint and idempotentHint mean nothing beside readOnlyHint: true.";

    /// Every hint, in the protocol's order.
    pub const ALL: [Hint; 4] = [
        Hint::ReadOnly,
        Hint::Destructive,
        Hint::Idempotent,
        Hint::OpenWorld,
    ];

    /// The claims in the order a report lists them (its tables' columns, its rules, and the
    /// order one call's broken claims are judged in): what a host relies on most first
    /// (nothing changed, nothing changed twice, nothing lost, nothing reached).
    pub const BY_RELIANCE: [Hint; 4] = [
        Hint::ReadOnly,
        Hint::Idempotent,
        Hint::Destructive,
        Hint::OpenWorld,
    ];

    /// The key on the wire, `"readOnlyHint"`.
    #[must_use]
    pub const fn wire_name(self) -> &'static str {
        match self {
            Hint::ReadOnly => "readOnlyHint",
            Hint::Destructive => "destructiveHint",
            Hint::Idempotent => "idempotentHint",
            Hint::OpenWorld => "openWorldHint",
        }
    }

    /// The key as an attribute writes it, `#[tool(read_only)]`: `"read_only"`.
    #[must_use]
    pub const fn key(self) -> &'static str {
        match self {
            Hint::ReadOnly => "read_only",
            Hint::Destructive => "destructive",
            Hint::Idempotent => "idempotent",
            Hint::OpenWorld => "open_world",
        }
    }

    /// The hint an attribute's key names (`"read_only"`), if any.
    #[must_use]
    pub fn from_key(key: &str) -> Option<Hint> {
        Hint::ALL.into_iter().find(|hint| hint.key() == key)
    }

    /// The value a host assumes when the hint is unset: the pessimistic one.
    #[must_use]
    pub const fn default_value(self) -> bool {
        match self {
            Hint::ReadOnly | Hint::Idempotent => false,
            Hint::Destructive | Hint::OpenWorld => true,
        }
    }

    /// The value a host asks the user less for (`readOnlyHint: true`, `destructiveHint:
    /// false`, ...): a change to it is a change of trust, and a tool that states it makes a
    /// claim its behaviour can break.
    #[must_use]
    pub const fn trusted_value(self) -> bool {
        !self.default_value()
    }

    /// The claim the hint makes at its [trusted value](Self::trusted_value), as a report
    /// names it: `"readOnly"`, `"idempotent"`, `"nonDestructive"`, `"closedWorld"`.
    #[must_use]
    pub const fn claim(self) -> &'static str {
        match self {
            Hint::ReadOnly => "readOnly",
            Hint::Destructive => "nonDestructive",
            Hint::Idempotent => "idempotent",
            Hint::OpenWorld => "closedWorld",
        }
    }

    /// What a tool promises when it states the hint at its [trusted
    /// value](Self::trusted_value), said of the tool: `"changes nothing a call can observe"`.
    /// Its behaviour can break the promise; what breaks it is the judge's to observe.
    #[must_use]
    pub const fn promise(self) -> &'static str {
        match self {
            Hint::ReadOnly => "changes nothing a call can observe",
            Hint::Destructive => {
                "only adds to the state it finds: it removes or overwrites nothing"
            }
            Hint::Idempotent => "leaves the same state when called again with the same arguments",
            Hint::OpenWorld => {
                "reaches nothing outside its server: no network, no place outside its sandbox"
            }
        }
    }

    /// How the hint at `value` reads in a sentence: `"read-only"`, `"not read-only"`.
    #[must_use]
    pub const fn words(self, value: bool) -> &'static str {
        match (self, value) {
            (Hint::ReadOnly, true) => "read-only",
            (Hint::ReadOnly, false) => "not read-only",
            (Hint::Destructive, true) => "destructive",
            (Hint::Destructive, false) => "non-destructive",
            (Hint::Idempotent, true) => "idempotent",
            (Hint::Idempotent, false) => "not idempotent",
            (Hint::OpenWorld, true) => "open-world",
            (Hint::OpenWorld, false) => "closed-world",
        }
    }

    /// The hint's column in a table of tools: `"read-only"`, `"open world"`.
    #[must_use]
    pub const fn column(self) -> &'static str {
        match self {
            Hint::ReadOnly => "read-only",
            Hint::Destructive => "destructive",
            Hint::Idempotent => "idempotent",
            Hint::OpenWorld => "open world",
        }
    }

    /// The claim's column in a table of verdicts: `"read-only"`, `"non-destructive"`,
    /// `"closed world"`.
    #[must_use]
    pub const fn claim_column(self) -> &'static str {
        match self {
            Hint::ReadOnly => "read-only",
            Hint::Destructive => "non-destructive",
            Hint::Idempotent => "idempotent",
            Hint::OpenWorld => "closed world",
        }
    }

    /// Whether this is `other`, in `const` too (`==` is not).
    #[must_use]
    pub const fn is(self, other: Hint) -> bool {
        slot(self) == slot(other)
    }

    /// Whether `readOnlyHint: true` settles this hint, so that its own value means nothing
    /// beside it (a read-only tool destroys nothing and is idempotent).
    #[must_use]
    pub const fn implied_by_read_only(self) -> bool {
        match self {
            Hint::Destructive | Hint::Idempotent => true,
            Hint::ReadOnly | Hint::OpenWorld => false,
        }
    }
}

/// A `T` for each hint: what a table of the four hints holds, read and written by [`Hint`]
/// (never by a number standing for one).
///
/// ```
/// use mcp_annotations_rules::{ByHint, Hint};
///
/// let mut stated: ByHint<Option<bool>> = ByHint::default();
/// stated[Hint::ReadOnly] = Some(true);
/// let set: Vec<&str> = stated
///     .iter()
///     .filter(|(_, value)| value.is_some())
///     .map(|(hint, _)| hint.key())
///     .collect();
/// assert_eq!(set, ["read_only"]);
/// let defaults = ByHint::from_fn(Hint::default_value);
/// assert!(defaults[Hint::OpenWorld] && !defaults[Hint::Idempotent]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByHint<T>([T; 4]);

/// Where a hint's value is kept: its place in [`Hint::ALL`].
const fn slot(hint: Hint) -> usize {
    match hint {
        Hint::ReadOnly => 0,
        Hint::Destructive => 1,
        Hint::Idempotent => 2,
        Hint::OpenWorld => 3,
    }
}

impl<T> ByHint<T> {
    /// Each hint's value, `value(hint)`, made in [`Hint::ALL`]'s order.
    pub fn from_fn(mut value: impl FnMut(Hint) -> T) -> Self {
        ByHint(Hint::ALL.map(&mut value))
    }

    /// Each hint with its value, in [`Hint::ALL`]'s order.
    pub fn iter(&self) -> impl Iterator<Item = (Hint, &T)> {
        Hint::ALL.into_iter().zip(&self.0)
    }

    /// Each hint's value made from this one's: `change(hint, value)`.
    pub fn map<U>(self, mut change: impl FnMut(Hint, T) -> U) -> ByHint<U> {
        let mut values = self.0.map(Some);
        ByHint::from_fn(|hint| {
            let value = values[slot(hint)].take();
            change(hint, value.expect("from_fn asks for each hint once"))
        })
    }
}

impl<T: Copy> ByHint<T> {
    /// The value for `hint`, in `const` too (the `Index` operator is not).
    #[must_use]
    pub const fn get(&self, hint: Hint) -> T {
        self.0[slot(hint)]
    }

    /// This table with `value` for `hint`, in `const` too.
    #[must_use]
    pub const fn with(mut self, hint: Hint, value: T) -> Self {
        self.0[slot(hint)] = value;
        self
    }

    /// The values in [`Hint::ALL`]'s order, as an array (for generated code, which writes
    /// one expression per hint in that order).
    #[must_use]
    pub const fn to_array(&self) -> [T; 4] {
        self.0
    }

    /// The table of `values` in [`Hint::ALL`]'s order, as [`to_array`](Self::to_array)
    /// writes them.
    #[must_use]
    pub const fn from_array(values: [T; 4]) -> Self {
        ByHint(values)
    }

    /// The same value for every hint, in `const` too.
    #[must_use]
    pub const fn splat(value: T) -> Self {
        ByHint([value; 4])
    }
}

impl<T> core::ops::Index<Hint> for ByHint<T> {
    type Output = T;

    fn index(&self, hint: Hint) -> &T {
        &self.0[slot(hint)]
    }
}

impl<T> core::ops::IndexMut<Hint> for ByHint<T> {
    fn index_mut(&mut self, hint: Hint) -> &mut T {
        &mut self.0[slot(hint)]
    }
}

#[cfg(test)]
mod tests {
    use super::Hint;

    #[test]
    fn each_name_is_one_hints_alone() {
        for (at, hint) in Hint::ALL.into_iter().enumerate() {
            for other in &Hint::ALL[at + 1..] {
                assert_ne!(hint.wire_name(), other.wire_name());
                assert_ne!(hint.key(), other.key());
                assert_ne!(hint.claim(), other.claim());
            }
            assert_eq!(Hint::from_key(hint.key()), Some(hint));
        }
        assert_eq!(Hint::from_key("readOnlyHint"), None);
    }

    #[test]
    fn each_hint_has_a_place_of_its_own() {
        let places = super::ByHint::from_fn(super::slot);
        let mut seen: Vec<usize> = places.iter().map(|(_, at)| *at).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen, [0, 1, 2, 3], "four places, none shared");
        for (hint, at) in places.iter() {
            assert_eq!(Hint::ALL[*at], hint);
        }
        let named = places.map(|hint, _| hint.key());
        assert_eq!(named[Hint::OpenWorld], "open_world");
    }
}
