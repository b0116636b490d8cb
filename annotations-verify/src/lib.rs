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
//! Beside the run, the pieces a host that probes another server's tools uses the same way
//! (as `annotations-audit probe` does): [`arguments`] generated from a schema, [`observe`]
//! (a folder as a tree of files, each read by its format), [`judge`] (which observation judges
//! a claimed hint, and the rules over trees) and [`compare`] (two JSON values compared).
//!
#![doc = include_str!("../docs/verify.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod builder;
pub mod compare;
mod generate;
pub mod judge;
pub mod observe;
mod report;
mod run;
mod snapshots;

pub use self::builder::Verify;
pub use self::compare::contains;
pub use self::generate::{
    arguments, format_named, name_words, scalar_paths, scalars, suggested_arguments,
};
pub use self::report::{Report, Violation, ViolationKind};
pub use self::snapshots::{SnapshotError, Snapshots};
