//! The versions of the protocol the crate writes and reads, and what each version's
//! messages carry (`icons`, `execution.taskSupport`, the 2026-07-28 cache fields).

use std::fmt;

/// A version of the Model Context Protocol whose `tools/list` result a [`Listing`](crate::Listing) renders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ProtocolVersion {
    /// `2025-06-18`.
    V2025_06_18,
    /// `2025-11-25`.
    V2025_11_25,
    /// `2026-07-28`: the result also carries `resultType`, `ttlMs` and `cacheScope`.
    V2026_07_28,
}

impl ProtocolVersion {
    /// Every version, oldest first.
    pub const ALL: [ProtocolVersion; 3] = [
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
        ProtocolVersion::V2026_07_28,
    ];

    /// The newest version.
    pub const LATEST: ProtocolVersion = ProtocolVersion::V2026_07_28;

    /// The version as the protocol writes it, `"2025-06-18"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            ProtocolVersion::V2025_06_18 => "2025-06-18",
            ProtocolVersion::V2025_11_25 => "2025-11-25",
            ProtocolVersion::V2026_07_28 => "2026-07-28",
        }
    }

    /// The version written `text`, if it is one of these.
    ///
    /// ```
    /// use mcp_annotations::ProtocolVersion;
    ///
    /// assert_eq!(ProtocolVersion::parse("2025-11-25"), Some(ProtocolVersion::V2025_11_25));
    /// assert_eq!(ProtocolVersion::parse("2024-11-05"), None);
    /// ```
    #[must_use]
    pub fn parse(text: &str) -> Option<ProtocolVersion> {
        text.parse().ok()
    }

    pub(crate) const fn has_cache_fields(self) -> bool {
        matches!(self, ProtocolVersion::V2026_07_28)
    }

    /// Whether tools and resource links carry `icons` (2025-11-25 on).
    pub(crate) const fn has_icons(self) -> bool {
        !matches!(self, ProtocolVersion::V2025_06_18)
    }

    /// Whether a tool carries `execution.taskSupport` (2025-11-25 alone).
    pub(crate) const fn has_task_support(self) -> bool {
        matches!(self, ProtocolVersion::V2025_11_25)
    }
}

impl fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

crate::protocol::error::from_str!(ProtocolVersion, "protocol version", ProtocolVersion::ALL);
