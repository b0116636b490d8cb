//! Log-shaped places found by the run itself: a database table that calls only ever add rows
//! to, each row stamped with the time (an audit log, an access log), is classed append-only,
//! as `--append-only` would class it, so that a tool that logs each call is not accused of a
//! repeated call's "additional effect". Read-only claims are judged as before: growth of an
//! append-only place still breaks them.
//!
//! A table is classed only where all of these hold, so that a tool that adds a record of its
//! own per call (a tag, a note) is still judged:
//! - the second of two identical calls only added rows to it (it existed before);
//! - each added row holds a time within a day of now (seconds, milliseconds, microseconds or
//!   nanoseconds since the epoch, or a date and time written out);
//! - no call of the run before changed or removed a row of it.
//!
//! Its `AUTOINCREMENT` counter moves with it, as any append-only table's does. A table
//! classed stays classed for the rest of the run: what any later call adds there is a log's
//! growth.

use std::collections::BTreeSet;
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value};

use mcp_annotations_verify::compare::escape;
use mcp_annotations_verify::judge::classes::Place;
use mcp_annotations_verify::observe::formats::Format;
use mcp_annotations_verify::observe::tree::Tree;

/// What the run showed of its tables, and the ones classed append-only by it.
#[derive(Default)]
pub(super) struct Logs {
    /// Tables (`path#/tables/name`) some call changed or removed a row of.
    touched: BTreeSet<String>,
    /// The tables classed, as their places.
    classed_places: BTreeSet<String>,
    /// The places classed, each with why, in the order found.
    pub(super) classed: Vec<String>,
}

impl Logs {
    /// Notes the tables whose rows `before` → `after` changed or removed.
    pub(super) fn watch(&mut self, before: &Tree, after: &Tree) {
        for (path, pointer, from, to) in tables(before, after) {
            let (_, changed) = growth(from, to);
            if changed {
                self.touched.insert(format!("{path}#{pointer}"));
            }
        }
    }

    /// The tables `first` → `second` (a repeated call's change) only added timestamped rows
    /// to and no call touched before, each classed now and returned as a place to class
    /// append-only.
    pub(super) fn infer(&mut self, first: &Tree, second: &Tree) -> Vec<Place> {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0.0, |since| since.as_secs_f64());
        let mut found = Vec::new();
        for (path, pointer, from, to) in tables(first, second) {
            let place = format!("{path}#{pointer}");
            let (added, changed) = growth(from, to);
            if changed
                || added.is_empty()
                || self.touched.contains(&place)
                || self.classed_places.contains(&place)
            {
                continue;
            }
            let stamped: Option<Vec<String>> = added.iter().map(|row| stamp(row, now)).collect();
            let Some(columns) = stamped else {
                continue;
            };
            let mut columns: Vec<String> = columns;
            columns.sort();
            columns.dedup();
            self.classed.push(format!(
                "{place}: a repeated call only added rows, each stamped with the time ({}), \
                 and no call changed or removed one",
                columns
                    .iter()
                    .map(|column| format!("`{column}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            found.push(Place::literal(path, Some(&pointer)));
            self.classed_places.insert(place);
        }
        found
    }
}

/// Each SQLite table in both trees, of a database whose view changed (its hash): its file's
/// path, its pointer in the file's view (`/tables/name`), and its rows before and after.
fn tables<'t>(
    before: &'t Tree,
    after: &'t Tree,
) -> impl Iterator<
    Item = (
        &'t str,
        String,
        &'t Map<String, Value>,
        &'t Map<String, Value>,
    ),
> {
    after.iter().flat_map(move |(path, entry)| {
        let is = match &entry.view {
            Some((Format::Sqlite, view)) => view["tables"].as_object(),
            _ => None,
        };
        let was = match before.get(path) {
            Some(was) if was.hash == entry.hash => None,
            Some(was) => match &was.view {
                Some((Format::Sqlite, view)) => view["tables"].as_object(),
                _ => None,
            },
            None => None,
        };
        let pairs: Vec<_> = match (was, is) {
            (Some(was), Some(is)) => is
                .iter()
                .filter_map(|(name, table)| {
                    let from = was.get(name)?["rows"].as_object()?;
                    let to = table["rows"].as_object()?;
                    Some((path.as_str(), format!("/tables/{}", escape(name)), from, to))
                })
                .collect(),
            _ => Vec::new(),
        };
        pairs
    })
}

/// The rows `to` holds beyond `from`, and whether a row of `from` changed or went.
fn growth<'r>(from: &Map<String, Value>, to: &'r Map<String, Value>) -> (Vec<&'r Value>, bool) {
    let changed = from.iter().any(|(key, row)| to.get(key) != Some(row));
    let added = to
        .iter()
        .filter(|(key, _)| !from.contains_key(*key))
        .map(|(_, row)| row)
        .collect();
    (added, changed)
}

/// The column of `row` that holds a time within a day of `now` (seconds since the epoch).
fn stamp(row: &Value, now: f64) -> Option<String> {
    const DAY: f64 = 86_400.0;
    row.as_object()?.iter().find_map(|(column, value)| {
        let near = match value {
            Value::Number(number) => number.as_f64().is_some_and(|n| {
                [1.0, 1e3, 1e6, 1e9]
                    .iter()
                    .any(|scale| (n / scale - now).abs() < DAY)
            }),
            Value::String(text) => mcp_annotations_verify::judge::written_time(text)
                .is_some_and(|at| (at - now).abs() < DAY),
            _ => false,
        };
        near.then(|| column.clone())
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn a_row_is_stamped_by_a_time_near_now_in_any_unit_or_written_out() {
        let now = 1_796_000_000.0;
        assert_eq!(
            super::stamp(&json!({"id": 3, "at": now - 5.0}), now).as_deref(),
            Some("at")
        );
        assert!(
            super::stamp(&json!({"id": 3, "ns": 1_796_000_000_123_456_789_u64}), now).is_some()
        );
        assert!(super::stamp(&json!({"id": 3, "tag": "red"}), now).is_none());
        assert!(super::stamp(&json!({"id": 3, "at": 12.0}), now).is_none());
        // 2026-12-01T00:00:00Z is 1796083200.
        assert_eq!(
            mcp_annotations_verify::judge::written_time("2026-12-01T00:00:00Z"),
            Some(1_796_083_200.0)
        );
        assert_eq!(
            mcp_annotations_verify::judge::written_time("2026-12-01 00:00"),
            Some(1_796_083_200.0)
        );
        assert_eq!(mcp_annotations_verify::judge::written_time("red"), None);
    }
}
