//! A server's whole listing, page by page, with what went wrong with the listing itself.

use std::time::Instant;

use serde_json::{Value, json};

use super::{MAX_PAGES, Peer};

impl Peer {
    /// Every tool the server lists, as the JSON it sent, and what went wrong with the listing
    /// itself (a cursor that repeats, too many pages).
    pub fn list_tools(&mut self) -> Result<(Vec<Value>, Vec<String>), String> {
        let mut tools = Vec::new();
        let mut problems = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut cursor: Option<String> = None;
        for page in 0.. {
            if self
                .deadline
                .is_some_and(|overall| Instant::now() >= overall)
            {
                problems.push(format!(
                    "the time given ran out after {page} pages of the listing: read up to there"
                ));
                break;
            }
            if page == MAX_PAGES {
                problems.push(format!(
                    "the listing has more than {MAX_PAGES} pages: read up to there"
                ));
                break;
            }
            let params = cursor
                .as_ref()
                .map_or_else(|| json!({}), |cursor| json!({ "cursor": cursor }));
            let result = match self.result("tools/list", params) {
                Ok(result) => result,
                // Out of time in the middle of the listing: what was read is the listing.
                Err(_)
                    if page > 0
                        && self
                            .deadline
                            .is_some_and(|overall| Instant::now() >= overall) =>
                {
                    problems.push(format!(
                        "the time given ran out after {page} pages of the listing: read up to there"
                    ));
                    break;
                }
                Err(error) => return Err(error),
            };
            match result.get("tools") {
                Some(Value::Array(listed)) => {
                    tools.extend(listed.iter().cloned());
                    crate::progress::listed(tools.len());
                }
                _ => return Err("the server's tools/list result has no `tools` array".to_owned()),
            }
            match result.get("nextCursor") {
                None | Some(Value::Null) => break,
                Some(Value::String(next)) if seen.insert(next.clone()) => {
                    cursor = Some(next.clone());
                }
                Some(Value::String(next)) => {
                    let shown: String = next.chars().take(40).collect();
                    problems.push(format!(
                        "the listing's cursor {shown:?} comes back, so a client following it \
                         never ends: read up to there"
                    ));
                    break;
                }
                Some(other) => {
                    problems.push(format!(
                        "`nextCursor` is not a string ({other}): read up to there"
                    ));
                    break;
                }
            }
        }
        Ok((tools, problems))
    }
}
