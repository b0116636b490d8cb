//! Hints per variant: what `#[derive(ToolSchema)]` writes for an enum whose variants carry
//! `#[hints(...)]`, and what `#[tool(resolve_by = param)]` reads of it while compiling: the
//! join of the variants (the tool's listed hints), the check that each hint the author states
//! on `#[tool]` bounds every variant, and each value's own hints (the answer to
//! `tools/resolve`).

use crate::hints::{ByHint, Hint, ToolAnnotations};

/// An enum whose variants state their hints (`#[hints(...)]` on each, with
/// `#[derive(ToolSchema)]`), for `#[tool(resolve_by = param)]`.
#[diagnostic::on_unimplemented(
    message = "`resolve_by` names a parameter of type `{Self}`, which is not an enum whose variants state their hints",
    label = "not an enum deriving `ToolSchema` with `#[hints(...)]` on its variants",
    note = "`#[tool(resolve_by = param)]` resolves a call by the variant of `param`: derive `ToolSchema` on an enum and state each variant's hints with `#[hints(read_only)]`, `#[hints(destructive = false)]`, ...; for what the arguments' content decides, write `#[tool(resolve = function)]`"
)]
pub trait VariantHints {
    /// The narrowest hints that bound every variant's ([`join`](super::join) of them all).
    const JOIN: &'static ToolAnnotations;

    /// The hints of this value's variant.
    fn variant_hints(&self) -> ToolAnnotations;
}

#[diagnostic::on_unimplemented(
    message = "`resolve_by` names a parameter of type `{Self}`, which is not an enum whose variants state their hints",
    label = "not an enum deriving `ToolSchema` with `#[hints(...)]` on its variants"
)]
/// The check, written by `#[derive(ToolSchema)]` at each variant, that the hints a tool states
/// (`LISTED`, from [`encode_listed`]) bound that variant's; evaluated by `#[tool(resolve_by)]`
/// for its own hints, so that a variant that breaks them is a compile error at the variant.
pub trait HintsWithin<const LISTED: u8> {
    /// `()`, or a compile error at the first variant the hints do not bound.
    const CHECKED: ();
}

/// The effective values of the hints a tool states (`stated`, in [`Hint::ALL`]'s order;
/// unset: the protocol's default), as the const parameter of [`HintsWithin`]: a bit for each
/// hint ([`ByHint::to_bits`]), read as [`check_bound`](super::check_bound) reads a listing.
#[must_use]
pub const fn encode_listed(stated: [Option<bool>; 4]) -> u8 {
    ByHint::from_array(stated).effective().to_bits()
}

/// Whether the first rule of the bound that the listing `listed` (from [`encode_listed`])
/// sets and `variant` breaks is `hint`'s (as [`OutOfBoundError::hint`](super::OutOfBoundError)
/// names it).
#[must_use]
pub const fn variant_breaks(listed: u8, variant: &ToolAnnotations, hint: Hint) -> bool {
    match ByHint::from_bits(listed).unbounded(&variant.stated().effective()) {
        Some(broken) => broken.is(hint),
        None => false,
    }
}

/// The hints a tool resolved by its variants lists: the join of the variants' (`joined`),
/// with each hint the author states on `#[tool]` (`stated`, in [`Hint::ALL`]'s order) in its
/// place, and the result in that order. A hint stated at a value read-only rules out (the
/// tool changes something) makes it not read-only where the author did not say. Every hint
/// is stated.
#[must_use]
pub const fn listed_by_variants(stated: [Option<bool>; 4], joined: &ToolAnnotations) -> [bool; 4] {
    let stated = ByHint::from_array(stated);
    let joined = joined.stated().effective();
    let mut listed = joined;
    let mut denies_read_only = false;
    let mut at = 0;
    while at < Hint::ALL.len() {
        let hint = Hint::ALL[at];
        if let Some(value) = stated.get(hint) {
            listed = listed.with(hint, value);
        }
        denies_read_only |= stated.denies_read_only(hint);
        at += 1;
    }
    if stated.get(Hint::ReadOnly).is_none() && denies_read_only {
        listed = listed.with(Hint::ReadOnly, false);
    }
    // A read-only listing destroys nothing and is idempotent, stated so.
    listed.as_stated().effective().to_array()
}

#[cfg(test)]
mod tests {
    use super::{encode_listed, listed_by_variants, variant_breaks};
    use crate::hints::{Hint, ToolAnnotations};
    use crate::resolution::{OutOfBoundError, check_bound, join};

    /// Every combination of the four hints as stated (unset, false or true), in the order of
    /// `Hint::ALL`: the bound's own set, as the arrays the macros pass.
    fn every() -> Vec<[Option<bool>; 4]> {
        crate::resolution::bound::tests::every()
            .iter()
            .map(|hints| Hint::ALL.map(|hint| hints.hint(hint)))
            .collect()
    }

    fn hints(stated: [Option<bool>; 4]) -> ToolAnnotations {
        let mut hints = ToolAnnotations::new();
        for (hint, value) in Hint::ALL.into_iter().zip(stated) {
            hints.set_hint(hint, value);
        }
        hints
    }

    /// The compile-time check agrees with the bound the server checks at run time, rule for
    /// rule, over every stated listing and every variant.
    #[test]
    fn the_variant_check_is_the_bound() {
        for listed in every() {
            for variant in every() {
                let variant = hints(variant);
                let expected = check_bound(&hints(listed), &variant).err();
                for hint in Hint::ALL {
                    assert_eq!(
                        variant_breaks(encode_listed(listed), &variant, hint),
                        expected.map(OutOfBoundError::hint) == Some(hint),
                        "{listed:?} {variant:?}"
                    );
                }
            }
        }
    }

    /// What a tool resolved by its variants lists bounds every variant, whatever the author
    /// states beside them, as long as each stated hint bounds every variant (the compile-time
    /// check); and where the author states nothing, it is the join.
    #[test]
    fn the_listing_bounds_every_variant() {
        let all = every();
        // Sets of two variants and what the author states.
        for (a, b) in all.iter().zip(all.iter().rev()).step_by(3) {
            let (a, b) = (hints(*a), hints(*b));
            let joined = join(a.clone(), b.clone());
            for stated in &all {
                let code = encode_listed(*stated);
                let breaks = |variant| {
                    Hint::ALL
                        .into_iter()
                        .any(|h| variant_breaks(code, variant, h))
                };
                if breaks(&a) || breaks(&b) {
                    continue;
                }
                let listed = listed_by_variants(*stated, &joined);
                let listed = hints(listed.map(Some));
                for variant in [&a, &b] {
                    assert_eq!(
                        check_bound(&listed, variant),
                        Ok(()),
                        "{stated:?} {listed:?} {variant:?}"
                    );
                }
                for (hint, value) in Hint::ALL.into_iter().zip(stated) {
                    if let Some(value) = value
                        && !(listed.read_only() && hint.implied_by_read_only())
                    {
                        assert_eq!(listed.effective(hint), *value, "{stated:?} {listed:?}");
                    }
                }
            }
            let none = hints(listed_by_variants([None; 4], &joined).map(Some));
            for hint in Hint::ALL {
                assert_eq!(none.effective(hint), joined.effective(hint));
            }
        }
    }
}
