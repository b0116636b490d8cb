//! The MCP wire form: exact names, omission of unset fields, lenient reading of real peers,
//! and typed errors (never a panic) for malformed input.

use annotations_tests::all_combinations;
use mcp_annotations::ToolAnnotations;
use proptest::prelude::*;
use serde_json::{Value, json};

#[test]
fn every_combination_round_trips_unchanged() {
    for a in all_combinations() {
        let text = serde_json::to_string(&a).unwrap();
        let back: ToolAnnotations = serde_json::from_str(&text).unwrap();
        assert_eq!(back, a, "{text}");
        let value = serde_json::to_value(&a).unwrap();
        let back: ToolAnnotations = serde_json::from_value(value).unwrap();
        assert_eq!(back, a);
    }
}

/// The object written for each combination, built independently key by key.
#[test]
fn wire_names_and_omission_of_unset_fields() {
    for a in all_combinations() {
        let mut expected = serde_json::Map::new();
        if let Some(title) = &a.title {
            expected.insert("title".into(), json!(title));
        }
        for (name, hint) in [
            ("readOnlyHint", a.read_only_hint),
            ("destructiveHint", a.destructive_hint),
            ("idempotentHint", a.idempotent_hint),
            ("openWorldHint", a.open_world_hint),
        ] {
            if let Some(hint) = hint {
                expected.insert(name.into(), json!(hint));
            }
        }
        assert_eq!(serde_json::to_value(&a).unwrap(), Value::Object(expected));
    }
}

#[test]
fn empty_annotations_are_an_empty_object_and_false_is_kept() {
    assert_eq!(
        serde_json::to_string(&ToolAnnotations::new()).unwrap(),
        "{}"
    );
    assert_eq!(
        serde_json::to_string(&ToolAnnotations::new().with_read_only(false)).unwrap(),
        r#"{"readOnlyHint":false}"#
    );
    assert_eq!(
        serde_json::to_string(&ToolAnnotations::LOOKUP.with_title("List")).unwrap(),
        r#"{"title":"List","readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}"#
    );
}

#[test]
fn what_real_peers_send_is_accepted() {
    let read = |v: Value| serde_json::from_value::<ToolAnnotations>(v).unwrap();
    assert_eq!(read(json!({})), ToolAnnotations::new());
    // Nulls read as unset.
    assert_eq!(
        read(
            json!({"title": null, "readOnlyHint": null, "destructiveHint": null,
                    "idempotentHint": null, "openWorldHint": null})
        ),
        ToolAnnotations::new()
    );
    // The all-defaults form some SDKs send keeps every stated value.
    assert_eq!(
        read(
            json!({"title": null, "readOnlyHint": false, "destructiveHint": true,
                    "idempotentHint": false, "openWorldHint": true})
        ),
        ToolAnnotations::new().explicit()
    );
    // Unknown keys, including proposed hints and nested values, are ignored.
    assert_eq!(
        read(json!({"readOnlyHint": true, "sensitiveHint": true,
                    "x-vendor": {"nested": [1, {"deeper": null}]}, "ReadOnlyHint": false})),
        ToolAnnotations::new().with_read_only(true)
    );
}

fn error_for(input: &str) -> String {
    match serde_json::from_str::<ToolAnnotations>(input) {
        Ok(value) => panic!("{input} should not read, but gave {value:?}"),
        Err(err) => err.to_string(),
    }
}

#[test]
fn a_hint_that_is_not_a_boolean_is_an_error_naming_the_field() {
    for field in [
        "readOnlyHint",
        "destructiveHint",
        "idempotentHint",
        "openWorldHint",
    ] {
        for bad in [r#""yes""#, "1", "0", "[]", "{}", r#""true""#, "1.5"] {
            let message = error_for(&format!(r#"{{"{field}": {bad}}}"#));
            assert!(
                message.contains(&format!("`{field}`")),
                "{field}={bad}: {message}"
            );
        }
    }
    let message = error_for(r#"{"readOnlyHint": "yes"}"#);
    assert!(
        message.starts_with(
            r#"invalid type: string "yes", expected a boolean or null for `readOnlyHint`"#
        ),
        "{message}"
    );
}

#[test]
fn a_title_that_is_not_a_string_is_an_error_naming_the_field() {
    for bad in ["5", "true", "[]", r#"{"text": "x"}"#] {
        let message = error_for(&format!(r#"{{"title": {bad}}}"#));
        assert!(message.contains("`title`"), "{bad}: {message}");
    }
}

#[test]
fn annotations_must_be_an_object() {
    for bad in [
        "[]",
        r#"["readOnlyHint"]"#,
        r#""readOnly""#,
        "true",
        "null",
        "3",
    ] {
        let message = error_for(bad);
        assert!(
            message.contains("MCP tool annotations (an object)"),
            "{bad}: {message}"
        );
    }
}

#[test]
fn a_duplicate_key_is_an_error() {
    let message = error_for(r#"{"readOnlyHint": true, "readOnlyHint": false}"#);
    assert!(
        message.contains("duplicate field `readOnlyHint`"),
        "{message}"
    );
}

/// Malformed or hostile input gives a value or an error, never a panic.
#[test]
fn malformed_input_never_panics() {
    let deep_unknown = format!(r#"{{"x": {}1{}}}"#, "[".repeat(10_000), "]".repeat(10_000));
    let deep_object = format!(
        r#"{{"x": {}null{}}}"#,
        r#"{"a":"#.repeat(5_000),
        "}".repeat(5_000)
    );
    let deep_hint = format!(
        r#"{{"readOnlyHint": {}true{}}}"#,
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    let big_title = format!(r#"{{"title": "{}"}}"#, "t".repeat(1 << 20));
    let many_keys = format!(
        "{{{}}}",
        (0..50_000)
            .map(|i| format!(r#""k{i}": {i}"#))
            .collect::<Vec<_>>()
            .join(",")
    );
    let inputs: Vec<(&str, String, bool)> = vec![
        ("empty input", String::new(), false),
        ("truncated", r#"{"readOnlyHint": tr"#.into(), false),
        ("unclosed", r#"{"readOnlyHint": true"#.into(), false),
        ("trailing comma", r#"{"readOnlyHint": true,}"#.into(), false),
        ("bare word", "readOnlyHint".into(), false),
        (
            "nested garbage in a hint",
            r#"{"openWorldHint": {"a": [1, {"b": null}]}}"#.into(),
            false,
        ),
        (
            "invalid escape in title",
            r#"{"title": "\x"}"#.into(),
            false,
        ),
        (
            "lone surrogate in title",
            r#"{"title": "\ud800"}"#.into(),
            false,
        ),
        (
            "control character in title",
            "{\"title\": \"a\u{1}b\"}".into(),
            false,
        ),
        (
            "huge number in unknown key",
            r#"{"n": 1e999999}"#.into(),
            true,
        ),
        (
            "huge number in a hint",
            r#"{"readOnlyHint": 1e999999}"#.into(),
            false,
        ),
        ("deeply nested unknown array", deep_unknown, true),
        ("deeply nested unknown object", deep_object, true),
        ("deeply nested value in a hint", deep_hint, false),
        ("1 MiB title", big_title, true),
        ("50 000 unknown keys", many_keys, true),
        (
            "unicode title",
            r#"{"title": "注釈 ✓ \u00e9"}"#.into(),
            true,
        ),
    ];
    for (name, input, reads) in inputs {
        let result = std::panic::catch_unwind(|| serde_json::from_str::<ToolAnnotations>(&input));
        let result = result.unwrap_or_else(|_| panic!("{name}: the deserializer panicked"));
        assert_eq!(result.is_ok(), reads, "{name}: {result:?}");
    }
    let big: ToolAnnotations =
        serde_json::from_str(&format!(r#"{{"title": "{}"}}"#, "t".repeat(1 << 20))).unwrap();
    assert_eq!(big.title().map(str::len), Some(1 << 20));
}

/// The keys of the annotations object.
const KEYS: [&str; 5] = [
    "title",
    "readOnlyHint",
    "destructiveHint",
    "idempotentHint",
    "openWorldHint",
];

/// One of the annotations' keys.
fn hint_key() -> impl Strategy<Value = String> {
    prop::sample::select(&KEYS[..]).prop_map(str::to_owned)
}

/// Arbitrary JSON values, biased towards the keys that matter.
fn arbitrary_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        ".{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 64, 8, |inner| {
        let key = prop_oneof![hint_key(), ".{0,8}"];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(key, inner, 0..7)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

/// The text of a JSON object whose keys are mostly the hints', with values of every JSON type,
/// and whether a known key is repeated.
fn object_text() -> impl Strategy<Value = (String, bool)> {
    let key = prop_oneof![hint_key(), "[a-zA-Z]{0,8}"];
    prop::collection::vec((key, arbitrary_json()), 0..8).prop_map(|pairs| {
        let entries: Vec<String> = pairs
            .iter()
            .map(|(key, value)| format!("{}:{value}", Value::from(key.as_str())))
            .collect();
        let known = [
            "title",
            "readOnlyHint",
            "destructiveHint",
            "idempotentHint",
            "openWorldHint",
        ];
        let repeats = known
            .iter()
            .any(|name| pairs.iter().filter(|(key, _)| key == name).count() > 1);
        (format!("{{{}}}", entries.join(",")), repeats)
    })
}

fn is_hint(value: Option<&Value>) -> bool {
    matches!(value, None | Some(Value::Null | Value::Bool(_)))
}

proptest! {
    /// Any JSON value reads without panicking, and reads exactly when it is an object whose
    /// known keys hold the right types; what it reads re-serializes to the known keys alone.
    #[test]
    fn arbitrary_json_reads_or_errors_as_the_schema_says(value in arbitrary_json()) {
        let from_value = serde_json::from_value::<ToolAnnotations>(value.clone());
        let from_str = serde_json::from_str::<ToolAnnotations>(&value.to_string());
        prop_assert_eq!(from_value.is_ok(), from_str.is_ok());
        let valid = match &value {
            Value::Object(map) => {
                matches!(map.get("title"), None | Some(Value::Null | Value::String(_)))
                    && ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]
                        .iter()
                        .all(|key| is_hint(map.get(*key)))
            }
            _ => false,
        };
        prop_assert_eq!(from_value.is_ok(), valid, "{}", value);
        if let (Ok(read), Value::Object(map)) = (from_str, &value) {
            let known: serde_json::Map<String, Value> = map
                .iter()
                .filter(|(key, v)| {
                    ["title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]
                        .contains(&key.as_str())
                        && !v.is_null()
                })
                .map(|(key, v)| (key.clone(), v.clone()))
                .collect();
            prop_assert_eq!(serde_json::to_value(&read).unwrap(), Value::Object(known));
        }
    }

    /// Object-shaped text, whole or cut anywhere, never panics the reader: keys repeated or
    /// unknown, values of every JSON type, the text ending mid-token. The text starts with
    /// `{`, so it gets past serde_json's lexer to the crate's own reader, which reads the keys.
    #[test]
    fn object_text_whole_or_cut_never_panics(
        ((text, repeats), cut) in object_text().prop_flat_map(|(text, repeats)| {
            let len = text.len();
            (Just((text, repeats)), 0..=len)
        }),
    ) {
        let whole = serde_json::from_str::<ToolAnnotations>(&text);
        // A key given twice is an error; otherwise the reader agrees with reading the text
        // as a JSON value first.
        let value: Value = serde_json::from_str(&text).expect("the text is JSON");
        if repeats {
            prop_assert!(whole.is_err(), "{}", text);
        } else {
            prop_assert_eq!(
                whole.is_ok(),
                serde_json::from_value::<ToolAnnotations>(value).is_ok(),
                "{}", text
            );
        }
        let _ = serde_json::from_slice::<ToolAnnotations>(&text.as_bytes()[..cut]);
    }
}

/// Every word of the protocol's vocabulary parses with `FromStr` as its `as_str` writes it,
/// and anything else is an error that says what was expected.
#[test]
fn the_protocols_words_parse_with_from_str() {
    use mcp_annotations::descriptor::TaskSupport;
    use mcp_annotations::{
        ProtocolVersion, content::MimeType, content::Role, descriptor::IconTheme,
        descriptor::ParseError, listing::CacheScope,
    };

    for version in ProtocolVersion::ALL {
        assert_eq!(version.as_str().parse::<ProtocolVersion>(), Ok(version));
    }
    for support in [
        TaskSupport::Forbidden,
        TaskSupport::Optional,
        TaskSupport::Required,
    ] {
        assert_eq!(support.as_str().parse::<TaskSupport>(), Ok(support));
    }
    assert_eq!("assistant".parse::<Role>(), Ok(Role::Assistant));
    assert_eq!("dark".parse::<IconTheme>(), Ok(IconTheme::Dark));
    assert_eq!("public".parse::<CacheScope>(), Ok(CacheScope::Public));
    assert_eq!("image/png".parse::<MimeType>(), Ok(MimeType::PNG));
    assert!("png".parse::<MimeType>().is_err());

    let error: ParseError = "maybe".parse::<TaskSupport>().unwrap_err();
    assert_eq!(
        error.to_string(),
        "unknown task support `maybe`: expected one of `forbidden`, `optional`, `required`"
    );
    assert_eq!(error.expected(), ["forbidden", "optional", "required"]);
    assert!(
        "Dark".parse::<IconTheme>().is_err(),
        "the protocol's words are lower case"
    );
    assert!("".parse::<Role>().is_err());
}
