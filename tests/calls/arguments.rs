//! Reading arguments: each parameter type at its limits and one past them, absent and `null`
//! optionals, reference parameters, and arbitrary JSON that never panics. What the input
//! schema promises and what the call accepts agree: each accepted value validates against the
//! schema, each refused one does not.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, HashSet};

use mcp_annotations::{Context, Listing, ToolResult, tool, tools};
use proptest::prelude::*;
use serde_json::{Value, json};

macro_rules! echo_tools {
    ($($name:ident: $ty:ty),* $(,)?) => {
        $(
            #[tool(read_only)]
            fn $name(value: $ty) -> String {
                format!("{value:?}")
            }
        )*
        static ECHO: Listing = tools![$($name),*];
    };
}

echo_tools! {
    echo_u8: u8, echo_u16: u16, echo_u32: u32, echo_u64: u64, echo_u128: u128, echo_usize: usize,
    echo_i8: i8, echo_i16: i16, echo_i32: i32, echo_i64: i64, echo_i128: i128, echo_isize: isize,
    echo_f32: f32, echo_f64: f64, echo_bool: bool, echo_char: char, echo_string: String,
    echo_cow: Cow<'static, str>, echo_option: Option<u8>, echo_vec: Vec<u8>, echo_array: [bool; 2],
    echo_set: HashSet<u8>, echo_map: HashMap<String, u8>, echo_btree: BTreeMap<String, Vec<bool>>,
    echo_value: Value, echo_nested: Option<Vec<Option<i8>>>,
}

fn call(listing: &Listing, name: &str, arguments: Value) -> ToolResult {
    let call = listing
        .call(&(), name, arguments.as_object().cloned(), Context::none())
        .unwrap();
    call.into_ready()
        .expect("the call of a synchronous handler has finished")
}

/// Calls `name` with `{"value": value}` and checks the call and the schema agree.
fn echo(name: &str, value: Value) -> Result<String, String> {
    let result = call(&ECHO, name, json!({ "value": value }));
    let schema = ECHO.get(name).unwrap().input_schema.to_value();
    let valid = jsonschema::validator_for(&schema)
        .unwrap()
        .is_valid(&json!({ "value": value }));
    assert_eq!(
        !result.is_error, valid,
        "{name}({value}): the call and the schema disagree: {result:?}"
    );
    if result.is_error {
        Err(result.text_content())
    } else {
        Ok(result.text_content())
    }
}

#[test]
fn integers_at_their_limits_and_one_past() {
    assert_eq!(echo("echo_u8", json!(0)), Ok("0".into()));
    assert_eq!(echo("echo_u8", json!(255)), Ok("255".into()));
    assert_eq!(
        echo("echo_u8", json!(256)),
        Err("invalid argument `value`: expected an integer from 0 to 255, found 256".into())
    );
    assert!(echo("echo_u8", json!(-1)).is_err());
    assert_eq!(echo("echo_u16", json!(65535)), Ok("65535".into()));
    assert!(echo("echo_u16", json!(65536)).is_err());
    assert_eq!(echo("echo_u32", json!(u32::MAX)), Ok(u32::MAX.to_string()));
    assert!(echo("echo_u32", json!(u64::from(u32::MAX) + 1)).is_err());
    assert_eq!(echo("echo_u64", json!(u64::MAX)), Ok(u64::MAX.to_string()));
    assert!(echo("echo_u64", json!(-1)).is_err());
    assert_eq!(
        echo("echo_usize", json!(u64::MAX)),
        Ok(u64::MAX.to_string())
    );
    assert_eq!(echo("echo_i8", json!(-128)), Ok("-128".into()));
    assert!(echo("echo_i8", json!(-129)).is_err());
    assert!(echo("echo_i8", json!(128)).is_err());
    assert_eq!(echo("echo_i16", json!(i16::MIN)), Ok(i16::MIN.to_string()));
    assert!(echo("echo_i16", json!(i32::from(i16::MAX) + 1)).is_err());
    assert_eq!(echo("echo_i32", json!(i32::MIN)), Ok(i32::MIN.to_string()));
    assert!(echo("echo_i32", json!(i64::from(i32::MAX) + 1)).is_err());
    assert_eq!(echo("echo_i64", json!(i64::MIN)), Ok(i64::MIN.to_string()));
    assert!(echo("echo_i64", json!(u64::MAX)).is_err());
    assert_eq!(
        echo("echo_isize", json!(i64::MAX)),
        Ok(i64::MAX.to_string())
    );
    // Within 64 bits, 128-bit types read exactly.
    assert_eq!(echo("echo_u128", json!(u64::MAX)), Ok(u64::MAX.to_string()));
    assert_eq!(echo("echo_i128", json!(i64::MIN)), Ok(i64::MIN.to_string()));
    // A whole number written as a float is an integer where an integer type reads it, at every
    // depth.
    assert_eq!(echo("echo_u8", json!(3.0)), Ok("3".into()));
    assert_eq!(echo("echo_vec", json!([1.0, 2.0])), Ok("[1, 2]".into()));
    assert_eq!(
        echo("echo_nested", json!([-1.0, null])),
        Ok("Some([Some(-1), None])".into())
    );
    assert_eq!(
        echo("echo_i64", json!(-9_007_199_254_740_992.0)),
        Ok("-9007199254740992".into())
    );
    assert_eq!(
        echo("echo_i64", json!(1e16)),
        Ok("10000000000000000".into())
    );
    // One past the range, which a JSON value can only hold as the float at the bound (a
    // schema validator that reads floats takes it for the bound; the call refuses it).
    let past_i64_min: Value = serde_json::from_str("-9223372036854775809").unwrap();
    let result = call(&ECHO, "echo_i64", json!({ "value": past_i64_min }));
    assert!(result.is_error, "{result:?}");
    let past_u64_max: Value = serde_json::from_str("18446744073709551616").unwrap();
    assert!(echo("echo_u64", past_u64_max).is_err());
    // Not integers.
    for name in ["echo_u8", "echo_i64", "echo_u128"] {
        assert!(echo(name, json!(1.5)).is_err(), "{name}");
        assert!(echo(name, json!("1")).is_err(), "{name}");
        assert!(echo(name, json!(null)).is_err(), "{name}");
    }
}

#[test]
fn scalars_and_strings() {
    assert_eq!(echo("echo_f64", json!(1.5)), Ok("1.5".into()));
    assert_eq!(echo("echo_f64", json!(3)), Ok("3.0".into()));
    assert_eq!(echo("echo_f32", json!(0.25)), Ok("0.25".into()));
    // An `f32` takes its whole range and nothing past it (not infinity).
    assert_eq!(
        echo("echo_f32", json!(f32::MAX)),
        Ok(format!("{:?}", f32::MAX))
    );
    assert_eq!(
        echo("echo_f32", json!(1e39)),
        Err("invalid argument `value`: expected a number from -3.4028234663852886e38 to 3.4028234663852886e38, found 1e+39".into())
    );
    assert!(echo("echo_f32", json!(-1e39)).is_err());
    // A float is read as written where no integer type reads it.
    assert_eq!(echo("echo_f64", json!(-0.0)), Ok("-0.0".into()));
    assert_eq!(echo("echo_value", json!(1.0)), Ok("Number(1.0)".into()));
    assert_eq!(
        echo("echo_value", json!([2.0, {"a": -0.0}])),
        Ok("Array [Number(2.0), Object {\"a\": Number(-0.0)}]".into())
    );
    assert!(echo("echo_f64", json!("1.5")).is_err());
    assert_eq!(echo("echo_bool", json!(true)), Ok("true".into()));
    assert!(echo("echo_bool", json!(1)).is_err());
    assert_eq!(echo("echo_char", json!("é")), Ok("'é'".into()));
    assert_eq!(
        echo("echo_char", json!("ab")),
        Err("invalid argument `value`: expected a single character, found \"ab\"".into())
    );
    assert!(echo("echo_char", json!("")).is_err());
    assert_eq!(echo("echo_string", json!("")), Ok("\"\"".into()));
    assert_eq!(echo("echo_cow", json!("x")), Ok("\"x\"".into()));
    assert!(echo("echo_string", json!(5)).is_err());
}

#[test]
fn options_may_be_absent_or_null() {
    assert_eq!(call(&ECHO, "echo_option", json!({})).text_content(), "None");
    assert_eq!(echo("echo_option", json!(null)), Ok("None".into()));
    assert_eq!(echo("echo_option", json!(7)), Ok("Some(7)".into()));
    assert!(echo("echo_option", json!(300)).is_err());
    assert_eq!(
        echo("echo_nested", json!([1, null, -1])),
        Ok("Some([Some(1), None, Some(-1)])".into())
    );
    assert!(echo("echo_nested", json!([200])).is_err());
    let missing = call(&ECHO, "echo_u8", json!({}));
    assert!(missing.is_error);
    assert_eq!(
        missing.text_content(),
        "missing argument `value`: expected an integer from 0 to 255"
    );
}

#[test]
fn collections() {
    assert_eq!(echo("echo_vec", json!([0, 255])), Ok("[0, 255]".into()));
    assert!(echo("echo_vec", json!([256])).is_err());
    assert!(echo("echo_vec", json!({"0": 1})).is_err());
    assert_eq!(
        echo("echo_array", json!([true, false])),
        Ok("[true, false]".into())
    );
    assert!(echo("echo_array", json!([true])).is_err(), "one short");
    assert!(
        echo("echo_array", json!([true, false, true])).is_err(),
        "one past"
    );
    assert_eq!(echo("echo_set", json!([3])), Ok("{3}".into()));
    assert_eq!(echo("echo_map", json!({"a": 1})), Ok("{\"a\": 1}".into()));
    assert!(echo("echo_map", json!({"a": -1})).is_err());
    assert_eq!(
        echo("echo_btree", json!({"a": [true]})),
        Ok("{\"a\": [true]}".into())
    );
    assert_eq!(
        echo("echo_value", json!({"any": ["thing"]})),
        Ok("Object {\"any\": Array [String(\"thing\")]}".into())
    );
}

#[test]
fn sets_refuse_repeats_as_their_schema_does() {
    // The schema says `uniqueItems`; reading into a set would quietly drop the repeat.
    assert!(echo("echo_set", json!([3, 3])).is_err());
    // Repeats are judged on values, not on how they are written.
    for repeats in [json!([1, 1.0]), json!([0.0, -0.0]), json!([2, 2e0])] {
        let error = echo("echo_set", repeats.clone()).unwrap_err();
        assert!(
            error.contains("the items must all differ"),
            "{repeats}: {error}"
        );
    }
}

/// Reference parameters are read into owned values and lent to the handler.
#[tool(read_only)]
fn borrowed(text: &str, items: &[u16], value: &Value, maybe: Option<&str>) -> String {
    format!("{text} {items:?} {value} {maybe:?}")
}

#[test]
fn reference_parameters() {
    let listing: Listing = tools![borrowed];
    let result = call(
        &listing,
        "borrowed",
        json!({"text": "hi", "items": [1, 2], "value": {"k": 1}, "maybe": "m"}),
    );
    assert_eq!(result.text_content(), "hi [1, 2] {\"k\":1} Some(\"m\")");
}

proptest! {
    /// No arguments object, however malformed or large, makes a call panic; every result is
    /// either a value or a message naming an argument.
    #[test]
    fn arbitrary_arguments_never_panic(arguments in arbitrary_json(3)) {
        let arguments = match arguments {
            Value::Object(object) => Value::Object(object),
            other => json!({ "value": other }),
        };
        for tool in ECHO.tools() {
            let result = call(&ECHO, tool.name(), arguments.clone());
            if result.is_error {
                let text = result.text_content();
                prop_assert!(text.contains("argument `") || text.contains("arguments `"), "{}", text);
            }
        }
    }
}

fn arbitrary_json(depth: u32) -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        ".{0,20}".prop_map(Value::from),
    ];
    leaf.prop_recursive(depth, 64, 8, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            proptest::collection::btree_map("value|[a-z]{1,6}", inner, 0..6)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

#[test]
fn a_huge_argument_is_a_clear_error_not_a_crash() {
    let huge = "x".repeat(10 << 20);
    let result = call(&ECHO, "echo_u8", json!({ "value": huge }));
    assert!(result.is_error);
    assert!(
        result.text_content().len() < 300,
        "the message quotes only the start of the value"
    );
}

proptest! {
    /// For any value, each tool's call accepts it exactly when its input schema does.
    #[test]
    fn the_call_accepts_exactly_what_the_schema_accepts(value in arbitrary_json(2)) {
        for tool in ECHO.tools() {
            let _ = echo(tool.name(), value.clone());
        }
    }
}

#[test]
fn integral_floats_are_integers_as_json_schema_counts_them() {
    assert_eq!(echo("echo_u8", json!(3.0)), Ok("3".into()));
    assert_eq!(echo("echo_i64", json!(-2.0)), Ok("-2".into()));
    assert!(echo("echo_u8", json!(3.5)).is_err());
}

#[test]
fn a_128_bit_integer_is_never_rounded_and_lists_the_bounds_it_reads() {
    // Without serde_json's `arbitrary_precision` (this build), a JSON value holds an integer
    // past 64 bits as the nearest float: `18446744073709551617` arrives as 2^64. It is
    // refused, naming the feature that makes it exact, never handed over rounded.
    let one_past: Value = serde_json::from_str("18446744073709551617").unwrap();
    let refused = echo("echo_u128", one_past).unwrap_err();
    assert!(refused.contains("arbitrary_precision"), "{refused}");
    assert!(echo("echo_i128", json!(-1.8480908725250085e22)).is_err());
    assert!(echo("echo_u128", json!(3e30)).is_err());
    // Within 64 bits a whole float reads as it does for a 64-bit type, as the schema says.
    assert!(echo("echo_i128", json!(9_007_199_254_740_994.0)).is_ok());
    assert_eq!(
        echo("echo_i128", json!(-9_007_199_254_740_992.0)),
        Ok("-9007199254740992".into())
    );
    // Integers as such are exact from `i64::MIN` to `u64::MAX`.
    assert_eq!(echo("echo_u128", json!(u64::MAX)), Ok(u64::MAX.to_string()));
    assert_eq!(echo("echo_i128", json!(i64::MIN)), Ok(i64::MIN.to_string()));
    // The listed bounds are those, so the schema and the call agree at both ends.
    for (name, min) in [("echo_u128", json!(0)), ("echo_i128", json!(i64::MIN))] {
        let schema = ECHO.get(name).unwrap().input_schema.to_value();
        let value = &schema["properties"]["value"];
        assert_eq!(value["minimum"], min, "{name}: {schema}");
        assert_eq!(value["maximum"], json!(u64::MAX), "{name}: {schema}");
        let validator = jsonschema::validator_for(&schema).unwrap();
        for sent in [json!(u64::MAX), json!(1.8446744073709552e19), json!(-3e30)] {
            let arguments = json!({ "value": sent });
            assert_eq!(
                validator.is_valid(&arguments),
                echo(name, sent.clone()).is_ok(),
                "{name} on {sent}"
            );
        }
    }
}

/// The address of the text a handler received.
static RECEIVED: std::sync::Mutex<Vec<usize>> = std::sync::Mutex::new(Vec::new());

/// Keep a text.
#[tool(idempotent)]
fn keep(text: String, maybe: Option<String>, borrowed: &str) {
    let mut received = RECEIVED.lock().unwrap();
    received.push(text.as_ptr() as usize);
    received.push(maybe.map_or(0, |text| text.as_ptr() as usize));
    received.push(borrowed.as_ptr() as usize);
}

#[test]
fn string_arguments_are_moved_to_the_handler_not_copied() {
    // A large text (a file's contents) costs no copy between the request and the handler.
    let texts = [
        "a".repeat(1 << 20),
        "b".repeat(1 << 20),
        "c".repeat(1 << 20),
    ];
    let sent: Vec<usize> = texts.iter().map(|text| text.as_ptr() as usize).collect();
    let [text, maybe, borrowed] = texts;
    let mut arguments = serde_json::Map::new();
    arguments.insert("text".into(), Value::String(text));
    arguments.insert("maybe".into(), Value::String(maybe));
    arguments.insert("borrowed".into(), Value::String(borrowed));
    let listing: Listing = tools![keep];
    let result = listing
        .call(&(), "keep", Some(arguments), Context::none())
        .unwrap()
        .into_ready()
        .expect("the call of a synchronous handler has finished");
    assert!(!result.is_error, "{}", result.text_content());
    assert_eq!(*RECEIVED.lock().unwrap(), sent);
}

/// Wide integers at depth.
#[tool(read_only, open_world = false)]
fn wide_list(values: Vec<i128>, nested: Option<Vec<Vec<u128>>>) -> String {
    format!("{values:?} {nested:?}")
}

static WIDE: Listing = tools![wide_list];

#[test]
fn a_128_bit_integer_reads_the_same_at_every_depth() {
    let result = call(
        &WIDE,
        "wide_list",
        json!({"values": [-9_007_199_254_740_992.0, 1], "nested": [[u64::MAX]]}),
    );
    assert_eq!(
        result.text_content(),
        "[-9007199254740992, 1] Some([[18446744073709551615]])"
    );
    for rounded in [
        json!({"values": [-1.8480908725250085e22]}),
        json!({"values": [], "nested": [[3e30]]}),
    ] {
        let result = call(&WIDE, "wide_list", rounded);
        assert!(
            result.text_content().contains("arbitrary_precision"),
            "{}",
            result.text_content()
        );
    }
}

/// `depth` arrays, one inside the other, around `0`.
fn nested(depth: usize) -> Value {
    (0..depth).fold(json!(0), |inner, _| Value::Array(vec![inner]))
}

#[test]
fn an_argument_nested_past_the_documented_depth_is_refused_not_a_stack_overflow() {
    // A worker thread's stack, as a host's runtime gives it: reading 3 000 levels on it
    // overflowed before the limit.
    let worker = std::thread::Builder::new().stack_size(2 << 20);
    let handle = worker
        .spawn(|| {
            let limit = mcp_annotations::call::MAX_ARGUMENT_DEPTH;
            assert_eq!(limit, 128, "serde_json's own parser stops at 128");
            for (depth, accepted) in [(limit, true), (limit + 1, false), (3_000, false)] {
                let mut arguments = serde_json::Map::new();
                arguments.insert("value".into(), nested(depth));
                let call = ECHO
                    .call(&(), "echo_value", Some(arguments), Context::none())
                    .unwrap();
                let result = call.into_ready().unwrap();
                assert_eq!(
                    !result.is_error,
                    accepted,
                    "{depth}: {}",
                    result.text_content()
                );
                if !accepted {
                    assert_eq!(
                        result.text_content(),
                        "invalid argument `value`: nested deeper than 128 arrays and objects"
                    );
                }
            }
            // Objects count as arrays do.
            let deep = (0..200).fold(json!(0), |inner, _| json!({"a": inner}));
            let result = call(&ECHO, "echo_value", json!({"value": deep}));
            assert!(result.is_error);
        })
        .unwrap();
    handle.join().unwrap();
}
