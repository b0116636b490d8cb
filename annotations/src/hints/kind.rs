//! The four hints on [`ToolAnnotations`]: each one read, set and taken at its effective value
//! by [`Hint`] (the rules crate's one list). Every writer of the hints (the wire form, the
//! listing's JSON, the Markdown table, the findings, the diff) walks [`Hint::ALL`], so a fifth
//! hint is a row there, its field here with builder and accessor, and its semantic rules.

use crate::hints::ToolAnnotations;

/// One of the protocol's tool hints: [`mcp_annotations_rules::Hint`], the one list every
/// package of this project walks, re-exported here.
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
pub use mcp_annotations_rules::Hint;

/// A value for each hint, read and written by [`Hint`]: [`mcp_annotations_rules::ByHint`],
/// re-exported here.
pub use mcp_annotations_rules::ByHint;

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

    /// Whether the tool claims `hint`: its [effective](Self::effective) value is the one a host
    /// trusts ([`Hint::trusted_value`]: read-only, non-destructive, idempotent, closed-world),
    /// the promise its behaviour can break.
    ///
    /// ```
    /// use mcp_annotations::ToolAnnotations;
    /// use mcp_annotations::descriptor::Hint;
    ///
    /// let lookup = ToolAnnotations::new().with_read_only(true);
    /// // Read-only implies non-destructive and idempotent; the world stays open unless said.
    /// assert!(lookup.claims(Hint::Destructive) && lookup.claims(Hint::Idempotent));
    /// assert!(!lookup.claims(Hint::OpenWorld));
    /// ```
    #[must_use]
    pub const fn claims(&self, hint: Hint) -> bool {
        self.effective(hint) == hint.trusted_value()
    }
}
