//! A server's list of tools: the `tools/list` result in each protocol version, pages and
//! cursors, and a Markdown table.

use std::fmt::{self, Write as _};

use serde_json::{Map, Value};

use crate::__private::Run;
use crate::call::{CallFuture, Context, UnknownTool};
use crate::{Readiness, Tool, json};

/// The tools a server offers, in a fixed order: what `tools/list` returns.
///
/// Build one with [`tools!`](crate::tools), which checks while compiling that no two tools
/// share a name (and, if asked, that each is ready for a tool directory). The listing is a
/// `&'static` slice of [`Tool`](struct@Tool)s, so it can live in a `const` or `static` and costs nothing to
/// copy.
///
/// ```
/// use annotations::{ListOptions, ProtocolVersion, tool, tools};
///
/// /// List every saved note.
/// #[tool(read_only, open_world = false, title = "List notes")]
/// fn list_notes() {}
///
/// /// Permanently delete a note by id.
/// #[tool(destructive, idempotent, open_world = false, title = "Delete note")]
/// fn delete_note(note_id: u64) {}
///
/// static TOOLS: annotations::Listing = tools![list_notes, delete_note];
///
/// let result = TOOLS.render(&ListOptions::new(ProtocolVersion::V2025_06_18), None)?;
/// let result: serde_json::Value = serde_json::from_str(&result).unwrap();
/// assert_eq!(result["tools"][1]["name"], "delete_note");
/// assert_eq!(result["tools"][1]["inputSchema"]["required"][0], "note_id");
/// # list_notes(); delete_note(1);
/// # Ok::<(), annotations::CursorError>(())
/// ```
pub struct Listing<S: 'static = ()> {
    tools: &'static [Tool],
    /// One call per tool, in the same order; empty for a listing of descriptors only.
    calls: &'static [&'static dyn Run<S>],
}

impl<S> Clone for Listing<S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for Listing<S> {}

impl<S> fmt::Debug for Listing<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Listing")
            .field("tools", &self.tools)
            .field("callable", &self.is_callable())
            .finish()
    }
}

impl Listing {
    /// A listing of these tool descriptors, in this order, without handlers: it lists and
    /// renders, but [`call`](Self::call) finds no tool.
    ///
    /// Prefer [`tools!`](crate::tools), which also checks the names while compiling and
    /// makes the tools callable; a listing built here can be checked with
    /// [`validate`](Self::validate).
    #[must_use]
    pub const fn new(tools: &'static [Tool]) -> Self {
        Listing { tools, calls: &[] }
    }
}

impl<S> Listing<S> {
    /// What `tools!` builds: descriptors and their calls, in the same order. Not public API.
    #[doc(hidden)]
    #[must_use]
    pub const fn from_parts(tools: &'static [Tool], calls: &'static [&'static dyn Run<S>]) -> Self {
        assert!(tools.len() == calls.len(), "one call per tool");
        Listing { tools, calls }
    }

    /// Whether the tools can be called (the listing came from `tools!`).
    #[must_use]
    pub const fn is_callable(&self) -> bool {
        self.calls.len() == self.tools.len()
    }

    /// The call of the tool at `index`, if the listing has calls.
    #[cfg(feature = "rmcp")]
    pub(crate) fn call_at(&self, index: usize) -> Option<&'static dyn Run<S>> {
        self.calls.get(index).copied()
    }

    /// Calls the tool named `name` with the server's `state`, the arguments object (`None` for
    /// none) and the request's `context`.
    ///
    /// The future always gives a [`ToolResult`](crate::ToolResult): a bad argument, an `Err`
    /// from the handler, or a handler that panicked is a failed result (`isError: true`) whose
    /// message the model can act on. Only a name that is not in the listing is an error
    /// here, which the protocol answers with JSON-RPC -32602.
    ///
    /// ```
    /// use annotations::{Context, Listing, tool, tools};
    /// use serde_json::json;
    ///
    /// pub struct Notes(Vec<String>);
    ///
    /// impl Notes {
    ///     /// Read one note.
    ///     #[tool(read_only, title = "Read note")]
    ///     pub fn read_note(&self, note_id: usize) -> Result<String, String> {
    ///         self.0.get(note_id).cloned().ok_or(format!("no note {note_id}"))
    ///     }
    /// }
    ///
    /// static TOOLS: Listing<Notes> = tools![Notes::read_note];
    ///
    /// # let block_on = |f| annotations::__private::block_on(f);
    /// let notes = Notes(vec!["Buy milk".into()]);
    /// let arguments = json!({"note_id": 0}).as_object().cloned();
    /// let result = block_on(TOOLS.call(&notes, "read_note", arguments, Context::none())?);
    /// assert_eq!(result.text_content(), "Buy milk");
    ///
    /// let arguments = json!({"note_id": -1}).as_object().cloned();
    /// let result = block_on(TOOLS.call(&notes, "read_note", arguments, Context::none())?);
    /// assert!(result.is_error);
    /// assert!(result.text_content().starts_with("invalid argument `note_id`"));
    ///
    /// let Err(unknown) = TOOLS.call(&notes, "nope", None, Context::none()) else {
    ///     panic!("no tool is named nope");
    /// };
    /// assert_eq!(unknown.code(), -32602);
    /// assert_eq!(unknown.to_string(), "unknown tool: nope");
    /// # Ok::<(), annotations::UnknownTool>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`UnknownTool`] when no tool has this name, or the listing has no handlers.
    pub fn call<'a>(
        &self,
        state: &'a S,
        name: &str,
        arguments: Option<Map<String, Value>>,
        context: Context<'a>,
    ) -> Result<CallFuture<'a>, UnknownTool> {
        let index = self
            .tools
            .iter()
            .position(|tool| tool.name() == name)
            .ok_or_else(|| UnknownTool::new(name))?;
        let call = self
            .calls
            .get(index)
            .ok_or_else(|| UnknownTool::new(name))?;
        Ok(call.call(state, arguments, context))
    }

    /// The tools, in order.
    #[must_use]
    pub const fn tools(&self) -> &'static [Tool] {
        self.tools
    }

    /// How many tools there are.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.tools.len()
    }

    /// Whether there are none.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// The tool with this name.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&'static Tool> {
        self.tools.iter().find(|tool| tool.name() == name)
    }

    /// Checks every tool ([`Tool::validate`]) and that no two share a name.
    ///
    /// # Errors
    ///
    /// The first problem found, naming the tool.
    pub fn validate(&self) -> Result<(), String> {
        let mut seen = std::collections::HashSet::new();
        for tool in self.tools {
            tool.validate()
                .map_err(|error| format!("tool `{}`: {error}", tool.name()))?;
            if !seen.insert(tool.name()) {
                return Err(format!("duplicate tool name `{}`", tool.name()));
            }
        }
        Ok(())
    }

    /// The tools that are not ready for a directory at `level`, each with what it lacks.
    pub fn not_ready(
        &self,
        level: Readiness,
    ) -> impl Iterator<Item = (&'static Tool, crate::Missing)> {
        self.tools
            .iter()
            .filter_map(move |tool| tool.missing_for(level).map(|missing| (tool, missing)))
    }

    /// The page of tools that starts at `cursor` (`None` or `""`: the first page), holding at
    /// most `page_size` tools (`0`: all the rest), with the cursor of the next page if any.
    ///
    /// Cursors are opaque strings that stay valid for as long as the listing is the same (they
    /// survive a server restart). A cursor that this listing did not issue, or that was
    /// altered, is an error that carries JSON-RPC code -32602, as the protocol asks.
    ///
    /// # Errors
    ///
    /// [`CursorError`] for an invalid cursor.
    pub fn page(
        &self,
        cursor: Option<&str>,
        page_size: usize,
    ) -> Result<Page<'static>, CursorError> {
        let start = match cursor {
            None | Some("") => 0,
            Some(cursor) => self.decode(cursor)?,
        };
        let rest = &self.tools[start..];
        let take = if page_size == 0 {
            rest.len()
        } else {
            page_size.min(rest.len())
        };
        let end = start + take;
        let next_cursor = (end < self.tools.len()).then(|| self.encode(end));
        Ok(Page {
            tools: &rest[..take],
            next_cursor,
        })
    }

    /// The JSON text of the `tools/list` result for the page at `cursor`, in the protocol
    /// version and form that `options` say.
    ///
    /// # Errors
    ///
    /// [`CursorError`] for an invalid cursor.
    pub fn render(
        &self,
        options: &ListOptions,
        cursor: Option<&str>,
    ) -> Result<String, CursorError> {
        let page = self.page(cursor, options.page_size)?;
        let explicit = matches!(options.annotations, AnnotationsForm::Explicit);
        let size: usize = page.tools.iter().map(json::size_hint).sum();
        let mut out = String::with_capacity(128 + size);
        out.push('{');
        if options.version.has_cache_fields() {
            out.push_str(r#""resultType":"complete","#);
        }
        out.push_str(r#""tools":["#);
        for (i, tool) in page.tools.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            json::tool(&mut out, tool, explicit);
        }
        out.push(']');
        if let Some(next) = &page.next_cursor {
            out.push_str(r#","nextCursor":"#);
            json::string(&mut out, next);
        }
        if options.version.has_cache_fields() {
            let _ = write!(
                out,
                r#","ttlMs":{},"cacheScope":"{}""#,
                options.ttl_ms,
                options.cache_scope.as_str()
            );
        }
        out.push('}');
        Ok(out)
    }

    /// A Markdown table of the tools, one row a tool: name, display name, the first line of
    /// the description, and the effective hints (what a host assumes, defaults applied).
    ///
    /// ```
    /// use annotations::{Listing, tool, tools};
    ///
    /// /// List every saved note.
    /// #[tool(read_only, open_world = false, title = "List notes")]
    /// fn list_notes() {}
    ///
    /// let listing: Listing = tools![list_notes];
    /// let table = listing.to_markdown();
    /// assert!(table.contains("| `list_notes` | List notes | List every saved note. | yes | no | yes | no |"));
    /// # list_notes();
    /// ```
    #[must_use]
    pub fn to_markdown(&self) -> String {
        let mut out = String::from(
            "| name | display name | description | read-only | destructive | idempotent | open world |\n\
             |---|---|---|---|---|---|---|\n",
        );
        let yes = |b: bool| if b { "yes" } else { "no" };
        for tool in self.tools {
            let description = tool
                .description()
                .and_then(|d| d.lines().next())
                .unwrap_or("");
            let hints = &tool.annotations;
            let _ = writeln!(
                out,
                "| `{}` | {} | {} | {} | {} | {} | {} |",
                tool.name(),
                markdown_cell(tool.display_name()),
                markdown_cell(description),
                yes(hints.read_only()),
                yes(hints.destructive()),
                yes(hints.idempotent()),
                yes(hints.open_world()),
            );
        }
        out
    }

    fn encode(&self, offset: usize) -> String {
        format!("{offset:x}.{:016x}", self.seal(offset))
    }

    fn decode(&self, cursor: &str) -> Result<usize, CursorError> {
        let invalid = || CursorError {
            cursor: cursor.chars().take(64).collect(),
        };
        let (offset, seal) = cursor.split_once('.').ok_or_else(invalid)?;
        if offset.is_empty() || offset.len() > 16 || seal.len() != 16 {
            return Err(invalid());
        }
        let offset = usize::from_str_radix(offset, 16).map_err(|_| invalid())?;
        if offset == 0 || offset >= self.tools.len() || self.encode(offset) != cursor {
            return Err(invalid());
        }
        Ok(offset)
    }

    /// Binds a cursor to this listing: the offset, the length and the names around the page
    /// boundary, hashed (FNV-1a), so a cursor of another listing or an edited one fails.
    fn seal(&self, offset: usize) -> u64 {
        let mut hash = 0xcbf2_9ce4_8422_2325_u64;
        let mut feed = |bytes: &[u8]| {
            for &byte in bytes {
                hash ^= u64::from(byte);
                hash = hash.wrapping_mul(0x0100_0000_01b3);
            }
            hash ^= 0xff;
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        };
        feed(&(offset as u64).to_le_bytes());
        feed(&(self.tools.len() as u64).to_le_bytes());
        feed(self.tools[offset - 1].name().as_bytes());
        feed(self.tools[offset].name().as_bytes());
        hash
    }
}

fn markdown_cell(text: &str) -> String {
    text.replace('|', "\\|")
}

/// One page of a [`Listing`], from [`Listing::page`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Page<'a> {
    /// The tools on this page, in order.
    pub tools: &'a [Tool],
    /// The cursor of the next page; `None` on the last page.
    pub next_cursor: Option<String>,
}

/// A `tools/list` cursor that the listing did not issue, or that was altered.
///
/// The protocol asks servers to answer it with JSON-RPC error -32602 (invalid params):
/// [`code`](Self::code).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CursorError {
    cursor: String,
}

impl CursorError {
    /// The JSON-RPC error code to answer with: -32602, invalid params.
    pub const CODE: i32 = -32602;

    /// [`CODE`](Self::CODE).
    #[must_use]
    pub const fn code(&self) -> i32 {
        Self::CODE
    }

    /// The cursor received (at most its first 64 characters).
    #[must_use]
    pub fn cursor(&self) -> &str {
        &self.cursor
    }
}

impl fmt::Display for CursorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid tools/list cursor {:?}", self.cursor)
    }
}

impl std::error::Error for CursorError {}

/// A version of the Model Context Protocol whose `tools/list` result a [`Listing`] renders.
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
    /// use annotations::ProtocolVersion;
    ///
    /// assert_eq!(ProtocolVersion::parse("2025-11-25"), Some(ProtocolVersion::V2025_11_25));
    /// assert_eq!(ProtocolVersion::parse("2024-11-05"), None);
    /// ```
    #[must_use]
    pub fn parse(text: &str) -> Option<ProtocolVersion> {
        Self::ALL
            .into_iter()
            .find(|version| version.as_str() == text)
    }

    const fn has_cache_fields(self) -> bool {
        matches!(self, ProtocolVersion::V2026_07_28)
    }
}

impl fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How annotations go on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
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

/// How [`Listing::render`] writes a `tools/list` result.
///
/// ```
/// use annotations::{AnnotationsForm, CacheScope, ListOptions, ProtocolVersion};
///
/// const OPTIONS: ListOptions = ListOptions::new(ProtocolVersion::V2026_07_28)
///     .with_page_size(50)
///     .with_annotations(AnnotationsForm::Explicit)
///     .with_ttl_ms(60_000)
///     .with_cache_scope(CacheScope::Public);
/// # let _ = OPTIONS;
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
        }
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
}

impl Default for ListOptions {
    fn default() -> Self {
        ListOptions::new(ProtocolVersion::LATEST)
    }
}
