//! The bridge to rmcp, the official Rust SDK (feature `rmcp`): a listing served whole
//! ([`ListingServer`]) or as rmcp's `ToolRouter`, rmcp's request context for handlers, and
//! lossless conversions of annotations, descriptors, listings, pages and results.
//!
#![doc = include_str!("../../docs/rmcp.md")]

// For contributors: The bridge to rmcp, the official Rust SDK, behind the `rmcp` feature: lossless conversions of
// [`annotations`], descriptors ([`tool`]), [`listing`]s and pages, and [`result`]s; rmcp's
// request [`context`] for `#[context]` parameters; a listing as rmcp's [`router`]; and a
// listing served to rmcp at the listing's own cost ([`server`]).

mod annotations;
mod context;
mod listing;
mod result;
mod router;
mod server;
mod tool;

pub use self::server::{ListingHandler, ListingServer};

/// The protocol version of the session (negotiated at `initialize`, or stated by the request
/// from 2026-07-28 on; the newest this crate knows for a newer one, the oldest for an older
/// one), which decides how tools and results are written.
pub(crate) fn session_version(
    context: &rmcp::service::RequestContext<rmcp::RoleServer>,
) -> crate::protocol::ProtocolVersion {
    if let Some(stated) = context.meta.protocol_version() {
        return version_of(stated.as_str());
    }
    // The negotiated version read in the peer's shared info, not copied out of it.
    match context.peer.peer_info() {
        Some(info) => version_of(info.protocol_version.as_str()),
        None => crate::protocol::ProtocolVersion::LATEST,
    }
}

/// The version named `version`: the newest this crate knows for a newer one, the oldest for
/// an older one.
fn version_of(version: &str) -> crate::protocol::ProtocolVersion {
    crate::protocol::ProtocolVersion::parse(version).unwrap_or(
        if version > crate::protocol::ProtocolVersion::LATEST.as_str() {
            crate::protocol::ProtocolVersion::LATEST
        } else {
            crate::protocol::ProtocolVersion::V2025_06_18
        },
    )
}
