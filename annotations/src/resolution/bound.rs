//! The conservative bound between a tool's listed hints and each of its resolutions, and the
//! narrowest listed hints that bound a set of resolutions.

use std::fmt;

use crate::hints::{Hint, ToolAnnotations};

/// Which rule of the conservative bound a resolution breaks, from [`check_bound`]: the claim
/// the listing makes and the resolution does not.
///
/// ```
/// use mcp_annotations::ToolAnnotations;
/// use mcp_annotations::descriptor::Hint;
/// use mcp_annotations::resolution::check_bound;
///
/// let closed = ToolAnnotations::new().with_open_world(false);
/// let err = check_bound(&closed, &ToolAnnotations::new()).unwrap_err();
/// assert_eq!(err.hint(), Hint::OpenWorld);
/// assert_eq!(
///     err.to_string(),
///     "the listing says closed-world (openWorldHint: false), so every resolution must be \
///      closed-world too, and this one is not"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OutOfBoundError {
    hint: Hint,
}

impl OutOfBoundError {
    /// The hint whose rule is broken: the listing claims it, the resolution does not.
    #[must_use]
    pub const fn hint(self) -> Hint {
        self.hint
    }
}

impl fmt::Display for OutOfBoundError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hint = self.hint;
        let claim = hint.words(hint.trusted_value());
        write!(
            f,
            "the listing says {claim} ({}: {}), so every resolution must be {claim} too{}, and \
             this one is not",
            hint.wire_name(),
            hint.trusted_value(),
            if hint.implied_by_read_only() {
                " (or read-only)"
            } else {
                ""
            }
        )
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
/// use mcp_annotations::descriptor::Hint;
/// use mcp_annotations::resolution::{OutOfBoundError, check_bound};
///
/// let broken = |listed, resolved| check_bound(listed, resolved).map_err(OutOfBoundError::hint);
/// // Listed with no hints at all: every resolution keeps within the defaults.
/// let unset = ToolAnnotations::new();
/// assert!(check_bound(&unset, &ToolAnnotations::new().with_read_only(true)).is_ok());
///
/// let appends = ToolAnnotations::new().with_destructive(false).with_open_world(false);
/// let deletes = ToolAnnotations::new().with_destructive(true).with_open_world(false);
/// assert_eq!(broken(&appends, &deletes), Err(Hint::Destructive));
/// // `idempotentHint` unset on a tool listed idempotent: the default (false) breaks it.
/// let idempotent = appends.clone().with_idempotent(true);
/// assert_eq!(broken(&idempotent, &appends), Err(Hint::Idempotent));
/// ```
///
/// # Errors
///
/// The first rule `resolved` breaks.
pub const fn check_bound(
    listed: &ToolAnnotations,
    resolved: &ToolAnnotations,
) -> Result<(), OutOfBoundError> {
    let resolved = resolved.stated().effective();
    match listed.stated().effective().unbounded(&resolved) {
        Some(hint) => Err(OutOfBoundError { hint }),
        None => Ok(()),
    }
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
    let joined = a.stated().effective().join(&b.stated().effective());
    // `const fn` cannot run a destructor: the two are forgotten (a borrowed title frees
    // nothing).
    core::mem::forget(a);
    core::mem::forget(b);
    ToolAnnotations::from_values(joined)
}

#[cfg(test)]
pub(super) mod tests {
    use super::{check_bound, join};
    use crate::hints::{Hint, ToolAnnotations};

    /// Every combination of the four hints as stated: unset, false or true.
    pub(in crate::resolution) fn every() -> Vec<ToolAnnotations> {
        let mut all = vec![ToolAnnotations::new()];
        for hint in Hint::ALL {
            all = all
                .into_iter()
                .flat_map(|stated| {
                    [None, Some(false), Some(true)].map(|value| {
                        let mut hints = stated.clone();
                        hints.set_hint(hint, value);
                        hints
                    })
                })
                .collect();
        }
        all
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
