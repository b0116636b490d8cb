//! Hints per call stated with the macros: a tool resolved by the variant of a parameter
//! (`#[tool(resolve_by = action)]` over an enum whose variants carry `#[hints(...)]`), whose
//! listed hints are the variants' join, and a tool resolved by a function of its arguments
//! (`#[tool(resolve = classify)]`), whose every answer is checked against the listed hints
//! before it is given.

use mcp_annotations::ProtocolVersion;
use mcp_annotations::call::Context;
use mcp_annotations::listing::ListOptions;
use mcp_annotations::resolution::{Declaration, ResolveError, ResolveOptions, check_bound};
use mcp_annotations::{Listing, ToolAnnotations, ToolSchema, tool, tools};
use serde::Deserialize;
use serde_json::{Map, Value, json};

/// What to do with a file.
#[derive(Deserialize, ToolSchema, Clone, Copy, Debug, PartialEq)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    /// Read it.
    #[hints(read_only, open_world = false)]
    Read,
    /// Add to its end.
    #[hints(destructive = false, open_world = false)]
    Append,
    /// Remove it.
    #[hints(destructive, idempotent, open_world = false)]
    Delete,
}

/// A store of files, by name.
pub struct Files {
    /// Whether `classify` answers more than the listing allows, as a buggy resolver would.
    lies: bool,
}

impl Files {
    /// Read, append to or delete a file.
    #[tool(resolve_by = action, title = "Manage file")]
    pub fn manage_file(&self, path: String, action: Action) -> String {
        format!("{action:?} {path}")
    }

    /// Look at a file, the action taken by reference.
    #[tool(resolve_by = action, open_world = false)]
    pub fn peek_file(&self, action: &Action) -> String {
        format!("{action:?}")
    }

    /// Run a statement of SQL.
    #[tool(destructive, open_world = false, resolve = classify)]
    pub fn run_sql(&self, sql: String, #[schema(default = 10)] limit: u32) -> String {
        format!("{sql} {limit}")
    }

    /// The hints of a statement: read-only for a `SELECT`, destructive otherwise; a statement
    /// it cannot read is not classified.
    fn classify(&self, sql: &str, limit: &u32) -> Result<ToolAnnotations, String> {
        assert_eq!(*limit, 10, "the default is filled in as the call fills it");
        let closed = ToolAnnotations::new().with_open_world(self.lies);
        match sql
            .split_whitespace()
            .next()
            .map(str::to_ascii_uppercase)
            .as_deref()
        {
            Some("SELECT") => Ok(closed.with_read_only(true)),
            Some("DELETE" | "UPDATE" | "INSERT") => Ok(closed.with_destructive(true)),
            _ => Err(format!("cannot classify `{sql}`")),
        }
    }
}

/// Greet someone, loudly or not.
#[tool(resolve = loudness, open_world = false)]
pub fn greet(name: String, loud: bool) -> String {
    if loud { name.to_uppercase() } else { name }
}

/// Greeting someone changes nothing; a loud greeting is still a read.
fn loudness(name: &String, loud: &bool) -> ToolAnnotations {
    let _ = (name, loud);
    ToolAnnotations::new()
        .with_read_only(true)
        .with_open_world(false)
}

static FILES: Listing<Files> = tools![Files::manage_file, Files::run_sql, greet, Files::peek_file];

fn arguments(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap()
}

fn declared() -> ResolveOptions {
    ResolveOptions::new(Declaration::Declared)
}

fn resolve(state: &Files, name: &str, value: Value) -> Result<ToolAnnotations, ResolveError> {
    FILES.resolve(state, name, &arguments(value), &declared())
}

#[test]
fn the_listed_hints_are_the_join_of_the_variants() {
    let listed = &Files::MANAGE_FILE_ANNOTATIONS;
    // Delete destroys, Append is not idempotent, none reaches out.
    assert_eq!(listed.title.as_deref(), Some("Manage file"));
    assert_eq!(listed.read_only_hint, Some(false));
    assert_eq!(listed.destructive_hint, Some(true));
    assert_eq!(listed.idempotent_hint, Some(false));
    assert_eq!(listed.open_world_hint, Some(false));
}

#[test]
fn the_listing_marks_every_resolved_tool_for_a_client_that_declared_the_extension() {
    for (declared, marked) in [(true, 4), (false, 0)] {
        let options = ListOptions::new(ProtocolVersion::V2026_07_28).with_tool_resolution(declared);
        let page: Value = serde_json::from_str(&FILES.render(&options, None).unwrap()).unwrap();
        let tools = page["tools"].as_array().unwrap();
        let with_marker = tools
            .iter()
            .filter(|tool| {
                tool["_meta"]["io.modelcontextprotocol/tool-resolution"]
                    == json!({"resolvable": true})
            })
            .count();
        assert_eq!(with_marker, marked, "{page:#}");
        // The join is what is listed.
        assert_eq!(tools[0]["annotations"]["destructiveHint"], true);
        assert_eq!(tools[0]["annotations"]["openWorldHint"], false);
    }
}

#[test]
fn each_variant_resolves_to_its_own_hints() {
    let files = Files { lies: false };
    let read = resolve(
        &files,
        "manage_file",
        json!({"path": "a", "action": "read"}),
    )
    .unwrap();
    assert!(read.read_only() && !read.open_world());
    let append = resolve(
        &files,
        "manage_file",
        json!({"path": "a", "action": "append"}),
    )
    .unwrap();
    assert!(!append.read_only() && !append.destructive() && !append.idempotent());
    let delete = resolve(
        &files,
        "manage_file",
        json!({"path": "a", "action": "delete"}),
    )
    .unwrap();
    assert!(delete.destructive() && delete.idempotent());
    // All four stated, every time, and each within the listing.
    for hints in [&read, &append, &delete] {
        assert!(hints.read_only_hint.is_some() && hints.open_world_hint.is_some());
        assert!(hints.title.is_none());
        assert_eq!(check_bound(&Files::MANAGE_FILE_ANNOTATIONS, hints), Ok(()));
    }
    // A variant the enum does not have, or a missing parameter: the call's own refusal, -32602.
    let unknown = resolve(
        &files,
        "manage_file",
        json!({"path": "a", "action": "move"}),
    );
    assert_eq!(unknown.unwrap_err().code(), -32602);
    let missing = resolve(&files, "manage_file", json!({"action": "read"}));
    assert_eq!(missing.unwrap_err().code(), -32602);
}

#[test]
fn a_function_classifies_what_the_arguments_hold() {
    let files = Files { lies: false };
    let select = resolve(&files, "run_sql", json!({"sql": "SELECT 1"})).unwrap();
    assert!(select.read_only() && !select.open_world());
    let delete = resolve(&files, "run_sql", json!({"sql": "DELETE FROM t"})).unwrap();
    assert!(delete.destructive() && !delete.read_only());
    // Cannot classify: -32603, and the host falls back on the listing.
    let vacuum = resolve(&files, "run_sql", json!({"sql": "VACUUM"})).unwrap_err();
    assert_eq!(vacuum.code(), -32603);
    assert!(
        vacuum.to_string().contains("cannot classify `VACUUM`"),
        "{vacuum}"
    );
    // A free function's resolver takes the parameters alone.
    let greeting = resolve(&files, "greet", json!({"name": "ada", "loud": true})).unwrap();
    assert!(greeting.read_only());
    // A parameter taken by reference is resolved by the type read.
    let peek = resolve(&files, "peek_file", json!({"action": "delete"})).unwrap();
    assert!(peek.destructive());
    assert!(Files::PEEK_FILE_ANNOTATIONS.destructive());
}

#[test]
fn an_answer_outside_the_listing_is_refused_never_given() {
    // The listing says closed-world; the lying resolver says open-world.
    let files = Files { lies: true };
    let refused = resolve(&files, "run_sql", json!({"sql": "SELECT 1"})).unwrap_err();
    assert_eq!(refused.code(), -32603);
    assert!(
        matches!(refused, ResolveError::OutOfBound { .. }),
        "{refused:?}"
    );
}

#[test]
fn resolution_runs_no_handler_and_calls_are_unchanged() {
    // The listing's calls still answer as before: resolution is beside them.
    let files = Files { lies: false };
    let future = FILES
        .call(
            &files,
            "manage_file",
            Some(arguments(json!({"path": "a", "action": "delete"}))),
            Context::none(),
        )
        .unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    assert_eq!(runtime.block_on(future).text_content(), "Delete a");
}

/// A tool whose resolver's name a `macro_rules!` caller passes in: the name resolves where the
/// caller wrote it, and the resolver gets the call's parameters as any other does.
macro_rules! echo_tool {
    ($resolver:ident) => {
        /// Echo the text, loudly or not.
        #[tool(resolve = $resolver, open_world = false)]
        pub fn echo(text: String, loud: bool) -> String {
            if loud { text.to_uppercase() } else { text }
        }
    };
}

/// An echo changes nothing.
fn quiet(text: &String, loud: &bool) -> ToolAnnotations {
    let _ = (text, loud);
    ToolAnnotations::new()
        .with_read_only(true)
        .with_open_world(false)
}

echo_tool!(quiet);

static ECHO: Listing = tools![echo];

#[test]
fn a_resolver_named_through_a_macro_rules_resolves() {
    let hints = ECHO
        .resolve(
            &(),
            "echo",
            &arguments(json!({"text": "hi", "loud": true})),
            &declared(),
        )
        .unwrap();
    assert_eq!(hints.read_only_hint, Some(true));
}
