//! JSON Schemas of tool inputs: the [`Schema`] a descriptor carries, and the [`ToolSchema`] trait
//! for parameter types the `#[tool]` attribute does not know.

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

/// A JSON Schema (2020-12) as JSON text: a tool's `inputSchema` or `outputSchema`.
///
/// The text is kept as it will go on the wire, so rendering a listing copies it rather than
/// walking a tree. The `#[tool]` attribute fills it in: [`Static`](Schema::Static) when every
/// parameter type is known to the macro (the whole schema is a string literal, no work at run
/// time), or, when some parameter needs [`ToolSchema`], a schema built once on first use (see
/// [`is_static`](Schema::is_static)). A schema read from a peer is [`Owned`](Schema::Owned).
///
/// The text of a `Static` schema must be a JSON object: the macro's always is, and
/// [`Tool::check`](crate::Tool::check) checks one written by hand.
///
/// ```
/// use mcp_annotations::schema::Schema;
///
/// const NO_INPUT: Schema = Schema::Static(r#"{"type":"object","additionalProperties":false}"#);
/// assert_eq!(NO_INPUT.to_value()["type"], "object");
///
/// let read = Schema::from_value(serde_json::json!({"type": "object"}))?;
/// assert_eq!(read.as_str(), r#"{"type":"object"}"#);
/// # Ok::<(), mcp_annotations::schema::SchemaError>(())
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub enum Schema {
    /// JSON text fixed at compile time.
    Static(&'static str),
    /// JSON text produced on first use, by code `#[tool]` generates. Not public API: made only
    /// by the generated code.
    #[doc(hidden)]
    Lazy(Lazy),
    /// JSON text owned at run time, for example read from a peer.
    Owned(Arc<str>),
}

/// The function that builds a schema on first use (and caches it), as only generated code
/// makes one (`Schema::Lazy(__private::Lazy(build))`, a literal, so that the descriptor stays
/// one too).
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct Lazy(pub fn() -> &'static str);

/// The text in `cell`, built by `build` on first use: how a generated schema is cached, one
/// compiled function for every schema (a closure of each schema's own would compile the
/// `OnceLock` machinery once for each).
#[doc(hidden)]
pub fn once(cell: &'static std::sync::OnceLock<String>, build: fn() -> String) -> &'static str {
    cell.get_or_init(build)
}

/// Why a value cannot be a tool's schema.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SchemaError {
    /// The schema is not a JSON object.
    NotAnObject,
    /// An input schema must say `"type": "object"` at its root: tool arguments are an object.
    NotObjectType,
    /// The text is not valid JSON.
    InvalidJson(String),
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotAnObject => f.write_str("a tool's schema must be a JSON object"),
            Self::NotObjectType => {
                f.write_str(r#"a tool's input schema must have "type": "object" at its root"#)
            }
            Self::InvalidJson(error) => write!(f, "a tool's schema is not valid JSON: {error}"),
        }
    }
}

impl std::error::Error for SchemaError {}

impl Schema {
    /// The schema of a tool that takes no input: an object with no properties allowed, as the
    /// protocol recommends.
    pub const NO_INPUT: Schema =
        Schema::Static(r#"{"type":"object","additionalProperties":false}"#);

    /// A schema from a JSON value, which must be an object.
    ///
    /// # Errors
    ///
    /// [`SchemaError::NotAnObject`] if `value` is not an object.
    pub fn from_value(value: Value) -> Result<Self, SchemaError> {
        if !value.is_object() {
            return Err(SchemaError::NotAnObject);
        }
        Ok(Schema::Owned(Arc::from(value.to_string())))
    }

    /// Whether the text was written while compiling, so reading it costs nothing: true for a
    /// schema `#[tool]` wrote from parameter types it knows, false for one it builds on first
    /// use from a [`ToolSchema`] and for one read at run time.
    ///
    /// ```
    /// assert!(mcp_annotations::schema::Schema::NO_INPUT.is_static());
    /// ```
    #[must_use]
    pub const fn is_static(&self) -> bool {
        matches!(self, Schema::Static(_))
    }

    /// The JSON text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        match self {
            Schema::Static(text) => text,
            Schema::Lazy(Lazy(build)) => build(),
            Schema::Owned(text) => text,
        }
    }

    /// The schema as a JSON value.
    ///
    /// A schema that is not valid JSON (only possible for a `Static` one written by hand) reads
    /// as `null`; [`check_input`](Self::check_input) reports it.
    #[must_use]
    pub fn to_value(&self) -> Value {
        serde_json::from_str(self.as_str()).unwrap_or(Value::Null)
    }

    /// Checks that this is a valid input schema: a JSON object with `"type": "object"`.
    ///
    /// # Errors
    ///
    /// What is wrong, as a [`SchemaError`].
    pub fn check_input(&self) -> Result<(), SchemaError> {
        let value: Value = serde_json::from_str(self.as_str())
            .map_err(|error| SchemaError::InvalidJson(error.to_string()))?;
        match value.get("type") {
            _ if !value.is_object() => Err(SchemaError::NotAnObject),
            Some(Value::String(kind)) if kind == "object" => Ok(()),
            _ => Err(SchemaError::NotObjectType),
        }
    }
}

impl fmt::Debug for Schema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Two schemas are equal when they are the same JSON value (key order and spacing aside).
impl PartialEq for Schema {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (self.as_str(), other.as_str());
        a == b
            || matches!(
                (serde_json::from_str::<Value>(a), serde_json::from_str::<Value>(b)),
                (Ok(a), Ok(b)) if a == b
            )
    }
}

impl Eq for Schema {}

/// The JSON Schema of a parameter type that the `#[tool]` attribute does not know by name: a
/// struct or enum of your own.
///
/// A parameter of such a type is read from the arguments with serde, so it also implements
/// `serde::Deserialize`.
///
/// The macro writes the schema of the types it knows (`bool`, integers, floats, `char`,
/// strings, `Option`, `Vec`, slices, arrays, sets, string-keyed maps, `serde_json::Value`) into
/// the descriptor at compile time. For any other type it asks this trait, once, the first time
/// the schema is needed. There are two ways to provide it:
///
/// - With the `schemars` feature, every type that derives `schemars::JsonSchema` (as rmcp's
///   tools already do) implements `ToolSchema`; nothing more to write.
/// - Without schemars, implement it by hand, as below.
///
/// The returned schema describes one value of the type. It may use `$ref`s into its own
/// `$defs` (`"#/$defs/..."`): those are moved to the root of the tool's input schema, where
/// the references resolve. A `$schema` key moves there too (when every parameter that states
/// one states the same dialect; otherwise each stays where it is); `$id`, `$comment`,
/// `$anchor` and every other keyword stay where the type put them. Nothing is dropped.
///
/// ```
/// use mcp_annotations::{ToolSchema, tool};
/// use serde_json::{Value, json};
///
/// /// A colour, written as `#rrggbb`.
/// #[derive(serde::Deserialize)]
/// pub struct Colour(pub String);
///
/// impl ToolSchema for Colour {
///     fn tool_schema() -> Value {
///         json!({"type": "string", "pattern": "^#[0-9a-f]{6}$"})
///     }
/// }
///
/// /// Paint the wall.
/// #[tool(open_world = false)]
/// pub fn paint(colour: Colour) {}
///
/// let schema = PAINT_TOOL.input_schema.to_value();
/// assert_eq!(schema["properties"]["colour"]["pattern"], "^#[0-9a-f]{6}$");
/// # paint(Colour(String::new()));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no JSON Schema for #[tool]",
    label = "#[tool] cannot write a schema for this type: a parameter's, a `#[derive(Tool)]` field's, or the `T` of a `Json<T>` result",
    note = "derive `mcp_annotations::ToolSchema` for it, or derive `schemars::JsonSchema` and enable the `mcp-annotations/schemars` feature, or implement `mcp_annotations::ToolSchema` by hand",
    note = "if it is a parameter the model does not supply, mark it `#[context]`"
)]
pub trait ToolSchema {
    /// The JSON Schema of one value of this type.
    fn tool_schema() -> Value;

    /// Refuses a value that serde's reading of the type would take but its schema does not
    /// (a field's `#[schema(min_length = 1)]`, a set with a repeated item): called on the
    /// argument's value before the type is read from it. `at` says where the value sits in
    /// the arguments (`entities[0]`), for the message. The default accepts every value.
    ///
    /// `#[derive(ToolSchema)]` writes it for the constraints of its fields; a hand-written
    /// schema that states constraints serde does not enforce may check them here.
    ///
    /// ```
    /// use mcp_annotations::{ToolSchema, tool};
    /// use serde_json::{Value, json};
    ///
    /// /// A colour, written as `#rrggbb`.
    /// #[derive(serde::Deserialize)]
    /// pub struct Colour(pub String);
    ///
    /// impl ToolSchema for Colour {
    ///     fn tool_schema() -> Value {
    ///         json!({"type": "string", "minLength": 7, "maxLength": 7})
    ///     }
    ///
    ///     fn check_value(value: &Value, at: &dyn std::fmt::Display) -> Result<(), String> {
    ///         match value.as_str() {
    ///             Some(text) if text.chars().count() != 7 => {
    ///                 Err(format!("`{at}`: expected 7 characters"))
    ///             }
    ///             _ => Ok(()),
    ///         }
    ///     }
    /// }
    ///
    /// /// Paint the wall.
    /// #[tool(open_world = false)]
    /// pub fn paint(colour: Colour) {}
    ///
    /// static TOOLS: mcp_annotations::Listing = mcp_annotations::tools![paint];
    /// let arguments = json!({"colour": "#fff"}).as_object().cloned();
    /// let call = TOOLS.call(&(), "paint", arguments, mcp_annotations::Context::none())?;
    /// let result = call.into_ready().ok().expect("a sync handler is ready");
    /// assert!(result.is_error);
    /// assert!(result.text_content().contains("`colour`: expected 7 characters"));
    /// # paint(Colour(String::new()));
    /// # Ok::<(), mcp_annotations::listing::UnknownToolError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The message for the model: what is wrong, and where.
    fn check_value(value: &Value, at: &dyn fmt::Display) -> Result<(), String> {
        let _ = (value, at);
        Ok(())
    }

    /// The schema of what the type reads when it is `#[serde(flatten)]`ed into a struct, from
    /// the struct's entries beside the struct's own fields: [`tool_schema`](Self::tool_schema)
    /// unless the type reads otherwise there (`#[derive(ToolSchema)]` on an externally tagged
    /// enum, read from the one entry that names a variant).
    #[doc(hidden)]
    fn flattened_tool_schema() -> Value {
        Self::tool_schema()
    }
}

#[cfg(feature = "schemars")]
#[cfg_attr(docsrs, doc(cfg(feature = "schemars")))]
impl<T: schemars::JsonSchema + ?Sized> ToolSchema for T {
    /// The type's schema, inlined where schemars can; a recursive type is a `$ref` into the
    /// returned `$defs` (never to the document root, which is the tool's input schema).
    fn tool_schema() -> Value {
        let mut generator = schemars::generate::SchemaSettings::draft2020_12()
            .with(|settings| settings.inline_subschemas = true)
            .into_generator();
        let mut schema = generator.subschema_for::<T>().to_value();
        let definitions = generator.take_definitions(true);
        if !definitions.is_empty() {
            if let Value::Object(object) = &mut schema {
                object.insert("$defs".into(), Value::Object(definitions));
            } else {
                let mut wrapper = serde_json::Map::new();
                wrapper.insert("allOf".into(), Value::Array(vec![schema]));
                wrapper.insert("$defs".into(), Value::Object(definitions));
                schema = Value::Object(wrapper);
            }
        }
        schema
    }
}
