//! A listing seen through a [`Filter`]: [`Listing::filtered`] gives a view that looks up,
//! renders, pages and calls only the tools the filter offers, and answers for a hidden tool
//! exactly as for one that does not exist.

use std::fmt::Write as _;

use serde_json::{Map, Value};

use crate::call::{CallFuture, Context};
use crate::listing::filter::{Filter, FilterError};
use crate::listing::render::{envelope_with, written};
use crate::listing::{CursorError, ListOptions, Listing, UnknownToolError};
use crate::tool::Tool;

impl<S> Listing<S> {
    /// This listing as `filter` offers it: the view a server lists and calls through.
    ///
    /// A filter is cheap to make for each request (from a token's scopes, say): the view
    /// holds the filter and the listing, and keeps nothing after the request; its `tools/list`
    /// copies the listing's own written text, tool by tool.
    ///
    /// # Errors
    ///
    /// [`FilterError`] when the filter names a toolset or a tool the listing does not have,
    /// with the ones it has.
    pub fn filtered(&self, filter: &Filter) -> Result<Filtered<'_, S>, FilterError> {
        if let Some(unknown) = filter.unknown(self.tools()) {
            return Err(unknown);
        }
        Ok(self.filtered_unchecked(filter.clone()))
    }

    /// The view through a filter whose names were checked already (a server's, once, when it
    /// was set): no walk over the tools for each request.
    pub(crate) fn filtered_unchecked(&self, filter: Filter) -> Filtered<'_, S> {
        Filtered {
            listing: self,
            filter,
        }
    }
}

/// A [`Listing`] seen through a [`Filter`], from [`Listing::filtered`].
#[derive(Clone, Debug)]
pub struct Filtered<'l, S: 'static> {
    listing: &'l Listing<S>,
    filter: Filter,
}

impl<'l, S: 'static> Filtered<'l, S> {
    /// The tools offered, in the listing's order.
    pub fn tools(&self) -> impl Iterator<Item = &'static Tool> + '_ {
        self.listing
            .tools()
            .iter()
            .filter(|tool| self.filter.admits(tool))
    }

    /// The offered tool named `name`: found through the listing's index, then judged by the
    /// filter (so as fast as the listing's own lookup); `None` for a hidden tool as for one
    /// that does not exist.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&'static Tool> {
        self.listing
            .get(name)
            .filter(|tool| self.filter.admits(tool))
    }

    /// The filter.
    #[must_use]
    pub fn filter(&self) -> &Filter {
        &self.filter
    }

    /// The indices of the offered tools.
    fn offered(&self) -> Vec<usize> {
        let tools = self.listing.tools();
        if self.filter.is_everything() {
            return (0..tools.len()).collect();
        }
        let mut offered = Vec::with_capacity(tools.len());
        offered.extend((0..tools.len()).filter(|&i| self.filter.admits(&tools[i])));
        offered
    }

    /// The `tools/list` result of the offered tools, for the page at `cursor`, as
    /// [`Listing::render`] writes it. A cursor is bound to the tools this filter offers: one
    /// issued through another filter (or the whole listing) is refused.
    ///
    /// # Errors
    ///
    /// [`CursorError`] for an invalid cursor.
    pub fn render(
        &self,
        options: &ListOptions,
        cursor: Option<&str>,
    ) -> Result<String, CursorError> {
        let offered = self.offered();
        let (start, end, next) = bounds(self.listing.tools(), &offered, cursor, options.page_size)?;
        let written = written(self.listing.tools(), options);
        // Each run of neighbours in the listing is one slice of its text, copied at once.
        let page = &offered[start..end];
        let mut runs: Vec<(usize, usize)> = Vec::new();
        for &i in page {
            match runs.last_mut() {
                Some((_, end)) if *end == i => *end = i + 1,
                _ => runs.push((i, i + 1)),
            }
        }
        let size: usize = runs
            .iter()
            .map(|&(a, b)| written.slice(a, b).len() + 1)
            .sum();
        Ok(envelope_with(size, next.as_deref(), options, |out| {
            for (n, &(a, b)) in runs.iter().enumerate() {
                if n > 0 {
                    out.push(',');
                }
                out.push_str(written.slice(a, b));
            }
        }))
    }

    /// [`render`](Self::render)'s text, with the page's tools written for this call alone and
    /// nothing kept (what `ListingServer` answers, page by page).
    #[cfg(feature = "rmcp")]
    pub(crate) fn render_page(
        &self,
        options: &ListOptions,
        cursor: Option<&str>,
    ) -> Result<String, CursorError> {
        let tools = self.listing.tools();
        let offered = self.offered();
        let (start, end, next) = bounds(tools, &offered, cursor, options.page_size)?;
        let page = offered[start..end].iter().map(|&i| &tools[i]);
        Ok(crate::listing::render::page_text(
            page,
            next.as_deref(),
            options,
        ))
    }

    /// The page at `cursor` of the offered tools (at most `page_size`, `0`: all the rest) and
    /// the next page's cursor.
    ///
    /// # Errors
    ///
    /// [`CursorError`] for an invalid cursor.
    pub fn page(
        &self,
        cursor: Option<&str>,
        page_size: usize,
    ) -> Result<(Vec<&'static Tool>, Option<String>), CursorError> {
        let tools = self.listing.tools();
        let offered = self.offered();
        let (start, end, next) = bounds(tools, &offered, cursor, page_size)?;
        Ok((
            offered[start..end].iter().map(|&i| &tools[i]).collect(),
            next,
        ))
    }

    /// Calls the offered tool `name`, as [`Listing::call`] does.
    ///
    /// # Errors
    ///
    /// [`UnknownToolError`] for a hidden tool exactly as for one that does not exist (the
    /// same code and message: nothing says it exists).
    pub fn call<'a>(
        &self,
        state: &'a S,
        name: &str,
        arguments: Option<Map<String, Value>>,
        context: Context<'a>,
    ) -> Result<CallFuture<'a>, UnknownToolError> {
        self.listing
            .call_if(state, name, arguments, context, |tool| {
                self.filter.admits(tool)
            })
    }
}

/// Where the page at `cursor` starts and ends among the `offered` tools, and the next cursor.
fn bounds(
    tools: &[Tool],
    offered: &[usize],
    cursor: Option<&str>,
    page_size: usize,
) -> Result<(usize, usize, Option<String>), CursorError> {
    // What the offered tools are, hashed only when a cursor is read or written.
    let hashed = std::cell::OnceCell::new();
    let set = || *hashed.get_or_init(|| set_hash(offered));
    let start = match cursor {
        None | Some("") => 0,
        Some(cursor) => {
            let invalid = || CursorError::new(cursor);
            let (offset, _) = cursor.split_once('.').ok_or_else(invalid)?;
            if offset.is_empty() || offset.len() > 16 {
                return Err(invalid());
            }
            let offset = usize::from_str_radix(offset, 16).map_err(|_| invalid())?;
            if offset == 0
                || offset >= offered.len()
                || encode(tools, offered, set(), offset) != cursor
            {
                return Err(invalid());
            }
            offset
        }
    };
    let rest = offered.len() - start;
    let end = start
        + if page_size == 0 {
            rest
        } else {
            page_size.min(rest)
        };
    let next = (end < offered.len()).then(|| encode(tools, offered, set(), end));
    Ok((start, end, next))
}

/// FNV-1a over `bytes`, from `hash`.
fn feed(mut hash: u64, bytes: &[u8]) -> u64 {
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// What the offered tools are, as one number: a cursor carries it, so another filter's fails.
fn set_hash(offered: &[usize]) -> u64 {
    offered.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &i| {
        feed(hash, &(i as u64).to_le_bytes())
    })
}

fn encode(tools: &[Tool], offered: &[usize], set: u64, offset: usize) -> String {
    let mut hash = feed(set, &(offset as u64).to_le_bytes());
    hash = feed(hash, tools[offered[offset - 1]].name().as_bytes());
    hash = feed(hash, tools[offered[offset]].name().as_bytes());
    let mut out = String::new();
    let _ = write!(out, "{offset:x}.f{hash:015x}");
    out
}
