//! The `tools/list` result as JSON text, written straight into a `String` for each protocol
//! version, with schemas copied as text rather than walked as trees.
//!
//! The tools' part of the result is the same for every page: it is written once per listing,
//! annotation form and protocol version (an output schema whose root is not an object is
//! wrapped in one before 2026-07-28; icons are listed from 2025-11-25, `execution` to
//! 2025-11-25 alone), the first time it is asked for, and kept
//! (a listing's tools are `&'static` and never change, so their text does not either). Every
//! later render copies the page's slice of it between the envelope's fields.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::{Arc, OnceLock, RwLock};

use crate::listing::{AnnotationsForm, CursorError, ListOptions, Listing, json};
use crate::protocol::ProtocolVersion;
use crate::tool::Tool;

/// Every tool of a listing as `tools/list` writes it, joined by commas, and where each starts.
struct Written {
    /// The tools it was written from: held, as the `&'static` they are, for as long as the
    /// text is, so that their memory cannot be taken back and reused for other tools (which
    /// would then be rendered with this text) without breaking the `'static` it was given as.
    _tools: &'static [Tool],
    text: String,
    /// The offset of each tool's text, and one past the end (as if a comma followed the last).
    starts: Vec<usize>,
}

impl Written {
    fn new(tools: &'static [Tool], explicit: bool, version: ProtocolVersion) -> Self {
        let size: usize = tools.iter().map(json::size_hint).sum();
        let mut text = String::with_capacity(size + tools.len());
        let mut starts = Vec::with_capacity(tools.len() + 1);
        for (i, tool) in tools.iter().enumerate() {
            if i > 0 {
                text.push(',');
            }
            starts.push(text.len());
            json::tool(&mut text, tool, explicit, version);
        }
        starts.push(text.len() + 1);
        Written {
            _tools: tools,
            text,
            starts,
        }
    }

    /// The text of tools `start..end`, commas between them.
    fn slice(&self, start: usize, end: usize) -> &str {
        if start == end {
            return "";
        }
        &self.text[self.starts[start]..self.starts[end] - 1]
    }
}

/// The written tools of a listing, by the address and length of its tools, the form, and
/// the protocol version (which decides the form of output schemas and which of a tool's
/// fields are listed).
fn written(tools: &'static [Tool], explicit: bool, version: ProtocolVersion) -> Arc<Written> {
    type Key = (usize, usize, bool, ProtocolVersion);
    static WRITTEN: OnceLock<RwLock<HashMap<Key, Arc<Written>>>> = OnceLock::new();
    let cache = WRITTEN.get_or_init(RwLock::default);
    let key = (tools.as_ptr() as usize, tools.len(), explicit, version);
    if let Some(found) = cache.read().ok().and_then(|cache| cache.get(&key).cloned()) {
        return found;
    }
    let fresh = Arc::new(Written::new(tools, explicit, version));
    match cache.write() {
        Ok(mut cache) => Arc::clone(cache.entry(key).or_insert(fresh)),
        Err(_) => fresh,
    }
}

impl<S> Listing<S> {
    /// The JSON text of the `tools/list` result for the page at `cursor`, in the protocol
    /// version and form that `options` say.
    ///
    /// The tools' text is written the first time a listing is rendered in a form and kept for
    /// the life of the process, with a reference to the listing's `&'static` tools, so that a
    /// render costs about a copy of the page's bytes from then on. Each distinct slice of tools
    /// rendered keeps its own text: a server that makes listings at run time (for each tenant,
    /// say) pays that text once for each, as it pays their leaked tools.
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
        let explicit = matches!(options.annotations, AnnotationsForm::Explicit);
        let written = written(self.tools(), explicit, options.version);
        let tools = written.slice(start, end);
        let mut out = String::with_capacity(160 + tools.len());
        out.push('{');
        if options.version.has_cache_fields() {
            out.push_str(r#""resultType":"complete","#);
        }
        out.push_str(r#""tools":["#);
        out.push_str(tools);
        out.push(']');
        if let Some(next) = &next_cursor {
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
}
