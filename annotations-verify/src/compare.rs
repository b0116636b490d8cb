//! Two JSON values compared, the leaf every judgement stands on: whether the second keeps
//! all the first had ([`contains`], the additive rule), where it first lost something
//! ([`lost_at`]), and the places they differ ([`differences`], and a diff in lines for a
//! report).
//!
//! ```
//! use mcp_annotations_verify::compare::{contains, differences, lost_at};
//! use serde_json::json;
//!
//! let was = json!({"notes": {"1": "milk"}});
//! let grown = json!({"notes": {"1": "milk", "2": "eggs"}});
//! assert!(contains(&was, &grown));
//! let overwritten = json!({"notes": {"1": "tea"}});
//! assert_eq!(lost_at(&was, &overwritten, "").as_deref(), Some("/notes/1 was overwritten"));
//! let mut places = Vec::new();
//! differences(&was, &grown, "", &mut places, 8);
//! assert_eq!(places[0].to_string(), "+ /notes/2");
//! ```

use std::fmt::Write as _;

use serde_json::Value;

/// Whether `after` keeps everything `before` had: the rule a tool that is neither read-only
/// nor destructive is held to, on the observation's JSON.
///
/// - an object keeps every key, and each key's value is kept (by this rule) in the new value;
/// - an array's items are each kept in a distinct item of the new array (order aside, so a
///   store may sort or prepend), whenever any one-to-one assignment keeps them all;
/// - any other value (a string, a number, `true`, `null`) is equal.
///
/// So adding a key, an item or a field anywhere is additive; removing, or changing a value
/// that was there, is not.
#[must_use]
pub fn contains(before: &Value, after: &Value) -> bool {
    match (before, after) {
        (Value::Object(old), Value::Object(new)) => old
            .iter()
            .all(|(key, value)| new.get(key).is_some_and(|kept| contains(value, kept))),
        (Value::Array(old), Value::Array(new)) => {
            // Each old item to its own new item: a maximum matching. An item equal to a new
            // one takes it first (safe: whatever else fits it fits another item it fits); the
            // rest are matched by augmenting paths, so no first fit blocks a matching that
            // keeps every item.
            let mut owner: Vec<Option<usize>> = vec![None; new.len()];
            let mut rest = Vec::new();
            // Equal items found by their JSON text (each new item's, last first so that the
            // first is taken first), then compared.
            let mut equal: std::collections::HashMap<String, Vec<usize>> = Default::default();
            for (i, candidate) in new.iter().enumerate().rev() {
                equal.entry(candidate.to_string()).or_default().push(i);
            }
            for item in old {
                let found = equal
                    .get_mut(&item.to_string())
                    .and_then(Vec::pop)
                    .filter(|&i| new[i] == *item);
                match found {
                    Some(i) => owner[i] = Some(usize::MAX),
                    None => rest.push(item),
                }
            }
            // The candidates of each old item, found through an index of the new items that
            // are left (an object by each of its keys, arrays together; a value of another
            // kind is kept only by an equal one, matched above), so that the work grows with
            // the candidates, not with every pair.
            let mut by_key: std::collections::HashMap<&str, Vec<usize>> = Default::default();
            let (mut objects, mut arrays) = (Vec::new(), Vec::new());
            for (i, candidate) in new.iter().enumerate().filter(|(i, _)| owner[*i].is_none()) {
                match candidate {
                    Value::Object(object) => {
                        objects.push(i);
                        for key in object.keys() {
                            by_key.entry(key.as_str()).or_default().push(i);
                        }
                    }
                    Value::Array(_) => arrays.push(i),
                    _ => {}
                }
            }
            let none = Vec::new();
            let fits: Vec<Vec<usize>> = rest
                .iter()
                .map(|item| {
                    let candidates = match item {
                        Value::Object(object) if object.is_empty() => &objects,
                        Value::Object(object) => object
                            .keys()
                            .map(|key| by_key.get(key.as_str()).unwrap_or(&none))
                            .min_by_key(|list| list.len())
                            .unwrap_or(&none),
                        Value::Array(_) => &arrays,
                        _ => &none,
                    };
                    candidates
                        .iter()
                        .copied()
                        .filter(|&i| contains(item, &new[i]))
                        .collect()
                })
                .collect();
            // Which search last visited each new item: one list for every search, none
            // cleared (a search is the number of its old item, plus one).
            let mut seen = vec![0usize; new.len()];
            (0..rest.len()).all(|item| augment(item, &fits, &mut owner, &mut seen))
        }
        (old, new) => old == new,
    }
}

/// Finds a new item for old item `item` among those it fits, moving earlier items to other
/// items they fit where that frees one (Kuhn's augmenting path), with a stack of its own: an
/// array of any length never runs out of the thread's.
fn augment(
    item: usize,
    fits: &[Vec<usize>],
    owner: &mut [Option<usize>],
    seen: &mut [usize],
) -> bool {
    let search = item + 1;
    // A free item taken at once: most arrays need no path at all.
    if let Some(&free) = fits[item]
        .iter()
        .find(|&&candidate| owner[candidate].is_none())
    {
        owner[free] = Some(item);
        return true;
    }
    // Each frame: an old item and how far through its candidates it is; `via` the new item
    // the frame below tries to free through it.
    let mut stack: Vec<(usize, usize)> = vec![(item, 0)];
    let mut via: Vec<usize> = Vec::new();
    while let Some(&mut (current, ref mut next)) = stack.last_mut() {
        let Some(&candidate) = fits[current].get(*next) else {
            // No candidate left: this item cannot move; the frame below tries its next.
            stack.pop();
            via.pop();
            continue;
        };
        *next += 1;
        if seen[candidate] == search {
            continue;
        }
        seen[candidate] = search;
        match owner[candidate] {
            Some(other) if other != usize::MAX => {
                // Taken by another old item: try to move that one.
                via.push(candidate);
                stack.push((other, 0));
            }
            Some(_) => {}
            None => {
                // Free: every item on the path takes the new item it was trying.
                owner[candidate] = Some(current);
                stack.pop();
                while let (Some((below, _)), Some(freed)) = (stack.pop(), via.pop()) {
                    owner[freed] = Some(below);
                }
                return true;
            }
        }
    }
    false
}

/// The differences between two observations, one line each, by JSON pointer (`/notes/0/title:
/// "a" -> "b"`), at most `limit` lines.
pub(crate) fn diff(before: &Value, after: &Value, limit: usize) -> String {
    let mut lines = Vec::new();
    walk("", before, after, &mut lines);
    let more = lines.len().saturating_sub(limit);
    let mut out = String::new();
    for line in lines.iter().take(limit) {
        let _ = writeln!(out, "      {line}");
    }
    if more > 0 {
        let _ = writeln!(out, "      ... and {more} more");
    }
    out
}

fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 80 {
        let cut: String = text.chars().take(77).collect();
        format!("{cut}...")
    } else {
        text
    }
}

fn walk(path: &str, before: &Value, after: &Value, lines: &mut Vec<String>) {
    match (before, after) {
        (Value::Object(old), Value::Object(new)) => {
            for (key, value) in old {
                let here = format!("{path}/{}", escape(key));
                match new.get(key) {
                    Some(kept) => walk(&here, value, kept, lines),
                    None => lines.push(format!("{here}: {} -> (gone)", short(value))),
                }
            }
            for (key, value) in new {
                if !old.contains_key(key) {
                    let here = format!("{path}/{}", escape(key));
                    lines.push(format!("{here}: (new) -> {}", short(value)));
                }
            }
        }
        (Value::Array(old), Value::Array(new)) => {
            for (i, (a, b)) in old.iter().zip(new).enumerate() {
                walk(&format!("{path}/{i}"), a, b, lines);
            }
            for (i, item) in old.iter().enumerate().skip(new.len()) {
                lines.push(format!("{path}/{i}: {} -> (gone)", short(item)));
            }
            for (i, item) in new.iter().enumerate().skip(old.len()) {
                lines.push(format!("{path}/{i}: (new) -> {}", short(item)));
            }
        }
        (old, new) if old != new => {
            let at = if path.is_empty() { "/" } else { path };
            lines.push(format!("{at}: {} -> {}", short(old), short(new)));
        }
        _ => {}
    }
}

/// A JSON pointer's segment, escaped.
pub fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// Where `was` lost something in `is` by the additive rule: an object key removed, a value
/// overwritten (a `null` filled is not), or an array no longer containing every item (items matched as
/// [`contains`] does). The pointer of the first loss, from `at`.
pub fn lost_at(was: &Value, is: &Value, at: &str) -> Option<String> {
    match (was, is) {
        (Value::Object(was), Value::Object(is)) => was.iter().find_map(|(key, old)| {
            let here = format!("{at}/{}", escape(key));
            match is.get(key) {
                None => Some(format!("{here} was removed")),
                Some(new) => lost_at(old, new, &here),
            }
        }),
        (Value::Array(_), Value::Array(_)) => (!contains(was, is))
            .then(|| format!("{} lost an item or had one overwritten", shown(at))),
        _ if was == is => None,
        // An empty value filled (a NULL column set, a `null` given a value) loses nothing.
        (Value::Null, _) => None,
        _ => Some(format!("{} was overwritten", shown(at))),
    }
}

fn shown(at: &str) -> &str {
    if at.is_empty() { "the whole value" } else { at }
}

/// One place at which two views differ.
pub struct Difference {
    /// `-` removed, `+` added, `~` changed.
    pub sign: char,
    /// Where, as a JSON pointer (empty: the whole value).
    pub pointer: String,
    /// An array that changed length: its lengths before and after.
    pub lengths: Option<(usize, usize)>,
}

impl Difference {
    /// Where it is, in words: the pointer (or "the whole value") and any change of length.
    pub fn place(&self) -> String {
        match self.lengths {
            Some((was, is)) => format!("{} ({was} -> {is} items)", shown(&self.pointer)),
            None => shown(&self.pointer).to_owned(),
        }
    }
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.sign, self.place())
    }
}

/// The places at which `was` and `is` differ, at most `limit`: an object compared key by
/// key, an array item by item where both have as many, anything else as a whole.
pub fn differences(was: &Value, is: &Value, at: &str, out: &mut Vec<Difference>, limit: usize) {
    if out.len() >= limit || was == is {
        return;
    }
    match (was, is) {
        (Value::Object(old), Value::Object(new)) => {
            for (key, value) in old {
                let here = format!("{at}/{}", escape(key));
                match new.get(key) {
                    None => out.push(Difference {
                        sign: '-',
                        pointer: here,
                        lengths: None,
                    }),
                    Some(other) => differences(value, other, &here, out, limit),
                }
                if out.len() >= limit {
                    return;
                }
            }
            for key in new.keys().filter(|key| !old.contains_key(*key)) {
                if out.len() >= limit {
                    return;
                }
                out.push(Difference {
                    sign: '+',
                    pointer: format!("{at}/{}", escape(key)),
                    lengths: None,
                });
            }
        }
        (Value::Array(old), Value::Array(new)) if old.len() == new.len() => {
            for (index, (value, other)) in old.iter().zip(new).enumerate() {
                differences(value, other, &format!("{at}/{index}"), out, limit);
            }
        }
        (Value::Array(old), Value::Array(new)) => out.push(Difference {
            sign: '~',
            pointer: at.to_owned(),
            lengths: Some((old.len(), new.len())),
        }),
        _ => out.push(Difference {
            sign: '~',
            pointer: at.to_owned(),
            lengths: None,
        }),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{contains, diff, differences, lost_at};

    #[test]
    fn additive_means_nothing_gone_or_overwritten() {
        let before = json!({"notes": [{"id": 1, "title": "a"}], "next": 2});
        assert!(contains(&before, &before));
        assert!(contains(
            &before,
            &json!({"notes": [{"id": 2, "title": "b"}, {"id": 1, "title": "a", "tags": []}], "next": 2, "x": 1})
        ));
        assert!(!contains(&before, &json!({"notes": [], "next": 2})));
        assert!(!contains(
            &before,
            &json!({"notes": [{"id": 1, "title": "b"}], "next": 2})
        ));
        assert!(!contains(
            &before,
            &json!({"notes": [{"id": 1, "title": "a"}]})
        ));
        // Two items kept need two items after.
        assert!(!contains(&json!([1, 1]), &json!([1])));
        assert!(contains(
            &json!([{"a": 1}, {"a": 1}]),
            &json!([{"a": 1, "b": 2}, {"a": 1}])
        ));
        assert!(!contains(&json!(1), &json!(1.5)));
    }

    #[test]
    fn the_diff_names_each_place() {
        let text = diff(
            &json!({"a": [1, 2], "b": "x"}),
            &json!({"a": [1], "b": "y", "c": true}),
            10,
        );
        assert!(text.contains("/a/1: 2 -> (gone)"), "{text}");
        assert!(text.contains("/b: \"x\" -> \"y\""), "{text}");
        assert!(text.contains("/c: (new) -> true"), "{text}");
    }

    #[test]
    fn a_loss_is_named_by_its_pointer() {
        let was = json!({"tables": {"t": {"rows": {"1": {"v": "a"}}}}});
        let grown = json!({"tables": {"t": {"rows": {"1": {"v": "a"}, "2": {"v": "b"}}}}});
        let updated = json!({"tables": {"t": {"rows": {"1": {"v": "z"}}}}});
        let deleted = json!({"tables": {"t": {"rows": {}}}});
        assert_eq!(lost_at(&was, &grown, ""), None);
        let empty = json!({"rows": {"1": {"done_at": null}}});
        let filled = json!({"rows": {"1": {"done_at": 5}}});
        assert_eq!(lost_at(&empty, &filled, ""), None);
        assert!(lost_at(&filled, &empty, "").is_some());
        assert_eq!(
            lost_at(&was, &updated, "").as_deref(),
            Some("/tables/t/rows/1/v was overwritten")
        );
        assert_eq!(
            lost_at(&was, &deleted, "").as_deref(),
            Some("/tables/t/rows/1 was removed")
        );
        let mut out = Vec::new();
        differences(&was, &grown, "", &mut out, 10);
        let out: Vec<String> = out.iter().map(ToString::to_string).collect();
        assert_eq!(out, ["+ /tables/t/rows/2"]);
    }
}
