//! `tools/resolve` on the wire: the request's params and the result, read strictly (the draft's
//! schema admits no other key) and written exactly.

use std::fmt;

use serde_json::{Map, Value};

use crate::hints::{Hint, ToolAnnotations};
use crate::protocol::ProtocolVersion;
use crate::resolution::{
    CLIENT_CAPABILITIES_KEY, EXTENSION, OutOfBoundError, PROTOCOL_VERSION_KEY, ResolveError,
    check_bound,
};

/// The params of a `tools/resolve` request: the tool's name, the complete arguments of the
/// call the client means to make, and the request's `_meta`.
///
/// ```
/// use mcp_annotations::ProtocolVersion;
/// use mcp_annotations::resolution::ResolveRequest;
/// use serde_json::json;
///
/// let arguments = json!({"path": "/home/user/notes.txt", "action": "read"});
/// let request = ResolveRequest::new("manage_files", arguments.as_object().unwrap().clone())
///     .declaring(ProtocolVersion::V2026_07_28);
/// let params = request.to_params();
/// assert_eq!(
///     params["_meta"]["io.modelcontextprotocol/clientCapabilities"]["extensions"],
///     json!({"io.modelcontextprotocol/tool-resolution": {}})
/// );
/// assert_eq!(ResolveRequest::from_params(&params)?, request);
///
/// // Arguments are required whole: a request without them is refused (-32602).
/// let error = ResolveRequest::from_params(&json!({"name": "manage_files"})).unwrap_err();
/// assert_eq!(error.code(), -32602);
/// # Ok::<(), mcp_annotations::resolution::ResolveError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ResolveRequest {
    /// The tool's name, exactly as listed.
    pub name: String,
    /// The complete arguments of the intended `tools/call` (`{}` for a tool without any).
    pub arguments: Map<String, Value>,
    /// The request's `_meta`: for 2026-07-28 its protocol version and the client's
    /// capabilities, which must declare the extension.
    pub meta: Option<Map<String, Value>>,
}

impl ResolveRequest {
    /// A request to resolve the call of `name` with `arguments`, with no `_meta` (what a
    /// session before 2026-07-28, which declared the extension in `initialize`, sends).
    #[must_use]
    pub fn new(name: impl Into<String>, arguments: Map<String, Value>) -> Self {
        ResolveRequest {
            name: name.into(),
            arguments,
            meta: None,
        }
    }

    /// The same request, declaring the extension as `version` requires: for 2026-07-28 in its
    /// own `_meta` (with the protocol version), as every such request must; before, nothing
    /// (the session declared it in `initialize`).
    #[must_use]
    pub fn declaring(mut self, version: ProtocolVersion) -> Self {
        if version.has_per_request_capabilities() {
            let meta = self.meta.get_or_insert_with(Map::new);
            meta.insert(
                PROTOCOL_VERSION_KEY.to_owned(),
                Value::String(version.as_str().to_owned()),
            );
            let capabilities = meta
                .entry(CLIENT_CAPABILITIES_KEY)
                .or_insert_with(|| Value::Object(Map::new()));
            if !capabilities.is_object() {
                *capabilities = Value::Object(Map::new());
            }
            // Indexing an object inserts the key; each level is an object by now.
            let extensions = &mut capabilities["extensions"];
            if !extensions.is_object() {
                *extensions = Value::Object(Map::new());
            }
            extensions[EXTENSION] = super::settings();
        }
        self
    }

    /// The params object, `{"name", "arguments", "_meta"?}`.
    #[must_use]
    pub fn to_params(&self) -> Value {
        let mut params = Map::new();
        params.insert("name".to_owned(), Value::String(self.name.clone()));
        params.insert(
            "arguments".to_owned(),
            Value::Object(self.arguments.clone()),
        );
        if let Some(meta) = &self.meta {
            params.insert("_meta".to_owned(), Value::Object(meta.clone()));
        }
        Value::Object(params)
    }

    /// Reads a request's params: an object with `name` (a string), `arguments` (an object:
    /// partial or absent arguments are not supported) and at most `_meta` (an object) beside.
    ///
    /// # Errors
    ///
    /// [`ResolveError::InvalidRequest`] (-32602), naming what is wrong.
    pub fn from_params(params: &Value) -> Result<Self, ResolveError> {
        let invalid = |why: &str| Err(ResolveError::InvalidRequest(why.to_owned()));
        let Some(params) = params.as_object() else {
            return invalid("params must be an object");
        };
        if let Some(key) = params
            .keys()
            .find(|key| !matches!(key.as_str(), "name" | "arguments" | "_meta"))
        {
            let key: String = key.chars().take(100).collect();
            return invalid(&format!(
                "`{key}` is not a field of tools/resolve (name, arguments, _meta)"
            ));
        }
        let Some(name) = params.get("name").and_then(Value::as_str) else {
            return invalid("`name` must be the tool's name, a string");
        };
        let arguments = match params.get("arguments") {
            Some(Value::Object(arguments)) => arguments.clone(),
            None => {
                return invalid(
                    "`arguments` is required: the complete arguments of the intended call \
                     ({} for none)",
                );
            }
            Some(_) => return invalid("`arguments` must be an object"),
        };
        let meta = match params.get("_meta") {
            None => None,
            Some(Value::Object(meta)) => Some(meta.clone()),
            Some(_) => return invalid("`_meta` must be an object"),
        };
        Ok(ResolveRequest {
            name: name.to_owned(),
            arguments,
            meta,
        })
    }
}

/// The result of `tools/resolve`: the tool's name, for correlation, and the complete effective
/// values of the four hints for that call. No title, no schema, nothing else: those stay the
/// listing's.
///
/// ```
/// use mcp_annotations::ToolAnnotations;
/// use mcp_annotations::resolution::{MalformedResultError, ResolveResult};
/// use serde_json::json;
///
/// // The four hints always written, after the defaults.
/// let appends = ToolAnnotations::new().with_destructive(false);
/// let result = ResolveResult::new("manage_files", appends);
/// assert_eq!(
///     result.to_value()["annotations"],
///     json!({"readOnlyHint": false, "destructiveHint": false, "idempotentHint": false, "openWorldHint": true})
/// );
/// assert_eq!(ResolveResult::from_value(&result.to_value())?, result);
///
/// // A result carrying a title is not one.
/// let mut titled = result.to_value();
/// titled["annotations"]["title"] = json!("Manage files");
/// assert!(ResolveResult::from_value(&titled).is_err());
/// # Ok::<(), MalformedResultError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ResolveResult {
    name: String,
    annotations: ToolAnnotations,
    meta: Option<Map<String, Value>>,
}

impl ResolveResult {
    /// The result for the tool `name` whose call resolved to `annotations`: each of the four
    /// hints stated as its effective value (an unset one takes the protocol's default, and
    /// read-only implies not destructive and idempotent); the title is dropped.
    #[must_use]
    pub fn new(name: impl Into<String>, annotations: ToolAnnotations) -> Self {
        ResolveResult {
            name: name.into(),
            annotations: effective(&annotations),
            meta: None,
        }
    }

    /// The tool's name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The call's hints, all four stated, with no title.
    #[must_use]
    pub fn annotations(&self) -> &ToolAnnotations {
        &self.annotations
    }

    /// The result's `_meta`, if it has one (the metadata of other negotiated extensions).
    #[must_use]
    pub fn meta(&self) -> Option<&Map<String, Value>> {
        self.meta.as_ref()
    }

    /// The result as the draft writes it: `{"resultType": "complete", "name", "annotations"}`,
    /// and `_meta` when it has one.
    #[must_use]
    pub fn to_value(&self) -> Value {
        let mut annotations = Map::new();
        for hint in Hint::ALL {
            annotations.insert(
                hint.wire_name().to_owned(),
                Value::Bool(self.annotations.effective(hint)),
            );
        }
        let mut result = Map::new();
        result.insert(
            "resultType".to_owned(),
            Value::String("complete".to_owned()),
        );
        result.insert("name".to_owned(), Value::String(self.name.clone()));
        result.insert("annotations".to_owned(), Value::Object(annotations));
        if let Some(meta) = &self.meta {
            result.insert("_meta".to_owned(), Value::Object(meta.clone()));
        }
        Value::Object(result)
    }

    /// Reads a result as a client must: `resultType` `"complete"`, `name` a string,
    /// `annotations` exactly the four hints as booleans, at most `_meta` (an object of
    /// objects) beside. Anything else is a malformed result, which a client treats as a
    /// failed resolution.
    ///
    /// # Errors
    ///
    /// [`MalformedResultError`], saying what is wrong.
    pub fn from_value(result: &Value) -> Result<Self, MalformedResultError> {
        let malformed = |why: String| Err(MalformedResultError(why));
        let Some(result) = result.as_object() else {
            return malformed("the result is not an object".to_owned());
        };
        if let Some(key) = result.keys().find(|key| {
            !matches!(
                key.as_str(),
                "resultType" | "name" | "annotations" | "_meta"
            )
        }) {
            return malformed(format!("`{}` is not a field of the result", clip(key)));
        }
        if result.get("resultType").and_then(Value::as_str) != Some("complete") {
            return malformed("`resultType` must be \"complete\"".to_owned());
        }
        let Some(name) = result.get("name").and_then(Value::as_str) else {
            return malformed("`name` must be a string".to_owned());
        };
        let Some(hints) = result.get("annotations").and_then(Value::as_object) else {
            return malformed("`annotations` must be an object".to_owned());
        };
        if let Some(key) = hints.keys().find(|key| {
            !Hint::ALL
                .iter()
                .any(|hint| hint.wire_name() == key.as_str())
        }) {
            return malformed(format!(
                "`annotations.{}` is not one of the four resolvable hints",
                clip(key)
            ));
        }
        let mut annotations = ToolAnnotations::new();
        for hint in Hint::ALL {
            let Some(value) = hints.get(hint.wire_name()).and_then(Value::as_bool) else {
                return malformed(format!(
                    "`annotations.{}` must be a boolean: all four hints are required",
                    hint.wire_name()
                ));
            };
            annotations.set_hint(hint, Some(value));
        }
        // Read as a host acts on them: read-only implies not destructive and idempotent,
        // whatever else was sent (a result written back is then the same).
        let annotations = effective(&annotations);
        let meta = match result.get("_meta") {
            None => None,
            Some(Value::Object(meta)) if meta.values().all(Value::is_object) => Some(meta.clone()),
            Some(_) => return malformed("`_meta` must be an object of objects".to_owned()),
        };
        Ok(ResolveResult {
            name: name.to_owned(),
            annotations,
            meta,
        })
    }

    /// What a client may act on: the resolved hints, once checked against the request and the
    /// listing. A result for another tool, or one that breaks the bound of the `listed` hints,
    /// is a failed resolution: the client falls back to the listed hints.
    ///
    /// ```
    /// use mcp_annotations::ToolAnnotations;
    /// use mcp_annotations::resolution::ResolveResult;
    ///
    /// let listed = ToolAnnotations::new().with_destructive(true).with_open_world(false);
    /// let read = ToolAnnotations::new().with_read_only(true).with_open_world(false);
    /// let result = ResolveResult::new("manage_files", read.clone());
    /// assert!(result.accept("manage_files", &listed).unwrap().read_only());
    /// assert!(result.accept("other_tool", &listed).is_err());
    /// // A resolution that claims the open world for a closed-world tool: refused.
    /// let open = ResolveResult::new("manage_files", read.with_open_world(true));
    /// assert!(open.accept("manage_files", &listed).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`MalformedResultError`] for a name that is not the one requested or hints out of bound.
    pub fn accept(
        &self,
        requested: &str,
        listed: &ToolAnnotations,
    ) -> Result<ToolAnnotations, MalformedResultError> {
        if self.name != requested {
            return Err(MalformedResultError(format!(
                "the result names `{}`, not the tool resolved (`{}`)",
                clip(&self.name),
                clip(requested)
            )));
        }
        check_bound(listed, &self.annotations)
            .map_err(|rule: OutOfBoundError| MalformedResultError(rule.to_string()))?;
        Ok(self.annotations.clone())
    }
}

/// `annotations` with each of the four hints stated as its effective value, and no title.
fn effective(annotations: &ToolAnnotations) -> ToolAnnotations {
    let mut stated = ToolAnnotations::new();
    for hint in Hint::ALL {
        stated.set_hint(hint, Some(annotations.effective(hint)));
    }
    stated
}

fn clip(text: &str) -> String {
    text.chars().take(100).collect()
}

/// A `tools/resolve` result a client must not act on, and why: not the draft's shape, a name
/// that is not the one requested, or hints that break the listed ones' bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MalformedResultError(String);

impl MalformedResultError {
    /// Why the result is refused.
    #[must_use]
    pub fn reason(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for MalformedResultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a tools/resolve result refused: {}", self.0)
    }
}

impl std::error::Error for MalformedResultError {}
