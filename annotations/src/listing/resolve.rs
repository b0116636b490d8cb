//! Resolving a listed tool's call by name ([`Listing::resolve`]): the tool-resolution
//! extension's server side, whatever serves the listing.

use serde_json::{Map, Value};

use crate::hints::{Hint, ToolAnnotations};
use crate::listing::Listing;
use crate::resolution::{ExtensionDeclared, ResolveError, ResolveOptions, check_bound};
use crate::tool::Tool;

impl<S> Listing<S> {
    /// The hints of the call of `name` with `arguments`, without making it: the answer to
    /// `tools/resolve`. In the draft's order: the client must have declared the extension
    /// (`options`), the tool must be listed and marked resolvable, the arguments must be read
    /// as the call would read them (nothing added to or changed in what was sent); then the
    /// tool's resolver answers, and its answer is refused unless it keeps within the listed
    /// hints ([`check_bound`]). The hints given have all four stated at their effective
    /// values, and no title.
    ///
    /// ```
    /// use mcp_annotations::{Listing, ToolAnnotations, tool, tools};
    /// use mcp_annotations::resolution::{Declaration, ResolveOptions};
    ///
    /// /// Ping the server.
    /// #[tool(read_only, open_world = false, title = "Ping")]
    /// fn ping() {}
    ///
    /// static TOOLS: Listing = tools![ping];
    /// let declared = ResolveOptions::new(Declaration::Declared);
    /// let arguments = serde_json::Map::new();
    /// // Listed, but not resolvable: JSON-RPC -32602.
    /// let error = TOOLS.resolve(&(), "ping", &arguments, &declared).unwrap_err();
    /// assert_eq!((error.code(), error.to_string().as_str()), (-32602, "tool `ping` is not resolvable"));
    /// // Asked without the extension declared: -32021, whatever the tool.
    /// let bare = ResolveOptions::new(Declaration::Absent);
    /// assert_eq!(TOOLS.resolve(&(), "nope", &arguments, &bare).unwrap_err().code(), -32021);
    /// # ping();
    /// ```
    ///
    /// # Errors
    ///
    /// [`ResolveError`], each with the JSON-RPC code to answer with.
    pub fn resolve(
        &self,
        state: &S,
        name: &str,
        arguments: &Map<String, Value>,
        options: &ResolveOptions,
    ) -> Result<ToolAnnotations, ResolveError> {
        let declared = options.declared()?;
        self.resolve_if(state, name, arguments, declared, |_| true)
    }

    /// [`resolve`](Self::resolve) once the extension is known to be declared (`_declared`,
    /// which only that check makes), for a tool that `offered` admits: one that it does not is
    /// answered as one that does not exist.
    pub(crate) fn resolve_if(
        &self,
        state: &S,
        name: &str,
        arguments: &Map<String, Value>,
        _declared: ExtensionDeclared,
        offered: impl FnOnce(&Tool) -> bool,
    ) -> Result<ToolAnnotations, ResolveError> {
        let index = self
            .position(name)
            .filter(|&index| offered(&self.tools()[index]))
            .ok_or_else(|| ResolveError::UnknownTool(name.chars().take(200).collect()))?;
        let tool = &self.tools()[index];
        if !tool.resolvable {
            return Err(ResolveError::NotResolvable(tool.name().to_owned()));
        }
        let resolved = self
            .call_at(index)
            .and_then(|run| run.resolve(state, arguments))
            .ok_or_else(|| {
                ResolveError::CannotResolve(
                    "the tool is marked resolvable, but this listing has no resolver for it"
                        .to_owned(),
                )
            })??;
        check_bound(&tool.annotations, &resolved).map_err(|rule| ResolveError::OutOfBound {
            tool: tool.name().to_owned(),
            rule,
            resolved: resolved.clone(),
        })?;
        let mut stated = ToolAnnotations::new();
        for hint in Hint::ALL {
            stated.set_hint(hint, Some(resolved.effective(hint)));
        }
        Ok(stated)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Map, json};

    use crate::call::handler::Run;
    use crate::call::{CallFuture, Context};
    use crate::hints::{Hint, ToolAnnotations};
    use crate::listing::Listing;
    use crate::resolution::{Declaration, ResolveError, ResolveOptions};
    use crate::result::ToolResult;
    use crate::schema::Schema;
    use crate::tool::Tool;

    /// A `manage_note(action)` tool whose resolver reads `action`, and lies about `delete`
    /// when told to.
    struct ManageNote {
        lie: bool,
    }

    impl Run<()> for ManageNote {
        fn call<'a>(
            &self,
            _: &'a (),
            _: Option<Map<String, serde_json::Value>>,
            _: Context<'a>,
        ) -> CallFuture<'a> {
            CallFuture::ready(ToolResult::text("called"))
        }

        fn resolve(
            &self,
            _: &(),
            arguments: &Map<String, serde_json::Value>,
        ) -> Option<Result<ToolAnnotations, ResolveError>> {
            let closed = ToolAnnotations::new().with_open_world(false);
            Some(match arguments.get("action").and_then(|a| a.as_str()) {
                Some("read") => Ok(closed.with_read_only(true)),
                Some("delete") if self.lie => Ok(closed
                    .with_read_only(false)
                    .with_destructive(true)
                    .with_open_world(true)),
                Some("delete") => Ok(closed.with_destructive(true)),
                _ => Err(ResolveError::InvalidArguments {
                    tool: "manage_note".into(),
                    problems: "`action` must be read or delete".into(),
                }),
            })
        }
    }

    static TOOLS: [Tool; 2] = [
        Tool::new("manage_note", Schema::NO_INPUT)
            .with_annotations(
                ToolAnnotations::new()
                    .with_destructive(true)
                    .with_open_world(false),
            )
            .with_resolvable(true),
        Tool::new("ping", Schema::NO_INPUT),
    ];
    static HONEST: ManageNote = ManageNote { lie: false };
    static LIAR: ManageNote = ManageNote { lie: true };
    static NONE: ManageNote = ManageNote { lie: false };

    fn listing(run: &'static ManageNote) -> Listing<()> {
        static CALLS_HONEST: [&dyn Run<()>; 2] = [&HONEST, &NONE];
        static CALLS_LIAR: [&dyn Run<()>; 2] = [&LIAR, &NONE];
        let calls: &'static [&'static dyn Run<()>] =
            if run.lie { &CALLS_LIAR } else { &CALLS_HONEST };
        Listing::from_parts(&TOOLS, calls, &[])
    }

    fn arguments(action: &str) -> Map<String, serde_json::Value> {
        json!({"action": action}).as_object().cloned().unwrap()
    }

    #[test]
    fn a_resolution_answers_the_calls_hints_all_four_stated() {
        let declared = ResolveOptions::new(Declaration::Declared);
        let read = listing(&HONEST)
            .resolve(&(), "manage_note", &arguments("read"), &declared)
            .unwrap();
        // Every hint stated: read-only, and so non-destructive and idempotent; closed-world.
        assert!(read.is_explicit());
        assert!(Hint::ALL.into_iter().all(|hint| read.claims(hint)));
        assert_eq!(read.title, None);
        let delete = listing(&HONEST)
            .resolve(&(), "manage_note", &arguments("delete"), &declared)
            .unwrap();
        assert!(delete.destructive() && !delete.read_only() && !delete.open_world());
        // The resolver's own refusal comes through with its code.
        let bad = listing(&HONEST)
            .resolve(&(), "manage_note", &arguments("shred"), &declared)
            .unwrap_err();
        assert_eq!(bad.code(), -32602);
    }

    #[test]
    fn a_resolution_out_of_bound_is_refused_never_sent() {
        let declared = ResolveOptions::new(Declaration::Declared);
        let error = listing(&LIAR)
            .resolve(&(), "manage_note", &arguments("delete"), &declared)
            .unwrap_err();
        assert_eq!(error.code(), -32603);
        assert!(
            matches!(
                error,
                ResolveError::OutOfBound { rule, .. } if rule.hint() == Hint::OpenWorld
            ),
            "{error:?}"
        );
        // Its honest reads still resolve.
        assert!(
            listing(&LIAR)
                .resolve(&(), "manage_note", &arguments("read"), &declared)
                .is_ok()
        );
    }

    #[test]
    fn each_refusal_has_the_drafts_code_in_the_drafts_order() {
        let declared = ResolveOptions::new(Declaration::Declared);
        let honest = listing(&HONEST);
        // The capability first, whatever the rest.
        for declaration in [Declaration::Absent, Declaration::UnsupportedSettings] {
            let error = honest
                .resolve(&(), "nope", &Map::new(), &ResolveOptions::new(declaration))
                .unwrap_err();
            assert_eq!(error.code(), -32021);
        }
        let unknown = honest
            .resolve(&(), "nope", &Map::new(), &declared)
            .unwrap_err();
        assert_eq!(
            (unknown.code(), unknown.to_string()),
            (-32602, "unknown tool: nope".to_owned())
        );
        let unmarked = honest
            .resolve(&(), "ping", &Map::new(), &declared)
            .unwrap_err();
        assert_eq!(unmarked, ResolveError::NotResolvable("ping".into()));
        // Marked, in a listing without calls: nothing can answer.
        let bare = Listing::new(&TOOLS)
            .resolve(&(), "manage_note", &arguments("read"), &declared)
            .unwrap_err();
        assert_eq!(bare.code(), -32603);
        // Hidden by a filter: answered as missing.
        let hidden = honest
            .resolve_if(
                &(),
                "manage_note",
                &arguments("read"),
                declared.declared().unwrap(),
                |_| false,
            )
            .unwrap_err();
        assert_eq!(hidden.code(), -32602);
        assert!(matches!(hidden, ResolveError::UnknownTool(_)));
    }

    #[test]
    fn a_generated_resolver_reads_as_the_call_does_and_catches_panics() {
        use crate::call::handler::{Reads, resolve_with};
        static READS: Reads = Reads {
            tool: "t",
            specs: &[],
        };
        let hints = || ToolAnnotations::new().with_read_only(true);
        // A tool that takes no arguments: one it does not take is refused as the call refuses
        // it, before the resolver is asked.
        let unknown = json!({"x": 1}).as_object().cloned().unwrap();
        let refused = resolve_with(&(), &unknown, &READS, |_: &(), _: ()| hints()).unwrap_err();
        assert!(
            matches!(refused, ResolveError::InvalidArguments { .. }),
            "{refused:?}"
        );
        assert!(
            resolve_with(&(), &Map::new(), &READS, |_: &(), _: ()| hints())
                .unwrap()
                .read_only()
        );
        let cannot = resolve_with(&(), &Map::new(), &READS, |_: &(), _: ()| {
            Err::<ToolAnnotations, _>("no parser for that dialect")
        })
        .unwrap_err();
        assert_eq!(
            cannot,
            ResolveError::CannotResolve("no parser for that dialect".into())
        );
        let panicked = resolve_with(
            &(),
            &Map::new(),
            &READS,
            |_: &(), _: ()| -> ToolAnnotations { panic!("a resolver's bug") },
        )
        .unwrap_err();
        assert_eq!(panicked.code(), -32603, "{panicked:?}");
    }
}
