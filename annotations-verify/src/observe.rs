//! Judging observations: the additive rule (nothing that was there is gone or overwritten)
//! and a diff of two observations for the report.

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

/// Puts every array of `value` at `pointer` (a JSON pointer, `*` for any key or index) in one
/// order, by each item's JSON text, so that two observations of one set compare equal.
pub(crate) fn as_set(value: &mut Value, pointer: &str) {
    let segments: Vec<String> = if pointer.is_empty() {
        Vec::new()
    } else {
        pointer
            .trim_start_matches('/')
            .split('/')
            .map(|segment| segment.replace("~1", "/").replace("~0", "~"))
            .collect()
    };
    sort_at(value, &segments);
}

fn sort_at(value: &mut Value, segments: &[String]) {
    let Some((first, rest)) = segments.split_first() else {
        if let Value::Array(items) = value {
            items.sort_by_cached_key(Value::to_string);
        }
        return;
    };
    match value {
        Value::Object(object) if first == "*" => {
            object.values_mut().for_each(|inner| sort_at(inner, rest));
        }
        Value::Object(object) => {
            if let Some(inner) = object.get_mut(first) {
                sort_at(inner, rest);
            }
        }
        Value::Array(items) if first == "*" => {
            items.iter_mut().for_each(|inner| sort_at(inner, rest))
        }
        Value::Array(items) => {
            if let Some(inner) = first.parse::<usize>().ok().and_then(|at| items.get_mut(at)) {
                sort_at(inner, rest);
            }
        }
        _ => {}
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
                let here = format!("{path}/{}", key.replace('~', "~0").replace('/', "~1"));
                match new.get(key) {
                    Some(kept) => walk(&here, value, kept, lines),
                    None => lines.push(format!("{here}: {} -> (gone)", short(value))),
                }
            }
            for (key, value) in new {
                if !old.contains_key(key) {
                    let here = format!("{path}/{}", key.replace('~', "~0").replace('/', "~1"));
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

/// One observation of a state: its JSON, or the files it keeps its data in.
pub(crate) enum Observed {
    Json(Value),
    #[cfg(feature = "files")]
    Files(crate::files::tree::Tree),
}

/// The places classed volatile or append-only (none without the `files` feature).
#[cfg(feature = "files")]
pub(crate) type Classes = crate::files::classes::Classes;
#[cfg(not(feature = "files"))]
pub(crate) type Classes = ();

/// `state` observed as `observe` says, each array at an `unordered` pointer compared as a
/// set; why not, where its JSON could not be made.
pub(crate) fn observe<S>(
    observe: &crate::Observe<'_, S>,
    unordered: &[String],
    state: &S,
) -> Result<Observed, String> {
    match observe {
        crate::Observe::Json(observe) => observe(state).map(|mut value| {
            // The deepest first: an array of sets is put in order by its items once each of
            // them is.
            let mut pointers: Vec<&String> = unordered.iter().collect();
            pointers.sort_by_key(|pointer| std::cmp::Reverse(pointer.matches('/').count()));
            for pointer in pointers {
                as_set(&mut value, pointer);
            }
            Observed::Json(value)
        }),
        #[cfg(feature = "files")]
        crate::Observe::Files(path) => Ok(Observed::Files(crate::files::tree::observe_path(
            &path(state),
        ))),
    }
}

impl Observed {
    /// Whether what was observed is there: JSON always is; files where their path was.
    pub(crate) fn found(&self) -> bool {
        match self {
            Observed::Json(_) => true,
            #[cfg(feature = "files")]
            Observed::Files(tree) => !tree.is_empty(),
        }
    }

    /// Whether anything changed from `self` to `after`. With `growth_allowed`, an
    /// append-only place that only grew is no change.
    #[cfg_attr(not(feature = "files"), allow(unused_variables))]
    pub(crate) fn changed(
        &self,
        after: &Observed,
        classes: &Classes,
        growth_allowed: bool,
    ) -> bool {
        match (self, after) {
            (Observed::Json(was), Observed::Json(is)) => was != is,
            #[cfg(feature = "files")]
            (Observed::Files(was), Observed::Files(is)) => {
                crate::files::judge::changed(was, is, classes, growth_allowed).is_some()
            }
            #[cfg(feature = "files")]
            _ => true,
        }
    }

    /// Whether everything `self` had is kept in `after` (the additive rule).
    #[cfg_attr(not(feature = "files"), allow(unused_variables))]
    pub(crate) fn kept_in(&self, after: &Observed, classes: &Classes) -> bool {
        match (self, after) {
            (Observed::Json(was), Observed::Json(is)) => contains(was, is),
            #[cfg(feature = "files")]
            (Observed::Files(was), Observed::Files(is)) => {
                crate::files::judge::lost(was, is, classes).is_none()
            }
            #[cfg(feature = "files")]
            _ => false,
        }
    }

    /// How `after` differs from `self`, for the report: at most `limit` lines.
    pub(crate) fn diff(&self, after: &Observed, limit: usize) -> String {
        match (self, after) {
            (Observed::Json(was), Observed::Json(is)) => diff(was, is, limit),
            #[cfg(feature = "files")]
            (Observed::Files(was), Observed::Files(is)) => {
                crate::files::judge::diff(was, is, limit).join("\n")
            }
            #[cfg(feature = "files")]
            _ => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{contains, diff};

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
}
