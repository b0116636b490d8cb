//! With serde_json's `arbitrary_precision` on in the build, a JSON value keeps every number's
//! text, and the call reads 128-bit integers exactly: the schema's own bounds are accepted,
//! a number past 2^64 is that number, one past the type's range is refused, and the listed
//! bounds stay exact integers through rmcp.

use mcp_annotations::{Context, Listing, ToolResult, tool, tools};
use serde_json::Value;

/// Echo wide integers.
#[tool(read_only, open_world = false)]
fn wide(big: u128, signed: i128, many: Option<Vec<u128>>, narrow: Option<i64>) -> String {
    format!("{big} {signed} {many:?} {narrow:?}")
}

/// A bound past 64 bits.
#[tool(read_only, open_world = false)]
fn bounded(#[schema(minimum = 100000000000000000000)] at_least: i128) -> String {
    at_least.to_string()
}

/// The widest results.
#[tool(read_only, open_world = false)]
fn widest(signed: bool) -> mcp_annotations::Json<i128> {
    mcp_annotations::Json(if signed { i128::MIN } else { i128::MAX })
}

/// A number past `i128::MAX`, between two bounds only a `u128` holds, in steps of 2^104.
#[tool(read_only, open_world = false)]
fn past_i128(
    #[schema(
        minimum = 170141183460469231731687303715884105728,
        maximum = 340282346638528859811704183484516925440,
        multiple_of = 20282409603651670423947251286016
    )]
    n: u128,
) -> String {
    n.to_string()
}

static TOOLS: Listing = tools![wide, bounded, widest, past_i128];

fn call(name: &str, arguments: &str) -> ToolResult {
    // Parsed from the text, as a transport does: the numbers keep their digits.
    let arguments: Value = serde_json::from_str(arguments).unwrap();
    let call = TOOLS
        .call(&(), name, arguments.as_object().cloned(), Context::none())
        .unwrap();
    call.into_ready().ok().expect("a sync handler is ready")
}

#[test]
fn integers_past_64_bits_are_read_exactly() {
    let result = call(
        "wide",
        r#"{"big": 18446744073709551617, "signed": -18446744073709551617}"#,
    );
    assert_eq!(
        result.text_content(),
        "18446744073709551617 -18446744073709551617 None None"
    );
    let max = u128::MAX;
    let min = i128::MIN;
    let result = call(
        "wide",
        &format!(r#"{{"big": {max}, "signed": {min}, "many": [{max}, 1]}}"#),
    );
    assert_eq!(
        result.text_content(),
        format!("{max} {min} Some([{max}, 1]) None")
    );
}

#[test]
fn integers_past_the_range_are_refused() {
    for arguments in [
        r#"{"big": 340282366920938463463374607431768211456, "signed": 0}"#,
        r#"{"big": -1, "signed": 0}"#,
        r#"{"big": 0, "signed": -170141183460469231731687303715884105729}"#,
        r#"{"big": 0, "signed": 0, "many": [340282366920938463463374607431768211456]}"#,
        r#"{"big": 0, "signed": 0, "narrow": -9223372036854775809}"#,
    ] {
        let result = call("wide", arguments);
        assert!(result.is_error, "{arguments}: {}", result.text_content());
    }
}

#[test]
fn a_bound_past_64_bits_is_exact() {
    assert!(
        call("bounded", r#"{"at_least": 100000000000000000000}"#).text_content()
            == "100000000000000000000"
    );
    let below = call("bounded", r#"{"at_least": 99999999999999999999}"#);
    assert!(below.is_error, "{}", below.text_content());
}

#[test]
fn the_listed_bounds_stay_exact_through_rmcp() {
    let theirs = rmcp::model::Tool::from(&WIDE_TOOL);
    let text = serde_json::to_string(&theirs.input_schema).unwrap();
    assert!(
        text.contains(r#""maximum":340282366920938463463374607431768211455"#),
        "{text}"
    );
    assert!(
        text.contains(r#""minimum":-170141183460469231731687303715884105728"#),
        "{text}"
    );
}

/// A peer's resource link whose size is written `-0`, `12` or `12.0`: the number's text is
/// kept, and each reads as the whole number of bytes it is, as in a build without the feature.
#[test]
fn a_resource_links_size_reads_from_the_numbers_text() {
    for (size, expected) in [("-0", 0), ("12", 12), ("12.0", 12)] {
        let text = format!(r#"{{"type":"resource_link","uri":"u","name":"n","size":{size}}}"#);
        let value: Value = serde_json::from_str(&text).unwrap();
        let Ok(mcp_annotations::content::Content::ResourceLink(link)) = mcp_annotations::content::Content::from_json(&value)
        else {
            panic!("{size} is a size");
        };
        assert_eq!(link.size(), Some(expected), "{size}");
    }
    let past: Value = serde_json::from_str(
        r#"{"type":"resource_link","uri":"u","name":"n","size":18446744073709551616}"#,
    )
    .unwrap();
    assert!(mcp_annotations::content::Content::from_json(&past).is_err());
}

#[test]
fn results_past_64_bits_are_written_exactly_within_the_listed_output_schema() {
    for (signed, text) in [
        (false, "170141183460469231731687303715884105727"),
        (true, "-170141183460469231731687303715884105728"),
    ] {
        let arguments = format!(r#"{{"signed": {signed}}}"#);
        let result = call("widest", &arguments);
        assert!(!result.is_error, "{}", result.text_content());
        let written = result.structured_content.unwrap().to_string();
        assert!(written.contains(text), "{written}");
    }
    let schema = TOOLS
        .get("widest")
        .unwrap()
        .output_schema
        .as_ref()
        .unwrap()
        .as_str()
        .to_owned();
    assert!(
        schema.contains(r#""maximum":170141183460469231731687303715884105727"#),
        "{schema}"
    );
}

#[test]
fn u128_bounds_past_i128_are_listed_and_checked_as_written() {
    let listed = TOOLS.get("past_i128").unwrap().input_schema.as_str().to_owned();
    for key in [
        r#""minimum":170141183460469231731687303715884105728"#,
        r#""maximum":340282346638528859811704183484516925440"#,
        r#""multipleOf":20282409603651670423947251286016"#,
    ] {
        assert!(listed.contains(key), "{listed}");
    }
    for (n, accepted) in [
        ("170141183460469231731687303715884105728", true),
        ("340282346638528859811704183484516925440", true),
        ("170141183460469231731687303715884105727", false),
        ("340282346638528859811704183484516925441", false),
        ("170141183460469231731687303715884105729", false),
    ] {
        let result = call("past_i128", &format!(r#"{{"n": {n}}}"#));
        assert_eq!(!result.is_error, accepted, "{n}: {}", result.text_content());
        if accepted {
            assert_eq!(result.text_content(), n);
        }
    }
}
