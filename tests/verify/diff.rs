//! `mcp_annotations::host::diff`: each change classified as a client or host would feel it.

use mcp_annotations::host::diff::{Class, changes, listings};
use mcp_annotations::{Tool, ToolAnnotations, schema::Schema};
use serde_json::json;

fn tool(schema: serde_json::Value) -> Tool {
    Tool::new_owned("search", Schema::from_value(schema).unwrap())
}

fn classes(old: &Tool, new: &Tool) -> Vec<(Class, String)> {
    changes(old, new)
        .into_iter()
        .map(|change| (change.class(), change.what().to_owned()))
        .collect()
}

#[test]
fn input_changes_are_breaking_or_compatible_as_a_call_feels_them() {
    let old = tool(json!({"type": "object", "properties": {
        "query": {"type": "string", "maxLength": 10},
        "limit": {"type": "integer", "minimum": 1, "maximum": 50},
        "kind": {"enum": ["a", "b"]}
    }, "required": ["query"]}));
    let same = classes(&old, &old);
    assert!(same.is_empty(), "{same:?}");
    let narrowed = tool(json!({"type": "object", "properties": {
        "query": {"type": "string", "maxLength": 5, "description": "now said"},
        "limit": {"type": "integer", "minimum": 1, "maximum": 50},
        "kind": {"enum": ["a"]},
        "page": {"type": "integer"}
    }, "required": ["query", "limit", "page"]}));
    let found = classes(&old, &narrowed);
    for expected in [
        (Class::Breaking, "`query`: `maxLength` narrowed (10 -> 5)"),
        (Class::Breaking, "parameter `limit` newly required"),
        (Class::Breaking, "`kind`: enum lost \"b\""),
        (Class::Breaking, "new required parameter `page`"),
    ] {
        assert!(
            found.contains(&(expected.0, expected.1.to_owned())),
            "{expected:?} in {found:?}"
        );
    }
    // The reverse widens: every change compatible but the removed parameter.
    let back = classes(&narrowed, &old);
    assert!(
        back.contains(&(Class::Breaking, "parameter `page` removed".to_owned())),
        "{back:?}"
    );
    assert!(
        back.iter()
            .filter(|(_, what)| what != "parameter `page` removed")
            .all(|(class, _)| *class == Class::Compatible),
        "{back:?}"
    );
}

#[test]
fn a_hint_that_makes_hosts_ask_less_is_a_trust_change() {
    let old = Tool::new("wipe", Schema::NO_INPUT);
    let new = Tool::new("wipe", Schema::NO_INPUT).with_annotations(
        ToolAnnotations::new()
            .with_read_only(true)
            .with_open_world(false),
    );
    let found = classes(&old, &new);
    assert!(
        found.contains(&(Class::Trust, "newly read-only".to_owned())),
        "{found:?}"
    );
    assert!(
        found.contains(&(Class::Trust, "newly closed-world".to_owned())),
        "{found:?}"
    );
    // Read-only is also non-destructive and idempotent by the protocol's semantics.
    assert!(
        found.iter().all(|(class, _)| *class == Class::Trust),
        "{found:?}"
    );
    let back = classes(&new, &old);
    assert!(
        back.iter().all(|(class, _)| *class == Class::Compatible),
        "{back:?}"
    );
}

#[test]
fn listings_compare_by_name() {
    let a = Tool::new("a", Schema::NO_INPUT);
    let b = Tool::new("b", Schema::NO_INPUT);
    let found: Vec<String> = listings(std::slice::from_ref(&a), &[b])
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        found,
        [
            "`a`: tool removed (breaking)",
            "`b`: tool added (compatible)"
        ]
    );
    let output = Tool::new("a", Schema::NO_INPUT).with_output_schema(
        Schema::from_value(json!({"type": "object", "properties": {"n": {"type": "integer"}}}))
            .unwrap(),
    );
    let removed: Vec<String> = changes(&output, &a)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(removed, ["`a`: output schema removed (breaking)"]);
}
