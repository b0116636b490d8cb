//! The descriptor of one tool, as a server lists it in `tools/list`.

use std::borrow::Cow;
use std::fmt;

use crate::{Conflict, Schema, SchemaError, ToolAnnotations};

/// One tool as a server lists it: the protocol's `Tool` object.
///
/// The `#[tool]` attribute generates one beside each handler (`list_notes` gives
/// `LIST_NOTES_TOOL`), with the name checked, the description taken from the doc comment and
/// the input schema written at compile time. It is a plain value, usable in `const` and
/// `static` items; a [`tools!`](crate::tools) listing gathers them.
///
/// ```
/// use annotations::tool;
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
#[derive(Clone, Debug, PartialEq, Eq)]
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
    /// The JSON Schema of the tool's structured result, if it has one (`outputSchema`).
    pub output_schema: Option<Schema>,
    /// What calling the tool does to the world (`annotations`); left out on the wire when
    /// nothing is stated.
    pub annotations: ToolAnnotations,
}

impl Tool {
    /// A tool with a name and an input schema, and nothing else stated.
    ///
    /// ```
    /// use annotations::{Schema, Tool};
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
        }
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
    /// use annotations::{Schema, Tool, ToolAnnotations};
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

    /// The first thing that keeps this tool from being listed in a directory at `level`, or
    /// `None` if it is ready. `const`, so `tools!` checks it while compiling.
    ///
    /// ```
    /// use annotations::{Readiness, Schema, Tool, ToolAnnotations};
    ///
    /// let mut tool = Tool::new("list_notes", Schema::NO_INPUT);
    /// assert_eq!(tool.missing_for(Readiness::Directory), Some(Missing::Title));
    /// tool.title = Some("List notes".into());
    /// tool.annotations = ToolAnnotations::new().with_read_only(true);
    /// assert_eq!(tool.missing_for(Readiness::Directory), None);
    /// assert_eq!(tool.missing_for(Readiness::Strict), Some(Missing::DestructiveHint));
    /// # use annotations::Missing;
    /// ```
    #[must_use]
    pub const fn missing_for(&self, level: Readiness) -> Option<Missing> {
        if self.title().is_none() && self.annotations.title().is_none() {
            return Some(Missing::Title);
        }
        let hints = &self.annotations;
        match level {
            Readiness::Directory => {
                if hints.read_only_hint.is_none() && hints.destructive_hint.is_none() {
                    return Some(Missing::ReadOnlyOrDestructiveHint);
                }
            }
            Readiness::Strict => {
                if hints.read_only_hint.is_none() {
                    return Some(Missing::ReadOnlyHint);
                }
                if hints.destructive_hint.is_none() {
                    return Some(Missing::DestructiveHint);
                }
                if hints.open_world_hint.is_none() {
                    return Some(Missing::OpenWorldHint);
                }
            }
        }
        None
    }

    /// Checks what the protocol asks of a tool: a valid name, an input schema that is an
    /// object of `"type": "object"`, and hints that do not contradict each other.
    ///
    /// The `#[tool]` attribute checks all of this while compiling; call it on descriptors built
    /// by hand or read from a peer.
    ///
    /// # Errors
    ///
    /// The first problem found, as an [`InvalidTool`].
    pub fn validate(&self) -> Result<(), InvalidTool> {
        if !is_valid_tool_name(self.name()) {
            return Err(InvalidTool::Name(self.name.to_string()));
        }
        self.input_schema
            .check_input()
            .map_err(InvalidTool::InputSchema)?;
        self.annotations.check().map_err(InvalidTool::Annotations)
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

/// Whether `name` follows the protocol's rule for tool names: 1 to 128 characters, each an
/// ASCII letter, digit, `_`, `-` or `.`.
///
/// ```
/// use annotations::is_valid_tool_name;
///
/// assert!(is_valid_tool_name("getUser"));
/// assert!(is_valid_tool_name("admin.tools.list"));
/// assert!(!is_valid_tool_name("list notes"));
/// assert!(!is_valid_tool_name(""));
/// ```
#[must_use]
pub const fn is_valid_tool_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    if bytes.is_empty() || bytes.len() > 128 {
        return false;
    }
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if !(b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.') {
            return false;
        }
        i += 1;
    }
    true
}

/// How ready for a tool directory a listing must be, from `tools![ready = ...; ...]` or
/// [`Tool::missing_for`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Readiness {
    /// A display title, and at least one of `readOnlyHint` and `destructiveHint` stated (what
    /// Anthropic's MCP directory asks of each tool).
    Directory,
    /// A display title, and `readOnlyHint`, `destructiveHint` and `openWorldHint` all stated
    /// (what OpenAI's Apps SDK lists as required).
    Strict,
}

/// What a tool lacks for a [`Readiness`] level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Missing {
    /// No `title`, top-level or in the annotations.
    Title,
    /// Neither `readOnlyHint` nor `destructiveHint` is stated.
    ReadOnlyOrDestructiveHint,
    /// `readOnlyHint` is not stated.
    ReadOnlyHint,
    /// `destructiveHint` is not stated.
    DestructiveHint,
    /// `openWorldHint` is not stated.
    OpenWorldHint,
}

impl Missing {
    /// What is missing, as a phrase: "a title", "`readOnlyHint`", ...
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Missing::Title => "a title",
            Missing::ReadOnlyOrDestructiveHint => "`readOnlyHint` or `destructiveHint`",
            Missing::ReadOnlyHint => "`readOnlyHint`",
            Missing::DestructiveHint => "`destructiveHint`",
            Missing::OpenWorldHint => "`openWorldHint`",
        }
    }

    /// The `#[tool]` key that supplies it.
    #[must_use]
    pub const fn key(self) -> &'static str {
        match self {
            Missing::Title => "title = \"...\"",
            Missing::ReadOnlyOrDestructiveHint => "read_only or destructive",
            Missing::ReadOnlyHint => "read_only",
            Missing::DestructiveHint => "destructive",
            Missing::OpenWorldHint => "open_world",
        }
    }
}

impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a tool descriptor breaks the protocol's rules, from [`Tool::validate`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InvalidTool {
    /// The name is empty, longer than 128 characters, or has a character outside
    /// `A-Z a-z 0-9 _ - .`.
    Name(String),
    /// The input schema is not an object schema.
    InputSchema(SchemaError),
    /// The hints contradict each other.
    Annotations(Conflict),
}

impl fmt::Display for InvalidTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Name(name) => write!(
                f,
                "invalid tool name {name:?}: use 1 to 128 characters of A-Z a-z 0-9 _ - ."
            ),
            Self::InputSchema(error) => error.fmt(f),
            Self::Annotations(conflict) => conflict.fmt(f),
        }
    }
}

impl std::error::Error for InvalidTool {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Name(_) => None,
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
}
