//! Hints per variant: what `#[derive(ToolSchema)]` writes for an enum whose variants carry
//! `#[hints(...)]`, and what `#[tool(resolve_by = param)]` reads of it while compiling: the
//! join of the variants (the tool's listed hints), the check that each hint the author states
//! on `#[tool]` bounds every variant, and each value's own hints (the answer to
//! `tools/resolve`).

use crate::hints::ToolAnnotations;

/// An enum whose variants state their hints (`#[hints(...)]` on each, with
/// `#[derive(ToolSchema)]`), for `#[tool(resolve_by = param)]`.
#[diagnostic::on_unimplemented(
    message = "`resolve_by` names a parameter of type `{Self}`, which is not an enum whose variants state their hints",
    label = "not an enum deriving `ToolSchema` with `#[hints(...)]` on its variants",
    note = "`#[tool(resolve_by = param)]` resolves a call by the variant of `param`: derive `ToolSchema` on an enum and state each variant's hints with `#[hints(read_only)]`, `#[hints(destructive, idempotent)]`, ...; for what the arguments' content decides, write `#[tool(resolve = function)]`"
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

/// The effective values of the hints a tool states (unset: the protocol's default), as the
/// const parameter of [`HintsWithin`]: bit 0 read-only, 1 destructive, 2 idempotent, 3
/// open-world, each as [`check_bound`](super::check_bound) reads a listing.
#[must_use]
pub const fn encode_listed(stated: [Option<bool>; 4]) -> u8 {
    let read_only = matches!(stated[0], Some(true));
    let destructive = !read_only && !matches!(stated[1], Some(false));
    let idempotent = read_only || matches!(stated[2], Some(true));
    let open_world = !matches!(stated[3], Some(false));
    read_only as u8 | (destructive as u8) << 1 | (idempotent as u8) << 2 | (open_world as u8) << 3
}

/// Which rule of the bound the listing `listed` (from [`encode_listed`]) sets and `variant`
/// breaks: 0 none, 1 read-only, 2 destructive, 3 idempotent, 4 open-world (the order of
/// [`OutOfBoundError`](super::OutOfBoundError)).
#[must_use]
pub const fn variant_breaks(listed: u8, variant: &ToolAnnotations) -> u8 {
    let (read_only, destructive) = (listed & 1 != 0, listed & 2 != 0);
    let (idempotent, open_world) = (listed & 4 != 0, listed & 8 != 0);
    if read_only && !variant.read_only() {
        1
    } else if !read_only && !destructive && !variant.read_only() && variant.destructive() {
        2
    } else if idempotent && !variant.read_only() && !variant.idempotent() {
        3
    } else if !open_world && variant.open_world() {
        4
    } else {
        0
    }
}

/// The hints a tool resolved by its variants lists: the join of the variants' (`joined`),
/// with each hint the author states on `#[tool]` (`stated`, in the order of
/// `Hint::ALL`) in its place. A stated hint that a tool changes something
/// (`destructive`, `idempotent = false`) makes it not read-only where the author did not say.
/// Every hint is stated.
#[must_use]
pub const fn listed_by_variants(stated: [Option<bool>; 4], joined: &ToolAnnotations) -> [bool; 4] {
    let mut listed = [
        joined.read_only(),
        joined.destructive(),
        joined.idempotent(),
        joined.open_world(),
    ];
    let mut i = 0;
    while i < 4 {
        if let Some(value) = stated[i] {
            listed[i] = value;
        }
        i += 1;
    }
    if stated[0].is_none() && (matches!(stated[1], Some(true)) || matches!(stated[2], Some(false)))
    {
        listed[0] = false;
    }
    // A read-only listing destroys nothing and is idempotent, stated so.
    if listed[0] {
        listed[1] = false;
        listed[2] = true;
    }
    listed
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
                let expected = match check_bound(&hints(listed), &variant) {
                    Ok(()) => 0,
                    Err(OutOfBoundError::ReadOnly) => 1,
                    Err(OutOfBoundError::Destructive) => 2,
                    Err(OutOfBoundError::Idempotent) => 3,
                    Err(OutOfBoundError::OpenWorld) => 4,
                };
                assert_eq!(
                    variant_breaks(encode_listed(listed), &variant),
                    expected,
                    "{listed:?} {variant:?}"
                );
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
                if variant_breaks(code, &a) != 0 || variant_breaks(code, &b) != 0 {
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
