//! A slice of GitHub's MCP server (its `context`, `issues` and `labels` toolsets, tools named,
//! titled and hinted as its tool snapshots have them, but for `idempotentHint: false` beside
//! `readOnlyHint: true`, which this crate refuses as a contradiction), written with this crate, filtered by
//! GitHub's own flags: under each combination it offers what GitHub's server offers, by the
//! rules of its README (toolsets and tools additive, read-only mode first even over `--tools`,
//! exclusions over everything).

use std::collections::BTreeSet;

use mcp_annotations::{Context, Listing, Tool, listing::Filter, tool, tools};

macro_rules! github_tools {
    ($($name:ident: $title:literal, [$($toolset:literal),*], ($($hint:tt)*);)*) => {
        $(
            #[doc = $title]
            #[tool(title = $title, toolset = [$($toolset),*], $($hint)*)]
            fn $name() -> &'static str {
                stringify!($name)
            }
        )*
        static GITHUB: Listing = tools![$($name),*];
    };
}

github_tools! {
    get_me: "Get my user profile", ["context"], (read_only);
    get_team_members: "Get team members", ["context"], (read_only);
    get_teams: "Get teams", ["context"], (read_only);
    add_issue_comment: "Add comment to issue or pull request", ["issues"], (read_only = false);
    get_label: "Get a specific label from a repository", ["issues", "labels"], (read_only);
    issue_read: "Get issue details", ["issues"], (read_only);
    issue_write: "Create or update issue/pull request", ["issues"], (read_only = false);
    list_issue_fields: "List issue fields", ["issues"], (read_only);
    list_issue_types: "List available issue types", ["issues"], (read_only);
    list_issues: "List issues", ["issues"], (read_only);
    search_issues: "Search issues", ["issues"], (read_only);
    sub_issue_write: "Change sub-issue", ["issues"], (read_only = false);
    label_write: "Write operations on repository labels", ["labels"], (read_only = false, destructive);
    list_label: "List labels from a repository", ["labels"], (read_only);
}

/// GitHub's flags, as a filter: `--toolsets`, `--tools`, `--exclude-tools`, `--read-only`.
fn flags(toolsets: &[&str], tools: &[&str], exclude: &[&str], read_only: bool) -> Filter {
    let mut filter = Filter::new().exclude(exclude.iter().copied());
    if !toolsets.is_empty() {
        filter = filter.toolsets(toolsets.iter().copied());
    }
    if !tools.is_empty() {
        filter = filter.tools(tools.iter().copied());
    }
    if read_only {
        filter = filter.read_only();
    }
    filter
}

fn offered(filter: &Filter) -> BTreeSet<&'static str> {
    GITHUB
        .filtered(filter)
        .unwrap()
        .tools()
        .map(Tool::name)
        .collect()
}

#[test]
fn each_flag_combination_offers_what_githubs_server_offers() {
    let issues = [
        "add_issue_comment",
        "get_label",
        "issue_read",
        "issue_write",
        "list_issue_fields",
        "list_issue_types",
        "list_issues",
        "search_issues",
        "sub_issue_write",
    ];
    let cases: &[(Filter, &[&str])] = &[
        (
            flags(&["context"], &[], &[], false),
            &["get_me", "get_team_members", "get_teams"],
        ),
        (flags(&["issues"], &[], &[], false), &issues),
        // `get_label` is in both `issues` and `labels`.
        (
            flags(&["labels"], &[], &[], false),
            &["get_label", "label_write", "list_label"],
        ),
        (
            flags(&["issues"], &[], &[], true),
            &[
                "get_label",
                "issue_read",
                "list_issue_fields",
                "list_issue_types",
                "list_issues",
                "search_issues",
            ],
        ),
        // `--toolsets context --tools list_label`: additive.
        (
            flags(&["context"], &["list_label"], &[], false),
            &["get_me", "get_team_members", "get_teams", "list_label"],
        ),
        // `--tools` alone lists just those tools.
        (flags(&[], &["get_me"], &[], false), &["get_me"]),
        // Read-only mode skips a write tool even when `--tools` asks for it.
        (
            flags(&[], &["issue_write", "issue_read"], &[], true),
            &["issue_read"],
        ),
        // `--exclude-tools` wins over the toolset that holds the tool.
        (
            flags(&["labels"], &[], &["label_write"], false),
            &["get_label", "list_label"],
        ),
        (
            flags(&["issues", "labels"], &[], &["get_label"], true),
            &[
                "issue_read",
                "list_issue_fields",
                "list_issue_types",
                "list_issues",
                "list_label",
                "search_issues",
            ],
        ),
    ];
    for (filter, expected) in cases {
        let expected: BTreeSet<&str> = expected.iter().copied().collect();
        assert_eq!(offered(filter), expected, "{filter:?}");
    }
    // An unknown toolset is an error at startup, as GitHub's server fails on one.
    assert!(
        GITHUB
            .filtered(&flags(&["issue"], &[], &[], false))
            .is_err()
    );
}

#[test]
fn read_only_mode_refuses_a_write_tools_call_even_when_it_is_named() {
    let view = GITHUB
        .filtered(&flags(&[], &["issue_write", "issue_read"], &[], true))
        .unwrap();
    let refused = view
        .call(&(), "issue_write", None, Context::none())
        .err()
        .unwrap();
    assert_eq!(refused.to_string(), "unknown tool: issue_write");
    let read = view.call(&(), "issue_read", None, Context::none()).unwrap();
    assert_eq!(read.into_ready().ok().unwrap().text_content(), "issue_read");
}
