//! Hints verified by behaviour, in the author's own tests: [`Verify`] calls
//! every tool of a listing with arguments generated from its listed input schema, observes the
//! server's state around each call, and reports every promise a tool breaks: a read-only tool
//! that changed something, an idempotent one whose second call did more, a non-destructive one
//! that removed or overwrote something, arguments the schema takes that the call refuses (or
//! the reverse), a result outside the output schema. [`Snapshots`] keeps each tool as listed
//! and fails on a change, classified by [`diff`](mcp_annotations::host::diff).
//!
//! ```
//! use std::sync::Mutex;
//!
//! use mcp_annotations_verify::{Verify, ViolationKind};
//! use mcp_annotations::{Listing, tool, tools};
//!
//! #[derive(Default)]
//! pub struct Counter(Mutex<u64>);
//!
//! impl Counter {
//!     /// Read the count.
//!     #[tool(read_only, open_world = false)]
//!     pub fn read(&self) -> u64 {
//!         let mut count = self.0.lock().unwrap();
//!         *count += 1; // a read that writes: what no hint check sees, and this one does
//!         *count
//!     }
//!
//!     /// Add to the count.
//!     #[tool(destructive = false, open_world = false)]
//!     pub fn add(&self, #[schema(maximum = 10)] by: u64) -> u64 {
//!         let mut count = self.0.lock().unwrap();
//!         *count += by;
//!         *count
//!     }
//! }
//!
//! static TOOLS: Listing<Counter> = tools![Counter::read, Counter::add];
//!
//! let report = Verify::new(&TOOLS, Counter::default)
//!     .observe(|counter: &Counter| *counter.0.lock().unwrap())
//!     .cases(32)
//!     .seed(7)
//!     .run();
//! assert!(!report.is_ok());
//! let kinds: Vec<_> = report.violations().iter().map(|v| (v.tool(), v.kind())).collect();
//! // `add` keeps nothing that was there (a count is a number: a new one overwrites it).
//! assert!(kinds.contains(&("read", ViolationKind::ReadOnly)));
//! assert!(kinds.contains(&("add", ViolationKind::Additive)));
//! ```
//!
//! What is observed is what the test says the environment is: any `Serialize` value made from
//! the state (a store's contents, a directory's listing). The checks, on each case:
//!
//! - **read-only** (`read_only()`): the observation after the call equals the one before,
//!   whether the call succeeded or failed;
//! - **idempotent** (`idempotent()`, not read-only): a second call with the same arguments
//!   leaves the observation the first call left;
//! - **additive** (not `destructive()`, not read-only): everything observed before is still
//!   there after, by [`contains`];
//! - **arguments**: arguments valid to the listed schema are never refused as arguments (a
//!   handler's own `Err` is its judgement, and fine), and arguments that break one rule of it
//!   (a type, a bound, a length, a pattern, an enum, a missing required or an unknown key)
//!   are refused naming the argument. A refusal is known by the reader's words, a line that
//!   starts `` invalid argument `x` ``, `` missing argument `x` `` or `unknown argument`: a
//!   handler whose own `Err` starts so is taken for the reader;
//! - **output**: a structured result is valid against the listed `outputSchema`, in every
//!   protocol version's form.
//!
//! Each case starts from a fresh state (`new`'s function), brought to a point where something
//! exists by a generated sequence of the listing's tools that are not read-only, whose
//! arguments and results feed later arguments (an id `add` returned is what `delete` is then
//! called with). A violation is shrunk by proptest to the smallest case that still shows it.
//!
//! Open world cannot be observed from the state: `openWorldHint` is not checked, and no
//! report claims it is.
//!
//! A run that could not check what it should is not ok either ([`Report::problems`]): a tool
//! none of whose calls succeeded (its hints were seen only over failures), a schema no value
//! can be generated for, an observation missing or failing, a state that cannot be built.
//!
#![doc = include_str!("../docs/verify.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod block_on;
mod broken;
#[cfg(feature = "files")]
pub mod files;
mod generate;
mod numbers;
mod observe;
mod report;
mod run;
mod seed;
mod snapshots;

pub use self::observe::contains;
pub use self::report::{Report, Violation, ViolationKind};
pub use self::snapshots::{SnapshotError, Snapshots};

use serde_json::Value;

use mcp_annotations::Listing;

/// The JSON pointers of the strings and numbers in `value`, in order: the places where a
/// generated value may be replaced by one seen before, as `Verify` and the audit's probe do to
/// reach the ids and names a server made.
///
/// ```
/// let arguments = serde_json::json!([3, {"a/b": ["x", true]}]);
/// assert_eq!(mcp_annotations_verify::scalar_paths(&arguments), ["/0", "/1/a~1b/0"]);
/// ```
#[must_use]
pub fn scalar_paths(value: &Value) -> Vec<String> {
    fn walk(value: &Value, path: String, out: &mut Vec<String>) {
        match value {
            Value::String(_) | Value::Number(_) => out.push(path),
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    walk(item, format!("{path}/{i}"), out);
                }
            }
            Value::Object(object) => {
                for (key, item) in object {
                    let key = key.replace('~', "~0").replace('/', "~1");
                    walk(item, format!("{path}/{key}"), out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(value, String::new(), &mut out);
    out
}

/// The strings (up to 256 bytes) and numbers in `value`, in order, appended to `out`: what a
/// later call may be given, taken from earlier arguments and results.
///
/// ```
/// let mut seen = Vec::new();
/// mcp_annotations_verify::scalars(&serde_json::json!([7, true, {"name": "n"}]), &mut seen);
/// assert_eq!(seen, [serde_json::json!(7), serde_json::json!("n")]);
/// ```
pub fn scalars(value: &Value, out: &mut Vec<Value>) {
    match value {
        Value::String(text) if text.len() <= 256 => out.push(value.clone()),
        Value::Number(_) => out.push(value.clone()),
        Value::Array(items) => items.iter().for_each(|item| scalars(item, out)),
        Value::Object(object) => object.values().for_each(|item| scalars(item, out)),
        _ => {}
    }
}

/// The strategy of the arguments a tool's input `schema` takes, as `Verify` generates them:
/// built from the keywords it reads (types, bounds, lengths, patterns as ECMA-262 reads them,
/// formats, enums, items, properties, `anyOf`/`oneOf`/`allOf`, `$ref` into `$defs`), each
/// value then kept only if a JSON Schema validator of the whole schema takes it. What a host
/// that probes another server's tools generates arguments with.
///
/// # Errors
///
/// Why no value can be generated (a schema that takes nothing, a `$ref` to nothing, a
/// pattern the generator cannot read).
pub fn arguments(schema: &Value) -> Result<proptest::strategy::BoxedStrategy<Value>, String> {
    generate::valid(schema)
}

/// As [`arguments`], every value taken from what the schema suggests where it suggests any
/// (its `examples`, its `default`, literals its description quotes between backticks or
/// double quotes): the arguments a server most likely understands, which the probe tries
/// first.
///
/// # Errors
///
/// As [`arguments`].
pub fn suggested_arguments(
    schema: &Value,
) -> Result<proptest::strategy::BoxedStrategy<Value>, String> {
    generate::suggested_first(schema)
}

/// A state observed as its JSON, or why it could not be serialized.
type ObserveJson<'a, S> = Box<dyn Fn(&S) -> Result<Value, String> + 'a>;

/// What a state is observed as.
pub(crate) enum Observe<'a, S> {
    /// Its JSON, or why it could not be serialized.
    Json(ObserveJson<'a, S>),
    /// The folder or file it keeps its data in, observed by what the files hold.
    #[cfg(feature = "files")]
    Files(Box<dyn Fn(&S) -> std::path::PathBuf + 'a>),
}

impl<S> Observe<'_, S> {
    /// Whether the state is observed as its JSON.
    fn is_json(&self) -> bool {
        matches!(self, Observe::Json(_))
    }
}

/// A verification of a listing's hints by behaviour; see the [module](self).
pub struct Verify<'a, S: 'static> {
    listing: &'a Listing<S>,
    make: Box<dyn Fn() -> S + 'a>,
    observe: Option<Observe<'a, S>>,
    /// The JSON pointers (with `*` for any key or index) of arrays that are sets.
    unordered: Vec<String>,
    cases: u32,
    seed: Option<u64>,
    /// The places classed volatile or append-only, for an observation of files.
    #[cfg(feature = "files")]
    classes: files::classes::Classes,
    /// The places that could not be read, each with why.
    #[cfg(feature = "files")]
    bad_places: Vec<String>,
}

impl<'a, S: 'static> Verify<'a, S> {
    /// A verification of `listing`'s tools, each case on a fresh state from `make`.
    pub fn new(listing: &'a Listing<S>, make: impl Fn() -> S + 'a) -> Self {
        Verify {
            listing,
            make: Box::new(make),
            observe: None,
            unordered: Vec::new(),
            cases: 64,
            seed: None,
            #[cfg(feature = "files")]
            classes: files::classes::Classes::default(),
            #[cfg(feature = "files")]
            bad_places: Vec::new(),
        }
    }

    /// What the environment is: the observation the hints are judged on, made from the state
    /// before and after each call (any `Serialize` value, compared as JSON). Without one,
    /// only the arguments and results are checked, and the report says so.
    #[must_use]
    pub fn observe<T: serde::Serialize>(mut self, observe: impl Fn(&S) -> T + 'a) -> Self {
        self.observe = Some(Observe::Json(Box::new(move |state| {
            serde_json::to_value(observe(state)).map_err(|error| error.to_string())
        })));
        self
    }

    /// Observes the folder (or the one file) at the path `path` gives for a state, by what
    /// its files hold, and judges each call by the rules `annotations-audit probe` judges a
    /// server's sandbox by (see [`files`]): a SQLite database by its tables and rows, an office
    /// document part by part, JSON by [`contains`], JSON Lines record by record, a git
    /// repository by its refs and what its index stages, other text by its lines, other bytes
    /// only grown at their end. A read-only tool changes nothing there, a non-destructive one
    /// loses nothing, an idempotent one called twice changes nothing the second time.
    /// Replaces [`observe`](Self::observe) (feature `files`); [`unordered`](Self::unordered)
    /// does not apply to it. A path that no observation finds is a problem in the report (a
    /// path mistyped would otherwise pass every claim). A symbolic link is observed as a link,
    /// not followed.
    ///
    /// ```
    /// use std::path::PathBuf;
    ///
    /// use mcp_annotations::{tool, tools, Listing};
    /// use mcp_annotations_verify::Verify;
    ///
    /// /// A store of lines, in a folder of its own.
    /// pub struct Journal(PathBuf);
    ///
    /// impl Journal {
    ///     /// Add a line, keeping every other.
    ///     #[tool(destructive = false, open_world = false)]
    ///     fn add(&self, #[schema(max_length = 20)] line: String) -> Result<(), String> {
    ///         use std::io::Write;
    ///         let mut file = std::fs::OpenOptions::new()
    ///             .create(true)
    ///             .append(true)
    ///             .open(self.0.join("journal.txt"))
    ///             .map_err(|error| error.to_string())?;
    ///         writeln!(file, "{}", line.replace('\n', " ")).map_err(|error| error.to_string())
    ///     }
    /// }
    ///
    /// static TOOLS: Listing<Journal> = tools![Journal::add];
    ///
    /// let cases = std::sync::atomic::AtomicU32::new(0);
    /// Verify::new(&TOOLS, || {
    ///     let n = cases.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    ///     let dir = std::env::temp_dir().join(format!("journal-{}-{n}", std::process::id()));
    ///     let _ = std::fs::remove_dir_all(&dir);
    ///     std::fs::create_dir_all(&dir).unwrap();
    ///     Journal(dir)
    /// })
    /// .observe_files(|journal| journal.0.clone())
    /// .cases(8)
    /// .run()
    /// .assert_ok();
    /// # for n in 0..cases.into_inner() {
    /// #     let _ = std::fs::remove_dir_all(std::env::temp_dir().join(format!("journal-{}-{n}", std::process::id())));
    /// # }
    /// ```
    #[cfg(feature = "files")]
    #[must_use]
    pub fn observe_files(mut self, path: impl Fn(&S) -> std::path::PathBuf + 'a) -> Self {
        self.observe = Some(Observe::Files(Box::new(path)));
        self
    }

    /// Classes a place of an [observation of files](Self::observe_files) *volatile*: what
    /// changes there (a timestamp column, a cache) is never judged. A place is a path under
    /// the observed folder (`*` matching within a segment, `**` any number of them; where one
    /// file is observed, its name), or `PATH#POINTER`, a JSON pointer into what the file holds
    /// whose segments may be `*`: `state.db#/tables/items/rows/*/last_seen`. A place written
    /// wrong (an absolute path, a pointer without its `/`) is a problem in the report; one
    /// that matches nothing classes nothing. Places class an observation of files only, not
    /// one made with [`observe`](Self::observe).
    #[cfg(feature = "files")]
    #[must_use]
    pub fn volatile(mut self, place: &str) -> Self {
        match files::classes::Place::parse(place) {
            Ok(place) => self.classes.volatile.push(place),
            Err(why) => self.bad_places.push(why),
        }
        self
    }

    /// Classes a place of an [observation of files](Self::observe_files) *append-only*: it may
    /// grow (a log, an audit table) under a tool that is idempotent or non-destructive, never
    /// under a read-only one. Places are written as for [`volatile`](Self::volatile).
    #[cfg(feature = "files")]
    #[must_use]
    pub fn append_only(mut self, place: &str) -> Self {
        match files::classes::Place::parse(place) {
            Ok(place) => self.classes.append_only.push(place),
            Err(why) => self.bad_places.push(why),
        }
        self
    }

    /// Compares the arrays of the observation at `pointer` as sets (as multisets: order aside,
    /// repeats counted): what a `HashSet` serializes to, in an order that may differ between
    /// two observations of the same set. `pointer` is a JSON pointer into the observation,
    /// `*` standing for any key or index (`"/tags"`, `"/users/*/roles"`; `""` for the
    /// observation itself). Observing a `BTreeSet` instead does the same for one field.
    ///
    /// ```
    /// use std::collections::HashSet;
    /// use std::sync::Mutex;
    ///
    /// use mcp_annotations::{tool, tools, Listing};
    /// use mcp_annotations_verify::Verify;
    ///
    /// #[derive(Default)]
    /// struct Tags(Mutex<HashSet<String>>);
    ///
    /// impl Tags {
    ///     /// Tag the item: a tag given twice is there once.
    ///     #[tool(destructive = false, idempotent, open_world = false)]
    ///     fn tag(&self, tag: String) {
    ///         self.0.lock().unwrap().insert(tag);
    ///     }
    /// }
    ///
    /// static TOOLS: Listing<Tags> = tools![Tags::tag];
    ///
    /// // Each observation a set built anew, its order its own.
    /// Verify::new(&TOOLS, Tags::default)
    ///     .observe(|tags| tags.0.lock().unwrap().iter().cloned().collect::<HashSet<_>>())
    ///     .unordered("")
    ///     .cases(16)
    ///     .run()
    ///     .assert_ok();
    /// ```
    #[must_use]
    pub fn unordered(mut self, pointer: &str) -> Self {
        self.unordered.push(pointer.to_owned());
        self
    }

    /// How many cases each tool gets (64 unless set).
    #[must_use]
    pub fn cases(mut self, cases: u32) -> Self {
        self.cases = cases;
        self
    }

    /// The seed: the same seed, listing and state give the same run. Unless set, the run's
    /// seed is taken from the clock, and the report prints it.
    #[must_use]
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = Some(seed);
        self
    }

    /// Runs the verification to its end on this thread: synchronous handlers, and `async`
    /// ones that need no runtime (a handler that needs tokio's, to sleep or to spawn, fails
    /// each call with a panic's message here: use [`run_async`](Self::run_async) inside the
    /// runtime instead).
    #[must_use]
    pub fn run(self) -> Report {
        block_on::block_on(self.run_async())
    }

    /// Runs the verification as a future, for handlers that need the caller's runtime
    /// (`#[tokio::test] async fn ... { Verify::new(..).run_async().await.assert_ok() }`).
    pub async fn run_async(self) -> Report {
        run::run(self).await
    }
}
