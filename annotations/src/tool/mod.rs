//! The descriptor of one tool, as a server lists it in `tools/list`: [`Tool`], its [`name`]
//! rule, its [`grouping`] into toolsets, and its [`wire`] form. Its schemas are the floor
//! below (`crate::schema`); what a host reads of a descriptor is the floor above
//! (`crate::host`).

use std::borrow::Cow;
use std::fmt;

pub(crate) mod grouping;
pub(crate) mod listed;
pub(crate) mod name;
pub(crate) mod wire;

use crate::hints::{ConflictError, ToolAnnotations};
use crate::protocol::Icon;
use crate::schema::{Schema, SchemaError};

pub use self::name::is_valid_tool_name;

/// One tool as a server lists it: the protocol's `Tool` object.
///
/// The `#[tool]` attribute generates one beside each handler (`list_notes` gives
/// `LIST_NOTES_TOOL`), with the name checked, the description taken from the doc comment and
/// the input schema written at compile time. It is a plain value, usable in `const` and
/// `static` items; a [`tools!`](crate::tools) listing gathers them.
///
/// ```
/// use mcp_annotations::tool;
///
/// /// Save a new note.
/// #[tool(open_world = false, title = "Add note")]
/// pub fn add_note(
///     /// Short title for the note
///     title: String,
///     body: Option<String>,
/// ) {}
///
/// let tool = &ADD_NOTE_TOOL;
/// assert_eq!(tool.name(), "add_note");
/// assert_eq!(tool.display_name(), "Add note");
/// assert_eq!(tool.description(), Some("Save a new note."));
/// assert_eq!(
///     tool.input_schema.to_value(),
///     serde_json::json!({
///         "type": "object",
///         "properties": {
///             "title": {"type": "string", "description": "Short title for the note"},
///             "body": {"type": ["string", "null"]}
///         },
///         "required": ["title"],
///         "additionalProperties": false
///     })
/// );
/// # add_note(String::new(), None);
/// ```
///
/// On the wire (serde), fields are camelCase and unset ones are left out; reading is tolerant
/// in the same way as [`ToolAnnotations`]: unknown keys are skipped, `null` reads as unset, a
/// value of the wrong type is an error that names the field.
///
/// Fields are public to read and to set, but not to list in a `Tool { .. }` literal of your
/// own, since the protocol keeps adding fields: build one with [`Tool::new`] and the `with_`
/// methods, all `const`.
///
/// (Not `#[non_exhaustive]`: a hidden field does its job instead, so that the code `#[tool]`
/// generates can still write the descriptor as a literal. A constant made by a function call
/// may need its destructor run, so Rust would no longer let `LIST_NOTES_TOOL.name()` be
/// borrowed past its statement, nor `Listing::new(&[LIST_NOTES_TOOL])` be a `static`.)
#[derive(Clone, PartialEq, Eq)]
pub struct Tool {
    /// The name the model calls the tool by (`name`), unique within a server. The protocol's
    /// rule: 1 to 128 characters of `A-Z a-z 0-9 _ - .` (see [`is_valid_tool_name`]).
    pub name: Cow<'static, str>,
    /// A display title for people (`title`). Hosts show it first, then `annotations.title`,
    /// then the name: see [`display_name`](Self::display_name).
    pub title: Option<Cow<'static, str>>,
    /// What the tool does, for the model (`description`).
    pub description: Option<Cow<'static, str>>,
    /// The JSON Schema of the arguments object (`inputSchema`); its root is `"type": "object"`.
    pub input_schema: Schema,
    /// The JSON Schema of the tool's structured result, if it has one (`outputSchema`), as
    /// protocol 2026-07-28 allows it: any JSON Schema. Versions before require an object at
    /// the root; [`output_schema_for`](Self::output_schema_for) gives each version's form.
    pub output_schema: Option<Schema>,
    /// What calling the tool does to the world (`annotations`); left out on the wire when
    /// nothing is stated.
    pub annotations: ToolAnnotations,
    /// Icons a client may show for the tool (`icons`; protocol 2025-11-25 on, left out for
    /// 2025-06-18 sessions). Empty when none are stated.
    pub icons: Cow<'static, [Icon]>,
    /// Whether the tool may be run as a task (`execution.taskSupport`). Only protocol
    /// 2025-11-25 defines it: it is listed to those sessions alone (2026-07-28 dropped it).
    /// rmcp's `Tool` has no field for it, so a server on rmcp does not list it.
    pub task_support: Option<TaskSupport>,
    /// The tool's `_meta` object, as JSON text: what the protocol leaves to servers and hosts
    /// to agree on (keys such as `"com.example/tier"`). Listed to every version.
    /// [`check`](Self::check) checks that it is a JSON object.
    pub meta: Option<Cow<'static, str>>,
    /// The toolsets the tool belongs to (`#[tool(toolset = "issues")]`): groups a server
    /// offers or leaves out together ([`Filter::toolsets`](crate::listing::Filter::toolsets)). Not
    /// listed to clients: the protocol has no place for them.
    pub toolsets: &'static [&'static str],
    /// The authorization scopes a caller must hold for the tool to be offered
    /// (`#[tool(scopes = ["repo"])]`, [`Filter::granted_scopes`](crate::listing::Filter::granted_scopes)).
    /// Not listed to clients.
    pub scopes: &'static [&'static str],
    /// Whether the tool answers `tools/resolve` (the tool-resolution extension): its hints
    /// then bound those of each call, which a client may ask for before calling. Listed as the
    /// marker `_meta["io.modelcontextprotocol/tool-resolution"] = {"resolvable": true}`, and
    /// only to a client that declared the extension
    /// ([`ListOptions::with_tool_resolution`](crate::listing::ListOptions::with_tool_resolution));
    /// a marker written into [`meta`](Self::meta) by hand is never listed. Read from a peer's
    /// listing, it says whether the peer marked the tool.
    pub resolvable: bool,
    /// Not public API: what keeps `Tool { .. }` literals out of code outside this crate and
    /// the code it generates, so that a field the protocol adds is not a breaking change.
    #[doc(hidden)]
    pub __non_exhaustive: NonExhaustive,
}

impl fmt::Debug for Tool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tool")
            .field("name", &self.name)
            .field("title", &self.title)
            .field("description", &self.description)
            .field("input_schema", &self.input_schema)
            .field("output_schema", &self.output_schema)
            .field("annotations", &self.annotations)
            .field("icons", &self.icons)
            .field("task_support", &self.task_support)
            .field("meta", &self.meta)
            .field("toolsets", &self.toolsets)
            .field("scopes", &self.scopes)
            .field("resolvable", &self.resolvable)
            .finish()
    }
}

impl Tool {
    /// A tool with a name and an input schema, and nothing else stated.
    ///
    /// A constant built with it and the `with_` methods is a value like any other, but Rust
    /// counts a value made by function calls as one that may need its destructor run: such a
    /// constant cannot be read inside another `const` (`const N: usize = PING.name().len()`)
    /// nor borrowed for `'static` in place; put it in a `static` to list it (see
    /// [`Listing::new`](crate::Listing::new)). The constants `#[tool]` generates are literals,
    /// and can be.
    ///
    /// ```
    /// use mcp_annotations::{schema::Schema, Tool};
    ///
    /// const PING: Tool = Tool::new("ping", Schema::NO_INPUT);
    /// assert_eq!(PING.display_name(), "ping");
    /// ```
    #[must_use]
    pub const fn new(name: &'static str, input_schema: Schema) -> Self {
        Tool {
            name: Cow::Borrowed(name),
            title: None,
            description: None,
            input_schema,
            output_schema: None,
            annotations: ToolAnnotations::new(),
            icons: Cow::Borrowed(&[]),
            task_support: None,
            meta: None,
            toolsets: &[],
            scopes: &[],
            resolvable: false,
            __non_exhaustive: NonExhaustive,
        }
    }

    /// Sets whether the tool answers `tools/resolve`, in `const`. A listing resolves the
    /// tool's calls only if its handler has a resolver (`#[tool(resolve = ...)]`); marking a
    /// descriptor alone promises what the server must then answer itself.
    ///
    /// ```
    /// use mcp_annotations::{ProtocolVersion, Tool, listing::ListOptions, schema::Schema};
    ///
    /// static TOOLS: [Tool; 1] = [Tool::new("run_sql", Schema::NO_INPUT).with_resolvable(true)];
    /// let listing = mcp_annotations::Listing::new(&TOOLS);
    /// // Marked only for a client that declared the extension.
    /// let declared = ListOptions::new(ProtocolVersion::V2026_07_28).with_tool_resolution(true);
    /// let text = listing.render(&declared, None).unwrap();
    /// assert!(text.contains(r#""_meta":{"io.modelcontextprotocol/tool-resolution":{"resolvable":true}}"#));
    /// let plain = listing.render(&ListOptions::new(ProtocolVersion::V2026_07_28), None).unwrap();
    /// assert!(!plain.contains("tool-resolution"));
    /// ```
    #[must_use]
    pub const fn with_resolvable(mut self, resolvable: bool) -> Self {
        self.resolvable = resolvable;
        self
    }

    /// Sets the icons, in `const` (owned ones it replaces are leaked, as for
    /// [`with_title`](Self::with_title)).
    ///
    /// ```
    /// use mcp_annotations::{descriptor::Icon, schema::Schema, descriptor::TaskSupport, Tool};
    ///
    /// static ICONS: [Icon; 1] = [Icon::from_static("https://example.com/export.svg")];
    /// const EXPORT: Tool = Tool::new("export", Schema::NO_INPUT)
    ///     .with_icons(&ICONS)
    ///     .with_task_support(TaskSupport::Optional);
    /// assert_eq!(EXPORT.icons[0].src(), "https://example.com/export.svg");
    /// ```
    #[must_use]
    pub const fn with_icons(mut self, icons: &'static [Icon]) -> Self {
        core::mem::forget(core::mem::replace(&mut self.icons, Cow::Borrowed(icons)));
        self
    }

    /// The icons (empty when none are stated), readable in `const`.
    #[must_use]
    pub const fn icons(&self) -> &[Icon] {
        match &self.icons {
            Cow::Borrowed(icons) => icons,
            Cow::Owned(icons) => icons.as_slice(),
        }
    }

    /// Sets whether the tool may be run as a task, in `const`.
    #[must_use]
    pub const fn with_task_support(mut self, task_support: TaskSupport) -> Self {
        self.task_support = Some(task_support);
        self
    }

    /// Sets the `_meta` object from a JSON value. Not `const`.
    ///
    /// ```
    /// use mcp_annotations::{schema::Schema, Tool};
    ///
    /// let mut meta = serde_json::Map::new();
    /// meta.insert("com.example/tier".into(), "gold".into());
    /// let tool = Tool::new("export", Schema::NO_INPUT).with_meta(meta);
    /// assert_eq!(tool.meta_object().unwrap()["com.example/tier"], "gold");
    /// ```
    #[must_use]
    pub fn with_meta(mut self, meta: serde_json::Map<String, serde_json::Value>) -> Self {
        self.meta = Some(Cow::Owned(serde_json::Value::Object(meta).to_string()));
        self
    }

    /// The `_meta` object, read from its text (`None` when there is none, or when text set by
    /// hand is not a JSON object: [`check`](Self::check) reports that).
    #[must_use]
    pub fn meta_object(&self) -> Option<serde_json::Map<String, serde_json::Value>> {
        match serde_json::from_str(self.meta.as_deref()?) {
            Ok(serde_json::Value::Object(object)) => Some(object),
            _ => None,
        }
    }

    /// A tool with a name made at run time (from a configuration, say) and an input schema,
    /// and nothing else stated. Not `const`; [`new`](Self::new) is.
    ///
    /// ```
    /// use mcp_annotations::{schema::Schema, Tool};
    ///
    /// let tool = Tool::new_owned(format!("lookup_{}", 7), Schema::NO_INPUT)
    ///     .with_owned_title(format!("Lookup {}", 7))
    ///     .with_owned_description("Look up item 7");
    /// assert_eq!(tool.name(), "lookup_7");
    /// assert_eq!(tool.display_name(), "Lookup 7");
    /// ```
    #[must_use]
    pub fn new_owned(name: impl Into<Cow<'static, str>>, input_schema: Schema) -> Self {
        let mut tool = Tool::new("", input_schema);
        tool.name = name.into();
        tool
    }

    /// Sets the top-level display title to any string, owned or borrowed. Not `const`; the
    /// title it replaces is dropped as usual.
    #[must_use]
    pub fn with_owned_title(mut self, title: impl Into<Cow<'static, str>>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Sets the description to any string, owned or borrowed. Not `const`.
    #[must_use]
    pub fn with_owned_description(mut self, description: impl Into<Cow<'static, str>>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Sets the top-level display title, in `const`.
    ///
    /// Like [`ToolAnnotations::with_title`], replacing an *owned* title with this builder
    /// leaks it (a `const fn` cannot free it); set the field to replace one at run time.
    ///
    /// ```
    /// use mcp_annotations::{schema::Schema, Tool, ToolAnnotations};
    ///
    /// const DELETE_NOTE: Tool = Tool::new("delete_note", Schema::NO_INPUT)
    ///     .with_title("Delete note")
    ///     .with_description("Permanently delete a note by id.")
    ///     .with_annotations(ToolAnnotations::DESTRUCTIVE_WRITE);
    /// assert_eq!(DELETE_NOTE.display_name(), "Delete note");
    /// assert!(DELETE_NOTE.annotations.destructive());
    /// ```
    #[must_use]
    pub const fn with_title(mut self, title: &'static str) -> Self {
        core::mem::forget(self.title.replace(Cow::Borrowed(title)));
        self
    }

    /// Sets the description, in `const` (an owned one it replaces is leaked, as for
    /// [`with_title`](Self::with_title)).
    #[must_use]
    pub const fn with_description(mut self, description: &'static str) -> Self {
        core::mem::forget(self.description.replace(Cow::Borrowed(description)));
        self
    }

    /// Sets the schema of the structured result, in `const` (a schema owned at run time that
    /// it replaces is leaked, as for [`with_title`](Self::with_title)).
    #[must_use]
    pub const fn with_output_schema(mut self, schema: Schema) -> Self {
        core::mem::forget(self.output_schema.replace(schema));
        self
    }

    /// The output schema as protocol `version` lists it: as it is from 2026-07-28, and for
    /// earlier versions, which require an object at the root, a schema whose root is not an
    /// object inside `{"type": "object", "properties": {"result": ...}}`, as a result's
    /// structured content is wrapped for those versions.
    ///
    /// ```
    /// use mcp_annotations::{ProtocolVersion, schema::Schema, Tool};
    ///
    /// let tool = Tool::new("list_ids", Schema::NO_INPUT)
    ///     .with_output_schema(Schema::Static(r#"{"type":"array","items":{"type":"integer"}}"#));
    /// assert_eq!(
    ///     tool.output_schema_for(ProtocolVersion::V2026_07_28).as_deref(),
    ///     Some(r#"{"type":"array","items":{"type":"integer"}}"#)
    /// );
    /// let older: serde_json::Value =
    ///     serde_json::from_str(&tool.output_schema_for(ProtocolVersion::V2025_11_25).unwrap())?;
    /// assert_eq!(older["properties"]["result"]["type"], "array");
    /// assert_eq!(older["required"][0], "result");
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    #[must_use]
    pub fn output_schema_for(
        &self,
        version: crate::protocol::ProtocolVersion,
    ) -> Option<Cow<'_, str>> {
        let schema = self.output_schema.as_ref()?.as_str();
        if version.takes_any_structured_root() {
            return Some(Cow::Borrowed(schema));
        }
        Some(
            crate::schema::builder::object_output(schema).map_or(Cow::Borrowed(schema), Cow::Owned),
        )
    }

    /// Sets the annotations, in `const` (an owned title in the ones it replaces is leaked, as
    /// for [`with_title`](Self::with_title)).
    #[must_use]
    pub const fn with_annotations(mut self, annotations: ToolAnnotations) -> Self {
        core::mem::forget(core::mem::replace(&mut self.annotations, annotations));
        self
    }

    /// The name.
    #[must_use]
    pub const fn name(&self) -> &str {
        cow_str(&self.name)
    }

    /// The top-level title, if one is stated.
    #[must_use]
    pub const fn title(&self) -> Option<&str> {
        match &self.title {
            Some(title) => Some(cow_str(title)),
            None => None,
        }
    }

    /// The description, if one is stated.
    #[must_use]
    pub const fn description(&self) -> Option<&str> {
        match &self.description {
            Some(description) => Some(cow_str(description)),
            None => None,
        }
    }

    /// What a host shows for the tool, by the protocol's precedence: the `title`, else
    /// `annotations.title`, else the name.
    ///
    /// ```
    /// use mcp_annotations::{schema::Schema, Tool, ToolAnnotations};
    ///
    /// let mut tool = Tool::new("list_notes", Schema::NO_INPUT);
    /// assert_eq!(tool.display_name(), "list_notes");
    /// tool.annotations = ToolAnnotations::new().with_title("Notes");
    /// assert_eq!(tool.display_name(), "Notes");
    /// tool.title = Some("List notes".into());
    /// assert_eq!(tool.display_name(), "List notes");
    /// ```
    #[must_use]
    pub const fn display_name(&self) -> &str {
        match (self.title(), self.annotations.title()) {
            (Some(title), _) | (None, Some(title)) => title,
            (None, None) => self.name(),
        }
    }

    /// Checks what the protocol asks of a tool: a valid name, an input schema that is an
    /// object of `"type": "object"`, and hints that do not contradict each other.
    ///
    /// The `#[tool]` attribute checks all of this while compiling; call it on descriptors built
    /// by hand or read from a peer.
    ///
    /// # Errors
    ///
    /// The first problem found, as an [`InvalidToolError`].
    pub fn check(&self) -> Result<(), InvalidToolError> {
        if !is_valid_tool_name(self.name()) {
            return Err(InvalidToolError::Name(self.name.to_string()));
        }
        self.input_schema
            .check_input()
            .map_err(InvalidToolError::InputSchema)?;
        if let Some(meta) = self
            .meta
            .as_deref()
            .filter(|_| self.meta_object().is_none())
        {
            return Err(InvalidToolError::Meta(meta.to_owned()));
        }
        self.annotations
            .check()
            .map_err(InvalidToolError::Annotations)
    }
}

/// Whether a tool may be run as a task, which the client polls for its result
/// (`execution.taskSupport`, protocol 2025-11-25).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TaskSupport {
    /// It may not (`"forbidden"`, what an absent value means).
    Forbidden,
    /// It may, or be called as usual (`"optional"`).
    Optional,
    /// It must be (`"required"`).
    Required,
}

impl TaskSupport {
    /// The wire value: `"forbidden"`, `"optional"` or `"required"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            TaskSupport::Forbidden => "forbidden",
            TaskSupport::Optional => "optional",
            TaskSupport::Required => "required",
        }
    }

    /// The value for a wire value; `None` for any other text.
    ///
    /// ```
    /// use mcp_annotations::descriptor::TaskSupport;
    ///
    /// assert_eq!(TaskSupport::parse("optional"), Some(TaskSupport::Optional));
    /// assert_eq!(TaskSupport::parse("maybe"), None);
    /// ```
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        text.parse().ok()
    }
}

// `Deref` is not `const`, so the `&Cow` is matched by hand.
#[allow(clippy::ptr_arg)]
const fn cow_str<'a>(cow: &'a Cow<'static, str>) -> &'a str {
    match cow {
        Cow::Borrowed(text) => text,
        Cow::Owned(text) => text.as_str(),
    }
}

/// Why a tool descriptor breaks the protocol's rules, from [`Tool::check`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InvalidToolError {
    /// The name is empty, longer than 128 characters, or has a character outside
    /// `A-Z a-z 0-9 _ - .`.
    Name(String),
    /// The input schema is not an object schema.
    InputSchema(SchemaError),
    /// The hints contradict each other.
    Annotations(ConflictError),
    /// The `_meta` text is not a JSON object.
    Meta(String),
}

impl fmt::Display for InvalidToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Name(name) => write!(
                f,
                "invalid tool name {name:?}: use 1 to 128 characters of A-Z a-z 0-9 _ - ."
            ),
            Self::InputSchema(error) => error.fmt(f),
            Self::Annotations(conflict) => conflict.fmt(f),
            Self::Meta(text) => write!(f, "a tool's `_meta` must be a JSON object, not {text}"),
        }
    }
}

impl std::error::Error for InvalidToolError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Name(_) | Self::Meta(_) => None,
            Self::InputSchema(error) => Some(error),
            Self::Annotations(conflict) => Some(conflict),
        }
    }
}

/// A tool described by a type rather than a handler function: what `#[derive(Tool)]`
/// implements, and how `tools!` lists a type.
pub trait StaticTool {
    /// The tool's name.
    const NAME: &'static str;
    /// What calling it does to the world.
    const ANNOTATIONS: ToolAnnotations;
    /// The whole descriptor.
    const TOOL: Tool;
    /// Not public API: the fields that hold sets, as `#[derive(Tool)]` writes them for the
    /// call to refuse repeats in.
    #[doc(hidden)]
    const UNIQUE_FIELDS: &'static [(&'static str, crate::schema::constraints::Unique)] = &[];

    /// Not public API: the `#[schema(...)]` constraints of each field, as `#[derive(Tool)]`
    /// writes them for the call to check before serde reads the struct.
    #[doc(hidden)]
    const FIELD_CHECKS: &'static [(&'static str, &'static [crate::schema::constraints::Check])] =
        &[];
}

crate::protocol::error::from_str!(
    TaskSupport,
    "task support",
    [
        TaskSupport::Forbidden,
        TaskSupport::Optional,
        TaskSupport::Required,
    ]
);

/// The hidden field of the types that may grow fields but are written as literals by
/// generated code (`Tool`): only this crate and the code it generates name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[doc(hidden)]
pub struct NonExhaustive;
