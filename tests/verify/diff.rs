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

/// A tool newly resolvable lets hosts act on per-call hints narrower than its listed ones: a
/// trust change; no longer resolvable, hosts fall back on the listed hints: compatible.
#[test]
fn a_tool_newly_resolvable_is_a_trust_change() {
    let old = Tool::new("run_sql", Schema::NO_INPUT);
    let new = Tool::new("run_sql", Schema::NO_INPUT).with_resolvable(true);
    assert_eq!(
        classes(&old, &new),
        [(
            Class::Trust,
            "newly resolvable: hosts that resolve its calls act on per-call hints".to_owned()
        )]
    );
    assert_eq!(
        classes(&new, &old),
        [(
            Class::Compatible,
            "no longer resolvable: hosts act on the listed hints".to_owned()
        )]
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

/// Each change in the class a caller feels it in, where each used to be in another.
#[test]
fn each_keyword_change_is_in_the_class_a_caller_feels() {
    let pair = |old: serde_json::Value, new: serde_json::Value| classes(&tool(old), &tool(new));
    let only = |found: Vec<(Class, String)>, class: Class| {
        assert!(!found.is_empty(), "a change was seen");
        assert!(
            found.iter().all(|(c, _)| *c == class),
            "{class:?}: {found:?}"
        );
    };
    // Opening additionalProperties, at the top and on an object parameter: compatible.
    only(
        pair(
            json!({"type": "object", "properties": {"q": {"type": "string"}}, "additionalProperties": false}),
            json!({"type": "object", "properties": {"q": {"type": "string"}}}),
        ),
        Class::Compatible,
    );
    only(
        pair(
            json!({"type": "object", "properties": {"o": {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false}}}),
            json!({"type": "object", "properties": {"o": {"type": "object", "properties": {"a": {"type": "string"}}}}}),
        ),
        Class::Compatible,
    );
    // And closing it is breaking.
    only(
        pair(
            json!({"type": "object", "properties": {"o": {"type": "object", "properties": {"a": {"type": "string"}}}}}),
            json!({"type": "object", "properties": {"o": {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false}}}),
        ),
        Class::Breaking,
    );
    // A description changed inside $defs: nothing a call feels (as for a parameter's).
    let found = pair(
        json!({"type": "object", "properties": {"n": {"$ref": "#/$defs/N"}}, "$defs": {"N": {"type": "string", "description": "a"}}}),
        json!({"type": "object", "properties": {"n": {"$ref": "#/$defs/N"}}, "$defs": {"N": {"type": "string", "description": "b"}}}),
    );
    assert!(
        found.iter().all(|(class, _)| *class == Class::Compatible),
        "{found:?}"
    );
    // pydantic's optional form of a string: a widening; and back, a narrowing.
    let string = json!({"type": "object", "properties": {"s": {"type": "string"}}});
    let optional = json!({"type": "object", "properties": {"s": {"anyOf": [{"type": "string"}, {"type": "null"}]}}});
    only(pair(string.clone(), optional.clone()), Class::Compatible);
    only(pair(optional, string), Class::Breaking);
    // A newly required name with no property of its own (a map plus `required`): breaking.
    let found = pair(
        json!({"type": "object", "additionalProperties": {"type": "string"}}),
        json!({"type": "object", "additionalProperties": {"type": "string"}, "required": ["owner"]}),
    );
    assert_eq!(
        found,
        [(Class::Breaking, "`owner` newly required".to_owned())]
    );
}

/// A new output field that is always there (a new field of a `Json<T>` struct) is one more a
/// caller finds: compatible.
#[test]
fn a_new_output_field_always_present_is_compatible() {
    let with_output = |output: serde_json::Value| {
        Tool::new_owned("search", Schema::NO_INPUT)
            .with_output_schema(Schema::from_value(output).unwrap())
    };
    let old = with_output(
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}),
    );
    let new = with_output(
        json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["a", "b"]}),
    );
    let found = classes(&old, &new);
    assert_eq!(
        found,
        [(Class::Compatible, "new output field `b`".to_owned())]
    );
    // A field that may now be missing is one a caller may no longer find.
    let looser = with_output(json!({"type": "object", "properties": {"a": {"type": "string"}}}));
    assert_eq!(
        classes(&old, &looser),
        [(
            Class::Breaking,
            "output field \"a\" no longer always present".to_owned()
        )]
    );
}

/// A name listed twice in the new listing is a breaking change of its own, and hides no
/// change of either twin: a rug pull behind a duplicate is still seen.
#[test]
fn a_duplicate_name_is_a_change_and_hides_none() {
    let plain = Tool::new_owned("delete", Schema::NO_INPUT)
        .with_annotations(ToolAnnotations::new().with_destructive(true));
    let harmless = Tool::new_owned("delete", Schema::NO_INPUT)
        .with_annotations(ToolAnnotations::new().with_read_only(true));
    let found: Vec<(Class, String)> =
        listings(std::slice::from_ref(&plain), &[plain.clone(), harmless])
            .into_iter()
            .map(|change| (change.class(), change.what().to_owned()))
            .collect();
    assert!(
        found.contains(&(Class::Breaking, "listed 2 times under one name".to_owned())),
        "{found:?}"
    );
    assert!(
        found.contains(&(Class::Trust, "newly read-only".to_owned())),
        "{found:?}"
    );
}

/// Second round: what hid a change or put it in the wrong class.
#[test]
fn nested_maps_overlapping_choices_data_and_draft_07_definitions_are_classified() {
    let pair = |old: serde_json::Value, new: serde_json::Value| classes(&tool(old), &tool(new));
    let wrap = |inner: serde_json::Value| json!({"type": "object", "properties": {"cfg": inner}});
    // A name newly required inside a map parameter with no properties: breaking.
    let found = pair(
        wrap(
            json!({"type": "object", "additionalProperties": {"type": "string"}, "required": ["a"]}),
        ),
        wrap(
            json!({"type": "object", "additionalProperties": {"type": "string"}, "required": ["a", "b"]}),
        ),
    );
    assert!(
        found.iter().any(|(class, _)| *class == Class::Breaking),
        "{found:?}"
    );
    // And inside an array's items.
    let found = pair(
        wrap(json!({"type": "array", "items": {"type": "object", "required": ["x"]}})),
        wrap(json!({"type": "array", "items": {"type": "object", "required": ["x", "y"]}})),
    );
    assert!(
        found.iter().any(|(class, _)| *class == Class::Breaking),
        "{found:?}"
    );
    // A oneOf whose branches overlap refuses what matches both: breaking, not a widening.
    let found = pair(
        wrap(json!({"type": "integer"})),
        wrap(json!({"oneOf": [{"type": "integer"}, {"type": "number"}]})),
    );
    assert!(
        found.iter().any(|(class, _)| *class == Class::Breaking),
        "{found:?}"
    );
    // Keys inside enum and const values, and names in patternProperties, are not annotations.
    for (old, new) in [
        (
            json!({"enum": [{"title": "a"}]}),
            json!({"enum": [{"title": "b"}]}),
        ),
        (
            json!({"const": {"format": "a"}}),
            json!({"const": {"format": "b"}}),
        ),
        (
            json!({"type": "object", "patternProperties": {"title": {"type": "string"}}}),
            json!({"type": "object", "patternProperties": {"title": {"type": "integer"}}}),
        ),
    ] {
        let found = pair(wrap(old), wrap(new));
        assert!(
            found.iter().any(|(class, _)| *class == Class::Breaking),
            "{found:?}"
        );
    }
    // A description changed in draft-07 definitions: nothing a call feels.
    let defs = |description: &str| {
        json!({"type": "object", "properties": {"p": {"$ref": "#/definitions/P"}},
            "definitions": {"P": {"type": "string", "description": description}}})
    };
    let found = pair(defs("old"), defs("new"));
    assert!(
        found.iter().all(|(class, _)| *class == Class::Compatible),
        "{found:?}"
    );
}
