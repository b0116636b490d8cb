//! Pages and cursors: a listing served a page at a time, with cursors bound to the listing so
//! that a forged or stale one is refused.

use std::fmt;

use crate::listing::Listing;
use crate::tool::Tool;

impl<S> Listing<S> {
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
        let (start, end, next_cursor) = self.page_bounds(cursor, page_size)?;
        Ok(Page {
            tools: &self.tools[start..end],
            next_cursor,
        })
    }

    /// Where the page at `cursor` starts and ends among the tools, and the next cursor.
    pub(crate) fn page_bounds(
        &self,
        cursor: Option<&str>,
        page_size: usize,
    ) -> Result<(usize, usize, Option<String>), CursorError> {
        let start = match cursor {
            None | Some("") => 0,
            Some(cursor) => self.decode(cursor)?,
        };
        let rest = self.tools.len() - start;
        let take = if page_size == 0 {
            rest
        } else {
            page_size.min(rest)
        };
        let end = start + take;
        let next_cursor = (end < self.tools.len()).then(|| self.encode(end));
        Ok((start, end, next_cursor))
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

/// One page of a [`Listing`], from [`Listing::page`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
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
    pub(crate) fn new(cursor: &str) -> Self {
        CursorError {
            cursor: cursor.chars().take(64).collect(),
        }
    }

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
