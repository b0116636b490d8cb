//! What a `tools/list` result is rendered for: the [`ProtocolVersion`] a session negotiated,
//! the [`AnnotationsForm`], the page size and the 2026-07-28 cache fields.

use crate::protocol::ProtocolVersion;

/// How annotations go on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum AnnotationsForm {
    /// As stated: unset hints left out (the protocol's defaults apply).
    #[default]
    Minimal,
    /// Every hint at its effective value, as some tool directories demand
    /// ([`ToolAnnotations::explicit`](crate::ToolAnnotations::explicit)).
    Explicit,
}

/// Who may cache a `tools/list` result (2026-07-28's `cacheScope`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum CacheScope {
    /// Only within the same authorization context: right when the tools offered depend on
    /// who asks. The default, as the safer claim.
    #[default]
    Private,
    /// Any client or shared cache: right for a listing that is the same for everyone, as a
    /// compile-time listing is unless the server filters it per user.
    Public,
}

impl CacheScope {
    /// `"private"` or `"public"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            CacheScope::Private => "private",
            CacheScope::Public => "public",
        }
    }
}

/// How [`Listing::render`](crate::Listing::render) writes a `tools/list` result.
///
/// ```
/// use mcp_annotations::{listing::AnnotationsForm, listing::CacheScope, listing::ListOptions, ProtocolVersion};
///
/// const OPTIONS: ListOptions = ListOptions::new(ProtocolVersion::V2026_07_28)
///     .with_page_size(50)
///     .with_annotations(AnnotationsForm::Explicit)
///     .with_ttl_ms(60_000)
///     .with_cache_scope(CacheScope::Public);
/// # let _ = OPTIONS;
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ListOptions {
    /// The protocol version the client negotiated.
    pub version: ProtocolVersion,
    /// Annotations as stated or fully explicit.
    pub annotations: AnnotationsForm,
    /// Tools per page; `0` (the default) sends the whole list in one page.
    pub page_size: usize,
    /// 2026-07-28's `ttlMs`: how long a client may cache the result (default 0).
    pub ttl_ms: u64,
    /// 2026-07-28's `cacheScope` (default [`CacheScope::Private`]).
    pub cache_scope: CacheScope,
    /// Whether the client declared the tool-resolution extension for this request (for
    /// 2026-07-28, in the request's own `_meta`; before, in `initialize`): resolvable tools
    /// then carry the extension's marker in their `_meta`, and only then. Off by default.
    /// [`Declaration::read`](crate::resolution::Declaration::read) reads a request's.
    pub tool_resolution: bool,
}

impl ListOptions {
    /// The defaults for `version`: minimal annotations, one page, `ttlMs` 0, private.
    #[must_use]
    pub const fn new(version: ProtocolVersion) -> Self {
        ListOptions {
            version,
            annotations: AnnotationsForm::Minimal,
            page_size: 0,
            ttl_ms: 0,
            cache_scope: CacheScope::Private,
            tool_resolution: false,
        }
    }

    /// Sets the protocol version, keeping every other option (a server's options, rendered for
    /// the version each session negotiated).
    #[must_use]
    pub const fn with_version(mut self, version: ProtocolVersion) -> Self {
        self.version = version;
        self
    }

    /// Sets the form of the annotations.
    #[must_use]
    pub const fn with_annotations(mut self, form: AnnotationsForm) -> Self {
        self.annotations = form;
        self
    }

    /// Sets the page size (`0`: everything in one page).
    #[must_use]
    pub const fn with_page_size(mut self, page_size: usize) -> Self {
        self.page_size = page_size;
        self
    }

    /// Sets `ttlMs`.
    #[must_use]
    pub const fn with_ttl_ms(mut self, ttl_ms: u64) -> Self {
        self.ttl_ms = ttl_ms;
        self
    }

    /// Sets `cacheScope`.
    #[must_use]
    pub const fn with_cache_scope(mut self, scope: CacheScope) -> Self {
        self.cache_scope = scope;
        self
    }

    /// Sets whether the client declared the tool-resolution extension, so that resolvable
    /// tools carry its marker ([`tool_resolution`](Self::tool_resolution)).
    ///
    /// ```
    /// use mcp_annotations::ProtocolVersion;
    /// use mcp_annotations::listing::ListOptions;
    /// use mcp_annotations::resolution::Declaration;
    ///
    /// let meta = serde_json::json!({"io.modelcontextprotocol/clientCapabilities": {
    ///     "extensions": {"io.modelcontextprotocol/tool-resolution": {}}
    /// }});
    /// let declared = Declaration::read(ProtocolVersion::V2026_07_28, meta.as_object(), None);
    /// let options = ListOptions::new(ProtocolVersion::V2026_07_28)
    ///     .with_tool_resolution(declared.is_declared());
    /// assert!(options.tool_resolution);
    /// ```
    #[must_use]
    pub const fn with_tool_resolution(mut self, declared: bool) -> Self {
        self.tool_resolution = declared;
        self
    }
}

impl Default for ListOptions {
    fn default() -> Self {
        ListOptions::new(ProtocolVersion::LATEST)
    }
}

crate::protocol::error::from_str!(
    CacheScope,
    "cache scope",
    [CacheScope::Private, CacheScope::Public]
);
