//! State a user classes apart: *volatile* places (a timestamp column, a counter, a cache),
//! whose changes are reported and never judged, and *append-only* places (a log file, an
//! audit table), whose growth a tool that claims idempotence or non-destruction may cause, but
//! a read-only one may not.
//!
//! A place is `PATH` (a file or folder of the sandbox, `*` matching within one segment and
//! `**` any number of them) or `PATH#POINTER`, a JSON pointer into the file's view (see
//! [`crate::observe::formats`]) whose segments may be `*`: `state.db#/tables/audit` is the table
//! `audit`, `state.db#/tables/items/rows/*/last_seen` that column of every row.

use serde_json::Value;

/// One place, as the user wrote it.
#[derive(Clone, Debug)]
pub struct Place {
    text: String,
    path: Vec<String>,
    pointer: Option<Vec<String>>,
    /// Whether `*` is a `*` (a place the probe found, named as it is), not a wildcard.
    literal: bool,
    /// Whether it covers what is beneath it too (a folder's files), not the entry alone.
    beneath: bool,
}

impl Place {
    /// Reads `PATH` or `PATH#POINTER`.
    pub fn parse(text: &str) -> Result<Place, String> {
        let (path, pointer) = match text.split_once('#') {
            Some((path, pointer)) => (path, Some(pointer)),
            None => (text, None),
        };
        let path = path.trim_start_matches("./").trim_end_matches('/');
        if path.is_empty() || path.starts_with('/') {
            return Err(format!(
                "`{text}`: a place is a path inside the sandbox, relative to it (`state.db`, \
                 `logs/*.log`), with `#/pointer` into what it holds after it"
            ));
        }
        let pointer = match pointer {
            None | Some("") => None,
            Some(pointer) if pointer.starts_with('/') => Some(segments(pointer)),
            Some(_) => {
                return Err(format!(
                    "`{text}`: what follows `#` is a JSON pointer, starting with `/`"
                ));
            }
        };
        Ok(Place {
            text: text.to_owned(),
            path: path.split('/').map(str::to_owned).collect(),
            pointer,
            literal: false,
            beneath: true,
        })
    }

    /// The file at `path` (or the value at `pointer` in it, a JSON pointer), as they are:
    /// a `*` or `#` in them is one, not a wildcard or a pointer.
    pub fn literal(path: &str, pointer: Option<&str>) -> Place {
        let pointer = pointer.filter(|p| p.starts_with('/'));
        Place {
            text: match pointer {
                Some(pointer) => format!("{path}#{pointer}"),
                None => path.to_owned(),
            },
            path: path.split('/').map(str::to_owned).collect(),
            pointer: pointer.map(segments),
            literal: true,
            beneath: true,
        }
    }

    /// The entry at `path` alone, as it is (a folder, without what it holds): a `*` in it is
    /// one.
    ///
    /// ```
    /// use mcp_annotations_verify::judge::classes::{Classes, Place};
    ///
    /// let classes = Classes {
    ///     volatile: vec![Place::entry(".registry")],
    ///     ..Classes::default()
    /// };
    /// assert!(classes.volatile_path(".registry"));
    /// assert!(!classes.volatile_path(".registry/notes.md"));
    /// ```
    pub fn entry(path: &str) -> Place {
        Place {
            beneath: false,
            ..Place::literal(path, None)
        }
    }

    /// The place as the user wrote it.
    pub fn text(&self) -> &str {
        &self.text
    }

    fn path_matches(&self, path: &str, prefix: bool) -> bool {
        let path: Vec<&str> = path.split('/').collect();
        if self.literal {
            return path.len() >= self.path.len()
                && (prefix || path.len() == self.path.len())
                && self.path.iter().zip(&path).all(|(a, b)| a == b);
        }
        glob(&self.path, &path, prefix)
    }

    /// Whether the place is all of `path` (or a folder above it, where it covers what is
    /// beneath it).
    fn covers(&self, path: &str) -> bool {
        self.pointer.is_none() && self.path_matches(path, self.beneath)
    }

    /// The pointer into `path`'s view this place names, if it names one in that file, and
    /// whether its `*` segments are wildcards.
    fn pointer_in(&self, path: &str) -> Option<(&[String], bool)> {
        let pointer = self.pointer.as_deref()?;
        self.path_matches(path, false)
            .then_some((pointer, !self.literal))
    }
}

/// The segments of a JSON pointer (starting with `/`), unescaped.
fn segments(pointer: &str) -> Vec<String> {
    pointer[1..]
        .split('/')
        .map(|segment| segment.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// The keys of `map` a pointer's segment names: every key for a wildcard `*`, else itself.
fn keys_named(map: &serde_json::Map<String, Value>, segment: &str, wild: bool) -> Vec<String> {
    if wild && segment == "*" {
        map.keys().cloned().collect()
    } else {
        vec![segment.to_owned()]
    }
}

/// Whether a pointer's segment names the array index `index`.
fn names_index(segment: &str, wild: bool, index: usize) -> bool {
    (wild && segment == "*") || segment.parse() == Ok(index)
}

/// Whether `pattern` matches `path` (whole, or a prefix of it if `prefix`).
fn glob(pattern: &[String], path: &[&str], prefix: bool) -> bool {
    match pattern.split_first() {
        None => prefix || path.is_empty(),
        Some((first, rest)) if first == "**" => {
            (0..=path.len()).any(|skip| glob(rest, &path[skip..], prefix))
        }
        Some((first, rest)) => path.split_first().is_some_and(|(segment, tail)| {
            segment_matches(first, segment) && glob(rest, tail, prefix)
        }),
    }
}

/// `*` within one segment: any run of characters.
fn segment_matches(pattern: &str, segment: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = segment.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// The places the user classed (`--volatile`, `--append-only`).
#[derive(Clone, Debug, Default)]
pub struct Classes {
    /// The places whose changes are reported and never judged.
    pub volatile: Vec<Place>,
    /// The places that may grow where a tool may add, never under a read-only one.
    pub append_only: Vec<Place>,
}

impl Classes {
    /// Whether all of `path` is volatile.
    pub fn volatile_path(&self, path: &str) -> bool {
        self.volatile.iter().any(|place| place.covers(path))
    }

    /// Whether all of `path` is append-only.
    pub fn append_only_path(&self, path: &str) -> bool {
        self.append_only.iter().any(|place| place.covers(path))
    }

    /// `view` (of the file at `path`) without its volatile places.
    pub fn without_volatile(&self, path: &str, view: &Value) -> Value {
        let mut view = view.clone();
        for place in &self.volatile {
            if let Some((pointer, wild)) = place.pointer_in(path) {
                remove(&mut view, pointer, wild);
            }
        }
        view
    }

    /// `is` with the growth of each append-only place of `path` taken back to what `was` held
    /// there (a place that only grew, or that `was` did not have), so that growth alone is no
    /// change.
    pub fn without_growth(&self, path: &str, was: &Value, is: &Value) -> Value {
        let mut is = is.clone();
        for place in &self.append_only {
            if let Some((pointer, wild)) = place.pointer_in(path) {
                fold(was, &mut is, pointer, wild);
                // A SQLite table's `AUTOINCREMENT` counter moves with every row it gains: its
                // growth is the table's (the table's place, or its rows').
                match pointer {
                    [section, table] if section == "tables" => {
                        fold_counter(was, &mut is, table, wild);
                    }
                    [section, table, rows] if section == "tables" && rows == "rows" => {
                        fold_counter(was, &mut is, table, wild);
                    }
                    _ => {}
                }
            }
        }
        is
    }
}

/// `is`'s counters (`/sequences/NAME`) of the tables `table` names taken back to what `was`
/// held, where they only grew.
fn fold_counter(was: &Value, is: &mut Value, table: &str, wild: bool) {
    let (Some(Value::Object(before)), Some(Value::Object(after))) =
        (was.get("sequences"), is.get_mut("sequences"))
    else {
        return;
    };
    for key in keys_named(after, table, wild) {
        let grew = match (before.get(&key), after.get(&key)) {
            (Some(old), Some(new)) => old.as_f64().zip(new.as_f64()).is_some_and(|(o, n)| n >= o),
            _ => false,
        };
        if grew && let Some(old) = before.get(&key) {
            after.insert(key, old.clone());
        }
    }
}

/// Removes every value `pointer` (with `*` segments) names.
fn remove(value: &mut Value, pointer: &[String], wild: bool) {
    let Some((first, rest)) = pointer.split_first() else {
        return;
    };
    let last = rest.is_empty();
    match value {
        Value::Object(map) => {
            for key in keys_named(map, first, wild) {
                if last {
                    map.remove(&key);
                } else if let Some(inner) = map.get_mut(&key) {
                    remove(inner, rest, wild);
                }
            }
        }
        Value::Array(items) => {
            for (index, inner) in items.iter_mut().enumerate() {
                if !names_index(first, wild, index) {
                    continue;
                }
                if last {
                    *inner = Value::Null;
                } else {
                    remove(inner, rest, wild);
                }
            }
        }
        _ => {}
    }
}

/// At each place `pointer` names in `is`: where `was` holds no such place, it is dropped; where
/// `was`'s value there is contained in `is`'s (it only grew), `was`'s value is put back.
fn fold(was: &Value, is: &mut Value, pointer: &[String], wild: bool) {
    let Some((first, rest)) = pointer.split_first() else {
        if crate::compare::contains(was, is) {
            *is = was.clone();
        }
        return;
    };
    match is {
        Value::Object(map) => {
            for key in keys_named(map, first, wild) {
                match was.get(&key) {
                    Some(old) => {
                        if let Some(inner) = map.get_mut(&key) {
                            fold(old, inner, rest, wild);
                        }
                    }
                    None => {
                        map.remove(&key);
                    }
                }
            }
        }
        Value::Array(items) => {
            for (index, inner) in items.iter_mut().enumerate() {
                if let (true, Some(old)) = (names_index(first, wild, index), was.get(index)) {
                    fold(old, inner, rest, wild);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn places_name_files_by_glob_and_values_by_pointer() {
        let log = Place::parse("logs/*.log").unwrap();
        assert!(log.covers("logs/server.log"));
        assert!(!log.covers("logs/server.txt"));
        assert!(Place::parse("cache").unwrap().covers("cache/a/b"));
        assert!(
            Place::parse("**/index.lock")
                .unwrap()
                .covers("repo/.git/index.lock")
        );
        let column = Place::parse("state.db#/tables/items/rows/*/seen").unwrap();
        assert!(!column.covers("state.db"));
        assert_eq!(column.pointer_in("state.db").unwrap().0.len(), 5);
        assert!(Place::parse("/etc/passwd").is_err());
        assert!(Place::parse("state.db#tables").is_err());
        // A place the probe found is named as it is: a file called `*` is that file only.
        let star = Place::literal("*", None);
        assert!(star.covers("*"));
        assert!(!star.covers("state.db"));
        let row = Place::literal("s.db", Some("/tables/t/rows/*"));
        let mut view = json!({"tables": {"t": {"rows": {"*": 1, "a": 2}}}});
        Classes {
            volatile: vec![row],
            append_only: Vec::new(),
        }
        .without_volatile("s.db", &view.clone())
        .clone_into(&mut view);
        assert_eq!(view, json!({"tables": {"t": {"rows": {"a": 2}}}}));
    }

    #[test]
    fn volatile_values_are_masked_and_append_only_growth_folded_back() {
        let classes = Classes {
            volatile: vec![Place::parse("s.db#/tables/items/rows/*/seen").unwrap()],
            append_only: vec![Place::parse("s.db#/tables/audit").unwrap()],
        };
        let was = json!({"tables": {"items": {"rows": {"1": {"v": "a", "seen": 1}}},
            "audit": {"rows": {"1": {"at": 1}}}}});
        let is = json!({"tables": {"items": {"rows": {"1": {"v": "a", "seen": 2}}},
            "audit": {"rows": {"1": {"at": 1}, "2": {"at": 2}}}}});
        let (was_seen, is_seen) = (
            classes.without_volatile("s.db", &was),
            classes.without_volatile("s.db", &is),
        );
        assert_eq!(was_seen["tables"]["items"], is_seen["tables"]["items"]);
        assert_eq!(
            classes.without_growth("s.db", &was_seen, &is_seen),
            was_seen
        );
        // An audit row overwritten is not growth.
        let rewritten = json!({"tables": {"items": {"rows": {"1": {"v": "a", "seen": 1}}},
            "audit": {"rows": {"1": {"at": 9}}}}});
        assert_ne!(classes.without_growth("s.db", &was, &rewritten), was);
        // Its AUTOINCREMENT counter moves with it; another table's is still judged.
        let was = json!({"tables": {"audit": {"rows": {"1": {"at": 1}}}},
            "sequences": {"audit": 1, "items": 4}});
        let is = json!({"tables": {"audit": {"rows": {"1": {"at": 1}, "2": {"at": 2}}}},
            "sequences": {"audit": 2, "items": 4}});
        assert_eq!(classes.without_growth("s.db", &was, &is), was);
        let other = json!({"tables": {"audit": {"rows": {"1": {"at": 1}}}},
            "sequences": {"audit": 1, "items": 5}});
        assert_ne!(classes.without_growth("s.db", &was, &other), was);
        // Given as its rows: the same.
        for place in ["s.db#/tables/audit/rows", "s.db#/tables/*"] {
            let classes = Classes {
                volatile: Vec::new(),
                append_only: vec![Place::parse(place).unwrap()],
            };
            assert_eq!(classes.without_growth("s.db", &was, &is), was, "{place}");
        }
    }
}
