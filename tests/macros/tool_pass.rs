//! `#[tool]` on every shape of handler it supports, and the constants it generates.

use mcp_annotations::{ToolAnnotations, tool};

/// A small store for the handlers below.
pub struct Store(Vec<String>);

/// List every saved note.
#[tool(read_only, open_world = false, title = "List notes")]
pub fn list_notes(#[context] store: &Store) -> String {
    store.0.join("\n")
}

#[test]
fn free_function_gets_a_module_level_const() {
    assert_eq!(
        LIST_NOTES_ANNOTATIONS,
        ToolAnnotations::new()
            .with_title("List notes")
            .with_read_only(true)
            .with_open_world(false)
    );
    // The handler itself is unchanged.
    assert_eq!(list_notes(&Store(vec!["a".into(), "b".into()])), "a\nb");
}

// The generated constant is a struct literal, so it works inside other const items.
const _: () = assert!(LIST_NOTES_ANNOTATIONS.read_only() && LIST_NOTES_ANNOTATIONS.check().is_ok());

/// A server with methods of every receiver.
pub struct Server {
    notes: Vec<String>,
}

impl Server {
    /// Permanently delete a note by id.
    #[tool(destructive, idempotent, open_world = false, title = "Delete note")]
    pub async fn delete_note(&mut self, note_id: u64) -> Result<String, String> {
        let index = usize::try_from(note_id).map_err(|e| e.to_string())?;
        if index < self.notes.len() {
            Ok(self.notes.remove(index))
        } else {
            Err(format!("no note {note_id}"))
        }
    }

    #[tool(read_only)]
    fn count(&self) -> usize {
        self.notes.len()
    }

    #[tool(destructive = false, idempotent = false)]
    pub(crate) fn into_notes(self) -> Vec<String> {
        self.notes
    }

    /// An associated function without `self`.
    #[tool(title = "Open server")]
    pub fn open() -> String {
        "opened".to_owned()
    }

    pub fn with_one_note() -> Self {
        Server {
            notes: vec!["first".into()],
        }
    }

    #[tool(read_only, open_world = false)]
    const fn capacity_hint() -> usize {
        16
    }

    #[tool(destructive)]
    unsafe fn clear_unchecked(&mut self) {
        self.notes.clear();
    }

    #[tool(read_only)]
    fn find<P>(&self, #[context] predicate: P) -> Option<&String>
    where
        P: Fn(&str) -> bool,
    {
        self.notes.iter().find(|note| predicate(note))
    }

    /// Other attributes before and after `#[tool]` stay on the handler.
    #[inline]
    #[tool(read_only, title = "First note")]
    #[must_use]
    #[allow(clippy::unused_self)]
    pub fn first(&self) -> Option<&String> {
        self.notes.first()
    }
}

#[test]
fn methods_get_associated_consts() {
    assert!(Server::DELETE_NOTE_ANNOTATIONS.destructive());
    assert_eq!(Server::DELETE_NOTE_ANNOTATIONS.title(), Some("Delete note"));
    assert!(Server::COUNT_ANNOTATIONS.read_only());
    assert_eq!(Server::INTO_NOTES_ANNOTATIONS.destructive_hint, Some(false));
    assert_eq!(Server::INTO_NOTES_ANNOTATIONS.idempotent_hint, Some(false));
    assert_eq!(
        Server::OPEN_ANNOTATIONS,
        ToolAnnotations::new().with_title("Open server")
    );
    assert_eq!(
        Server::CAPACITY_HINT_ANNOTATIONS,
        ToolAnnotations::new()
            .with_read_only(true)
            .with_open_world(false)
    );
    assert!(Server::CLEAR_UNCHECKED_ANNOTATIONS.destructive());
    assert!(Server::FIND_ANNOTATIONS.read_only());
    assert_eq!(Server::FIRST_ANNOTATIONS.title(), Some("First note"));

    // The handlers still work as written.
    assert_eq!(Server::open(), "opened");
    let mut server = Server::with_one_note();
    assert_eq!(server.count(), 1);
    assert_eq!(server.first().map(String::as_str), Some("first"));
    assert_eq!(
        server.find(|n| n.starts_with('f')).map(String::as_str),
        Some("first")
    );
    assert_eq!(Server::capacity_hint(), 16);
    assert_eq!(block_on(server.delete_note(0)), Ok("first".to_owned()));
    assert!(block_on(server.delete_note(0)).is_err());
    // SAFETY-free: `clear_unchecked` is `unsafe` only to show the shape.
    #[allow(unsafe_code)]
    unsafe {
        server.clear_unchecked();
    }
    assert!(server.into_notes().is_empty());
}

/// Visibility is copied from the handler.
mod visibility {
    use mcp_annotations::tool;

    #[tool(read_only)]
    pub fn public() {}

    #[tool(read_only)]
    pub(crate) fn in_crate() {}

    #[tool(read_only)]
    pub(super) fn in_parent() {}

    pub mod nested {
        use mcp_annotations::tool;

        #[tool(read_only)]
        pub(in crate::tool_pass::visibility) fn in_path() {}

        pub const SEEN: bool = IN_PATH_ANNOTATIONS.read_only();
    }

    #[tool(read_only)]
    fn private() {}

    pub const PRIVATE_SEEN: bool = PRIVATE_ANNOTATIONS.read_only();

    pub fn call_all() {
        public();
        in_crate();
        in_parent();
        nested::in_path();
        private();
    }
}

#[test]
fn consts_have_the_handlers_visibility() {
    visibility::call_all();
    assert!(visibility::PUBLIC_ANNOTATIONS.read_only());
    assert!(visibility::IN_CRATE_ANNOTATIONS.read_only());
    assert!(visibility::IN_PARENT_ANNOTATIONS.read_only());
    const { assert!(visibility::nested::SEEN && visibility::PRIVATE_SEEN) };
}

/// No hints at all: the protocol's pessimistic defaults.
#[tool]
fn anything() {}

#[tool()]
fn anything_else() {}

#[test]
fn no_hints_is_an_empty_const() {
    anything();
    anything_else();
    assert!(ANYTHING_ANNOTATIONS.is_empty());
    assert!(ANYTHING_ELSE_ANNOTATIONS.is_empty());
    assert!(ANYTHING_ANNOTATIONS.destructive() && ANYTHING_ANNOTATIONS.open_world());
}

#[test]
fn redundant_but_consistent_read_only_is_accepted() {
    #[tool(read_only, destructive = false, idempotent = true)]
    fn lookup() {}
    lookup();
    assert_eq!(
        LOOKUP_ANNOTATIONS,
        ToolAnnotations {
            open_world_hint: None,
            ..ToolAnnotations::LOOKUP
        }
    );
}

const ALWAYS: bool = true;
const NEVER: bool = false;

#[tool(read_only = ALWAYS, destructive = NEVER, open_world = !ALWAYS)]
fn by_const_path() {}

#[tool(read_only = cfg!(any()), idempotent = cfg!(all()), open_world = (NEVER || ALWAYS))]
fn by_cfg() {}

#[test]
fn hints_may_be_const_bool_expressions() {
    by_const_path();
    by_cfg();
    assert_eq!(
        BY_CONST_PATH_ANNOTATIONS,
        ToolAnnotations::new()
            .with_read_only(true)
            .with_destructive(false)
            .with_open_world(false)
    );
    assert_eq!(
        BY_CFG_ANNOTATIONS,
        ToolAnnotations::new()
            .with_read_only(false)
            .with_idempotent(true)
            .with_open_world(true)
    );
}

/// Explicit keys refine what the method leaves open, and may restate what it settles.
#[tool(http = "GET", open_world = false, read_only, title = "Read my page")]
fn own_page() {}

#[tool(http = "POST", destructive, title = "Replace all")]
fn replace_all() {}

#[test]
fn http_presets_can_be_refined() {
    own_page();
    replace_all();
    assert_eq!(
        OWN_PAGE_ANNOTATIONS,
        ToolAnnotations::EXTERNAL_LOOKUP
            .with_open_world(false)
            .with_title("Read my page")
    );
    assert_eq!(
        REPLACE_ALL_ANNOTATIONS,
        ToolAnnotations::from_http_method("POST")
            .unwrap()
            .with_destructive(true)
            .with_title("Replace all")
    );
}

/// A read-only handler may take `&mut` when it says so.
#[tool(read_only, allow_mut)]
fn cached_lookup(#[context] cache: &mut Vec<u64>, key: u64) -> bool {
    cache.push(key);
    true
}

#[test]
fn allow_mut_permits_exclusive_access() {
    assert!(cached_lookup(&mut Vec::new(), 1));
    assert!(CACHED_LOOKUP_ANNOTATIONS.read_only());
}

/// The runtime crate under another name.
mod renamed {
    pub use mcp_annotations::*;
}

#[tool(crate = renamed, read_only)]
fn via_path() {}

#[tool(crate = "crate::tool_pass::renamed", read_only)]
fn via_string() {}

/// A method, a derived tool and a listing, all through the renamed path.
struct Renamed;

impl Renamed {
    /// Say hello through the renamed crate.
    #[tool(crate = renamed, read_only, title = "Hello", open_world = false)]
    fn hello(&self, name: String) -> String {
        format!("hello {name}")
    }
}

/// Count through the renamed crate.
#[derive(mcp_annotations::Tool, serde::Deserialize)]
#[tool(crate = crate::tool_pass::renamed, read_only, title = "Count")]
struct CountRenamed {
    /// Up to this number
    to: u8,
}

#[test]
fn crate_key_names_a_renamed_dependency() {
    via_path();
    via_string();
    assert!(VIA_PATH_ANNOTATIONS.read_only() && VIA_STRING_ANNOTATIONS.read_only());
    assert_eq!(Renamed::HELLO_TOOL.name(), "hello");
    assert!(!Renamed::HELLO_TOOL.annotations.open_world());
    let count = <CountRenamed as renamed::descriptor::StaticTool>::TOOL;
    assert_eq!(count.title(), Some("Count"));
    assert_eq!(
        count.input_schema.to_value()["properties"]["to"]["maximum"],
        serde_json::json!(255)
    );
    let _ = CountRenamed { to: 1 }.to;

    let listing: renamed::Listing<Renamed> =
        mcp_annotations::tools![crate = renamed; Renamed::hello];
    assert_eq!(listing.tools()[0], Renamed::HELLO_TOOL);
    let result = block_on(
        listing
            .call(
                &Renamed,
                "hello",
                serde_json::json!({"name": "you"}).as_object().cloned(),
                mcp_annotations::Context::default(),
            )
            .expect("listed"),
    );
    assert_eq!(result.text_content(), "hello you");
    assert!(!result.is_error);
}

#[tool(read_only)]
#[allow(non_snake_case)]
fn listAllNotes() {}

#[tool(read_only)]
fn r#type() {}

#[tool(read_only)]
extern "C" fn c_abi() {}

#[test]
fn const_names_are_upper_snake_case() {
    listAllNotes();
    r#type();
    c_abi();
    assert!(LIST_ALL_NOTES_ANNOTATIONS.read_only());
    assert!(TYPE_ANNOTATIONS.read_only());
    assert!(C_ABI_ANNOTATIONS.read_only());
}

/// A trait's default method gets a default associated const; the trait says it is never used
/// as `dyn` (`Sized`), since associated constants would make it not dyn compatible.
trait Describe: Sized {
    #[tool(read_only, title = "Describe")]
    fn describe(&self) -> &'static str {
        "a tool"
    }

    /// Describe in a language.
    #[tool(read_only, title = "Describe in")]
    fn describe_in(&self, language: Option<String>) -> String {
        language.unwrap_or_default()
    }
}

impl Describe for Store {}

#[test]
fn trait_default_methods_get_an_associated_const() {
    assert_eq!(Store(Vec::new()).describe(), "a tool");
    assert_eq!(
        <Store as Describe>::DESCRIBE_ANNOTATIONS.title(),
        Some("Describe")
    );
    assert_eq!(Store(Vec::new()).describe_in(None), "");
    let tool = <Store as Describe>::DESCRIBE_IN_TOOL;
    assert_eq!(
        tool.annotations,
        <Store as Describe>::DESCRIBE_IN_ANNOTATIONS
    );
    assert_eq!(
        tool.input_schema.to_value()["properties"]["language"]["type"],
        serde_json::json!(["string", "null"])
    );

    // Listed and called through the implementing type.
    let listing: mcp_annotations::Listing<Store> = mcp_annotations::tools![Store::describe_in];
    assert_eq!(listing.tools()[0], tool);
    let result = block_on(
        listing
            .call(
                &Store(Vec::new()),
                "describe_in",
                serde_json::json!({"language": "en"}).as_object().cloned(),
                mcp_annotations::Context::default(),
            )
            .expect("listed"),
    );
    assert_eq!(result.text_content(), "en");
}

/// Drives a future that never waits, without an async runtime.
pub(crate) fn block_on<F: std::future::Future>(future: F) -> F::Output {
    use std::task::{Context, Poll, Waker};
    let mut future = std::pin::pin!(future);
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(output) => output,
        Poll::Pending => panic!("the handlers here never wait"),
    }
}

const fn both<A, B>() -> bool {
    size_of::<A>() < size_of::<B>()
}

macro_rules! make_tool {
    ($vis:vis fn $name:ident, $title:literal, $hint:expr, $body:block) => {
        #[tool(read_only = $hint, title = $title)]
        $vis fn $name() -> &'static str $body
    };
}

make_tool!(pub fn from_macro, "From a macro", true, { "made" });

/// A comma inside a turbofish belongs to the value.
#[tool(read_only = both::<u8, u16>(), open_world = false)]
fn turbofish() {}

/// `&mut` in a function pointer or closure type is not an exclusive borrow of the handler.
#[tool(read_only)]
fn callbacks(#[context] f: fn(&mut String), #[context] g: &dyn Fn(&mut u8)) {
    let _ = (f, g);
}

#[test]
fn macro_rules_fragments_turbofish_values_and_callback_types() {
    assert_eq!(from_macro(), "made");
    assert_eq!(FROM_MACRO_ANNOTATIONS.title(), Some("From a macro"));
    assert!(FROM_MACRO_ANNOTATIONS.read_only());
    turbofish();
    assert!(TURBOFISH_ANNOTATIONS.read_only());
    callbacks(|_| {}, &|_| {});
    assert!(CALLBACKS_ANNOTATIONS.read_only());
}
