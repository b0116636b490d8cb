use std::fmt;

/// Two stated hints that cannot both be true, as found by
/// [`ToolAnnotations::check`](crate::ToolAnnotations::check).
///
/// ```
/// use annotations::{Conflict, ToolAnnotations};
///
/// let err = ToolAnnotations::new()
///     .with_read_only(true)
///     .with_idempotent(false)
///     .check()
///     .unwrap_err();
/// assert_eq!(err, Conflict::ReadOnlyAndNotIdempotent);
/// assert_eq!(
///     err.to_string(),
///     "a read-only tool cannot be non-idempotent (readOnlyHint: true, idempotentHint: false)"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Conflict {
    /// `readOnlyHint: true` with `destructiveHint: true`: a tool that changes nothing cannot
    /// destroy anything.
    ReadOnlyAndDestructive,
    /// `readOnlyHint: true` with `idempotentHint: false`: a tool that changes nothing has no
    /// further effect when called again.
    ReadOnlyAndNotIdempotent,
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::ReadOnlyAndDestructive => {
                "a read-only tool cannot be destructive (readOnlyHint: true, destructiveHint: true)"
            }
            Self::ReadOnlyAndNotIdempotent => {
                "a read-only tool cannot be non-idempotent (readOnlyHint: true, idempotentHint: false)"
            }
        })
    }
}

impl std::error::Error for Conflict {}
