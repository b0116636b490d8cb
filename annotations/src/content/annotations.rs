//! What a block says of itself: who it is for ([`Role`]), how important it is
//! ([`Priority`]) and when it last changed ([`ContentAnnotations`]).

use serde_json::Value;

use crate::protocol::error::ContentError;
use crate::protocol::read::{as_object, mismatch, optional_string, present};

/// How important a block is, from 0 (least; entirely optional) to 1 (most; effectively
/// required), checked where it is made.
///
/// ```
/// use mcp_annotations::content::Priority;
///
/// const HIGH: Priority = Priority::of(0.9);
/// assert_eq!(HIGH.get(), 0.9);
/// assert!(Priority::new(1.5).is_err());
/// assert!(Priority::new(f64::NAN).is_err());
/// ```
///
/// ```compile_fail
/// const TOO_HIGH: mcp_annotations::content::Priority = mcp_annotations::content::Priority::of(1.5);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct Priority(f64);

impl Priority {
    /// The least important (0).
    pub const LOWEST: Priority = Priority(0.0);
    /// The most important (1).
    pub const HIGHEST: Priority = Priority(1.0);

    /// `value` as a priority, if it is from 0 to 1.
    ///
    /// # Errors
    ///
    /// A [`ContentError`] for `priority` when it is outside 0 to 1 or not a number.
    pub fn new(value: f64) -> Result<Priority, ContentError> {
        if (0.0..=1.0).contains(&value) {
            Ok(Priority(value))
        } else {
            Err(ContentError::new(
                "priority",
                format!("{value} is outside 0 to 1"),
            ))
        }
    }

    /// A priority from a literal.
    ///
    /// # Panics
    ///
    /// If `value` is outside 0 to 1; in a `const` item that is a compile error.
    #[must_use]
    #[allow(clippy::manual_range_contains)] // `contains` is not `const`.
    pub const fn of(value: f64) -> Priority {
        assert!(value >= 0.0 && value <= 1.0, "a priority is from 0 to 1");
        Priority(value)
    }

    /// The value, from 0 to 1.
    #[must_use]
    pub const fn get(self) -> f64 {
        self.0
    }
}

/// Who a block is meant for (`audience`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Role {
    /// The user (`"user"`).
    User,
    /// The model (`"assistant"`).
    Assistant,
}

impl Role {
    /// The role as the protocol writes it.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }
}

/// The protocol's content annotations: who a block is for, how important it is, when what it
/// shows last changed. Hints for the client, like tool annotations.
///
/// ```
/// use mcp_annotations::{content::Content, content::ContentAnnotations, content::Priority, content::Role};
///
/// let note = Content::text("Saved.").with_annotations(
///     ContentAnnotations::new().with_audience([Role::User]).with_priority(Priority::of(0.2)),
/// );
/// assert_eq!(
///     serde_json::to_value(&note)?,
///     serde_json::json!({"type": "text", "text": "Saved.", "annotations": {"audience": ["user"], "priority": 0.2}})
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ContentAnnotations {
    audience: Option<Vec<Role>>,
    priority: Option<Priority>,
    last_modified: Option<String>,
}

impl ContentAnnotations {
    /// No annotations.
    #[must_use]
    pub const fn new() -> Self {
        ContentAnnotations {
            audience: None,
            priority: None,
            last_modified: None,
        }
    }

    /// Sets who the block is for (`audience`).
    #[must_use]
    pub fn with_audience(mut self, audience: impl IntoIterator<Item = Role>) -> Self {
        self.audience = Some(audience.into_iter().collect());
        self
    }

    /// Sets how important the block is (`priority`).
    #[must_use]
    pub fn with_priority(mut self, priority: Priority) -> Self {
        self.priority = Some(priority);
        self
    }

    /// Sets when what the block shows last changed (`lastModified`, an ISO 8601 timestamp
    /// such as `"2025-01-12T15:00:58Z"`).
    #[must_use]
    pub fn with_last_modified(mut self, timestamp: impl Into<String>) -> Self {
        self.last_modified = Some(timestamp.into());
        self
    }

    /// Who the block is for, if stated.
    #[must_use]
    pub fn audience(&self) -> Option<&[Role]> {
        self.audience.as_deref()
    }

    /// How important the block is, if stated.
    #[must_use]
    pub fn priority(&self) -> Option<Priority> {
        self.priority
    }

    /// When what the block shows last changed, if stated.
    #[must_use]
    pub fn last_modified(&self) -> Option<&str> {
        self.last_modified.as_deref()
    }

    pub(crate) fn from_json(value: &Value) -> Result<Self, ContentError> {
        let object = as_object(value, "")?;
        let audience = match present(object, "audience") {
            None => None,
            Some(Value::Array(roles)) => Some(
                roles
                    .iter()
                    .enumerate()
                    .map(|(i, role)| match role.as_str() {
                        Some("user") => Ok(Role::User),
                        Some("assistant") => Ok(Role::Assistant),
                        _ => Err(ContentError::new(
                            format!("audience[{i}]"),
                            format!("expected `\"user\"` or `\"assistant\"`, found {role}"),
                        )),
                    })
                    .collect::<Result<_, _>>()?,
            ),
            Some(other) => return Err(mismatch("audience", "an array of roles", other)),
        };
        let priority = match present(object, "priority") {
            None => None,
            Some(Value::Number(number)) => {
                Some(Priority::new(number.as_f64().unwrap_or(f64::NAN))?)
            }
            Some(other) => return Err(mismatch("priority", "a number from 0 to 1", other)),
        };
        let last_modified = optional_string(object, "lastModified")?;
        Ok(ContentAnnotations {
            audience,
            priority,
            last_modified,
        })
    }
}

crate::protocol::error::from_str!(Role, "role", [Role::User, Role::Assistant]);
