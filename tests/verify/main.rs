//! `mcp_annotations_verify` against a listing of deliberate liars beside honest tools: every liar
//! is caught with the right kind, no honest tool ever is; snapshots and their classified diff.

use std::collections::BTreeMap;
use std::sync::Mutex;

use mcp_annotations::{Json, Listing, ToolSchema, tool, tools};
use mcp_annotations_verify::{Verify, ViolationKind};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

pub mod diff;
pub mod files;
pub mod snapshots;

/// A small key-value store, a log and a counter.
#[derive(Default, Serialize)]
pub struct Store {
    entries: Mutex<BTreeMap<String, String>>,
    log: Mutex<Vec<String>>,
    reads: Mutex<u64>,
}

/// A name a hand-written schema lists as a string or a number, read as a string only.
#[derive(Deserialize, Debug)]
pub struct Loose(String);

impl ToolSchema for Loose {
    fn tool_schema() -> Value {
        json!({"type": ["string", "integer"]})
    }
}

/// A count a hand-written schema lists from 1 to 5, read as any `u8`.
#[derive(Deserialize, Debug)]
pub struct Small(u8);

impl ToolSchema for Small {
    fn tool_schema() -> Value {
        json!({"type": "integer", "minimum": 1, "maximum": 5})
    }
}

/// A score the output schema lists up to 10.
#[derive(Serialize, ToolSchema)]
pub struct Score {
    #[schema(maximum = 10)]
    pub points: u32,
}

/// What to do with an entry, each action with its own hints.
#[derive(Deserialize, ToolSchema, Debug)]
#[serde(rename_all = "lowercase")]
pub enum EntryAction {
    /// Read it.
    #[hints(read_only, open_world = false)]
    Get,
    /// Remove it.
    #[hints(destructive, idempotent, open_world = false)]
    Remove,
}

/// What to do with the log: the hints of `Append` lie (appending writes).
#[derive(Deserialize, ToolSchema, Debug)]
#[serde(rename_all = "lowercase")]
pub enum LogAction {
    /// Read the log.
    #[hints(read_only, open_world = false)]
    Read,
    /// Append a line, "read-only".
    #[hints(read_only, open_world = false)]
    Append,
}

impl Store {
    // The honest ones.

    /// Get or remove an entry, resolved per call by the action.
    #[tool(resolve_by = action)]
    pub fn entry(&self, key: String, action: EntryAction) -> Option<String> {
        match action {
            EntryAction::Get => self.entries.lock().unwrap().get(&key).cloned(),
            EntryAction::Remove => self.entries.lock().unwrap().remove(&key),
        }
    }

    /// Read an entry.
    #[tool(read_only, open_world = false)]
    pub fn get(&self, key: String) -> Option<String> {
        self.entries.lock().unwrap().get(&key).cloned()
    }

    /// Set an entry to a value: the same call twice leaves what one left.
    #[tool(destructive, idempotent, open_world = false)]
    pub fn set(&self, key: String, value: String) {
        self.entries.lock().unwrap().insert(key, value);
    }

    /// Add an entry that is not there yet.
    #[tool(destructive = false, open_world = false)]
    pub fn add(&self, key: String, value: String) -> Result<(), String> {
        let mut entries = self.entries.lock().unwrap();
        if entries.contains_key(&key) {
            return Err(format!("`{key}` is there already"));
        }
        entries.insert(key, value);
        Ok(())
    }

    /// Remove an entry.
    #[tool(destructive, idempotent, open_world = false)]
    pub fn remove(&self, key: String) {
        self.entries.lock().unwrap().remove(&key);
    }

    /// A score, as listed.
    #[tool(read_only, open_world = false)]
    pub fn score(&self, #[schema(maximum = 10)] points: u32) -> Json<Score> {
        Json(Score { points })
    }

    // The liars.

    /// Read or append to the log; its resolution says an append is read-only.
    #[tool(resolve_by = action, read_only = false, destructive = false)]
    pub fn log(&self, action: LogAction, line: String) -> usize {
        let mut log = self.log.lock().unwrap();
        if let LogAction::Append = action {
            log.push(line);
        }
        log.len()
    }

    /// Look a word up; resolving the call counts a read, a side effect of its own.
    #[tool(destructive = false, open_world = false, resolve = counted)]
    pub fn word(&self, word: String) -> usize {
        word.len()
    }

    /// The hints of `word`, counted as a read: what resolving must not do.
    fn counted(&self, word: &str) -> mcp_annotations::ToolAnnotations {
        let _ = word;
        *self.reads.lock().unwrap() += 1;
        mcp_annotations::ToolAnnotations::new()
            .with_read_only(true)
            .with_open_world(false)
    }

    /// Count the entries (and, unsaid, every read).
    #[tool(read_only, open_world = false)]
    pub fn count(&self) -> usize {
        *self.reads.lock().unwrap() += 1;
        self.entries.lock().unwrap().len()
    }

    /// Append to the log, "idempotently".
    #[tool(destructive = false, idempotent, open_world = false)]
    pub fn append(&self, line: String) {
        self.log.lock().unwrap().push(line);
    }

    /// Put an entry, "without destroying anything".
    #[tool(destructive = false, open_world = false)]
    pub fn put(&self, key: String, value: String) {
        self.entries.lock().unwrap().insert(key, value);
    }

    /// Look up by a name the schema says may be a number.
    #[tool(read_only, open_world = false)]
    pub fn lookup(&self, name: Loose) -> String {
        name.0
    }

    /// Take a small count, whatever the schema says.
    #[tool(read_only, open_world = false)]
    pub fn take_small(&self, count: Small) -> u8 {
        count.0
    }

    /// A score, whatever the output schema says.
    #[tool(read_only, open_world = false)]
    pub fn inflated(&self, points: u32) -> Json<Score> {
        Json(Score {
            points: points.saturating_add(11),
        })
    }
}

static HONEST: Listing<Store> = tools![
    Store::get,
    Store::set,
    Store::add,
    Store::remove,
    Store::score,
    Store::entry
];

static LIARS: Listing<Store> = tools![
    Store::get,
    Store::set,
    Store::add,
    Store::remove,
    Store::score,
    Store::count,
    Store::append,
    Store::put,
    Store::lookup,
    Store::take_small,
    Store::inflated,
    Store::log,
    Store::word,
];

fn observe(store: &Store) -> Value {
    serde_json::to_value(store).unwrap()
}

#[test]
fn honest_tools_verify_clean() {
    let report = Verify::new(&HONEST, Store::default)
        .observe(observe)
        .cases(48)
        .seed(1)
        .run();
    report.assert_ok();
    assert!(report.cases() >= 6 * 48, "{report}");
}

#[test]
fn every_liar_is_caught_with_the_right_kind_and_no_honest_tool_is() {
    let report = Verify::new(&LIARS, Store::default)
        .observe(observe)
        .cases(48)
        .seed(2)
        .run();
    let mut found: Vec<(String, ViolationKind)> = report
        .violations()
        .iter()
        .map(|violation| (violation.tool().to_owned(), violation.kind()))
        .collect();
    found.sort_by(|a, b| a.0.cmp(&b.0));
    let expected = [
        ("append", ViolationKind::Idempotent),
        ("count", ViolationKind::ReadOnly),
        ("inflated", ViolationKind::OutputSchema),
        ("log", ViolationKind::ReadOnly),
        ("lookup", ViolationKind::ValidArgumentsRefused),
        ("put", ViolationKind::Additive),
        ("take_small", ViolationKind::InvalidArgumentsAccepted),
        ("word", ViolationKind::Resolution),
    ];
    let expected: Vec<(String, ViolationKind)> = expected
        .iter()
        .map(|(tool, kind)| ((*tool).to_owned(), *kind))
        .collect();
    assert_eq!(found, expected, "{report}");
    // Each says what it found, shrunk: `put` overwrote a key an earlier call set.
    let put = report
        .violations()
        .iter()
        .find(|violation| violation.tool() == "put")
        .unwrap();
    assert!(!put.sequence().is_empty(), "{put}");
    let text = put.to_string();
    assert!(
        text.contains("`put` destroys what was there (destructiveHint: false)"),
        "{text}"
    );
    assert!(text.contains("/entries/"), "{text}");
    assert!(report.to_string().contains("seed 2"), "{report}");
    // `log`'s listing is honest (not read-only); the resolution of an append lied, and the
    // violation is that resolution's.
    let log = report
        .violations()
        .iter()
        .find(|violation| violation.tool() == "log")
        .unwrap();
    assert!(
        log.resolution().is_some_and(|hints| hints.read_only()),
        "{log}"
    );
    assert_eq!(log.arguments()["action"], "append", "{log}");
    assert!(
        log.to_string()
            .contains("(readOnlyHint: true, as tools/resolve said of this call)"),
        "{log}"
    );
    let word = report
        .violations()
        .iter()
        .find(|violation| violation.tool() == "word")
        .unwrap();
    assert!(word.to_string().contains("resolving the call"), "{word}");
}

#[test]
fn the_same_seed_gives_the_same_report() {
    let run = |seed| {
        Verify::new(&LIARS, Store::default)
            .observe(observe)
            .cases(16)
            .seed(seed)
            .run()
            .to_string()
    };
    assert_eq!(run(9), run(9));
}

#[test]
fn what_kept_the_run_from_checking_is_a_problem_in_the_report_never_a_panic() {
    let problem = |report: &mcp_annotations_verify::Report, text: &str| {
        assert!(!report.is_ok(), "{report}");
        assert!(
            report.problems().iter().any(|line| line.contains(text)),
            "{text} in {report}"
        );
    };
    // A state that cannot be built.
    let report = Verify::new(&HONEST, || -> Store { panic!("no database") })
        .observe(observe)
        .cases(2)
        .seed(3)
        .run();
    problem(&report, "state could not be built: no database");
    // An observation that cannot be serialized.
    let report = Verify::new(&HONEST, Store::default)
        .observe(|_: &Store| BTreeMap::from([((1, 2), 3)]))
        .cases(2)
        .seed(4)
        .run();
    problem(&report, "observation could not be serialized");
    // No observation at all: arguments and results only, said as a problem (observe `()` to
    // mean it).
    let report = Verify::new(&HONEST, Store::default).cases(2).seed(5).run();
    problem(&report, "no observation");
    let report = Verify::new(&HONEST, Store::default)
        .observe(|_: &Store| ())
        .cases(8)
        .seed(5)
        .run();
    report.assert_ok();
    // A tool that never succeeds was never seen doing anything.
    let report = Verify::new(&NEVER, Store::default)
        .observe(observe)
        .cases(8)
        .seed(6)
        .run();
    problem(&report, "`always_fails`: none of its");
}

/// A tool that always fails.
#[tool(read_only, open_world = false)]
fn always_fails() -> Result<(), String> {
    Err("down for maintenance".into())
}

static NEVER: Listing<Store> = tools![always_fails];

/// Read a ticket by its key: an anchored pattern, as most are written.
#[tool(read_only, open_world = false)]
fn ticket(#[schema(pattern = r"^[A-Z]{2}-\d{1,3}$")] key: String) -> String {
    key
}

static TICKETS: Listing<Store> = tools![ticket];

#[test]
fn an_anchored_pattern_is_generated_for() {
    let report = Verify::new(&TICKETS, Store::default)
        .observe(observe)
        .cases(16)
        .seed(7)
        .run();
    report.assert_ok();
    let (calls, succeeded) = report.calls("ticket").unwrap();
    assert!(calls >= 16 && succeeded == calls, "{report}");
}

/// A text a hand-written schema lists as at least 5000 characters long, through a keyword the
/// generator does not read: its values are all but impossible to generate.
#[derive(Deserialize, Debug)]
pub struct Essay(String);

impl ToolSchema for Essay {
    fn tool_schema() -> Value {
        json!({"type": "string", "not": {"maxLength": 5000}})
    }
}

/// Grade an essay.
#[tool(read_only, open_world = false)]
fn grade(essay: Essay) -> usize {
    essay.0.len()
}

/// An odd number from 1 to 99, through a keyword the generator does not read: half the values
/// generated are refused, so each case may take a few tries.
#[derive(Deserialize, Debug)]
#[serde(try_from = "u8")]
pub struct Odd(u8);

impl TryFrom<u8> for Odd {
    type Error = String;

    fn try_from(number: u8) -> Result<Self, String> {
        (number % 2 == 1 && number < 100)
            .then_some(Odd(number))
            .ok_or_else(|| format!("{number} is not an odd number below 100"))
    }
}

impl ToolSchema for Odd {
    fn tool_schema() -> Value {
        json!({"type": "integer", "minimum": 1, "maximum": 99, "not": {"multipleOf": 2}})
    }
}

/// Count an odd number ("read-only", and it counts the call).
#[tool(read_only, open_world = false)]
fn tally(#[context] store: &Store, number: Odd) -> u8 {
    *store.reads.lock().unwrap() += 1;
    number.0
}

static HARD_FIRST: Listing<Store> = tools![grade, tally];

/// A tool whose values cannot be generated starves no other: the read-only liar after it is
/// caught as when listed alone, and the report says why the first was barely checked.
#[test]
fn one_tools_schema_starves_no_other() {
    let report = Verify::new(&HARD_FIRST, Store::default)
        .observe(observe)
        .cases(16)
        .seed(3)
        .run();
    let found: Vec<(&str, ViolationKind)> = report
        .violations()
        .iter()
        .map(|violation| (violation.tool(), violation.kind()))
        .collect();
    assert_eq!(found, [("tally", ViolationKind::ReadOnly)], "{report}");
    assert!(
        report.to_string().contains(
            "`grade`: cases could not be generated from its input schema, so it was checked with 0 of 16 cases"
        ),
        "{report}"
    );
}

/// `contains` keeps an array when any one-to-one assignment keeps every item, not only the
/// first fit: `{"a":1}` fits both new items, `{"a":1,"b":2}` only the first.
#[test]
fn contains_finds_a_matching_wherever_one_keeps_every_item() {
    let before = json!([{"a": 1}, {"a": 1, "b": 2}]);
    let after = json!([{"a": 1, "b": 2, "c": 3}, {"a": 1, "b": 3}]);
    assert!(mcp_annotations_verify::contains(&before, &after));
    // And still refuses where no assignment keeps both.
    let after = json!([{"a": 1, "b": 2, "c": 3}, {"b": 3}]);
    assert!(mcp_annotations_verify::contains(
        &json!([{"a": 1}, {"a": 1}]),
        &json!([{"a": 1, "x": 0}, {"a": 1}])
    ));
    assert!(!mcp_annotations_verify::contains(&before, &after));
    assert!(!mcp_annotations_verify::contains(
        &json!([1, 1]),
        &json!([1])
    ));
}

/// Tags kept in a `HashSet`.
pub struct Tags(Mutex<std::collections::HashSet<String>>);

impl Default for Tags {
    fn default() -> Self {
        Tags::of(8)
    }
}

impl Tags {
    /// `count` tags, `tag0` on.
    fn of(count: u32) -> Self {
        Tags(Mutex::new((0..count).map(|n| format!("tag{n}")).collect()))
    }

    /// Tag the item: a tag given twice is there once.
    #[tool(destructive = false, idempotent, open_world = false)]
    pub fn tag(&self, #[schema(max_length = 4)] tag: String) {
        self.0.lock().unwrap().insert(tag);
    }

    /// The tags.
    #[tool(read_only, open_world = false)]
    pub fn tags(&self) -> usize {
        self.0.lock().unwrap().len()
    }
}

static TAGS: Listing<Tags> = tools![Tags::tag, Tags::tags];

/// What tags are observed as: their set, kept, beside a label.
#[derive(serde::Serialize)]
struct Seen {
    label: &'static str,
    tags: std::collections::HashSet<String>,
}

/// A `HashSet` in the observation, wherever it sits, is compared as a set: an honest insert
/// that changes nothing still makes room first, and the table it grows (six tags, one short
/// of its capacity) lists the tags in another order. Found by the type, with nothing stated.
#[test]
fn a_hash_set_in_the_observation_is_compared_as_a_set() {
    let report = Verify::new(&TAGS, || Tags::of(6))
        .observe(|tags| Seen {
            label: "tags",
            tags: tags.0.lock().unwrap().clone(),
        })
        .cases(32)
        .seed(4)
        .run();
    report.assert_ok();
    // A set rebuilt on each observation (a hasher of its own, an order of its own).
    Verify::new(&TAGS, Tags::default)
        .observe(|tags| {
            tags.0
                .lock()
                .unwrap()
                .iter()
                .cloned()
                .collect::<std::collections::HashSet<String>>()
        })
        .cases(16)
        .seed(4)
        .run()
        .assert_ok();
}

/// A list whose type does not say it is a set (a `Vec` collected from a set built anew, in an
/// order of its own): compared in order, honest tools look like liars; stated `unordered`,
/// they verify clean.
#[test]
fn lists_in_the_observation_are_compared_as_sets_where_stated() {
    let observe = |tags: &Tags| {
        tags.0
            .lock()
            .unwrap()
            .iter()
            .cloned()
            .collect::<std::collections::HashSet<String>>()
            .into_iter()
            .collect::<Vec<String>>()
    };
    let report = Verify::new(&TAGS, Tags::default)
        .observe(observe)
        .unordered("")
        .cases(16)
        .seed(4)
        .run();
    report.assert_ok();
    // In order, eight tags in two sets built anew are all but never listed alike.
    let report = Verify::new(&TAGS, Tags::default)
        .observe(observe)
        .cases(16)
        .seed(4)
        .run();
    assert!(
        report
            .violations()
            .iter()
            .any(|violation| violation.kind() == ViolationKind::ReadOnly),
        "{report}"
    );
}

/// Halve a quarter.
#[tool(read_only, open_world = false)]
fn halve(#[schema(minimum = 0.1, maximum = 0.9, multiple_of = 0.25)] quarter: f64) -> f64 {
    quarter / 2.0
}

/// The lowest number there is.
#[tool(read_only, open_world = false)]
fn lowest(#[schema(maximum = -9223372036854775808)] number: i64) -> i64 {
    number
}

static EDGES: Listing<Store> = tools![halve, lowest];

/// Values are generated where few exist: the three multiples of 0.25 within 0.1..0.9 (only
/// integers used to be tried), and the one `i64` at or below `i64::MIN` (which used to panic
/// inside the generator).
#[test]
fn values_are_generated_at_the_edges_of_what_a_schema_allows() {
    let report = Verify::new(&EDGES, Store::default)
        .observe(observe)
        .cases(8)
        .seed(6)
        .run();
    report.assert_ok();
    assert!(report.cases() >= 16, "{report}");
}

/// A result whose hand-written schema no validator reads (`minimum` is not a number).
#[derive(Serialize)]
pub struct Weird {
    n: u8,
}

impl ToolSchema for Weird {
    fn tool_schema() -> Value {
        json!({"type": "object", "properties": {"n": {"type": "integer", "minimum": "zero"}}})
    }
}

/// A weird result.
#[tool(read_only, open_world = false)]
fn weird() -> Json<Weird> {
    Json(Weird { n: 1 })
}

static WEIRD: Listing<Store> = tools![weird];

/// An output schema a validator cannot read leaves results unchecked: the report says so for
/// each version, where the run used to pass in silence.
#[test]
fn an_output_schema_no_validator_reads_is_a_problem_not_a_skip() {
    let report = Verify::new(&WEIRD, Store::default)
        .observe(observe)
        .cases(4)
        .seed(7)
        .run();
    let text = report.to_string();
    for version in mcp_annotations::ProtocolVersion::ALL {
        assert!(
            text.contains(&format!(
                "`weird`: its output schema for {version} is not one a validator reads"
            )),
            "{text}"
        );
    }
    assert!(!report.is_ok(), "{report}");
}

/// A level a hand-written schema lists as 1, 2 or 3, read as any `u8`.
#[derive(Deserialize, Debug)]
pub struct Level(u8);

impl ToolSchema for Level {
    fn tool_schema() -> Value {
        json!({"type": "integer", "enum": [1, 2, 3]})
    }
}

/// A window a hand-written schema bounds inside (its `from` above 0, at least one tag), read by
/// serde's derive, which checks neither.
#[derive(Deserialize, Debug)]
pub struct Window {
    from: u8,
    tags: Vec<String>,
}

impl ToolSchema for Window {
    fn tool_schema() -> Value {
        json!({"type": "object",
            "properties": {
                "from": {"type": "integer", "exclusiveMinimum": 0, "maximum": 200},
                "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1}},
            "required": ["from", "tags"]})
    }
}

/// Set the level.
#[tool(read_only, open_world = false)]
fn level(level: Level) -> u8 {
    level.0
}

/// Open a window.
#[tool(read_only, open_world = false)]
fn window(window: Window) -> usize {
    usize::from(window.from) + window.tags.len()
}

static LOOSE_READERS: Listing<Store> = tools![level, window];

/// Rules are broken one at a time while the rest stays valid, at every depth: `4` against
/// `[1, 2, 3]` (a string used to be the only value tried, which also broke the type), the
/// exclusive bound and `minItems` inside a struct parameter (no rule inside one used to be
/// broken at all). Both readers take what their schema refuses.
#[test]
fn each_rule_is_broken_alone_and_inside_struct_parameters() {
    let report = Verify::new(&LOOSE_READERS, Store::default)
        .observe(observe)
        .cases(48)
        .seed(8)
        .run();
    let mut found: Vec<(&str, ViolationKind)> = report
        .violations()
        .iter()
        .map(|violation| (violation.tool(), violation.kind()))
        .collect();
    found.sort_by_key(|(tool, _)| *tool);
    assert_eq!(
        found,
        [
            ("level", ViolationKind::InvalidArgumentsAccepted),
            ("window", ViolationKind::InvalidArgumentsAccepted),
        ],
        "{report}"
    );
    let text = report.to_string();
    assert!(
        text.contains("a value outside its enum (`level`)"),
        "{text}"
    );
}

/// A window whose schema and reader agree, at every depth.
#[derive(Deserialize, Debug, ToolSchema)]
pub struct Checked {
    #[schema(exclusive_minimum = 0, maximum = 200)]
    from: u8,
    #[schema(min_items = 1, max_items = 3)]
    tags: Vec<Tag>,
}

/// A tag of 2 to 8 characters.
#[derive(Deserialize, Debug, ToolSchema)]
pub struct Tag {
    #[schema(min_length = 2, max_length = 8)]
    name: String,
}

/// Open a checked window.
#[tool(read_only, open_world = false)]
fn checked_window(window: Checked) -> usize {
    usize::from(window.from) + window.tags.iter().map(|tag| tag.name.len()).sum::<usize>()
}

static CHECKED: Listing<Store> = tools![checked_window];

/// An honest struct parameter, its rules broken at every depth, is refused each time naming
/// the argument: no violation.
#[test]
fn a_struct_parameter_whose_reader_holds_its_schema_verifies_clean() {
    let report = Verify::new(&CHECKED, Store::default)
        .observe(observe)
        .cases(64)
        .seed(9)
        .run();
    report.assert_ok();
}

/// `contains` on long arrays: old item `i` fits new items `i` and `i + 1`, the last old item
/// only new item 0, so keeping them all needs one path through the whole array (each item
/// moved one along). Twenty thousand long, it ends (a recursive search used to overflow the
/// stack, aborting the process), and fast.
#[test]
fn contains_on_a_long_chain_needs_no_deep_stack() {
    let n = 20_000;
    let key = |i: usize| format!("k{i}");
    let mut before: Vec<Value> = (0..n - 1).map(|i| json!({ key(i): 1 })).collect();
    before.push(json!({"last": 1}));
    let mut after: Vec<Value> = vec![json!({ key(0): 1, "last": 1 })];
    after.extend((1..n).map(|j| json!({ key(j - 1): 1, key(j): 1 })));
    let started = std::time::Instant::now();
    assert!(mcp_annotations_verify::contains(
        &Value::Array(before.clone()),
        &Value::Array(after.clone())
    ));
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    // Without new item 0, the last old item has nowhere to go.
    after.remove(0);
    assert!(!mcp_annotations_verify::contains(
        &Value::Array(before),
        &Value::Array(after)
    ));
}

/// Measure a name (a derived struct tool).
#[derive(mcp_annotations::Tool, Deserialize)]
#[tool(read_only, open_world = false)]
pub struct Measure {
    name: String,
    count: u8,
}

impl mcp_annotations::call::CallTool<()> for Measure {
    type Output = usize;

    async fn call(self, _state: &(), _context: mcp_annotations::Context<'_>) -> usize {
        self.name.len() + usize::from(self.count)
    }
}

static MEASURE: Listing<()> = tools![Measure];

/// A derived struct tool's refusal of a missing field names the argument, as a handler's
/// does: an honest `#[derive(Tool)]` verifies clean.
#[test]
fn an_honest_struct_tool_verifies_clean() {
    let report = Verify::new(&MEASURE, || ())
        .observe(|_: &()| json!(null))
        .cases(64)
        .seed(1)
        .run();
    report.assert_ok();
}

/// Sets inside sets, stated in any order: the inner arrays are put in order before the outer.
pub struct Users(Mutex<u8>);

impl Users {
    /// Peek (read-only: the observation lists the same sets in two orders).
    #[tool(read_only, open_world = false)]
    pub fn peek(&self) -> u8 {
        let mut count = self.0.lock().unwrap();
        *count = count.wrapping_add(1);
        *count
    }
}

static USERS: Listing<Users> = tools![Users::peek];

#[test]
fn unordered_pointers_hold_in_any_order() {
    let observe = |users: &Users| {
        if (*users.0.lock().unwrap()).is_multiple_of(2) {
            json!({"users": [{"roles": [2, 1]}, {"roles": [1, 3]}]})
        } else {
            json!({"users": [{"roles": [1, 3]}, {"roles": [1, 2]}]})
        }
    };
    Verify::new(&USERS, || Users(Mutex::new(0)))
        .observe(observe)
        .unordered("/users")
        .unordered("/users/*/roles")
        .cases(8)
        .seed(2)
        .run()
        .assert_ok();
}

/// A number a hand-written schema bounds at the very bottom of `i64`, read as any `i64`.
#[derive(Deserialize, Debug)]
pub struct Floor(i64);

impl ToolSchema for Floor {
    fn tool_schema() -> Value {
        json!({"type": "integer", "maximum": i64::MIN})
    }
}

/// Take the floor.
#[tool(read_only, open_world = false)]
fn floor(number: Floor) -> i64 {
    number.0
}

static FLOORS: Listing<Store> = tools![floor];

/// A bound where a float's step is wider than one is still broken (`i64::MIN + 1.0` is
/// `i64::MIN` as a float): the reader that takes any `i64` is caught.
#[test]
fn a_bound_past_two_to_the_53_is_still_broken() {
    let report = Verify::new(&FLOORS, Store::default)
        .observe(observe)
        .cases(32)
        .seed(10)
        .run();
    let found: Vec<ViolationKind> = report.violations().iter().map(|v| v.kind()).collect();
    assert_eq!(found, [ViolationKind::InvalidArgumentsAccepted], "{report}");
}

/// What a schema suggests (its examples, its default, literals its description quotes) is
/// tried often, and always by `suggested_arguments`.
#[test]
fn values_a_schema_suggests_are_tried() {
    use proptest::strategy::{Strategy, ValueTree};
    let schema = json!({"type": "object", "required": ["sql", "zone"], "properties": {
        "sql": {"type": "string", "description": "A query, such as `SELECT 1`."},
        "zone": {"type": "string", "examples": ["Europe/Paris"]}
    }});
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let draws =
        |strategy: proptest::strategy::BoxedStrategy<Value>, runner: &mut _| -> Vec<Value> {
            (0..40)
                .map(|_| strategy.new_tree(runner).unwrap().current())
                .collect()
        };
    let some = draws(
        mcp_annotations_verify::arguments(&schema).unwrap(),
        &mut runner,
    );
    assert!(
        some.iter().any(|value| value["sql"] == "SELECT 1"),
        "{some:?}"
    );
    assert!(
        some.iter().any(|value| value["zone"] == "Europe/Paris"),
        "{some:?}"
    );
    let all = draws(
        mcp_annotations_verify::suggested_arguments(&schema).unwrap(),
        &mut runner,
    );
    assert!(
        all.iter()
            .all(|value| value["sql"] == "SELECT 1" && value["zone"] == "Europe/Paris"),
        "{all:?}"
    );
}
