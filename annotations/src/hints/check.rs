//! The consistency check: [`ToolAnnotations::check`] and what it finds, a [`ConflictError`]
//! between two stated hints that cannot both be true.

use std::fmt;

use crate::hints::ToolAnnotations;

impl ToolAnnotations {
    /// Checks that the stated hints can all be true at once.
    ///
    /// Two statements contradict a read-only tool: `destructiveHint: true` (a tool that changes
    /// nothing cannot destroy anything) and `idempotentHint: false` (a tool that changes
    /// nothing has no further effect when repeated). Redundant but consistent statements
    /// (read-only with `destructiveHint: false` or `idempotentHint: true`) pass.
    ///
    /// `const`, so a contradiction in a constant fails the build. It is an author's lint, not
    /// a host's decision: the protocol says `destructiveHint` and `idempotentHint` mean
    /// nothing beside `readOnlyHint: true`, so what it reports is a stated hint that hosts
    /// ignore, and that says the opposite of what the tool does: an author should remove it. A host reads such a tool as read-only (see
    /// [`read_only`](Self::read_only)); an audit reports the finding as a warning.
    ///
    /// ```
    /// use mcp_annotations::{descriptor::ConflictError, ToolAnnotations};
    ///
    /// let claimed = ToolAnnotations::new().with_read_only(true).with_destructive(true);
    /// assert_eq!(claimed.check(), Err(ConflictError::ReadOnlyAndDestructive));
    ///
    /// let redundant = ToolAnnotations::new()
    ///     .with_read_only(true)
    ///     .with_destructive(false)
    ///     .with_idempotent(true);
    /// assert_eq!(redundant.check(), Ok(()));
    /// ```
    pub const fn check(&self) -> Result<(), ConflictError> {
        if let Some(true) = self.read_only_hint {
            if let Some(true) = self.destructive_hint {
                return Err(ConflictError::ReadOnlyAndDestructive);
            }
            if let Some(false) = self.idempotent_hint {
                return Err(ConflictError::ReadOnlyAndNotIdempotent);
            }
        }
        Ok(())
    }
}

/// Two stated hints that cannot both be true, as found by
/// [`ToolAnnotations::check`](crate::ToolAnnotations::check).
///
/// ```
/// use mcp_annotations::{descriptor::ConflictError, ToolAnnotations};
///
/// let err = ToolAnnotations::new()
///     .with_read_only(true)
///     .with_idempotent(false)
///     .check()
///     .unwrap_err();
/// assert_eq!(err, ConflictError::ReadOnlyAndNotIdempotent);
/// assert_eq!(
///     err.to_string(),
///     "a read-only tool cannot be non-idempotent (readOnlyHint: true, idempotentHint: false)"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ConflictError {
    /// `readOnlyHint: true` with `destructiveHint: true`: a tool that changes nothing cannot
    /// destroy anything.
    ReadOnlyAndDestructive,
    /// `readOnlyHint: true` with `idempotentHint: false`: a tool that changes nothing has no
    /// further effect when called again.
    ReadOnlyAndNotIdempotent,
}

impl fmt::Display for ConflictError {
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

impl std::error::Error for ConflictError {}
