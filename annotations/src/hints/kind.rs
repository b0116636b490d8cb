//! The four hints as one list: each one's wire name, protocol default and words. Every writer
//! of the hints (the wire form, the listing's JSON, the Markdown table, the findings, the diff)
//! walks [`Hint::ALL`], so a fifth hint is a row here, its field with builder and accessor, and
//! its semantic rules.

use crate::hints::ToolAnnotations;

/// One of the protocol's tool hints.
///
/// ```
/// use mcp_annotations::ToolAnnotations;
/// use mcp_annotations::descriptor::Hint;
///
/// let hints = ToolAnnotations::new().with_read_only(true);
/// let stated: Vec<&str> = Hint::ALL
///     .into_iter()
///     .filter(|hint| hints.hint(*hint).is_some())
///     .map(Hint::wire_name)
///     .collect();
/// assert_eq!(stated, ["readOnlyHint"]);
/// // What a host acts on: the defaults, and what read-only implies.
/// assert!(!hints.effective(Hint::Destructive) && hints.effective(Hint::Idempotent));
/// assert_eq!(Hint::OpenWorld.words(Hint::OpenWorld.default_value()), "open-world");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
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
    /// Every hint, in the protocol's order.
    pub const ALL: [Hint; 4] = [
        Hint::ReadOnly,
        Hint::Destructive,
        Hint::Idempotent,
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

    /// The value a host assumes when the hint is unset: the pessimistic one.
    #[must_use]
    pub const fn default_value(self) -> bool {
        match self {
            Hint::ReadOnly | Hint::Idempotent => false,
            Hint::Destructive | Hint::OpenWorld => true,
        }
    }

    /// The value a host asks the user less for (`readOnlyHint: true`, `destructiveHint:
    /// false`, ...): a change to it is a change of trust.
    #[must_use]
    pub const fn trusted_value(self) -> bool {
        !self.default_value()
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

impl ToolAnnotations {
    /// The hint as stated (`None`: unset).
    #[must_use]
    pub const fn hint(&self, hint: Hint) -> Option<bool> {
        match hint {
            Hint::ReadOnly => self.read_only_hint,
            Hint::Destructive => self.destructive_hint,
            Hint::Idempotent => self.idempotent_hint,
            Hint::OpenWorld => self.open_world_hint,
        }
    }

    /// Sets the hint as stated (`None`: unset), for the readers that walk [`Hint::ALL`].
    pub(crate) const fn set_hint(&mut self, hint: Hint, value: Option<bool>) {
        match hint {
            Hint::ReadOnly => self.read_only_hint = value,
            Hint::Destructive => self.destructive_hint = value,
            Hint::Idempotent => self.idempotent_hint = value,
            Hint::OpenWorld => self.open_world_hint = value,
        }
    }

    /// The hint as a host acts on it: the stated value, the protocol's default when unset, and
    /// what `readOnlyHint: true` implies (the same as [`read_only`](Self::read_only) and the
    /// other accessors).
    #[must_use]
    pub const fn effective(&self, hint: Hint) -> bool {
        match hint {
            Hint::ReadOnly => self.read_only(),
            Hint::Destructive => self.destructive(),
            Hint::Idempotent => self.idempotent(),
            Hint::OpenWorld => self.open_world(),
        }
    }
}
