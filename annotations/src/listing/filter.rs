//! [`Filter`]: which of a listing's tools a server offers, decided by their hints, their
//! toolsets, their names and the scopes they need, the way GitHub's MCP server decides it.

use std::fmt;

use crate::tool::Tool;

/// Which tools a server offers: one rule for listing and calling alike (a tool the filter
/// hides is answered as one that does not exist).
///
/// Built from everything ([`Filter::new`]) by narrowing, with GitHub's MCP server's
/// precedence:
///
/// 1. [`exclude`](Self::exclude): a tool named there is hidden, whatever else says;
/// 2. [`read_only`](Self::read_only): a tool whose effective `readOnlyHint` is not `true` is
///    hidden, even when named in [`tools`](Self::tools);
/// 3. [`granted_scopes`](Self::granted_scopes): a tool that needs a scope not granted is
///    hidden;
/// 4. the allow-list, [`toolsets`](Self::toolsets) and [`tools`](Self::tools) together: a
///    tool is in if one of its toolsets is named or it is named itself (with neither, every
///    tool is in; `tools` alone lists just those tools).
///
/// ```
/// use mcp_annotations::{listing::Filter, Listing, tool, tools};
///
/// /// Read an issue.
/// #[tool(read_only, open_world = false, toolset = "issues")]
/// fn get_issue(number: u64) {}
///
/// /// Open an issue.
/// #[tool(destructive = false, open_world = false, toolset = "issues", scopes = ["repo"])]
/// fn create_issue(title: String) {}
///
/// /// Read a file.
/// #[tool(read_only, open_world = false, toolset = "repos")]
/// fn get_file(path: String) {}
///
/// static TOOLS: Listing = tools![get_issue, create_issue, get_file];
///
/// let names = |filter: &Filter| -> Vec<&str> {
///     TOOLS.filtered(filter).unwrap().tools().map(|tool| tool.name()).collect()
/// };
/// assert_eq!(names(&Filter::new().toolsets(["issues"])), ["get_issue", "create_issue"]);
/// assert_eq!(names(&Filter::new().read_only()), ["get_issue", "get_file"]);
/// // Read-only mode wins over a tool named on purpose.
/// assert_eq!(names(&Filter::new().read_only().tools(["create_issue"])), Vec::<&str>::new());
/// // A token without `repo` does not see what needs it.
/// assert_eq!(names(&Filter::new().granted_scopes(["read:org"])), ["get_issue", "get_file"]);
/// // A request may narrow the operator's filter, never widen it.
/// let operator = Filter::new().toolsets(["issues"]);
/// let request = Filter::new().toolsets(["repos"]);
/// assert_eq!(names(&operator.narrow(&request)), Vec::<&str>::new());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// Each rule a tool must pass: the first is this filter's own, the rest come from
    /// [`narrow`](Self::narrow).
    rules: Vec<Rule>,
}

/// One filter's own rule.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Rule {
    read_only: bool,
    toolsets: Option<Vec<String>>,
    tools: Option<Vec<String>>,
    exclude: Vec<String>,
    scopes: Option<Vec<String>>,
}

fn names<I: IntoIterator<Item = T>, T: Into<String>>(names: I) -> impl Iterator<Item = String> {
    names.into_iter().map(Into::into)
}

impl Rule {
    #[inline]
    fn admits(&self, tool: &Tool) -> bool {
        let name = tool.name();
        if self.exclude.iter().any(|excluded| excluded == name) {
            return false;
        }
        if self.read_only && !tool.annotations.read_only() {
            return false;
        }
        if let Some(granted) = &self.scopes
            && !tool
                .scopes()
                .iter()
                .all(|needed| granted.iter().any(|scope| scope == needed))
        {
            return false;
        }
        match (&self.toolsets, &self.tools) {
            (None, None) => true,
            (toolsets, tools) => {
                toolsets.as_ref().is_some_and(|toolsets| {
                    tool.toolsets()
                        .iter()
                        .any(|toolset| toolsets.iter().any(|named| named == toolset))
                }) || tools
                    .as_ref()
                    .is_some_and(|tools| tools.iter().any(|named| named == name))
            }
        }
    }
}

impl Filter {
    /// Every tool.
    #[must_use]
    pub fn new() -> Self {
        Filter::default()
    }

    /// This filter's own rule (the first), made if there is none.
    fn own(&mut self) -> &mut Rule {
        if self.rules.is_empty() {
            self.rules.push(Rule::default());
        }
        &mut self.rules[0]
    }

    /// Read-only mode: only tools whose effective `readOnlyHint` is `true`.
    #[must_use]
    pub fn read_only(mut self) -> Self {
        self.own().read_only = true;
        self
    }

    /// Adds toolsets to the allow-list: a tool in one of them is in.
    #[must_use]
    pub fn toolsets<I: IntoIterator<Item = T>, T: Into<String>>(mut self, toolsets: I) -> Self {
        self.own()
            .toolsets
            .get_or_insert_with(Vec::new)
            .extend(names(toolsets));
        self
    }

    /// Adds tools to the allow-list by name.
    #[must_use]
    pub fn tools<I: IntoIterator<Item = T>, T: Into<String>>(mut self, tools: I) -> Self {
        self.own()
            .tools
            .get_or_insert_with(Vec::new)
            .extend(names(tools));
        self
    }

    /// Hides tools by name, whatever else says.
    #[must_use]
    pub fn exclude<I: IntoIterator<Item = T>, T: Into<String>>(mut self, tools: I) -> Self {
        self.own().exclude.extend(names(tools));
        self
    }

    /// The scopes the caller holds (from its token): a tool that needs one not among them is
    /// hidden. Without this, scopes are not judged.
    #[must_use]
    pub fn granted_scopes<I: IntoIterator<Item = T>, T: Into<String>>(mut self, scopes: I) -> Self {
        self.own()
            .scopes
            .get_or_insert_with(Vec::new)
            .extend(names(scopes));
        self
    }

    /// This filter narrowed by `request`'s: a tool is offered when both offer it. An
    /// operator's filter is the upper bound a request's can tighten but never loosen (GitHub's
    /// rule: a request's read-only mode, toolsets or scopes apply on top of the operator's).
    #[must_use]
    pub fn narrow(&self, request: &Filter) -> Filter {
        let mut rules = self.rules.clone();
        rules.extend(request.rules.iter().cloned());
        Filter { rules }
    }

    /// Whether the filter offers `tool`.
    #[must_use]
    #[inline]
    pub fn admits(&self, tool: &Tool) -> bool {
        self.rules.iter().all(|rule| rule.admits(tool))
    }

    /// Whether the filter offers every tool, whatever it is (no rule at all).
    #[must_use]
    pub fn is_everything(&self) -> bool {
        self.rules.iter().all(|rule| *rule == Rule::default())
    }

    /// The first toolset or tool name the filter names that none of `tools` has.
    pub(crate) fn unknown(&self, tools: &[Tool]) -> Option<FilterError> {
        for rule in &self.rules {
            for toolset in rule.toolsets.iter().flatten() {
                if !tools
                    .iter()
                    .any(|tool| tool.toolsets().contains(&toolset.as_str()))
                {
                    let mut known: Vec<String> = tools
                        .iter()
                        .flat_map(|tool| tool.toolsets().iter().map(|name| (*name).to_owned()))
                        .collect();
                    known.sort();
                    known.dedup();
                    return Some(FilterError {
                        kind: "toolset",
                        name: toolset.clone(),
                        known,
                    });
                }
            }
            for name in rule.tools.iter().flatten().chain(&rule.exclude) {
                if !tools.iter().any(|tool| tool.name() == name) {
                    return Some(FilterError {
                        kind: "tool",
                        name: name.clone(),
                        known: tools.iter().map(|tool| tool.name().to_owned()).collect(),
                    });
                }
            }
        }
        None
    }
}

/// A filter that names a toolset or a tool the listing does not have: an operator's typo must
/// not silently empty the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FilterError {
    kind: &'static str,
    name: String,
    known: Vec<String>,
}

impl FilterError {
    /// The refusal to change the filter of a server that told its clients its tools never
    /// change.
    #[cfg(feature = "rmcp")]
    pub(crate) fn fixed() -> Self {
        FilterError {
            kind: "fixed",
            name: String::new(),
            known: Vec::new(),
        }
    }

    /// The name no tool has.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The names of that kind the listing has (its toolsets, or its tools).
    #[must_use]
    pub fn known(&self) -> &[String] {
        &self.known
    }
}

impl fmt::Display for FilterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.kind == "fixed" {
            return f.write_str(
                "this server told its clients its tools never change (`listChanged: false`): \
                 build it with `with_changing_filter` to change its filter while it serves",
            );
        }
        write!(f, "unknown {} `{}`; the listing has ", self.kind, self.name)?;
        if self.known.is_empty() {
            return write!(f, "no {}s", self.kind);
        }
        let known: Vec<String> = self.known.iter().map(|name| format!("`{name}`")).collect();
        f.write_str(&known.join(", "))
    }
}

impl std::error::Error for FilterError {}
