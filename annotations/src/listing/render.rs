//! The `tools/list` result as JSON text, written straight into a `String` for each protocol
//! version, with schemas copied as text rather than walked as trees.

use std::fmt::Write as _;

use crate::listing::json;
use crate::{AnnotationsForm, CursorError, ListOptions, Listing};

impl<S> Listing<S> {
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
}
