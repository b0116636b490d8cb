//! For hosts and tool directories: how far to act on a server's hints ([`Trust`],
//! [`HostView`]), claim by claim where a probe verified them ([`Evidence`]), what is wrong or missing in a tool it lists ([`findings`],
//! [`Readiness`]), and what changed between two versions of a tool or listing ([`diff`]).
//!
//! ```
//! use mcp_annotations::ToolAnnotations;
//! use mcp_annotations::host::Trust;
//!
//! let received: ToolAnnotations = serde_json::from_str(r#"{"readOnlyHint": true}"#)?;
//! assert!(!received.for_host(Trust::Trusted).needs_approval());
//! assert!(received.for_host(Trust::Untrusted).needs_approval());
//! # Ok::<(), serde_json::Error>(())
//! ```

// The floor's files: the `trust` a host gives a server's hints, the `evidence` a probe
// leaves of them, the `findings` of a listed
// tool and its `readiness` for a directory, and the `diff` of two versions.
pub mod diff;
mod evidence;
mod findings;
mod readiness;
mod trust;

pub use self::evidence::{Claim, EVIDENCE_VERSION, Evidence, EvidenceError, ToolEvidence, Verdict};
pub use self::findings::{Finding, FindingKind, Severity, findings};
pub use self::readiness::{Missing, Readiness};
pub use self::trust::{HostView, Trust};
