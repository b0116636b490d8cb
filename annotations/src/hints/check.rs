//! The consistency check: [`ToolAnnotations::check`] and what it finds, a [`ConflictError`]
//! between two stated hints that cannot both be true.

use std::fmt;

use crate::hints::{Hint, ToolAnnotations};

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
    /// use mcp_annotations::descriptor::{ConflictError, Hint};
    /// use mcp_annotations::ToolAnnotations;
    ///
    /// let claimed = ToolAnnotations::new().with_read_only(true).with_destructive(true);
    /// assert_eq!(claimed.check().map_err(ConflictError::hint), Err(Hint::Destructive));
    ///
    /// let redundant = ToolAnnotations::new()
    ///     .with_read_only(true)
    ///     .with_destructive(false)
    ///     .with_idempotent(true);
    /// assert_eq!(redundant.check(), Ok(()));
    /// ```
    pub const fn check(&self) -> Result<(), ConflictError> {
        match self.stated().contradiction() {
            Some(hint) => Err(ConflictError { hint }),
            None => Ok(()),
        }
    }
}

/// Two stated hints that cannot both be true, as found by
/// [`ToolAnnotations::check`](crate::ToolAnnotations::check): `readOnlyHint: true` and a hint
/// stated at the value read-only rules out (`destructiveHint: true`, `idempotentHint: false`).
///
/// ```
/// use mcp_annotations::{descriptor::Hint, ToolAnnotations};
///
/// let err = ToolAnnotations::new()
///     .with_read_only(true)
///     .with_idempotent(false)
///     .check()
///     .unwrap_err();
/// assert_eq!(err.hint(), Hint::Idempotent);
/// assert_eq!(
///     err.to_string(),
///     "a read-only tool is idempotent, not as stated (readOnlyHint: true, idempotentHint: false)"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ConflictError {
    hint: Hint,
}

impl ConflictError {
    /// The hint stated beside `readOnlyHint: true` at the value read-only rules out.
    #[must_use]
    pub const fn hint(self) -> Hint {
        self.hint
    }
}

impl fmt::Display for ConflictError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hint = self.hint;
        write!(
            f,
            "a read-only tool is {}, not as stated (readOnlyHint: true, {}: {})",
            hint.words(hint.trusted_value()),
            hint.wire_name(),
            !hint.trusted_value()
        )
    }
}

impl std::error::Error for ConflictError {}
