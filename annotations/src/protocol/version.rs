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

    /// The version a peer names: the version itself if this crate knows it; else the newest
    /// this crate knows for a newer one, the oldest for an older one (dates compare as text).
    /// The one rule for a peer's version, whichever way it arrived (negotiated at
    /// `initialize`, or stated by a request's `_meta` from 2026-07-28 on).
    ///
    /// ```
    /// use mcp_annotations::ProtocolVersion;
    ///
    /// assert_eq!(ProtocolVersion::of_peer("2025-11-25"), ProtocolVersion::V2025_11_25);
    /// assert_eq!(ProtocolVersion::of_peer("2099-01-01"), ProtocolVersion::LATEST);
    /// assert_eq!(ProtocolVersion::of_peer("2024-11-05"), ProtocolVersion::V2025_06_18);
    /// ```
    #[must_use]
    pub fn of_peer(text: &str) -> ProtocolVersion {
        match ProtocolVersion::parse(text) {
            Some(version) => version,
            None if text > ProtocolVersion::LATEST.as_str() => ProtocolVersion::LATEST,
            None => ProtocolVersion::ALL[0],
        }
    }

    // What each version's messages carry, one decision a function. Each is an exhaustive
    // `match`, so that a new version is a compile error at every decision rather than a silent
    // classification; `tests::every_decision_for_every_version` lists them all.

    /// Whether a result (of `tools/list` and of `tools/call`) says `"resultType": "complete"`.
    pub(crate) const fn has_result_type(self) -> bool {
        match self {
            ProtocolVersion::V2025_06_18 | ProtocolVersion::V2025_11_25 => false,
            ProtocolVersion::V2026_07_28 => true,
        }
    }

    /// Whether a `tools/list` result carries `ttlMs` and `cacheScope`.
    pub(crate) const fn has_cache_fields(self) -> bool {
        match self {
            ProtocolVersion::V2025_06_18 | ProtocolVersion::V2025_11_25 => false,
            ProtocolVersion::V2026_07_28 => true,
        }
    }

    /// Whether tools and resource links carry `icons`.
    pub(crate) const fn has_icons(self) -> bool {
        match self {
            ProtocolVersion::V2025_06_18 => false,
            ProtocolVersion::V2025_11_25 | ProtocolVersion::V2026_07_28 => true,
        }
    }

    /// Whether a tool carries `execution.taskSupport`.
    pub(crate) const fn has_task_support(self) -> bool {
        match self {
            ProtocolVersion::V2025_06_18 | ProtocolVersion::V2026_07_28 => false,
            ProtocolVersion::V2025_11_25 => true,
        }
    }

    /// Whether structured content, and an output schema, may have a root that is not an
    /// object; before, such a value is sent inside `{"result": ...}` and its schema wrapped
    /// to match.
    pub(crate) const fn takes_any_structured_root(self) -> bool {
        match self {
            ProtocolVersion::V2025_06_18 | ProtocolVersion::V2025_11_25 => false,
            ProtocolVersion::V2026_07_28 => true,
        }
    }

    /// Whether a client declares its capabilities on every request
    /// (`_meta["io.modelcontextprotocol/clientCapabilities"]`), which a server reads from the
    /// current request alone; before, they are declared once, in `initialize`.
    pub(crate) const fn has_per_request_capabilities(self) -> bool {
        match self {
            ProtocolVersion::V2025_06_18 | ProtocolVersion::V2025_11_25 => false,
            ProtocolVersion::V2026_07_28 => true,
        }
    }

    /// Whether a server tells a session `notifications/tools/list_changed`: sessions of
    /// 2026-07-28 have no such notification to wait for, and read `ttlMs` instead.
    #[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
    pub(crate) const fn is_told_of_list_changes(self) -> bool {
        match self {
            ProtocolVersion::V2025_06_18 | ProtocolVersion::V2025_11_25 => true,
            ProtocolVersion::V2026_07_28 => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ProtocolVersion;

    #[test]
    fn every_decision_for_every_version() {
        // version: result type, cache fields, icons, task support, any structured root,
        // told of list changes, capabilities per request.
        let table = [
            (
                ProtocolVersion::V2025_06_18,
                [false, false, false, false, false, true, false],
            ),
            (
                ProtocolVersion::V2025_11_25,
                [false, false, true, true, false, true, false],
            ),
            (
                ProtocolVersion::V2026_07_28,
                [true, true, true, false, true, false, true],
            ),
        ];
        assert_eq!(table.map(|(version, _)| version), ProtocolVersion::ALL);
        for (version, expected) in table {
            assert_eq!(
                [
                    version.has_result_type(),
                    version.has_cache_fields(),
                    version.has_icons(),
                    version.has_task_support(),
                    version.takes_any_structured_root(),
                    version.is_told_of_list_changes(),
                    version.has_per_request_capabilities(),
                ],
                expected,
                "{version}"
            );
        }
    }

    #[test]
    fn a_peers_version_is_read_by_one_rule() {
        for version in ProtocolVersion::ALL {
            assert_eq!(ProtocolVersion::of_peer(version.as_str()), version);
        }
        assert_eq!(
            ProtocolVersion::of_peer("2026-12-01"),
            ProtocolVersion::LATEST
        );
        assert_eq!(
            ProtocolVersion::of_peer("2025-03-26"),
            ProtocolVersion::V2025_06_18
        );
        assert_eq!(ProtocolVersion::of_peer(""), ProtocolVersion::V2025_06_18);
    }
}

impl fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

crate::protocol::error::from_str!(ProtocolVersion, "protocol version", ProtocolVersion::ALL);
