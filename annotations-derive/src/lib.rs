//! The `#[tool]` attribute of the [`annotations`](https://docs.rs/annotations) crate, which
//! re-exports it: depend on `annotations`, not on this crate.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod ast;
mod attr;
mod descriptor;
mod errors;
mod expand;
mod http;
mod listing;
mod name;
mod schema;
mod valid;

use proc_macro::TokenStream;

/// Annotates an MCP tool handler: generates a `ToolAnnotations` constant beside it and rejects,
/// at compile time, hints that cannot be true.
///
/// ```
/// use annotations::tool;
///
/// pub struct Store(Vec<String>);
///
/// /// List every saved note.
/// #[tool(read_only, open_world = false, title = "List notes")]
/// pub fn list_notes(store: &Store) -> String {
///     store.0.join("\n")
/// }
///
/// pub struct Server(Store);
///
/// impl Server {
///     /// Permanently delete a note by id.
///     #[tool(destructive, idempotent, open_world = false, title = "Delete note")]
///     pub async fn delete_note(&mut self, note_id: usize) -> Option<String> {
///         (note_id < self.0 .0.len()).then(|| self.0 .0.remove(note_id))
///     }
/// }
///
/// assert!(LIST_NOTES_ANNOTATIONS.read_only());
/// assert!(Server::DELETE_NOTE_ANNOTATIONS.destructive());
/// assert_eq!(Server::DELETE_NOTE_ANNOTATIONS.title(), Some("Delete note"));
/// ```
///
/// # What it generates
///
/// The function, unchanged, and a constant named after it in upper snake case with
/// `_ANNOTATIONS` appended (`list_notes` gives `LIST_NOTES_ANNOTATIONS`), with the function's
/// visibility and a doc comment. Beside a free function it is a module-level constant; beside a
/// method in an `impl` block, an associated constant (`Server::DELETE_NOTE_ANNOTATIONS`); beside
/// a trait's default method, a default associated constant of the trait. The constant is a
/// struct literal, so it can be used inside other `const` items:
///
/// ```
/// # use annotations::tool;
/// #[tool(read_only, title = "List notes")]
/// fn list_notes() {}
///
/// const _: () = assert!(LIST_NOTES_ANNOTATIONS.read_only());
/// // It is exactly this value:
/// assert_eq!(
///     LIST_NOTES_ANNOTATIONS,
///     annotations::ToolAnnotations::new().with_read_only(true).with_title("List notes")
/// );
/// # list_notes();
/// ```
///
/// It works on free functions and methods (`&self`, `&mut self`, `self`, no receiver), `async
/// fn`, `const fn`, `unsafe fn`, `extern fn`, generic functions with where-clauses, any
/// visibility, with other attributes before or after it. It does not work in an
/// `impl Trait for Type` block, where an extra constant is not a member of the trait: annotate
/// the inherent method that the trait implementation calls.
///
/// # Keys
///
/// | key | the generated hint | |
/// |---|---|---|
/// | `read_only` | `readOnlyHint` | the tool changes nothing |
/// | `destructive` | `destructiveHint` | it may destroy or overwrite what is there |
/// | `idempotent` | `idempotentHint` | repeating a call has no further effect |
/// | `open_world` | `openWorldHint` | it reaches outside entities (the web, other systems) |
/// | `title = "..."` | `title` | the display title; not empty or blank |
/// | `http = "METHOD"` | all four | the hints of an HTTP method (below) |
/// | `crate = path` | | where the `annotations` crate is, if renamed |
/// | `allow_mut` | | a read-only handler may take `&mut` (below) |
///
/// A hint key is written bare (`read_only`, meaning `true`), as `read_only = true` or
/// `read_only = false`, or with a `const` bool expression such as a path to a constant or
/// `cfg!(...)`. A key left out leaves the hint unset, so it takes the protocol's default; no
/// keys at all (`#[tool]`) is valid and states nothing.
///
/// ```
/// # use annotations::tool;
/// const HOSTED: bool = cfg!(feature = "hosted");
///
/// #[tool(read_only, open_world = HOSTED)]
/// fn search_index() {}
///
/// #[tool]
/// fn run_script() {}
///
/// assert_eq!(SEARCH_INDEX_ANNOTATIONS.open_world_hint, Some(HOSTED));
/// assert!(RUN_SCRIPT_ANNOTATIONS.is_empty());
/// # search_index(); run_script();
/// ```
///
/// A hint given as an expression is checked by a constant assertion the macro puts in the
/// handler's body (as an item, which the compiler always evaluates): a contradiction still
/// fails the build, with the error at the key. Being an item, the expression cannot name `Self`
/// or the function's generic parameters.
///
/// ## `http = "METHOD"`
///
/// The hints that follow from an HTTP method's semantics (RFC 9110), the same as
/// `ToolAnnotations::from_http_method`, matched case-insensitively: `GET`, `HEAD` and
/// `OPTIONS` are read-only, not destructive and idempotent; `POST` is none of these; `PUT` and
/// `DELETE` are destructive and idempotent; `PATCH` is destructive and not idempotent. All are
/// open-world. Explicit keys may restate these or refine what the method leaves open
/// (`open_world`, since the server behind the endpoint may be the tool's own; and `destructive`
/// for `POST`, whose effects depend on the resource), but not contradict what it settles.
///
/// ```
/// # use annotations::tool;
/// #[tool(http = "GET", open_world = false, title = "Read my page")]
/// fn read_page() {}
///
/// #[tool(http = "POST", destructive)]
/// fn replace_settings() {}
///
/// assert!(READ_PAGE_ANNOTATIONS.read_only() && !READ_PAGE_ANNOTATIONS.open_world());
/// assert!(REPLACE_SETTINGS_ANNOTATIONS.destructive());
/// # read_page(); replace_settings();
/// ```
///
/// ## `crate = path`
///
/// For a dependency renamed in `Cargo.toml`, or a re-export: `crate = my_annotations` or
/// `crate = "my_annotations"`, as serde's `#[serde(crate = "...")]`.
///
/// ```
/// mod reexported {
///     pub use annotations::*;
/// }
///
/// #[annotations::tool(crate = reexported, read_only)]
/// fn list_notes() {}
/// # list_notes();
/// # assert!(LIST_NOTES_ANNOTATIONS.read_only());
/// ```
///
/// ## `allow_mut`
///
/// A read-only tool should not need exclusive access, so a `read_only` handler that takes
/// `&mut self` or any `&mut` parameter is an error. Where it only mutates private state (a cache,
/// a counter) and is still read-only to the world, say so with `allow_mut`:
///
/// ```
/// # use annotations::tool;
/// #[tool(read_only, allow_mut)]
/// fn cached_lookup(cache: &mut Vec<u64>, id: u64) -> bool {
///     cache.push(id);
///     true
/// }
/// # assert!(cached_lookup(&mut Vec::new(), 1));
/// ```
///
/// # Checks
///
/// Each of these is a compile error at the smallest offending token, and all errors in one
/// attribute are reported in one compile. The function is emitted even on error, with a
/// placeholder constant, so a mistake is one error and not a cascade.
///
/// A read-only tool cannot be destructive:
///
/// ```compile_fail
/// # use annotations::tool;
/// #[tool(read_only, destructive)] // cannot have both #[tool(read_only)] and #[tool(destructive)]
/// fn list_notes() {}
/// ```
///
/// A read-only tool is idempotent:
///
/// ```compile_fail
/// # use annotations::tool;
/// #[tool(read_only, idempotent = false)]
/// fn list_notes() {}
/// ```
///
/// An explicit key cannot contradict an `http` preset, and the method must be known:
///
/// ```compile_fail
/// # use annotations::tool;
/// #[tool(http = "GET", destructive)] // GET is not destructive
/// fn fetch_page() {}
/// ```
///
/// ```compile_fail
/// # use annotations::tool;
/// #[tool(http = "FETCH")] // unknown HTTP method `FETCH`
/// fn fetch_page() {}
/// ```
///
/// An unknown key, with a suggestion for the spellings people try (`readonly`,
/// `read_only_hint`, the wire's `readOnlyHint`, a typo like `destructve`):
///
/// ```compile_fail
/// # use annotations::tool;
/// #[tool(readOnlyHint = true)] // unknown #[tool] key `readOnlyHint`; did you mean `read_only`?
/// fn list_notes() {}
/// ```
///
/// A key given twice, at its second occurrence, even when the values agree:
///
/// ```compile_fail
/// # use annotations::tool;
/// #[tool(read_only, read_only = true)] // duplicate #[tool(read_only)]
/// fn list_notes() {}
/// ```
///
/// A value of the wrong kind: a hint that is a string or a number, a title that is not a
/// string literal, a `title` with no value, an empty or blank title:
///
/// ```compile_fail
/// # use annotations::tool;
/// #[tool(read_only = "true")] // expected `true` or `false`
/// fn list_notes() {}
/// ```
///
/// ```compile_fail
/// # use annotations::tool;
/// #[tool(title = " ")] // #[tool(title)] cannot be blank
/// fn list_notes() {}
/// ```
///
/// Malformed syntax: `read_only = ` with no value, a literal where a key should be, an empty
/// entry (`read_only,, open_world`), a value in brackets (`read_only(true)`):
///
/// ```compile_fail
/// # use annotations::tool;
/// #[tool(read_only(true))] // takes its value after `=`
/// fn list_notes() {}
/// ```
///
/// Anything that is not a function with a body: a struct, a constant, an impl block, a trait
/// method declaration:
///
/// ```compile_fail
/// # use annotations::tool;
/// #[tool(read_only)] // #[tool] goes on a handler function, not on a struct
/// struct ListNotes;
/// ```
///
/// A read-only handler that takes `&mut`, unless `allow_mut` says it is on purpose:
///
/// ```compile_fail
/// # use annotations::tool;
/// #[tool(read_only)] // a #[tool(read_only)] handler should not take `&mut`
/// fn list_notes(out: &mut String) {}
/// ```
#[proc_macro_attribute]
pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::expand_tool(attr.into(), item.into()).into()
}

/// A static listing of tools, in the order written: handler paths (`list_notes`,
/// `Server::delete_note`) and `#[derive(Tool)]` types. Documented in the `annotations` crate.
#[proc_macro]
pub fn tools(input: TokenStream) -> TokenStream {
    listing::expand_tools(input.into()).into()
}
