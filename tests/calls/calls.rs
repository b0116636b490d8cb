//! The one call path every handler goes through, at its edges: the most parameters a handler
//! may take from the model (sixteen, synchronous and `async`), `#[context]` parameters among
//! them in either kind, handlers called through a function pointer and by name, and a failed
//! read of an `async` handler's arguments answered before its future runs.

use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_annotations::{Context, Listing, ToolResult, tool, tools};
use serde_json::{Value, json};

/// Two handlers of sixteen parameters, one synchronous and one `async` (written by a macro,
/// which also passes each parameter through `macro_rules!` fragments).
macro_rules! sum16 {
    ($($name:ident $(: $kind:ident)?, $last:ty, $prefix:expr;)*) => {$(
        /// Sum fifteen numbers behind a prefix.
        #[tool(read_only)]
        #[allow(clippy::too_many_arguments)]
        $($kind)? fn $name(
            a: u8, b: u8, c: u8, d: u8, e: u8, f: u8, g: u8, h: u8,
            i: u8, j: u8, k: u8, l: u8, m: u8, n: u8, o: u8, p: $last,
        ) -> String {
            let sum: u32 = [a, b, c, d, e, f, g, h, i, j, k, l, m, n, o]
                .iter()
                .map(|&x| u32::from(x))
                .sum();
            let prefix: fn($last) -> String = $prefix;
            format!("{}{sum}", prefix(p))
        }
    )*};
}

sum16! {
    sum16, &str, |p| p.to_owned();
    sum16_later: async, Option<String>, Option::unwrap_or_default;
}

pub struct Counter {
    calls: AtomicUsize,
}

impl Counter {
    /// Count a call, with the context between two arguments.
    #[tool(read_only)]
    pub async fn count(
        &self,
        step: usize,
        #[context] context: Context<'_>,
        label: String,
    ) -> String {
        let before = self.calls.fetch_add(step, Ordering::SeqCst);
        format!("{label}: {before} -> {} ({context:?})", before + step)
    }

    /// The same, synchronously, with the state asked for as a context parameter.
    #[tool(read_only)]
    pub fn count_now(&self, step: usize, #[context] state: &Counter) -> usize {
        state.calls.fetch_add(step, Ordering::SeqCst) + step
    }

    /// Borrows from `self` in its result, so it is called by name, not through a pointer.
    #[tool(read_only)]
    pub fn name_of(&self) -> &'static str {
        "counter"
    }
}

/// A function without `self` that returns `impl Trait`: called by name.
#[tool(read_only)]
fn shown(value: u32) -> impl mcp_annotations::IntoToolResult {
    mcp_annotations::Text(value)
}

/// A value that panics when it is written, as text or as JSON, or read.
pub struct Grenade;

impl std::fmt::Display for Grenade {
    fn fmt(&self, _: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        panic!("Display went off")
    }
}

impl serde::Serialize for Grenade {
    fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        panic!("Serialize went off")
    }
}

impl<'de> serde::Deserialize<'de> for Grenade {
    fn deserialize<D: serde::Deserializer<'de>>(_: D) -> Result<Self, D::Error> {
        panic!("Deserialize went off")
    }
}

impl mcp_annotations::ToolSchema for Grenade {
    fn tool_schema() -> Value {
        json!({"type": "object"})
    }
}

/// An error whose message panics.
#[tool(read_only)]
fn bad_error() -> Result<String, Grenade> {
    Err(Grenade)
}

/// The same, later.
#[tool(read_only)]
async fn bad_error_later() -> Result<String, Grenade> {
    Err(Grenade)
}

/// Text whose `Display` panics.
#[tool(read_only)]
fn bad_text() -> mcp_annotations::Text<Grenade> {
    mcp_annotations::Text(Grenade)
}

/// Structured content whose `Serialize` panics.
#[tool(read_only)]
async fn bad_json() -> mcp_annotations::Json<Grenade> {
    mcp_annotations::Json(Grenade)
}

/// An argument whose `Deserialize` panics.
#[tool(read_only)]
fn bad_argument(_value: Grenade) {}

/// The same, for an `async` handler.
#[tool(read_only)]
async fn bad_argument_later(_value: Grenade) {}

static FREE: Listing = tools![
    sum16,
    sum16_later,
    shown,
    bad_error,
    bad_error_later,
    bad_text,
    bad_json,
    bad_argument,
    bad_argument_later,
];
static COUNTER: Listing<Counter> = tools![Counter::count, Counter::count_now, Counter::name_of];

fn run<S>(listing: &Listing<S>, state: &S, name: &str, arguments: Value) -> ToolResult {
    let call = listing
        .call(state, name, arguments.as_object().cloned(), Context::none())
        .expect("listed");
    match call.into_ready() {
        Ok(result) => result,
        Err(pending) => tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(pending),
    }
}

fn sixteen(last: Value) -> Value {
    let mut arguments = serde_json::Map::new();
    for (i, name) in "abcdefghijklmno".chars().enumerate() {
        arguments.insert(name.to_string(), json!(i));
    }
    arguments.insert("p".into(), last);
    Value::Object(arguments)
}

#[test]
fn sixteen_parameters_from_the_model_are_read_in_both_kinds_of_call() {
    assert_eq!(
        run(&FREE, &(), "sum16", sixteen(json!("="))).text_content(),
        "=105"
    );
    assert_eq!(
        run(&FREE, &(), "sum16_later", sixteen(json!("~"))).text_content(),
        "~105"
    );
    assert_eq!(
        run(&FREE, &(), "sum16_later", sixteen(Value::Null)).text_content(),
        "105"
    );
    let schema = FREE.get("sum16").unwrap().input_schema.to_value();
    assert_eq!(schema["required"].as_array().unwrap().len(), 16);
}

#[test]
fn every_bad_argument_of_an_async_handler_is_reported_before_it_runs() {
    let mut arguments = sixteen(json!(7));
    arguments["a"] = json!(300);
    arguments["z"] = json!(true);
    let call = FREE
        .call(
            &(),
            "sum16_later",
            arguments.as_object().cloned(),
            Context::none(),
        )
        .unwrap();
    // Nothing to await: the arguments were refused when the call was made.
    let result = call.into_ready().expect("a refused call is ready");
    assert!(result.is_error);
    let text = result.text_content();
    assert!(
        text.contains("invalid argument `a`: expected an integer from 0 to 255, found 300"),
        "{text}"
    );
    assert!(text.contains("invalid argument `p`"), "{text}");
    assert!(text.contains("unknown argument `z`"), "{text}");
}

#[test]
fn context_parameters_sit_anywhere_in_either_kind_of_call() {
    let counter = Counter {
        calls: AtomicUsize::new(0),
    };
    let text = run(
        &COUNTER,
        &counter,
        "count",
        json!({"step": 2, "label": "n"}),
    )
    .text_content();
    assert!(text.starts_with("n: 0 -> 2 (Context"), "{text}");
    assert_eq!(
        run(&COUNTER, &counter, "count_now", json!({"step": 3})).text_content(),
        "5"
    );
    let schema = COUNTER.get("count").unwrap().input_schema.to_value();
    assert_eq!(schema["required"], json!(["step", "label"]));
}

#[test]
fn handlers_without_a_writable_pointer_type_are_called_by_name() {
    let counter = Counter {
        calls: AtomicUsize::new(0),
    };
    assert_eq!(
        run(&COUNTER, &counter, "name_of", json!({})).text_content(),
        "counter"
    );
    assert_eq!(
        run(&FREE, &(), "shown", json!({"value": 9})).text_content(),
        "9"
    );
}

/// Seventeen parameters: more than a listing can call, so it is refused where it is listed
/// (`tests/ui/uncallable/`), but the handler and its constants are as usual.
#[tool(read_only)]
#[allow(clippy::too_many_arguments)]
fn wide(
    a: u8,
    b: u8,
    c: u8,
    d: u8,
    e: u8,
    f: u8,
    g: u8,
    h: u8,
    i: u8,
    j: u8,
    k: u8,
    l: u8,
    m: u8,
    n: u8,
    o: u8,
    p: u8,
    q: u8,
) -> u8 {
    [a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q]
        .iter()
        .sum()
}

#[test]
fn a_handler_too_wide_to_list_keeps_its_constants() {
    assert_eq!(wide(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), 17);
    assert_eq!(
        WIDE_TOOL.input_schema.to_value()["required"]
            .as_array()
            .unwrap()
            .len(),
        17
    );
}

/// A free function that shares its name with the associated function below.
#[tool(read_only)]
async fn make(size: u8) -> String {
    format!("the free function, {size}")
}

pub struct Factory;

impl Factory {
    /// An associated function without `self` that is `async`: a listing can only call such a
    /// handler by its name, which here finds the free function above.
    #[tool(read_only)]
    pub async fn make(size: u8) -> String {
        format!("the associated function, {size}")
    }
}

#[test]
fn an_async_associated_function_is_never_confused_with_a_free_one() {
    let listing: Listing = tools![Factory::make];
    let result = run(&listing, &(), "make", json!({"size": 3}));
    assert!(result.is_error);
    assert!(
        result
            .text_content()
            .starts_with("the tool `make` cannot be called from a listing: it is an associated function without `self`"),
        "{}",
        result.text_content()
    );
    // Listed as itself, the free function is called.
    let free: Listing = tools![make];
    assert_eq!(
        run(&free, &(), "make", json!({"size": 3})).text_content(),
        "the free function, 3"
    );
}

/// A handler written by `macro_rules!` from identifier fragments, with a `#[context]`
/// parameter named by the macro's caller.
macro_rules! echo_with_state {
    ($name:ident, $state:ident) => {
        /// Echo a word, with the server's state at hand.
        #[tool(read_only)]
        fn $name(#[context] $state: &Counter, word: String) -> String {
            let _ = $state;
            word
        }
    };
}

echo_with_state!(echo_word, store);

#[test]
fn a_macro_written_handler_gets_its_context() {
    let listing: Listing<Counter> = tools![echo_word];
    let counter = Counter {
        calls: AtomicUsize::new(0),
    };
    assert_eq!(
        run(&listing, &counter, "echo_word", json!({"word": "hi"})).text_content(),
        "hi"
    );
}

/// A panic anywhere from reading the arguments to the finished result is a failed result that
/// names the tool: every call is answered.
#[test]
fn a_panic_while_the_result_is_made_is_a_failed_result() {
    for (tool, arguments, went_off) in [
        ("bad_error", json!({}), "Display"),
        ("bad_error_later", json!({}), "Display"),
        ("bad_text", json!({}), "Display"),
        ("bad_json", json!({}), "Serialize"),
        ("bad_argument", json!({"_value": {}}), "Deserialize"),
        ("bad_argument_later", json!({"_value": {}}), "Deserialize"),
    ] {
        let result = run(&FREE, &(), tool, arguments);
        assert!(result.is_error, "{tool}");
        let text = result.text_content();
        assert!(
            text.starts_with(&format!("the tool `{tool}` failed unexpectedly"))
                && text.contains(&format!("{went_off} went off")),
            "{tool}: {text}"
        );
    }
}

/// Every unknown argument is named, not only the first; a flood of them is counted, not listed.
#[test]
fn every_unknown_argument_is_named() {
    let mut arguments = sixteen(json!("="));
    arguments["zeta"] = json!(1);
    arguments["alpha"] = json!(2);
    let text = run(&FREE, &(), "sum16", arguments).text_content();
    assert!(
        text.starts_with("unknown arguments `alpha`, `zeta`: this tool takes `a`, `b`,"),
        "{text}"
    );
    let mut flood = sixteen(json!("="));
    for i in 0..1000 {
        flood[format!("x{i:04}")] = json!(i);
    }
    let text = run(&FREE, &(), "sum16", flood).text_content();
    assert!(
        text.contains("`x0009`, and 990 more: this tool takes"),
        "{text}"
    );
    assert!(text.len() < 400, "{text}");
}

/// A number JSON cannot hold.
#[tool(read_only)]
fn ratio() -> mcp_annotations::Json<Vec<f64>> {
    mcp_annotations::Json(vec![1.0, f64::NAN])
}

#[test]
fn a_result_json_cannot_hold_is_a_failed_result() {
    let listing: Listing = tools![ratio];
    let result = run(&listing, &(), "ratio", json!({}));
    assert!(result.is_error, "{result:?}");
    assert!(
        result.text_content().contains("NaN is not a JSON number"),
        "{}",
        result.text_content()
    );
    assert_eq!(result.structured_content, None);
}

/// Shared parameters, read as their inner type (serde's `rc` support).
#[tool(read_only)]
fn shared(text: std::sync::Arc<str>, count: std::rc::Rc<u8>) -> String {
    format!("{text}{count}")
}

#[test]
fn arc_and_rc_parameters_are_read_as_their_inner_type() {
    let listing: Listing = tools![shared];
    assert_eq!(
        run(&listing, &(), "shared", json!({"text": "n", "count": 2})).text_content(),
        "n2"
    );
    let schema = listing.get("shared").unwrap().input_schema.to_value();
    assert_eq!(schema["properties"]["text"]["type"], "string");
}

/// Groups of distinct tags, and tags by person.
#[tool(read_only)]
fn groups(
    groups: Vec<std::collections::BTreeSet<u8>>,
    by_person: std::collections::HashMap<String, std::collections::HashSet<String>>,
) -> usize {
    groups.len() + by_person.len()
}

/// The same, as a struct's fields.
#[derive(mcp_annotations::Tool, serde::Deserialize)]
#[tool(read_only)]
struct Grouped {
    groups: Vec<std::collections::BTreeSet<u8>>,
}

impl mcp_annotations::call::CallTool<()> for Grouped {
    type Output = usize;

    async fn call(self, _: &(), _: Context<'_>) -> usize {
        self.groups.len()
    }
}

/// A set anywhere in a parameter's type refuses repeats, judged on values, and says where.
#[test]
fn repeats_are_refused_in_sets_at_every_depth() {
    let listing: Listing = tools![groups, Grouped];
    let ok = run(
        &listing,
        &(),
        "groups",
        json!({"groups": [[1, 2], [1]], "by_person": {"ann": ["a", "b"]}}),
    );
    assert_eq!(ok.text_content(), "3");
    let text = run(
        &listing,
        &(),
        "groups",
        json!({"groups": [[1], [2, 2.0]], "by_person": {}}),
    )
    .text_content();
    assert_eq!(
        text,
        "invalid argument `groups`: the items of `groups[1]` must all differ, and 2.0 is repeated"
    );
    let text = run(
        &listing,
        &(),
        "groups",
        json!({"groups": [], "by_person": {"ann": ["a", "a"]}}),
    )
    .text_content();
    assert_eq!(
        text,
        r#"invalid argument `by_person`: the items of `by_person["ann"]` must all differ, and "a" is repeated"#
    );
    let text = run(&listing, &(), "grouped", json!({"groups": [[0.0, -0.0]]})).text_content();
    assert_eq!(
        text,
        "invalid argument `groups`: the items of `groups[0]` must all differ, and -0.0 is repeated"
    );
    assert_eq!(
        run(&listing, &(), "grouped", json!({"groups": [[3, 4]]})).text_content(),
        "1"
    );
}

/// A shape of the user's own, with an integer payload.
#[derive(serde::Deserialize, Debug)]
pub enum Shape {
    Circle(u8),
    Rect { w: u8, h: f32 },
}

impl mcp_annotations::ToolSchema for Shape {
    fn tool_schema() -> Value {
        json!({"type": "object"})
    }
}

/// A user type with integer keys.
#[derive(serde::Deserialize, Debug)]
#[allow(dead_code)] // read only through `Debug`
pub struct Scores(std::collections::BTreeMap<u32, u8>);

impl mcp_annotations::ToolSchema for Scores {
    fn tool_schema() -> Value {
        json!({"type": "object", "patternProperties": {"^(0|[1-9][0-9]*)$": {"type": "integer"}}})
    }
}

/// Any JSON, kept as its text (serde_json's own newtype).
#[derive(serde::Deserialize)]
#[serde(transparent)]
pub struct Raw(Box<serde_json::value::RawValue>);

impl mcp_annotations::ToolSchema for Raw {
    fn tool_schema() -> Value {
        json!({})
    }
}

/// Reads what serde's own types nest.
#[tool(read_only)]
fn nested(
    shape: Option<Shape>,
    scores: Option<Scores>,
    big: Option<std::collections::HashSet<u64>>,
    sets: Option<std::collections::BTreeSet<std::collections::BTreeSet<u8>>>,
    raw: Option<Raw>,
) -> String {
    let raw = raw.map(|raw| raw.0.get().to_owned());
    format!("{shape:?} {scores:?} {big:?} {sets:?} {raw:?}")
}

/// A struct's fields are read as a handler's parameters are.
#[derive(mcp_annotations::Tool, serde::Deserialize)]
#[tool(read_only)]
struct Measure {
    count: u8,
    ratio: f32,
}

impl mcp_annotations::call::CallTool<()> for Measure {
    type Output = String;

    async fn call(self, _: &(), _: Context<'_>) -> String {
        format!("{} {}", self.count, self.ratio)
    }
}

#[test]
fn what_serde_nests_is_read_exactly_too() {
    let listing: Listing = tools![nested, Measure];
    let read = |arguments: Value| run(&listing, &(), "nested", arguments);
    // Enum payloads: whole floats for integers, f32 in its range.
    assert!(
        read(json!({"shape": {"Circle": 3.0}}))
            .text_content()
            .starts_with("Some(Circle(3))")
    );
    let text = read(json!({"shape": {"Rect": {"w": 2, "h": 1e39}}})).text_content();
    assert!(text.starts_with("invalid argument `shape`"), "{text}");
    // Integer keys as JSON writes numbers: no sign but `-`, no leading zero.
    assert!(
        read(json!({"scores": {"1": 1, "20": 2}}))
            .text_content()
            .contains("Some(Scores({1: 1, 20: 2}))")
    );
    for bad in [json!({"+1": 2}), json!({"01": 5}), json!({" 1": 1})] {
        let text = read(json!({"scores": bad})).text_content();
        assert!(
            text.starts_with("invalid argument `scores`"),
            "{bad}: {text}"
        );
    }
    // Repeats past 2^53, and sets of sets in any order.
    let text =
        read(json!({"big": [18_014_398_509_481_984_u64, 18_014_398_509_481_984.0]})).text_content();
    assert!(text.contains("must all differ"), "{text}");
    let text = read(json!({"sets": [[1, 2], [2, 1]]})).text_content();
    assert!(text.contains("must all differ"), "{text}");
    assert!(
        read(json!({"sets": [[1, 2], [1]]}))
            .text_content()
            .contains("Some({{1}, {1, 2}})")
    );
    // serde_json's own newtypes.
    assert!(
        read(json!({"raw": {"a": [1, 2.5]}}))
            .text_content()
            .ends_with(r#"Some("{\"a\":[1,2.5]}")"#)
    );
    // A struct's fields.
    assert_eq!(
        run(
            &listing,
            &(),
            "measure",
            json!({"count": 3.0, "ratio": 0.5})
        )
        .text_content(),
        "3 0.5"
    );
    assert!(run(&listing, &(), "measure", json!({"count": 3, "ratio": 1e39})).is_error);
}

/// A `#[derive(Tool)]` struct's fields are held to the same depth as a handler's arguments.
#[test]
fn a_struct_tools_field_nested_past_the_documented_depth_is_refused() {
    let listing: Listing = tools![Grouped];
    let deep = (0..3_000).fold(json!(1), |inner, _| Value::Array(vec![inner]));
    let worker = std::thread::Builder::new().stack_size(2 << 20);
    let text = worker
        .spawn(move || {
            // Built in place: cloning a value this deep would overflow on its own.
            let mut arguments = serde_json::Map::new();
            arguments.insert("groups".into(), deep);
            let call = listing
                .call(&(), "grouped", Some(arguments), Context::none())
                .unwrap();
            let runtime = tokio::runtime::Builder::new_current_thread()
                .build()
                .unwrap();
            runtime.block_on(call).text_content()
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(
        text,
        "invalid argument `groups`: nested deeper than 128 arrays and objects"
    );
}
