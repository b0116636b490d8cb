//! The `tools/list` result as JSON text, written straight into a `String` for each protocol
//! version, with schemas copied as text rather than walked as trees.
//!
//! The tools' part of the result is the same for every page: it is written once per listing,
//! annotation form and protocol version (an output schema whose root is not an object is
//! wrapped in one before 2026-07-28; icons are listed from 2025-11-25, `execution` to
//! 2025-11-25 alone), the first time it is asked for, and kept, within a bound on the bytes
//! kept (a listing's tools are `&'static` and never change, so their text does not either).
//! Every later render copies the page's slice of it between the envelope's fields.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock, RwLock};

use crate::listing::{AnnotationsForm, CursorError, ListOptions, Listing, json};
use crate::protocol::ProtocolVersion;
use crate::tool::Tool;

/// Every tool of a listing as `tools/list` writes it, joined by commas, and where each starts.
pub(crate) struct Written {
    /// The tools it was written from: held, as the `&'static` they are, for as long as the
    /// text is, so that their memory cannot be taken back and reused for other tools (which
    /// would then be rendered with this text) without breaking the `'static` it was given as.
    _tools: &'static [Tool],
    text: String,
    /// The offset of each tool's text, and one past the end (as if a comma followed the last).
    starts: Vec<usize>,
}

impl Written {
    fn new(tools: &'static [Tool], (explicit, version, resolution): Form) -> Self {
        let size: usize = tools.iter().map(json::size_hint).sum();
        let mut text = String::with_capacity(size + tools.len());
        let mut starts = Vec::with_capacity(tools.len() + 1);
        for (i, tool) in tools.iter().enumerate() {
            if i > 0 {
                text.push(',');
            }
            starts.push(text.len());
            json::tool(&mut text, tool, explicit, version, resolution);
        }
        starts.push(text.len() + 1);
        Written {
            _tools: tools,
            text,
            starts,
        }
    }

    /// The text of tools `start..end`, commas between them.
    pub(crate) fn slice(&self, start: usize, end: usize) -> &str {
        if start == end {
            return "";
        }
        &self.text[self.starts[start]..self.starts[end] - 1]
    }
}

/// How many bytes of written tools the render cache keeps at most: past this, the text used
/// least recently is let go (and written again if it is asked for again). A static listing
/// that is served stays; listings made at run time (per tenant, role or filter) cannot grow
/// the process without bound.
pub const RENDER_CACHE_BYTES: usize = 64 << 20;

/// The written tools of a listing, by the address and length of its tools, the form, and the
/// protocol version, each with when it was last used.
struct Cache {
    entries: HashMap<Key, (Arc<Written>, AtomicU64)>,
    /// The bytes of text the entries hold.
    bytes: usize,
}

type Key = (usize, usize, Form);

/// What the tools' text is written for: every hint stated, the version, and whether the client
/// declared tool resolution (resolvable tools marked).
type Form = (bool, ProtocolVersion, bool);

/// The [`Form`] `options` ask for.
pub(crate) fn form(options: &ListOptions) -> Form {
    (
        matches!(options.annotations, AnnotationsForm::Explicit),
        options.version,
        options.tool_resolution,
    )
}

static CACHE: OnceLock<RwLock<Cache>> = OnceLock::new();

/// A clock of uses: each use of an entry takes the next tick.
static TICK: AtomicU64 = AtomicU64::new(0);

fn cache() -> &'static RwLock<Cache> {
    CACHE.get_or_init(|| {
        RwLock::new(Cache {
            entries: HashMap::new(),
            bytes: 0,
        })
    })
}

/// The bytes of `tools/list` text the render cache holds now, for every listing of the process
/// (at most [`RENDER_CACHE_BYTES`]): what rendering has kept to make the next render a copy.
///
/// ```
/// use mcp_annotations::{Listing, listing::ListOptions, listing::RENDER_CACHE_BYTES, listing::render_cache_bytes};
///
/// static TOOLS: Listing = Listing::new(&[]);
/// TOOLS.render(&ListOptions::default(), None)?;
/// assert!(render_cache_bytes() <= RENDER_CACHE_BYTES);
/// # Ok::<(), mcp_annotations::listing::CursorError>(())
/// ```
#[must_use]
pub fn render_cache_bytes() -> usize {
    cache().read().map_or(0, |cache| cache.bytes)
}

/// The written tools (see [`Cache`]), from the cache or written now and kept within
/// [`RENDER_CACHE_BYTES`], the least recently used let go first.
pub(crate) fn written(tools: &'static [Tool], options: &ListOptions) -> Arc<Written> {
    let form = form(options);
    let key = (tools.as_ptr() as usize, tools.len(), form);
    let now = || TICK.fetch_add(1, Ordering::Relaxed);
    if let Some(found) = cache().read().ok().and_then(|cache| {
        let (written, used) = cache.entries.get(&key)?;
        used.store(now(), Ordering::Relaxed);
        Some(Arc::clone(written))
    }) {
        return found;
    }
    let fresh = Arc::new(Written::new(tools, form));
    let size = fresh.text.len();
    let Ok(mut cache) = cache().write() else {
        return fresh;
    };
    if let Some((written, _)) = cache.entries.get(&key) {
        return Arc::clone(written);
    }
    if size > RENDER_CACHE_BYTES {
        // Larger than the whole cache: used for this render, kept by no one.
        return fresh;
    }
    if cache.bytes + size > RENDER_CACHE_BYTES {
        // Let go of the least recently used down to three quarters of the bound, so that the
        // entries are sorted once for many inserts, not scanned for each.
        let mut by_use: Vec<(u64, Key)> = cache
            .entries
            .iter()
            .map(|(key, (_, used))| (used.load(Ordering::Relaxed), *key))
            .collect();
        by_use.sort_unstable_by_key(|(used, _)| *used);
        for (_, oldest) in by_use {
            if cache.bytes + size <= RENDER_CACHE_BYTES / 4 * 3 {
                break;
            }
            if let Some((gone, _)) = cache.entries.remove(&oldest) {
                cache.bytes -= gone.text.len();
            }
        }
    }
    cache.bytes += size;
    cache
        .entries
        .insert(key, (Arc::clone(&fresh), AtomicU64::new(now())));
    fresh
}

impl<S> Listing<S> {
    /// The JSON text of the `tools/list` result for the page at `cursor`, in the protocol
    /// version and form that `options` say.
    ///
    /// The tools' text is written the first time a listing is rendered in a form and kept, with
    /// a reference to the listing's `&'static` tools, so that a render costs about a copy of
    /// the page's bytes from then on. The texts kept are bounded: at most
    /// [`RENDER_CACHE_BYTES`] for the whole process, the least
    /// recently rendered let go first, so a server that makes listings at run time (for each
    /// tenant or request, say) does not grow without bound; a listing let go is written again
    /// when it is next rendered.
    ///
    /// # Errors
    ///
    /// [`CursorError`] for an invalid cursor.
    pub fn render(
        &self,
        options: &ListOptions,
        cursor: Option<&str>,
    ) -> Result<String, CursorError> {
        let (start, end, next_cursor) = self.page_bounds(cursor, options.page_size)?;
        let written = written(self.tools(), options);
        Ok(envelope(
            written.slice(start, end),
            next_cursor.as_deref(),
            options,
        ))
    }

    /// [`render`](Self::render)'s text, with the page's tools written for this call alone and
    /// nothing kept: what a server of rmcp's types hands its transport, page by page, so that
    /// it holds no text beyond the page it answers.
    #[cfg(feature = "rmcp")]
    pub(crate) fn render_page(
        &self,
        options: &ListOptions,
        cursor: Option<&str>,
    ) -> Result<String, CursorError> {
        let (start, end, next_cursor) = self.page_bounds(cursor, options.page_size)?;
        let page = self.tools()[start..end].iter();
        Ok(page_text(page, next_cursor.as_deref(), options))
    }
}

/// The `tools/list` result of `page`'s tools, each written for this call alone straight into
/// the result (no text of its own kept or copied).
#[cfg(feature = "rmcp")]
pub(crate) fn page_text<'t>(
    page: impl Iterator<Item = &'t Tool> + Clone,
    next_cursor: Option<&str>,
    options: &ListOptions,
) -> String {
    let (explicit, version, resolution) = form(options);
    let size: usize = page.clone().map(json::size_hint).sum();
    envelope_with(size, next_cursor, options, |out| {
        for (i, tool) in page.enumerate() {
            if i > 0 {
                out.push(',');
            }
            json::tool(out, tool, explicit, version, resolution);
        }
    })
}

/// The `tools/list` result around the text of its `tools`.
pub(crate) fn envelope(tools: &str, next_cursor: Option<&str>, options: &ListOptions) -> String {
    envelope_with(tools.len(), next_cursor, options, |out| out.push_str(tools))
}

/// The `tools/list` result around the tools `write` writes (about `size` bytes) straight into
/// it, with no copy of their text between.
pub(crate) fn envelope_with(
    size: usize,
    next_cursor: Option<&str>,
    options: &ListOptions,
    write: impl FnOnce(&mut String),
) -> String {
    let mut out = String::with_capacity(160 + size);
    out.push('{');
    if options.version.has_result_type() {
        out.push_str(r#""resultType":"complete","#);
    }
    out.push_str(r#""tools":["#);
    write(&mut out);
    out.push(']');
    if let Some(next) = next_cursor {
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
    out
}
