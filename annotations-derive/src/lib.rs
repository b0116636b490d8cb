//! The `#[tool]` attribute of the [`annotations`](https://docs.rs/annotations) crate, which
//! re-exports it: depend on `annotations`, not on this crate.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod ast;
mod attr;
mod call;
mod case;
mod derive;
mod descriptor;
mod errors;
mod expand;
mod hint;
mod http;
mod icons;
mod json_text;
mod krate;
mod listing;
mod name;
mod schema;
mod schema_attr;
mod serde_attr;
mod spelling;
mod stack;
mod tokens;
mod tool_schema;
mod valid;

use proc_macro::TokenStream;

/// Describes an MCP tool handler: generates its `ToolAnnotations` and its whole `Tool`
/// descriptor as constants beside it, and rejects at compile time what cannot be true.
///
/// ```
/// use annotations::tool;
///
/// pub struct Store(Vec<String>);
///
/// /// List every saved note.
/// #[tool(read_only, open_world = false, title = "List notes")]
/// pub fn list_notes(#[context] store: &Store) -> String {
///     store.0.join("\n")
/// }
///
/// pub struct Server(Store);
///
/// impl Server {
///     /// Permanently delete a note by id.
///     #[tool(destructive, idempotent, open_world = false, title = "Delete note")]
///     pub async fn delete_note(
///         &mut self,
///         /// Id of the note to delete, from list_notes
///         note_id: usize,
///     ) -> Option<String> {
///         (note_id < self.0 .0.len()).then(|| self.0 .0.remove(note_id))
///     }
/// }
///
/// assert!(LIST_NOTES_ANNOTATIONS.read_only());
/// assert!(Server::DELETE_NOTE_ANNOTATIONS.destructive());
/// assert_eq!(Server::DELETE_NOTE_TOOL.name(), "delete_note");
/// assert_eq!(Server::DELETE_NOTE_TOOL.description(), Some("Permanently delete a note by id."));
/// assert_eq!(
///     Server::DELETE_NOTE_TOOL.input_schema.to_value()["properties"]["note_id"]["description"],
///     "Id of the note to delete, from list_notes"
/// );
/// ```
///
/// # What it generates
///
/// The function (parameter doc comments and `#[context]` removed, so it compiles as before),
/// and two constants named after it in upper snake case, with the function's visibility:
///
/// - `{NAME}_ANNOTATIONS: ToolAnnotations` (`list_notes` gives `LIST_NOTES_ANNOTATIONS`);
/// - `{NAME}_TOOL: Tool`, the descriptor a server lists (`LIST_NOTES_TOOL`): the name, the
///   title, the description, the input schema and the annotations.
///
/// Names split into words the usual way (`getURLForNote` gives `GET_URL_FOR_NOTE_TOOL`). The
/// constants carry the function's `#[cfg]`, `#[deprecated]` and `#[doc(hidden)]`. Beside a free
/// function they are module-level constants; beside a method in an `impl` block, associated
/// constants (`Server::DELETE_NOTE_TOOL`). Both are usable in other `const` and `static`
/// items; `tools![...]` gathers the descriptors into a listing.
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
/// ## In a trait
///
/// Beside a trait's default method, the constants are default associated constants of the
/// trait, and a trait with associated constants cannot be used as `dyn Trait` (stable Rust has
/// no `where Self: Sized` for constants). So that this never happens silently, a method with
/// `self` in a trait is an error unless the trait says it is never used as `dyn`, by being
/// `Sized`:
///
/// ```
/// use annotations::{Listing, tool, tools};
///
/// trait Describe: Sized {
///     /// Say what the server is.
///     #[tool(read_only, title = "Describe")]
///     fn describe(&self) -> String {
///         "a server".to_owned()
///     }
/// }
///
/// struct Server;
/// impl Describe for Server {}
///
/// let listing: Listing<Server> = tools![Server::describe];
/// assert_eq!(<Server as Describe>::DESCRIBE_TOOL.name(), "describe");
/// # let _ = listing;
/// ```
///
/// ```compile_fail,E0277
/// # use annotations::tool;
/// // error: #[tool] on a trait's method makes the trait not dyn compatible
/// trait Describe {
///     #[tool(read_only)]
///     fn describe(&self) {}
/// }
/// ```
///
/// A `dyn` use of such a trait in the same crate also reports rustc's E0038, naming the
/// constants. A trait's function without `self` gets no such check (the macro cannot tell it
/// from a free function), but such a function makes the trait not dyn compatible anyway,
/// unless it has `where Self: Sized`.
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
/// or the function's generic parameters. An expression that is not a `bool` is one error, at
/// the expression, however many rules read it.
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
/// `crate = "my_annotations"`, as serde's `#[serde(crate = "...")]`. The path names the crate
/// itself (`pub use annotations;` somewhere, or a module that re-exports all of it with
/// `pub use annotations::*;`), not a selection of its items. `tools![crate = path; ...]` and
/// `#[derive(Tool)]` take the same key.
///
/// The macro refuses what is not a path. Generated code names the path once, so a path that
/// leads nowhere is one error, at the path; code that uses the constants of that tool then
/// finds them missing as well, since they could not be made.
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
/// fn cached_lookup(#[context] cache: &mut Vec<u64>, id: u64) -> bool {
///     cache.push(id);
///     true
/// }
/// # assert!(cached_lookup(&mut Vec::new(), 1));
/// ```
///
/// The rule reads the signature's tokens, so it sees a `&mut` written in a parameter's type,
/// at any depth (`Option<&mut String>`, `(&mut A, B)`), and the `&mut self` receiver. It does
/// not count a `&mut` in the parameters of a function pointer or closure type
/// (`fn(&mut String)`, `impl Fn(&mut u8)`), which the handler lends rather than takes, nor a
/// parameter under `#[cfg(...)]`, which may not be compiled. What tokens cannot show goes
/// unseen: a type alias for a `&mut` type, a type that holds one (`struct Out<'a>(&'a mut
/// String)`), and interior mutability (`&RefCell<T>`, `&Mutex<T>`), which a read-only tool
/// may well use for private state.
///
/// Beside them goes a hidden function, the handler's call, which `tools![...]` puts in the
/// listing (see *Calling* below).
///
/// # The descriptor
///
/// | key | the descriptor's field | |
/// |---|---|---|
/// | `name = "..."` | `name` | instead of the function's name (a raw identifier is unrawed) |
/// | `title = "..."` | `title` and `annotations.title` | hosts read either |
/// | `description = "..."` | `description` | instead of the doc comment |
/// | `icons = [...]` | `icons` (2025-11-25 on) | each `"https://..."` (or a `data:image/...` URI), or `{ src = "...", mime_type = "image/png", sizes = ["48x48", "any"], theme = "light" }`, each part checked |
/// | `meta = r#"{...}"#` | `_meta` | a JSON object, each key by the protocol's rule for `_meta` keys (`com.example/tier`) |
/// | `task_support = "..."` | `execution.taskSupport` (2025-11-25 only) | `"forbidden"`, `"optional"` or `"required"`; rmcp's `Tool` cannot carry it |
///
/// A tool's name must follow the protocol's rule, 1 to 128 characters of `A-Z a-z 0-9 _ - .`,
/// checked at compile time (on the function's name, or on the `name` literal). The
/// description is the doc comment, read as rustdoc reads it (common indentation removed, the
/// lines of a paragraph joined by a space, paragraphs kept apart by a blank line, the lines of
/// code blocks, lists, headings, quotes and tables kept as they are); a doc attribute that is not a literal
/// (`#[doc = include_str!(...)]`) is not read. No doc comment and no `description` leaves the
/// description out.
///
/// ```
/// # use annotations::tool;
/// /// Look up a user by id.
/// ///
/// /// Returns nothing for an unknown id.
/// #[tool(read_only, name = "getUser", title = "Get user")]
/// fn get_user(id: u64) {}
///
/// assert_eq!(GET_USER_TOOL.name(), "getUser");
/// assert_eq!(GET_USER_TOOL.display_name(), "Get user");
/// assert_eq!(
///     GET_USER_TOOL.description(),
///     Some("Look up a user by id.\n\nReturns nothing for an unknown id.")
/// );
/// # get_user(1);
/// ```
///
/// # Parameters and the input schema
///
/// Each parameter is a property of the input schema (JSON Schema 2020-12), under its name, in
/// order; its doc comment is the property's `description`. The receiver (`self`, `&self`, ...)
/// is not an input. Every property is required except `Option<T>` ones, which may also be
/// `null`. The schema allows no other properties (`"additionalProperties": false`); a tool
/// without inputs gets `{"type": "object", "additionalProperties": false}`, as the protocol
/// recommends.
///
/// A parameter that the model does not supply (the server's state, a request context) is
/// marked `#[context]`: it is left out of the schema, and the server passes it in.
///
/// | parameter type | schema |
/// |---|---|
/// | `bool` | `{"type": "boolean"}` |
/// | `u8` ... `u128`, `i8` ... `i128`, `usize`, `isize` | `"integer"` with the type's true `minimum` and `maximum` (`usize`/`isize` as on 64-bit targets) |
/// | `f32`, `f64` | `"number"` |
/// | `char` | `"string"` of exactly one character |
/// | `String`, `&str`, `Cow<str>`, `Box<str>` | `"string"` |
/// | `Option<T>` | `T` or `null`, not required |
/// | `Vec<T>`, `VecDeque<T>`, `&[T]` | `"array"` of `T` |
/// | `[T; N]` | `"array"` of `T` with `minItems` and `maxItems` `N` |
/// | `HashSet<T>`, `BTreeSet<T>` | `"array"` of `T` with `uniqueItems` |
/// | `HashMap<K, V>`, `BTreeMap<K, V>`, `K` a string type | `"object"` of `V` values |
/// | `serde_json::Value` | any value (`{}`) |
/// | `&T`, `Box<T>`, `Arc<T>`, `Rc<T>` | as `T` |
/// | any other type | its `annotations::ToolSchema` |
///
/// The limits are exact in the schema. JSON numbers beyond 2^53 are not exact in every
/// reader (JavaScript's numbers are doubles): a client may round a large `u64` before sending
/// it, and a 128-bit bound reads as a float in most readers.
///
/// The schema of a type the macro knows is written at compile time: when every parameter's is,
/// the whole input schema is a string literal (`Schema::Static`) and costs nothing at run
/// time. Any other type (a struct or enum of yours) gets its schema from the
/// `annotations::ToolSchema` trait, implemented by hand, or by every type that derives
/// `schemars::JsonSchema` when the `schemars` feature is on. The input schema is then built
/// once, on first use (`Schema::is_static` is then false), and the descriptor is still a
/// `const`.
///
/// The reading is syntactic: a type is known by its last path segment (`String`,
/// `std::string::String`), so a type alias is not seen through (it goes to `ToolSchema`) and
/// a type of yours named `String` or `Vec` is taken for the standard one. A parameter's type
/// cannot be a generic parameter of the handler or `impl Trait` (its schema would not be
/// fixed), nor name `Self` where the schema is built at run time.
///
/// ## `#[schema(...)]`: what a parameter's schema says beyond its type
///
/// A parameter may carry `#[schema(...)]` with JSON Schema's keys in snake case. The schema
/// says them and the call enforces them, so the two never disagree; each key is checked
/// against the type while compiling, with the error at the offending token.
///
/// | key | schema | the call |
/// |---|---|---|
/// | `rename = "dryRun"` | the property's name | reads the argument by that name |
/// | `default = EXPR` | `"default"`, and not `required` | a missing argument is `EXPR` (converted with `Into`) |
/// | `nullable = false` (on an `Option<T>`) | `T`'s schema, without `null` | may be left out; an explicit `null` is refused |
/// | `description = "..."`, `title = "..."` | `description` (instead of the doc comment), `title` | |
/// | `minimum`, `maximum`, `exclusive_minimum`, `exclusive_maximum`, `multiple_of` (numbers) | the same keys, camel-cased | refuses a number outside them |
/// | `min_length`, `max_length` (strings, in characters) | `minLength`, `maxLength` | refuses a string too short or long |
/// | `min_items`, `max_items`, `unique_items` (arrays) | `minItems`, `maxItems`, `uniqueItems` | refuses too few, too many, repeats |
/// | `pattern = "^[a-z]+$"` (strings; the `regex` feature) | `pattern` | refuses a string with no match (it searches, as JSON Schema does); parsed while compiling |
/// | `format = "date-time"` (strings) | `format` | an annotation, as JSON Schema 2020-12 has it: not enforced |
/// | `examples = [...]` (literals) | `examples` | |
///
/// On the function, `#[tool(rename_all = "camelCase")]` names every parameter without a
/// `rename` in one of serde's cases (`lowercase`, `UPPERCASE`, `PascalCase`, `camelCase`,
/// `snake_case`, `SCREAMING_SNAKE_CASE`, `kebab-case`, `SCREAMING-KEBAB-CASE`).
///
/// A literal default (a number, a string, `true`/`false`, an array of literals, `vec![...]`
/// of literals) is written into the schema while compiling and checked against the type and
/// the bounds; any other expression is written by serde when the schema is first built (the
/// type is then `serde::Serialize`). Compile errors: a key that does not fit the type
/// (`min_length` on a number), a bound outside the type's range (`minimum = -1` on a `u8`),
/// bounds that leave no value, a literal default or example of the wrong type or out of
/// bounds, `nullable = false` on a type that is not an `Option`, a `default` on an `Option`
/// (its default is `None`), an unknown or repeated key (with a suggestion), an unknown case,
/// and two parameters that end up with one name.
///
/// ```
/// # use annotations::tool;
/// /// List a directory.
/// #[tool(read_only, open_world = false, rename_all = "camelCase")]
/// fn list_directory(
///     /// The directory
///     #[schema(min_length = 1)]
///     path: String,
///     /// Only say what would be listed
///     #[schema(default = false)]
///     dry_run: bool,
///     /// How deep to go
///     #[schema(minimum = 1, maximum = 10, default = 1)]
///     max_depth: u8,
/// ) -> String {
///     format!("{path} {dry_run} {max_depth}")
/// }
///
/// let schema = LIST_DIRECTORY_TOOL.input_schema.to_value();
/// assert_eq!(schema["properties"]["dryRun"]["default"], false);
/// assert_eq!(schema["properties"]["maxDepth"]["maximum"], 10);
/// assert_eq!(schema["required"][0], "path");
/// assert_eq!(schema["required"].as_array().map(Vec::len), Some(1));
/// # list_directory(String::new(), false, 1);
/// ```
///
/// ```compile_fail
/// # use annotations::tool;
/// /// Set the level.
/// #[tool(read_only)]
/// fn level(#[schema(minimum = -1)] level: u8) {}
/// ```
///
/// # Calling
///
/// A listing made with `tools![...]` calls the handler with the server's state (`&self` for a
/// method, so a listing of methods is a `Listing<TheirType>`; what `#[context]` parameters ask
/// for) and the arguments object of a `tools/call`:
///
/// - each parameter is read by name under the rules its schema states (`serde` for the
///   reading, so a parameter of your own type also implements `serde::Deserialize`): a
///   missing required argument, a value of the wrong type, a number out of its type's range
///   (an `f32` included: past `f32::MAX` is refused, not read as infinity), a repeated item of
///   a set at any depth (judged on values: `1` and `1.0` are one number), or arguments the
///   tool does not take (each named) is a failed result that names the argument and says what
///   was expected, every mistake at once; a whole number written as a float (`3.0`) is an
///   integer where an integer type reads it, at any depth, and stays a float anywhere else;
///   `Option`s may be absent or `null`; `&str`, `&[T]`, `&T` and `Option<&T>` are read into
///   owned values and lent to the handler; integers past 64 bits arrive as the nearest float
///   (a parsed JSON value holds them so), and a 128-bit parameter reads that float;
/// - a `#[context]` parameter receives, through `annotations::FromContext`, the state (`&S`),
///   the call's `annotations::Context`, or with the `rmcp` feature rmcp's
///   `RequestContext<RoleServer>`;
/// - the return value becomes a result through `annotations::IntoToolResult`: text for
///   strings and numbers, nothing for `()`, structured content for `annotations::Json(value)`
///   (and then the descriptor has an `outputSchema`: `T`'s schema; for protocol versions
///   before 2026-07-28, which want objects, a value and a schema whose root is not an object
///   are both written inside `{"result": ...}`; a `Json<T>` behind a type alias, which the
///   macro cannot see, is a compile error at the return type rather than a silently missing
///   `outputSchema`), a failed result for `Err(e)`;
/// - `async fn` handlers are awaited; a panic anywhere from reading the arguments to the
///   finished result (a handler's, an error's `Display`, a `Json` value's `Serialize`) is a
///   failed result, and so is a `Json` value holding a NaN or an infinity, which JSON cannot.
///
/// Calls share the state, so a handler that takes `&mut self` or `self`, an `unsafe fn`, a
/// generic handler, one with `#[cfg]` on a parameter, or one that takes more than 16
/// parameters from the model (gather them in a `#[derive(Tool)]` struct) cannot be listed:
/// naming it in `tools![...]` is a compile error that says why, and the handler keeps its
/// constants. A handler without `self` is called through the function pointer the listing
/// passes, except where its type cannot be written as one (`async`, or returning
/// `impl Trait`): then it is called by its name as a free function, since the macro cannot see
/// whether it sits in an impl block. So such an associated function without `self` cannot be
/// listed: the call finds no function of that name (a compile error), or finds a free one and
/// refuses to call it (a failed result that says so); make it a method.
///
/// # With rmcp's `#[tool]`
///
/// Written above rmcp's `#[tool]` (or `#[rmcp::tool]`), `#[annotations::tool(...)]` checks the
/// hints as always, then hands them (with `title`, `name` and `description`, if given) to
/// rmcp's attribute as `annotations(...)`, so rmcp's listing carries them. rmcp then describes
/// and calls the handler; only the `_ANNOTATIONS` constant is generated. Hints must be literals
/// there (rmcp's attribute takes nothing else), and rmcp's attribute must not state
/// `annotations` itself. The rule for telling the two apart: a second `#[tool]` below this one
/// is rmcp's, unless it is written `annotations::tool` or holds a key only this attribute has
/// (`read_only`, `destructive`, `idempotent`, `open_world`, `http`, `allow_mut`, `crate`), in
/// which case the attribute was written twice, which is an error.
///
/// Below rmcp's `#[tool]`, this attribute comes too late: rmcp has read the function already
/// (and dropped its doc comment, since rmcp stops reading doc lines at another attribute). For
/// a handler that takes rmcp's `Parameters`, that order is a compile error; without
/// `Parameters` the macro cannot tell that rmcp was there. Note too that rmcp's
/// `#[tool_router]` takes every attribute whose name ends in `tool` for rmcp's, so in such an
/// impl block each `#[annotations::tool]` handler also carries rmcp's `#[tool]`.
///
/// ```
/// use rmcp::handler::server::wrapper::Parameters;
/// use rmcp::tool;
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// pub struct AddNote {
///     /// Short title for the note
///     pub title: String,
/// }
///
/// pub struct Notes;
///
/// impl Notes {
///     /// Save a new note.
///     #[annotations::tool(http = "POST", open_world = false, title = "Add note")]
///     #[tool]
///     fn add_note(&self, Parameters(AddNote { title }): Parameters<AddNote>) -> String {
///         title
///     }
/// }
///
/// // rmcp's descriptor carries the checked hints.
/// let theirs = Notes::add_note_tool_attr();
/// assert_eq!(theirs.title.as_deref(), Some("Add note"));
/// assert_eq!(
///     annotations::ToolAnnotations::from(theirs.annotations.unwrap()),
///     Notes::ADD_NOTE_ANNOTATIONS
/// );
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
/// A name outside the protocol's rule, or a parameter without a schema (the error is on the
/// type, and says to implement `ToolSchema`, derive `schemars::JsonSchema`, or mark it
/// `#[context]`):
///
/// ```compile_fail
/// # use annotations::tool;
/// #[tool(read_only, name = "list notes")] // invalid tool name: ' ' is not allowed
/// fn list_notes() {}
/// ```
///
/// ```compile_fail
/// # use annotations::tool;
/// struct Note;
///
/// #[tool(open_world = false)]
/// fn add_note(note: Note) {} // `Note` has no JSON Schema for #[tool]
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

/// A static listing of tools (an `annotations::Listing`), in the order written, checked at
/// compile time.
///
/// Each entry is a `#[tool]` handler's path (`list_notes`, `Server::delete_note`: the listing
/// takes its `_TOOL` constant and its call) or a `#[derive(Tool)]` type that implements
/// `CallTool` (`SearchDocs`: a path whose last segment starts with an upper-case letter). The
/// result is an `annotations::Listing<S>`, a constant expression for a `static`, a `const` or
/// a `let`, whose calls take a `&S`: the type of the methods listed (a listing of free
/// functions only is usually `Listing`, with `S = ()`). Name the type where nothing else
/// fixes it (`let tools: Listing = tools![...]`).
///
/// ```
/// use annotations::{Listing, Tool, tool, tools};
///
/// /// List every saved note.
/// #[tool(read_only, destructive = false, open_world = false, title = "List notes")]
/// fn list_notes() {}
///
/// /// Search the documentation.
/// #[derive(Tool, serde::Deserialize)]
/// #[tool(read_only, destructive = false, open_world = false, title = "Search docs")]
/// struct SearchDocs {
///     /// Words to look for
///     query: String,
/// }
///
/// impl annotations::CallTool<Server> for SearchDocs {
///     type Output = String;
///
///     async fn call(self, _: &Server, _: annotations::Context<'_>) -> String {
///         format!("no page mentions {}", self.query)
///     }
/// }
///
/// struct Server;
///
/// impl Server {
///     /// Permanently delete a note by id.
///     #[tool(read_only = false, destructive, open_world = false, title = "Delete note")]
///     fn delete_note(&self, note_id: u64) {}
/// }
///
/// static TOOLS: Listing<Server> = tools![ready = strict; list_notes, Server::delete_note, SearchDocs];
///
/// let names: Vec<&str> = TOOLS.tools().iter().map(|tool| tool.name()).collect();
/// assert_eq!(names, ["list_notes", "delete_note", "search_docs"]);
/// # list_notes(); Server.delete_note(1);
/// ```
///
/// Two tools with the same name, however they got it, are a compile error that names the
/// name (the check hashes each name once while compiling, so its cost grows linearly):
///
/// ```compile_fail
/// # use annotations::{tool, tools};
/// #[tool]
/// fn list_notes() {}
///
/// #[tool(name = "list_notes")]
/// fn list_all() {}
///
/// // duplicate tool name `list_notes` in tools![...]: entries 1 and 2 both have it
/// static TOOLS: annotations::Listing = tools![list_notes, list_all];
/// ```
///
/// Options come first, each ended by `;`:
///
/// - `ready = directory;` requires every tool to be ready for a tool directory: a title, and
///   `read_only` or `destructive` stated (what Anthropic's MCP directory asks);
/// - `ready = strict;` requires a title, and `read_only`, `destructive` and `open_world` all
///   stated (what OpenAI's Apps SDK lists as required);
/// - `crate = path;` names the `annotations` crate if it is renamed.
///
/// A tool that falls short is a compile error that names it and what it lacks:
///
/// ```compile_fail
/// # use annotations::{tool, tools};
/// #[tool(read_only, title = "List notes")]
/// fn list_notes() {}
///
/// // tool `list_notes` is not ready for a strict tool directory: it lacks `destructiveHint`
/// static TOOLS: annotations::Listing = tools![ready = strict; list_notes];
/// ```
#[proc_macro]
pub fn tools(input: TokenStream) -> TokenStream {
    listing::expand_tools(input.into()).into()
}

/// A tool described by a struct whose named fields are its inputs, as agent frameworks model
/// tools: implements `annotations::StaticTool` (`NAME`, `ANNOTATIONS`, `TOOL`).
///
/// It takes the same `#[tool(...)]` keys as the attribute, read and checked by the same code.
/// The tool's name is the struct's name in snake case (`SearchDocs` gives `search_docs`) unless
/// `name = "..."` says otherwise; the description is the struct's doc comment; each field is
/// an input, with the same schema as a handler's parameter of its type and its doc comment as
/// the description. A unit struct is a tool without inputs.
///
/// ```
/// use annotations::{StaticTool, Tool};
///
/// /// Search the documentation.
/// #[derive(Tool)]
/// #[tool(read_only, open_world = false, title = "Search docs")]
/// pub struct SearchDocs {
///     /// Words to look for
///     pub query: String,
///     /// At most this many results
///     pub limit: Option<u8>,
/// }
///
/// assert_eq!(SearchDocs::NAME, "search_docs");
/// assert!(SearchDocs::ANNOTATIONS.read_only());
/// assert_eq!(SearchDocs::TOOL.input_schema.to_value()["required"][0], "query");
/// ```
///
/// Only a struct with named fields (or none) can describe a tool: on an enum, a union or a
/// tuple struct it is a compile error that says why. Generic structs are refused (the schema
/// must be fixed). The fields are named and required as serde reads them: `#[serde(rename)]`,
/// the struct's `#[serde(rename_all)]` and `#[serde(default)]`, a field's `#[serde(default)]`,
/// `#[serde(skip)]`; an attribute that would change the JSON in a way the schema cannot
/// follow (`flatten`, `alias`, ...) is a compile error.
/// A field's `#[schema(...)]` constraints (`minimum`, `min_items`, `pattern`, ...) are listed
/// and checked by the call as for a handler's parameters; its name and default are serde's,
/// so `rename`, `default` and `nullable` there are compile errors that say which `#[serde]`
/// to write.
///
/// ```compile_fail
/// use annotations::Tool;
///
/// #[derive(Tool)] // goes on a struct with named fields, not on an enum
/// enum Search {
///     Title(String),
///     Body(String),
/// }
/// ```
#[proc_macro_derive(Tool, attributes(tool, schema))]
pub fn derive_tool(input: TokenStream) -> TokenStream {
    derive::expand_derive(input.into()).into()
}

/// Derives `annotations::ToolSchema` for a struct or enum of yours, without schemars: the
/// JSON Schema of one value, written while compiling when every field's type is one the
/// macro knows, so a handler may take the type as a parameter (or return it as `Json<T>`).
///
/// - A struct with named fields is an object: each field a property, its doc comment the
///   property's description, the type's doc comment the object's. `Option` fields and fields
///   with a serde default are not required.
/// - A field takes the `#[schema(...)]` constraint keys of a handler parameter (`minimum`,
///   `min_length`, `max_items`, `unique_items`, `pattern`, `format`, `examples`, `title`,
///   `description`, ...), checked against its type while compiling, listed in the schema and
///   enforced when a call reads the type, at any depth (the derive writes
///   `ToolSchema::check_value`; the message says where: `` `people[1].name` ``). Its name and
///   default are serde's (`#[serde(rename)]`, `#[serde(default)]`).
/// - A newtype struct, or one with `#[serde(transparent)]`, is its one field's schema.
/// - An enum of unit variants is `{"type": "string", "enum": [...]}`. An enum with data is
///   a `oneOf` of its variants as serde writes them: externally tagged (`{"Variant": ...}`,
///   serde's default), internally (`tag`), adjacently (`tag` and `content`), or `anyOf` when
///   `untagged`; unit, newtype and struct variants (a newtype not under an internal `tag`).
///   The constraints of the types its variants hold are enforced too, in the variant serde
///   reads. For an untagged enum that is the first variant that reads, as serde picks it: a
///   value that breaks its constraints is refused even where a later variant's schema would
///   take it (the schema's `anyOf` cannot say "the first that fits"), so put the variant with
///   constraints after the ones it could be mistaken for.
/// - The `#[serde(...)]` attributes that change what serde reads are followed: `rename` and
///   `rename_all` (fields and variants, with serde's case rules), `alias` (each alias listed
///   too, and at most one of the names allowed, exactly one for a required field), `default`,
///   `skip` and `skip_deserializing`, `flatten` (a struct's fields join the object's, a map's
///   values are its other properties), `deny_unknown_fields` (which closes the object),
///   `transparent`, `tag`, `content`, `untagged`. Those that change only what is written
///   (`skip_serializing`, ...) are left alone. Any other (`with`, `from`, ...) is a compile
///   error: the schema would differ from what serde reads; so is `flatten` on an `Option`,
///   which serde reads as `None` from any object that does not fit.
/// - A type that holds itself, directly or through others (a tree of nodes), is a `$ref` to
///   `#/$defs/<its full path>`, two types of one name in two modules two entries; the input
///   or output schema that takes it holds the definitions at its root.
/// - Not read yet, each a compile error that says so: generic types, unit structs, tuple
///   structs and tuple variants of more than one field, `#[schema(...)]`, `alias` and
///   `flatten` on an enum variant's field.
///
/// ```
/// use annotations::{ToolSchema, tool};
///
/// /// One thing the memory graph knows.
/// #[derive(ToolSchema, serde::Deserialize)]
/// #[serde(rename_all = "camelCase")]
/// pub struct Entity {
///     /// The entity's name
///     pub name: String,
///     /// Its type
///     pub entity_type: String,
///     /// What is known of it
///     #[serde(default)]
///     pub observations: Vec<String>,
/// }
///
/// /// Add entities to the graph.
/// #[tool(read_only = false, destructive = false, open_world = false)]
/// fn create_entities(entities: Vec<Entity>) -> usize {
///     entities.len()
/// }
///
/// let schema = Entity::tool_schema();
/// assert_eq!(schema["properties"]["entityType"]["type"], "string");
/// assert_eq!(schema["required"][0], "name");
/// assert_eq!(schema["required"][1], "entityType");
/// assert!(schema["required"].get(2).is_none(), "observations have a default");
/// assert_eq!(
///     CREATE_ENTITIES_TOOL.input_schema.to_value()["properties"]["entities"]["items"]["required"][1],
///     "entityType"
/// );
/// # create_entities(Vec::new());
/// ```
#[proc_macro_derive(ToolSchema, attributes(schema, serde))]
pub fn derive_tool_schema(input: TokenStream) -> TokenStream {
    tool_schema::expand(input.into()).into()
}

/// Not public API: the second half of `crate = path` (see the `krate` module). The runtime
/// crate's `__annotations_with_crate!` calls it with its own `$crate` first.
#[doc(hidden)]
#[proc_macro]
pub fn __with_crate(input: TokenStream) -> TokenStream {
    krate::resolve(input.into()).into()
}
