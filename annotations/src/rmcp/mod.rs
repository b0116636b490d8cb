//! The bridge to rmcp, the official Rust SDK (feature `rmcp`): a listing served whole
//! ([`ListingServer`]) or as rmcp's `ToolRouter`, rmcp's request context for handlers, and
//! lossless conversions of annotations, descriptors, listings, pages and results.
//!
#![doc = include_str!("../../docs/rmcp.md")]

// For contributors: the conversions of annotations, descriptors (`tool`), listings and pages,
// and results (`result`); rmcp's request `context` for `#[context]` parameters; a listing as
// rmcp's `router`; and a listing served to rmcp at the listing's own cost (`server`).
//
// Which version's form each conversion writes, in one place:
// - with a session (a listing's page, a result, `ListingServer`): the session's version, read
//   by `session_version` (a request's `_meta`, else what `initialize` negotiated), through
//   `ProtocolVersion::of_peer`;
// - without one (`From<&Tool> for rmcp::model::Tool`, the router's descriptors):
//   `UNSESSIONED_FORM`, since rmcp lists one descriptor to every session and its `Tool` has
//   `icons` but no field for `execution.taskSupport`;
// - this crate's own `Serialize for Tool` (not rmcp's type): the latest version's form.

mod annotations;
mod context;
mod listing;
mod result;
mod router;
mod server;
mod tool;

pub use self::server::{ListingHandler, ListingServer};

/// The form a conversion with no session writes: 2025-11-25's, the newest whose form every
/// session accepts (an output schema whose root is not an object wrapped in
/// `{"result": ...}`, which 2026-07-28 also takes) and that has `icons`, as rmcp's `Tool` does.
pub(crate) const UNSESSIONED_FORM: crate::protocol::ProtocolVersion =
    crate::protocol::ProtocolVersion::V2025_11_25;

/// The protocol version of the session (negotiated at `initialize`, or stated by the request
/// from 2026-07-28 on; the newest this crate knows for a newer one, the oldest for an older
/// one), which decides how tools and results are written.
pub(crate) fn session_version(
    context: &rmcp::service::RequestContext<rmcp::RoleServer>,
) -> crate::protocol::ProtocolVersion {
    if let Some(stated) = context.meta.protocol_version() {
        return crate::protocol::ProtocolVersion::of_peer(stated.as_str());
    }
    negotiated_version(&context.peer)
}

/// The version negotiated with the peer at `initialize`, read in the peer's shared info (not
/// copied out of it) by the one rule for a peer's version; the newest for a peer that has
/// not initialized (a 2026-07-28 session states its version on each request instead).
pub(crate) fn negotiated_version(
    peer: &rmcp::service::Peer<rmcp::RoleServer>,
) -> crate::protocol::ProtocolVersion {
    match peer.peer_info() {
        Some(info) => crate::protocol::ProtocolVersion::of_peer(info.protocol_version.as_str()),
        None => crate::protocol::ProtocolVersion::LATEST,
    }
}
