//! The host's side of the extension: whether to resolve a call, what to make of the server's
//! answer (the draft's client rules), and the hints to act on for that one call.

use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Map, Value};

use crate::hints::ToolAnnotations;
use crate::host::{HostView, Trust};
use crate::protocol::ProtocolVersion;
use crate::resolution::{MISSING_CAPABILITY, ResolveRequest, ResolveResult};
use crate::tool::Tool;

/// A host's resolutions in one session with one server: it says which calls to resolve,
/// reads the server's answers by the draft's client rules into [`CallHints`], and makes every
/// outstanding one stale when the server's tools change (`notifications/tools/list_changed`,
/// [`list_changed`](Self::list_changed)).
///
/// ```
/// use mcp_annotations::resolution::{CallHints, Resolutions};
/// use mcp_annotations::{ProtocolVersion, Tool, ToolAnnotations, schema::Schema};
/// use serde_json::json;
///
/// // What the server listed: the worst case, and the marker.
/// let listed = ToolAnnotations::new().with_destructive(true).with_open_world(false);
/// let tool = Tool::new("manage_note", Schema::NO_INPUT)
///     .with_annotations(listed)
///     .with_resolvable(true);
/// let arguments = json!({"id": 1, "action": "read"}).as_object().cloned().unwrap();
///
/// let session = Resolutions::new();
/// let pending = session
///     .request(&tool, &arguments, ProtocolVersion::V2025_11_25)
///     .expect("a resolvable tool is resolved before its call");
/// assert_eq!(pending.params()["name"], "manage_note");
///
/// // The server's answer: this call is a read.
/// let answer = json!({"resultType": "complete", "name": "manage_note", "annotations": {
///     "readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}});
/// let hints = session.answer(&tool, pending, Ok(&answer)).unwrap();
/// assert!(hints.is_resolved());
/// assert!(hints.annotations().read_only());
/// // Acted on for this very call only: the same name, structurally equal arguments.
/// assert!(hints.for_call(&session, "manage_note", &arguments).unwrap().read_only());
///
/// // A resolution for other arguments does not serve this call.
/// let other = json!({"id": 1, "action": "delete"}).as_object().cloned().unwrap();
/// let pending = session.request(&tool, &other, ProtocolVersion::V2025_11_25).unwrap();
/// let hints = session.answer(&tool, pending, Ok(&answer)).unwrap();
/// assert!(hints.for_call(&session, "manage_note", &arguments).is_err());
///
/// // A server without the method: the listed hints, as the draft says.
/// let pending = session.request(&tool, &arguments, ProtocolVersion::V2025_11_25).unwrap();
/// let missing = json!({"code": -32601, "message": "tools/resolve"});
/// let fallback = session.answer(&tool, pending, Err(&missing)).unwrap();
/// assert!(!fallback.is_resolved() && fallback.annotations().destructive());
/// ```
#[derive(Debug, Default)]
pub struct Resolutions {
    /// How many times the server's tools changed: a resolution made before is stale.
    generation: AtomicU64,
}

impl Resolutions {
    /// A session's resolutions, none made yet.
    #[must_use]
    pub fn new() -> Self {
        Resolutions::default()
    }

    /// The resolution to ask before calling `tool` with `arguments` (its request declaring
    /// the extension as `version` requires), or `None` where the call is not resolved: the tool
    /// is not marked resolvable (a server marks tools only for a client that declared the
    /// extension), so its listed hints are the call's ([`listed`](Self::listed)). It keeps what
    /// was asked, and when: an answer to it is for these arguments, and stale if the tools
    /// change before it is used.
    #[must_use]
    pub fn request(
        &self,
        tool: &Tool,
        arguments: &Map<String, Value>,
        version: ProtocolVersion,
    ) -> Option<Pending> {
        tool.resolvable.then(|| Pending {
            request: ResolveRequest::new(tool.name(), arguments.clone()).declaring(version),
            generation: self.generation(),
        })
    }

    /// Reads the server's answer to `pending`, the resolution of a call of `tool` (the result
    /// object, or the JSON-RPC error object `{code, message, data?}`) by the draft's client
    /// rules:
    ///
    /// - a well-formed result for this tool within the listed hints: the call's hints are the
    ///   four resolved (the listed title kept);
    /// - -32601 (no such method), -32603 (the resolver could not tell), any other error, a
    ///   malformed result, another tool's name or hints outside the listed bound: the listed
    ///   hints, with why ([`Fallback`]);
    /// - -32602 (invalid arguments, or a tool not resolvable) and -32021 (the extension not
    ///   declared): an error, since the call must not be made unchanged, or the session's
    ///   negotiation is wrong.
    ///
    /// # Errors
    ///
    /// [`ResolutionRefusedError`] for -32602 and -32021.
    pub fn answer(
        &self,
        tool: &Tool,
        pending: Pending,
        answer: Result<&Value, &Value>,
    ) -> Result<CallHints, ResolutionRefusedError> {
        let listed = &tool.annotations;
        let Pending {
            request,
            generation,
        } = pending;
        let arguments = &request.arguments;
        let fallback = |why: Fallback| CallHints {
            name: request.name.clone(),
            arguments: arguments.clone(),
            annotations: listed.clone(),
            fallback: Some(why),
            generation,
        };
        let error = match answer {
            Ok(result) => {
                let read = ResolveResult::from_value(result)
                    .and_then(|result| result.accept(&request.name, listed));
                return Ok(match read {
                    // All four hints stated, at their effective values; the title listed.
                    Ok(mut annotations) => {
                        annotations.title.clone_from(&listed.title);
                        CallHints {
                            name: request.name.clone(),
                            arguments: arguments.clone(),
                            annotations,
                            fallback: None,
                            generation,
                        }
                    }
                    Err(malformed) => fallback(Fallback::Malformed(malformed.reason().to_owned())),
                });
            }
            Err(error) => error,
        };
        let code = error.get("code").and_then(Value::as_i64).unwrap_or(0);
        let message: String = error
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .chars()
            .take(500)
            .collect();
        match code {
            -32601 => Ok(fallback(Fallback::MethodNotFound)),
            -32602 => Err(ResolutionRefusedError::InvalidParams(message)),
            code if code == i64::from(MISSING_CAPABILITY) => {
                Err(ResolutionRefusedError::MissingCapability(message))
            }
            _ => Ok(fallback(Fallback::CannotResolve { code, message })),
        }
    }

    /// The hints of a call of `tool` that is not resolved (the tool is not marked, or the host
    /// skips resolution): the listed ones.
    #[must_use]
    pub fn listed(&self, tool: &Tool, arguments: &Map<String, Value>) -> CallHints {
        CallHints {
            name: tool.name().to_owned(),
            arguments: arguments.clone(),
            annotations: tool.annotations.clone(),
            fallback: Some(Fallback::NotResolvable),
            generation: self.generation(),
        }
    }

    /// The server's tools changed (`notifications/tools/list_changed`, or a fresh listing):
    /// every resolution made before is stale, and is refused by [`CallHints::for_call`].
    pub fn list_changed(&self) {
        self.generation.fetch_add(1, Ordering::AcqRel);
    }

    fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }
}

/// A resolution asked and not answered yet: the request to send, and when it was made (an
/// answer to it is stale if the server's tools change meanwhile). From
/// [`Resolutions::request`]; given back with the server's answer to [`Resolutions::answer`].
#[derive(Debug, PartialEq)]
pub struct Pending {
    request: ResolveRequest,
    generation: u64,
}

impl Pending {
    /// The `tools/resolve` request to send.
    #[must_use]
    pub fn request(&self) -> &ResolveRequest {
        &self.request
    }

    /// Its params, as the request's `params` (`{name, arguments, _meta?}`).
    #[must_use]
    pub fn params(&self) -> Value {
        self.request.to_params()
    }
}

/// The hints a host acts on for one call: resolved for it, or the listed ones (with why).
/// Made by [`Resolutions::answer`] or [`Resolutions::listed`]; used once, for the call it was
/// made for ([`for_call`](Self::for_call)), and not cloned, so that no later call reuses it.
#[derive(Debug, PartialEq)]
pub struct CallHints {
    name: String,
    arguments: Map<String, Value>,
    annotations: ToolAnnotations,
    fallback: Option<Fallback>,
    generation: u64,
}

impl CallHints {
    /// The hints: the four resolved, with the listed title; or the listed ones.
    #[must_use]
    pub fn annotations(&self) -> &ToolAnnotations {
        &self.annotations
    }

    /// Whether the server resolved them for this call.
    #[must_use]
    pub fn is_resolved(&self) -> bool {
        self.fallback.is_none()
    }

    /// Why the listed hints stand, where they do.
    #[must_use]
    pub fn fallback(&self) -> Option<&Fallback> {
        self.fallback.as_ref()
    }

    /// The hints as a host may act on them, given whether it trusts the server: resolved
    /// hints carry the same trust as listed ones.
    #[must_use]
    pub fn for_host(&self, trust: Trust) -> HostView<'_> {
        self.annotations.for_host(trust)
    }

    /// The hints, for the call of `name` with `arguments`, which must be the call they were
    /// made for (the same name, structurally equal arguments) and made since the server's
    /// tools last changed. Taken by value: a resolution is for one call, never reused.
    ///
    /// # Errors
    ///
    /// [`StaleError`] for another call, or a resolution the tools changed after.
    pub fn for_call(
        self,
        session: &Resolutions,
        name: &str,
        arguments: &Map<String, Value>,
    ) -> Result<ToolAnnotations, StaleError> {
        if self.name != name || &self.arguments != arguments {
            return Err(StaleError::OtherCall);
        }
        if self.generation != session.generation() {
            return Err(StaleError::ToolsChanged);
        }
        Ok(self.annotations)
    }
}

/// Why a call's listed hints stand instead of resolved ones.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Fallback {
    /// The tool is not marked resolvable (or the host skipped resolution).
    NotResolvable,
    /// The server has no `tools/resolve` (-32601).
    MethodNotFound,
    /// The server could not resolve the call (-32603, or another error): its code and message.
    CannotResolve {
        /// The JSON-RPC error code.
        code: i64,
        /// The server's message, cut at 500 characters.
        message: String,
    },
    /// The result was malformed, named another tool, or broke the listed hints' bound.
    Malformed(String),
}

/// An answer to `tools/resolve` after which the call must not be made as it is.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResolutionRefusedError {
    /// -32602: the arguments are invalid, or the tool is unknown or not resolvable; correct
    /// the request before calling.
    InvalidParams(String),
    /// -32021: the request did not declare the extension as its version requires.
    MissingCapability(String),
}

impl std::fmt::Display for ResolutionRefusedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ResolutionRefusedError::InvalidParams(message) => {
                write!(
                    f,
                    "the server refused the resolution's params (-32602): {message}"
                )
            }
            ResolutionRefusedError::MissingCapability(message) => write!(
                f,
                "the server says the extension was not declared (-32021): {message}"
            ),
        }
    }
}

impl std::error::Error for ResolutionRefusedError {}

/// Why a [`CallHints`] does not apply to a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StaleError {
    /// It was made for another name or other arguments.
    OtherCall,
    /// The server's tools changed since it was made.
    ToolsChanged,
}

impl std::fmt::Display for StaleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StaleError::OtherCall => {
                "the hints were resolved for another call (another name or other arguments)"
            }
            StaleError::ToolsChanged => "the server's tools changed since the call was resolved",
        })
    }
}

impl std::error::Error for StaleError {}

#[cfg(test)]
mod tests {
    use serde_json::{Map, json};

    use super::{Fallback, ResolutionRefusedError, Resolutions, StaleError};
    use crate::hints::ToolAnnotations;
    use crate::protocol::ProtocolVersion;
    use crate::schema::Schema;
    use crate::tool::Tool;

    fn tool() -> Tool {
        Tool::new("run_sql", Schema::NO_INPUT)
            .with_annotations(
                ToolAnnotations::new()
                    .with_title("Run SQL")
                    .with_destructive(true)
                    .with_open_world(false),
            )
            .with_resolvable(true)
    }

    fn arguments() -> Map<String, serde_json::Value> {
        json!({"sql": "SELECT 1"}).as_object().cloned().unwrap()
    }

    /// The resolution of `tool` with [`arguments`], asked of `session`.
    fn ask(session: &Resolutions, tool: &Tool) -> super::Pending {
        session
            .request(tool, &arguments(), ProtocolVersion::ALL[0])
            .unwrap()
    }

    fn result(read_only: bool, open_world: bool) -> serde_json::Value {
        let annotations = ToolAnnotations::LOOKUP
            .with_read_only(read_only)
            .with_open_world(open_world);
        json!({"resultType": "complete", "name": "run_sql", "annotations": annotations})
    }

    /// The draft's client rules, each answer by each.
    #[test]
    fn each_answer_is_read_by_the_drafts_client_rules() {
        let session = Resolutions::new();
        let tool = tool();
        let resolved = session
            .answer(&tool, ask(&session, &tool), Ok(&result(true, false)))
            .unwrap();
        assert!(resolved.is_resolved() && resolved.annotations().read_only());
        assert_eq!(resolved.annotations().title.as_deref(), Some("Run SQL"));
        // Outside the listing (closed-world listed, open-world resolved): the listed hints.
        let out = session
            .answer(&tool, ask(&session, &tool), Ok(&result(true, true)))
            .unwrap();
        assert!(
            matches!(out.fallback(), Some(Fallback::Malformed(_))),
            "{out:?}"
        );
        assert!(out.annotations().destructive());
        // Another tool's name, or not a result at all: the listed hints.
        let mut renamed = result(true, false);
        renamed["name"] = json!("drop_table");
        let other = session
            .answer(&tool, ask(&session, &tool), Ok(&renamed))
            .unwrap();
        assert!(matches!(other.fallback(), Some(Fallback::Malformed(_))));
        let garbage = session
            .answer(&tool, ask(&session, &tool), Ok(&json!([1])))
            .unwrap();
        assert!(!garbage.is_resolved());
        // -32603: the resolver could not tell; the listed hints, with its words.
        let cannot = json!({"code": -32603, "message": "cannot classify VACUUM"});
        let cannot = session
            .answer(&tool, ask(&session, &tool), Err(&cannot))
            .unwrap();
        assert_eq!(
            cannot.fallback(),
            Some(&Fallback::CannotResolve {
                code: -32603,
                message: "cannot classify VACUUM".into()
            })
        );
        // -32602 and -32021: the call is not to be made as it is.
        let invalid = json!({"code": -32602, "message": "`sql` is required"});
        assert!(matches!(
            session.answer(&tool, ask(&session, &tool), Err(&invalid)),
            Err(ResolutionRefusedError::InvalidParams(_))
        ));
        let undeclared = json!({"code": -32021, "message": "declare the extension"});
        assert!(matches!(
            session.answer(&tool, ask(&session, &tool), Err(&undeclared)),
            Err(ResolutionRefusedError::MissingCapability(_))
        ));
    }

    /// A tool not marked resolvable is not resolved: its listed hints are the call's.
    #[test]
    fn an_unmarked_tool_is_not_resolved_and_a_resolution_serves_one_call() {
        let session = Resolutions::new();
        let plain = tool().with_resolvable(false);
        let arguments = arguments();
        for version in ProtocolVersion::ALL {
            assert!(session.request(&plain, &arguments, version).is_none());
        }
        let listed = session.listed(&plain, &arguments);
        assert_eq!(listed.fallback(), Some(&Fallback::NotResolvable));
        // The request of a resolvable tool declares the extension itself where the version
        // reads it on each request.
        for version in ProtocolVersion::ALL {
            let pending = session.request(&tool(), &arguments, version).unwrap();
            let params = pending.params();
            let declared =
                params["_meta"]["io.modelcontextprotocol/clientCapabilities"].is_object();
            assert_eq!(declared, version.has_per_request_capabilities());
        }
        let answer = |session: &Resolutions| {
            session
                .answer(&tool(), ask(session, &tool()), Ok(&result(true, false)))
                .unwrap()
        };
        let hints = answer(&session);
        assert_eq!(
            hints.for_call(&session, "other", &arguments),
            Err(StaleError::OtherCall)
        );
        assert!(
            answer(&session)
                .for_call(&session, "run_sql", &arguments)
                .is_ok()
        );
        // A list_changed while the resolution is in flight makes its answer stale.
        let pending = ask(&session, &tool());
        session.list_changed();
        let late = session
            .answer(&tool(), pending, Ok(&result(true, false)))
            .unwrap();
        assert_eq!(
            late.for_call(&session, "run_sql", &arguments),
            Err(StaleError::ToolsChanged)
        );
    }
}
