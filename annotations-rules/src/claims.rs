//! How the four hints bear on each other, written once over [`Hint::ALL`] so that no package
//! spells a rule out hint by hint: what a host reads from the hints as stated (the protocol's
//! defaults, and what `readOnlyHint: true` settles), which stated hint contradicts a read-only
//! tool, the conservative bound between a tool's listed hints and each of its resolutions
//! (the tool-resolution draft's four rules), and the narrowest listing that bounds two.
//!
//! Every rule reads a hint by its [claim](Hint::claim): the value a host trusts
//! ([`Hint::trusted_value`]). The draft's four rules are then one: each claim the listing makes,
//! every resolution makes too.
//!
//! ```
//! use mcp_annotations_rules::{ByHint, Hint};
//!
//! // `readOnlyHint: true` and nothing else, as a host reads it.
//! let stated = ByHint::splat(None).with(Hint::ReadOnly, Some(true));
//! let read = stated.effective();
//! assert!(Hint::ALL.into_iter().all(|hint| read.claims(hint) != (hint == Hint::OpenWorld)));
//! // A tool listed as only adding may resolve read-only, never destructive.
//! let adds = ByHint::splat(None).with(Hint::Destructive, Some(false)).effective();
//! assert_eq!(adds.unbounded(&read), None);
//! assert_eq!(adds.unbounded(&ByHint::splat(None).effective()), Some(Hint::Destructive));
//! ```

use crate::{ByHint, Hint};

impl ByHint<Option<bool>> {
    /// The hints as a host acts on them: each stated value, the protocol's
    /// [default](Hint::default_value) where unset, and for a read-only tool the value
    /// read-only settles ([`Hint::implied_by_read_only`]: the trusted one) whatever was stated.
    #[must_use]
    pub const fn effective(&self) -> ByHint<bool> {
        let read_only = matches!(self.get(Hint::ReadOnly), Some(true));
        let mut effective = ByHint::splat(false);
        let mut at = 0;
        while at < Hint::ALL.len() {
            let hint = Hint::ALL[at];
            let value = match self.get(hint) {
                _ if read_only && hint.implied_by_read_only() => hint.trusted_value(),
                Some(value) => value,
                None => hint.default_value(),
            };
            effective = effective.with(hint, value);
            at += 1;
        }
        effective
    }

    /// The first stated hint that contradicts `readOnlyHint: true` (a read-only tool stated
    /// destructive, or not idempotent): a statement hosts ignore beside read-only, and that
    /// says the opposite of it. `None` when the tool is not stated read-only, or nothing
    /// contradicts it.
    ///
    /// ```
    /// use mcp_annotations_rules::{ByHint, Hint};
    ///
    /// let stated = ByHint::splat(Some(false)).with(Hint::ReadOnly, Some(true));
    /// assert_eq!(stated.contradiction(), Some(Hint::Idempotent));
    /// let stated = stated.with(Hint::Idempotent, None);
    /// assert_eq!(stated.contradiction(), None);
    /// let stated = ByHint::splat(Some(true));
    /// assert_eq!(stated.contradiction(), Some(Hint::Destructive));
    /// ```
    #[must_use]
    pub const fn contradiction(&self) -> Option<Hint> {
        if !matches!(self.get(Hint::ReadOnly), Some(true)) {
            return None;
        }
        let mut at = 0;
        while at < Hint::ALL.len() {
            if self.denies_read_only(Hint::ALL[at]) {
                return Some(Hint::ALL[at]);
            }
            at += 1;
        }
        None
    }

    /// Whether `hint` is stated at the value read-only rules out (`destructiveHint: true`,
    /// `idempotentHint: false`): a statement that the tool changes something.
    #[must_use]
    pub const fn denies_read_only(&self, hint: Hint) -> bool {
        match self.get(hint) {
            Some(value) => hint.implied_by_read_only() && value != hint.trusted_value(),
            None => false,
        }
    }
}

impl ByHint<bool> {
    /// Whether these hints (a host's [effective](ByHint::effective) reading) make `hint`'s
    /// claim: its value is the [trusted](Hint::trusted_value) one.
    #[must_use]
    pub const fn claims(&self, hint: Hint) -> bool {
        self.get(hint) == hint.trusted_value()
    }

    /// The first hint, in [`Hint::ALL`]'s order, whose claim these listed hints make and
    /// `resolved` does not: the tool-resolution draft's conservative bound, whose four rules
    /// (a listing read-only, non-destructive, idempotent or closed-world binds every
    /// resolution to the same, a read-only resolution counting as non-destructive and
    /// idempotent) are this one over effective hints. `None` when `resolved` keeps within.
    #[must_use]
    pub const fn unbounded(&self, resolved: &ByHint<bool>) -> Option<Hint> {
        let mut at = 0;
        while at < Hint::ALL.len() {
            let hint = Hint::ALL[at];
            if self.claims(hint) && !resolved.claims(hint) {
                return Some(hint);
            }
            at += 1;
        }
        None
    }

    /// The narrowest hints that bound both `self` and `other` ([`unbounded`](Self::unbounded)
    /// is `None` for each): each claim both make, and no other.
    #[must_use]
    pub const fn join(&self, other: &ByHint<bool>) -> ByHint<bool> {
        let mut joined = *self;
        let mut at = 0;
        while at < Hint::ALL.len() {
            let hint = Hint::ALL[at];
            let both = self.claims(hint) && other.claims(hint);
            joined = joined.with(hint, both == hint.trusted_value());
            at += 1;
        }
        joined
    }

    /// Each hint stated at its value here: what a host then reads back with
    /// [`effective`](ByHint::effective) is these, except what read-only settles.
    #[must_use]
    pub const fn as_stated(&self) -> ByHint<Option<bool>> {
        let mut stated = ByHint::splat(None);
        let mut at = 0;
        while at < Hint::ALL.len() {
            let hint = Hint::ALL[at];
            stated = stated.with(hint, Some(self.get(hint)));
            at += 1;
        }
        stated
    }

    /// The hints as one byte, a bit for each in [`Hint::ALL`]'s order, for where only an
    /// integer can carry them (a const generic parameter); [`from_bits`](Self::from_bits)
    /// reads it back.
    #[must_use]
    pub const fn to_bits(&self) -> u8 {
        let mut bits = 0;
        let mut at = 0;
        while at < Hint::ALL.len() {
            if self.get(Hint::ALL[at]) {
                bits |= 1 << at;
            }
            at += 1;
        }
        bits
    }

    /// The hints [`to_bits`](Self::to_bits) wrote.
    #[must_use]
    pub const fn from_bits(bits: u8) -> Self {
        let mut hints = ByHint::splat(false);
        let mut at = 0;
        while at < Hint::ALL.len() {
            hints = hints.with(Hint::ALL[at], bits & (1 << at) != 0);
            at += 1;
        }
        hints
    }
}

#[cfg(test)]
mod tests {
    use crate::{ByHint, Hint};

    /// Every table of stated hints: unset, false or true for each.
    fn every() -> Vec<ByHint<Option<bool>>> {
        let mut all = vec![ByHint::splat(None)];
        for hint in Hint::ALL {
            all = all
                .into_iter()
                .flat_map(|stated| [None, Some(false), Some(true)].map(|v| stated.with(hint, v)))
                .collect();
        }
        all
    }

    #[test]
    fn the_join_bounds_both_and_the_bits_read_back() {
        let all: Vec<ByHint<bool>> = every().iter().map(ByHint::effective).collect();
        assert_eq!(all.len(), 81);
        for a in &all {
            assert_eq!(ByHint::from_bits(a.to_bits()), *a);
            for b in &all {
                let joined = a.join(b);
                assert_eq!(joined.unbounded(a), None);
                assert_eq!(joined.unbounded(b), None);
            }
        }
    }

    #[test]
    fn only_what_read_only_settles_contradicts_it() {
        for stated in every() {
            if let Some(hint) = stated.contradiction() {
                assert!(hint.implied_by_read_only());
                assert_eq!(stated.get(hint), Some(!hint.trusted_value()));
                // A host reads the tool as read-only all the same.
                assert!(stated.effective().claims(hint));
            }
        }
    }
}
