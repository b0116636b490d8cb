//! The conservative bound between a tool's listed hints and each of its resolutions, and the
//! narrowest listed hints that bound a set of resolutions.

use std::fmt;

use crate::hints::{Hint, ToolAnnotations};

/// Which rule of the conservative bound a resolution breaks, from [`check_bound`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OutOfBoundError {
    /// The listing says read-only, the resolution does not.
    ReadOnly,
    /// The listing says neither read-only nor destructive, and the resolution, not read-only,
    /// says destructive.
    Destructive,
    /// The listing says idempotent, and the resolution, not read-only, says not idempotent.
    Idempotent,
    /// The listing says closed-world (`openWorldHint: false`), the resolution open-world.
    OpenWorld,
}

impl OutOfBoundError {
    /// The hint whose rule is broken.
    #[must_use]
    pub const fn hint(self) -> Hint {
        match self {
            OutOfBoundError::ReadOnly => Hint::ReadOnly,
            OutOfBoundError::Destructive => Hint::Destructive,
            OutOfBoundError::Idempotent => Hint::Idempotent,
            OutOfBoundError::OpenWorld => Hint::OpenWorld,
        }
    }
}

impl fmt::Display for OutOfBoundError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OutOfBoundError::ReadOnly => {
                "the listing says read-only (readOnlyHint: true), so every resolution must be \
                 read-only, and this one is not"
            }
            OutOfBoundError::Destructive => {
                "the listing says not destructive (destructiveHint: false), so no resolution may \
                 be destructive, and this one is"
            }
            OutOfBoundError::Idempotent => {
                "the listing says idempotent (idempotentHint: true), so every resolution that \
                 is not read-only must be idempotent, and this one is not"
            }
            OutOfBoundError::OpenWorld => {
                "the listing says closed-world (openWorldHint: false), so no resolution may be \
                 open-world, and this one is"
            }
        })
    }
}

impl std::error::Error for OutOfBoundError {}

/// Checks that `resolved` keeps within `listed`, both read after the protocol's defaults (an
/// unset hint is its pessimistic value, and read-only implies not destructive and
/// idempotent). The draft's four rules, in this order:
///
/// - listed read-only: the resolution is read-only;
/// - listed neither read-only nor destructive: a resolution that is not read-only is not
///   destructive;
/// - listed idempotent: a resolution that is not read-only is idempotent;
/// - listed closed-world: the resolution is closed-world.
///
/// A resolution may otherwise narrow freely: a tool listed destructive may resolve read-only.
///
/// ```
/// use mcp_annotations::ToolAnnotations;
/// use mcp_annotations::resolution::{OutOfBoundError, check_bound};
///
/// // Listed with no hints at all: every resolution keeps within the defaults.
/// let unset = ToolAnnotations::new();
/// assert!(check_bound(&unset, &ToolAnnotations::new().with_read_only(true)).is_ok());
///
/// let appends = ToolAnnotations::new().with_destructive(false).with_open_world(false);
/// let deletes = ToolAnnotations::new().with_destructive(true).with_open_world(false);
/// assert_eq!(check_bound(&appends, &deletes), Err(OutOfBoundError::Destructive));
/// // `idempotentHint` unset on a tool listed idempotent: the default (false) breaks it.
/// let idempotent = appends.clone().with_idempotent(true);
/// assert_eq!(check_bound(&idempotent, &appends), Err(OutOfBoundError::Idempotent));
/// ```
///
/// # Errors
///
/// The first rule `resolved` breaks.
pub const fn check_bound(
    listed: &ToolAnnotations,
    resolved: &ToolAnnotations,
) -> Result<(), OutOfBoundError> {
    if listed.read_only() && !resolved.read_only() {
        return Err(OutOfBoundError::ReadOnly);
    }
    if !listed.read_only()
        && !listed.destructive()
        && !resolved.read_only()
        && resolved.destructive()
    {
        return Err(OutOfBoundError::Destructive);
    }
    if listed.idempotent() && !resolved.read_only() && !resolved.idempotent() {
        return Err(OutOfBoundError::Idempotent);
    }
    if !listed.open_world() && resolved.open_world() {
        return Err(OutOfBoundError::OpenWorld);
    }
    Ok(())
}

/// The narrowest hints that bound both `a` and `b` ([`check_bound`] holds for each): what a
/// tool whose calls resolve to either must list. Read-only if both are; destructive if either
/// is, among those that are not read-only; idempotent if every one that is not read-only is;
/// open-world if either is. Every hint is stated (no default is left to the reader); the
/// title, which no resolution has, is left unset.
///
/// Folding `join` over every resolution a tool can have gives its listed hints; a hint written
/// narrower than that join is one some resolution breaks.
///
/// ```
/// use mcp_annotations::ToolAnnotations;
/// use mcp_annotations::resolution::{check_bound, join};
///
/// let read = ToolAnnotations::new().with_read_only(true).with_open_world(false);
/// let append = ToolAnnotations::new().with_destructive(false).with_open_world(false);
/// let listed = join(read.clone(), append.clone());
/// assert!(!listed.read_only() && !listed.destructive() && !listed.idempotent());
/// assert!(check_bound(&listed, &read).is_ok() && check_bound(&listed, &append).is_ok());
/// // Both read-only: the join is read-only too.
/// assert!(join(read.clone(), read).read_only());
///
/// // In `const`, from the hints of each case:
/// const LISTED: ToolAnnotations = join(
///     ToolAnnotations::new().with_read_only(true),
///     ToolAnnotations::new().with_destructive(true),
/// );
/// assert!(LISTED.destructive() && !LISTED.read_only());
/// ```
///
/// (By value, so that it runs in `const`: a reference to a constant's temporary would need its
/// destructor run there. A title either side has, from `with_title`, is not freed: as for
/// `with_title`, a borrowed one costs nothing.)
#[must_use]
pub const fn join(a: ToolAnnotations, b: ToolAnnotations) -> ToolAnnotations {
    let read_only = a.read_only() && b.read_only();
    let destructive = (!a.read_only() && a.destructive()) || (!b.read_only() && b.destructive());
    let idempotent = (a.read_only() || a.idempotent()) && (b.read_only() || b.idempotent());
    let open_world = a.open_world() || b.open_world();
    // `const fn` cannot run a destructor: the two are forgotten (a borrowed title frees
    // nothing).
    core::mem::forget(a);
    core::mem::forget(b);
    ToolAnnotations::new()
        .with_read_only(read_only)
        .with_destructive(destructive && !read_only)
        .with_idempotent(idempotent)
        .with_open_world(open_world)
}

#[cfg(test)]
pub(super) mod tests {
    use super::{check_bound, join};
    use crate::hints::{Hint, ToolAnnotations};

    /// Every combination of the four hints as stated: unset, false or true.
    pub(in crate::resolution) fn every() -> Vec<ToolAnnotations> {
        let states = [None, Some(false), Some(true)];
        let mut all = Vec::new();
        for r in states {
            for d in states {
                for i in states {
                    for o in states {
                        let mut hints = ToolAnnotations::new();
                        hints.set_hint(Hint::ReadOnly, r);
                        hints.set_hint(Hint::Destructive, d);
                        hints.set_hint(Hint::Idempotent, i);
                        hints.set_hint(Hint::OpenWorld, o);
                        all.push(hints);
                    }
                }
            }
        }
        all
    }

    /// The draft's four rules, written out a second time as implications over the hints as
    /// stated, with the protocol's defaults spelled out here (not read through the accessors
    /// `check_bound` uses), for every pair of listed and resolved hints.
    #[test]
    // Each clause is one of the draft's rules as it reads, not the shortest form.
    #[allow(clippy::nonminimal_bool)]
    fn the_bound_is_the_drafts_four_implications() {
        let all = every();
        let mut kept = 0;
        for listed in &all {
            for resolved in &all {
                // (read-only, destructive, idempotent, open-world) after the defaults: unset
                // read-only is false, destructive true, idempotent false, open-world true; a
                // read-only tool is neither destructive nor anything but idempotent.
                let effective = |h: &ToolAnnotations| {
                    let read_only = h.read_only_hint == Some(true);
                    (
                        read_only,
                        !read_only && h.destructive_hint != Some(false),
                        read_only || h.idempotent_hint == Some(true),
                        h.open_world_hint != Some(false),
                    )
                };
                let (lr, ld, li, lo) = effective(listed);
                let (rr, rd, ri, ro) = effective(resolved);
                let holds =
                    (!lr || rr) && (lr || ld || rr || !rd) && (!li || rr || ri) && (lo || !ro);
                let (l, r) = (listed, resolved);
                assert_eq!(check_bound(l, r).is_ok(), holds, "{l:?} / {r:?}");
                kept += usize::from(holds);
            }
        }
        // Some pairs keep within, some do not: the check is not constant.
        assert!(kept > 0 && kept < all.len() * all.len());
    }

    /// The join bounds both its sides, and is the narrowest that does: any hints that bound
    /// both also bound the join.
    #[test]
    fn the_join_is_the_narrowest_bound() {
        let all = every();
        for a in &all {
            for b in &all {
                let joined = join(a.clone(), b.clone());
                assert!(check_bound(&joined, a).is_ok(), "{a:?} {b:?}");
                assert!(check_bound(&joined, b).is_ok(), "{a:?} {b:?}");
                for listed in &all {
                    if check_bound(listed, a).is_ok() && check_bound(listed, b).is_ok() {
                        // Each hint the bound narrows to its trusted value, the join does too.
                        for hint in Hint::ALL {
                            if listed.claims(hint) {
                                assert_eq!(
                                    joined.effective(hint),
                                    hint.trusted_value(),
                                    "{hint:?}: {listed:?} bounds {a:?} and {b:?}, the join {joined:?}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}
