//! Toolsets, scopes and `Filter`: one rule for listing and calling alike, with GitHub's MCP
//! server's precedence, and a request's filter that narrows an operator's but never widens it.

use mcp_annotations::{
    Context, Listing, ProtocolVersion, Tool, listing::Filter, listing::ListOptions, tool, tools,
};
use proptest::prelude::*;
use serde_json::{Value, json};

/// Read an issue.
#[tool(read_only, open_world = false, toolset = "issues")]
fn get_issue(number: u64) -> u64 {
    number
}

/// Open an issue.
#[tool(destructive = false, open_world = false, toolset = "issues", scopes = ["repo"])]
fn create_issue(title: String) -> String {
    title
}

/// Read a label: in two toolsets.
#[tool(read_only, open_world = false, toolset = ["issues", "labels"])]
fn get_label(name: String) -> String {
    name
}

/// Read a file.
#[tool(read_only, open_world = false, toolset = "repos", scopes = ["repo"])]
fn get_file(path: String) -> String {
    path
}

/// Push a file.
#[tool(destructive, open_world = false, toolset = "repos", scopes = ["repo", "workflow"])]
fn push_file(path: String) -> String {
    path
}

/// Who am I: in no toolset of its own.
#[tool(read_only, open_world = false)]
fn get_me() -> &'static str {
    "me"
}

/// Fork a repository: the listing gives it its toolset.
#[tool(destructive = false, open_world = false)]
fn fork() -> &'static str {
    "forked"
}

static GITHUB: Listing = tools![
    get_issue,
    create_issue,
    get_label,
    get_file,
    push_file,
    get_me
];

static CONTEXT: Listing = tools![toolset = "context"; get_me, get_issue, fork];

fn offered(filter: &Filter) -> Vec<&'static str> {
    GITHUB
        .filtered(filter)
        .unwrap()
        .tools()
        .map(Tool::name)
        .collect()
}

#[test]
fn toolsets_and_scopes_are_stated_where_the_tool_is_and_never_listed() {
    assert_eq!(GET_LABEL_TOOL.toolsets(), ["issues", "labels"]);
    assert_eq!(PUSH_FILE_TOOL.scopes(), ["repo", "workflow"]);
    assert!(GET_ME_TOOL.toolsets().is_empty());
    // The listing's toolset goes to the tools that name none.
    let toolsets: Vec<&[&str]> = CONTEXT.tools().iter().map(Tool::toolsets).collect();
    assert_eq!(toolsets, [&["context"][..], &["issues"], &["context"]]);
    // What a client sees is unchanged.
    for version in ProtocolVersion::ALL {
        let text = GITHUB.render(&ListOptions::new(version), None).unwrap();
        assert!(
            !text.contains("issues") && !text.contains("workflow"),
            "{text}"
        );
    }
}

#[test]
fn the_precedence_is_githubs() {
    assert_eq!(offered(&Filter::new()).len(), 6);
    // The allow-list: toolsets and tools together.
    assert_eq!(
        offered(&Filter::new().toolsets(["labels"]).tools(["get_me"])),
        ["get_label", "get_me"]
    );
    assert_eq!(offered(&Filter::new().tools(["get_file"])), ["get_file"]);
    // Exclusions win over everything.
    assert_eq!(
        offered(&Filter::new().toolsets(["issues"]).exclude(["get_label"])),
        ["get_issue", "create_issue"]
    );
    assert_eq!(
        offered(&Filter::new().tools(["get_me"]).exclude(["get_me"])),
        Vec::<&str>::new()
    );
    // Read-only mode wins over a tool named on purpose.
    assert_eq!(
        offered(&Filter::new().read_only().tools(["push_file", "get_file"])),
        ["get_file"]
    );
    // A tool whose scopes are not all granted is hidden once scopes are given.
    assert_eq!(
        offered(&Filter::new().granted_scopes(["repo"])),
        [
            "get_issue",
            "create_issue",
            "get_label",
            "get_file",
            "get_me"
        ]
    );
    assert_eq!(
        offered(&Filter::new().granted_scopes(Vec::<String>::new())),
        ["get_issue", "get_label", "get_me"]
    );
}

#[test]
fn an_unknown_name_is_an_error_that_lists_the_known_ones() {
    let error = GITHUB
        .filtered(&Filter::new().toolsets(["isues"]))
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "unknown toolset `isues`; the listing has `issues`, `labels`, `repos`"
    );
    let error = GITHUB
        .filtered(&Filter::new().exclude(["get_mee"]))
        .unwrap_err();
    assert_eq!(error.name(), "get_mee");
    assert!(error.known().contains(&"get_me".to_owned()));
}

#[test]
fn a_hidden_tool_is_answered_as_one_that_does_not_exist() {
    let view = GITHUB.filtered(&Filter::new().read_only()).unwrap();
    assert!(view.get("push_file").is_none());
    let hidden = view
        .call(&(), "push_file", None, Context::none())
        .err()
        .unwrap();
    let missing = view
        .call(&(), "no_such_tool", None, Context::none())
        .err()
        .unwrap();
    assert_eq!(hidden.code(), missing.code());
    assert_eq!(hidden.to_string(), "unknown tool: push_file");
    assert_eq!(missing.to_string(), "unknown tool: no_such_tool");
    let result = view
        .call(
            &(),
            "get_file",
            json!({"path": "a"}).as_object().cloned(),
            Context::none(),
        )
        .unwrap()
        .into_ready()
        .ok()
        .unwrap();
    assert_eq!(result.text_content(), "a");
}

#[test]
fn a_cursor_of_one_filter_is_refused_by_another() {
    let options = ListOptions::default().with_page_size(1);
    let issues = GITHUB
        .filtered(&Filter::new().toolsets(["issues"]))
        .unwrap();
    let repos = GITHUB.filtered(&Filter::new().toolsets(["repos"])).unwrap();
    let first: Value = serde_json::from_str(&issues.render(&options, None).unwrap()).unwrap();
    let cursor = first["nextCursor"].as_str().unwrap();
    assert!(issues.render(&options, Some(cursor)).is_ok());
    let refused = repos.render(&options, Some(cursor)).unwrap_err();
    assert_eq!(refused.code(), -32602);
    assert!(GITHUB.render(&options, Some(cursor)).is_err());
}

/// The parts a filter is made of, as generated: what the precedence is said again from.
#[derive(Clone, Debug)]
struct Parts {
    read_only: bool,
    toolsets: Option<Vec<&'static str>>,
    tools: Option<Vec<&'static str>>,
    exclude: Vec<&'static str>,
    scopes: Option<Vec<&'static str>>,
}

impl Parts {
    fn filter(&self) -> Filter {
        let mut filter = Filter::new().exclude(self.exclude.iter().copied());
        if self.read_only {
            filter = filter.read_only();
        }
        if let Some(toolsets) = &self.toolsets {
            filter = filter.toolsets(toolsets.iter().copied());
        }
        if let Some(tools) = &self.tools {
            filter = filter.tools(tools.iter().copied());
        }
        if let Some(scopes) = &self.scopes {
            filter = filter.granted_scopes(scopes.iter().copied());
        }
        filter
    }

    /// GitHub's precedence, written out on its own: exclusions, read-only mode, scopes, then
    /// the allow-list.
    fn offers(&self, tool: &Tool) -> bool {
        if self.exclude.contains(&tool.name()) {
            return false;
        }
        if self.read_only && !tool.annotations.read_only() {
            return false;
        }
        if let Some(scopes) = &self.scopes
            && tool.scopes().iter().any(|needed| !scopes.contains(needed))
        {
            return false;
        }
        if self.toolsets.is_none() && self.tools.is_none() {
            return true;
        }
        let in_toolset = self
            .toolsets
            .as_ref()
            .is_some_and(|named| tool.toolsets().iter().any(|t| named.contains(t)));
        let named = self
            .tools
            .as_ref()
            .is_some_and(|named| named.contains(&tool.name()));
        in_toolset || named
    }
}

/// A filter's parts, generated over the names the listing has.
fn filters() -> impl Strategy<Value = Parts> {
    let toolsets = proptest::sample::subsequence(vec!["issues", "labels", "repos"], 0..=3);
    let tools = proptest::sample::subsequence(
        vec![
            "get_issue",
            "create_issue",
            "get_label",
            "get_file",
            "push_file",
            "get_me",
        ],
        0..=3,
    );
    let scopes = proptest::sample::subsequence(vec!["repo", "workflow", "read:org"], 0..=3);
    (
        any::<bool>(),
        proptest::option::of(toolsets),
        proptest::option::of(tools.clone()),
        tools,
        proptest::option::of(scopes),
    )
        .prop_map(|(read_only, toolsets, tools, exclude, scopes)| Parts {
            read_only,
            toolsets,
            tools,
            exclude,
            scopes,
        })
}

proptest! {
    /// Listing, paging, looking up and calling through a filter agree, and follow the rule.
    #[test]
    fn filtered_listing_and_calling_agree(parts in filters(), page_size in 0usize..4) {
        let filter = parts.filter();
        let view = GITHUB.filtered(&filter).unwrap();
        let offered: Vec<&str> = view.tools().map(Tool::name).collect();
        // Every page, in order, lists exactly the offered tools.
        let options = ListOptions::default().with_page_size(page_size);
        let mut listed = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let page: Value = serde_json::from_str(&view.render(&options, cursor.as_deref()).unwrap()).unwrap();
            for tool in page["tools"].as_array().unwrap() {
                listed.push(tool["name"].as_str().unwrap().to_owned());
            }
            match page["nextCursor"].as_str() {
                Some(next) => cursor = Some(next.to_owned()),
                None => break,
            }
        }
        prop_assert_eq!(&listed, &offered);
        for tool in GITHUB.tools() {
            let shown = offered.contains(&tool.name());
            prop_assert_eq!(view.get(tool.name()).is_some(), shown);
            prop_assert_eq!(view.call(&(), tool.name(), None, Context::none()).is_ok(), shown);
            // GitHub's precedence, said once more from the parts.
            prop_assert_eq!(parts.offers(tool), shown);
        }
    }

    /// A request's filter narrows the operator's and never widens it.
    #[test]
    fn a_request_narrows_and_never_widens(operator in filters(), request in filters()) {
        let (operator, request) = (operator.filter(), request.filter());
        let both = operator.narrow(&request);
        for tool in GITHUB.tools() {
            prop_assert_eq!(both.admits(tool), operator.admits(tool) && request.admits(tool));
        }
    }
}

/// A tool struct in a toolset, needing a scope.
#[derive(mcp_annotations::Tool, serde::Deserialize)]
#[tool(read_only, open_world = false, toolset = "repos", scopes = ["repo"])]
pub struct ListBranches {}

impl mcp_annotations::call::CallTool<()> for ListBranches {
    type Output = &'static str;

    async fn call(self, _: &(), _: Context<'_>) -> &'static str {
        "main"
    }
}

#[test]
fn a_tool_struct_states_its_toolsets_and_scopes_too() {
    use mcp_annotations::descriptor::StaticTool;
    assert_eq!(ListBranches::TOOL.toolsets(), ["repos"]);
    assert_eq!(ListBranches::TOOL.scopes(), ["repo"]);
    let listing: Listing = tools![ListBranches, get_me];
    let view = listing
        .filtered(&Filter::new().toolsets(["repos"]))
        .unwrap();
    assert_eq!(
        view.tools().map(Tool::name).collect::<Vec<_>>(),
        ["list_branches"]
    );
}
