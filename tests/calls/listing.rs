//! `tools![...]` listings: order, rendering in each protocol version, pages and cursors, the
//! Markdown table, and rmcp's view of the same tools.

use annotations_tests::tools::ALL;
use mcp_annotations::{
    Listing, ProtocolVersion, Tool, ToolAnnotations, host::Missing, host::Readiness,
    listing::AnnotationsForm, listing::CacheScope, listing::CursorError,
    listing::InvalidListingError, listing::ListOptions, schema::Schema, tool, tools,
};
use proptest::prelude::*;
use serde_json::{Value, json};

fn parse(text: &str) -> Value {
    serde_json::from_str(text).expect("a listing renders valid JSON")
}

#[test]
fn tools_are_listed_in_the_order_written() {
    let names: Vec<&str> = ALL.tools().iter().map(Tool::name).collect();
    assert_eq!(
        names,
        [
            "list_notes",
            "add_note",
            "integers.all",
            "scalars",
            "collections",
            "paint",
            "type"
        ]
    );
    assert_eq!(ALL.get("paint").map(Tool::display_name), Some("Paint"));
    assert!(ALL.get("nope").is_none());
    ALL.check().unwrap();
}

#[test]
fn each_protocol_version_gets_its_own_result_shape() {
    let old = parse(
        &ALL.render(&ListOptions::new(ProtocolVersion::V2025_06_18), None)
            .unwrap(),
    );
    assert_eq!(
        old.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["tools"]
    );
    let new = ListOptions::new(ProtocolVersion::V2026_07_28)
        .with_ttl_ms(60_000)
        .with_cache_scope(CacheScope::Public);
    let new = parse(&ALL.render(&new, None).unwrap());
    assert_eq!(new["resultType"], "complete");
    assert_eq!(new["ttlMs"], 60_000);
    assert_eq!(new["cacheScope"], "public");
    // Each tool renders exactly as serde writes it for the newest version; the older ones
    // differ only where an output schema's root is not an object, which they wrap.
    let mut wrapped = 0;
    for ((rendered, older), tool) in new["tools"]
        .as_array()
        .unwrap()
        .iter()
        .zip(old["tools"].as_array().unwrap())
        .zip(ALL.tools())
    {
        assert_eq!(rendered, &serde_json::to_value(tool).unwrap());
        let mut older = older.clone();
        let output = older.get("outputSchema").cloned();
        match (output, rendered.get("outputSchema")) {
            (Some(older_output), Some(newer_output)) if older_output != *newer_output => {
                assert_eq!(older_output["type"], "object");
                assert_eq!(older_output["properties"]["result"], *newer_output);
                older["outputSchema"] = newer_output.clone();
                wrapped += 1;
            }
            _ => {}
        }
        assert_eq!(&older, rendered);
    }
    assert_eq!(wrapped, 1, "the paint tool's string output");
}

#[test]
fn annotations_render_minimal_or_explicit() {
    let minimal = parse(&ALL.render(&ListOptions::default(), None).unwrap());
    assert_eq!(
        minimal["tools"][0]["annotations"],
        json!({"title": "List notes", "readOnlyHint": true, "openWorldHint": false})
    );
    assert!(minimal["tools"][6].get("annotations").is_some());
    let explicit = ListOptions::default().with_annotations(AnnotationsForm::Explicit);
    let explicit = parse(&ALL.render(&explicit, None).unwrap());
    assert_eq!(
        explicit["tools"][0]["annotations"],
        json!({
            "title": "List notes",
            "readOnlyHint": true,
            "destructiveHint": false,
            "idempotentHint": true,
            "openWorldHint": false
        })
    );
}

#[test]
fn strings_are_escaped() {
    static TOOLS: [Tool; 1] = [Tool::new("quote", Schema::NO_INPUT)
        .with_title("say \"hi\" \\ \u{1} ✓")
        .with_description("line\nbreak\ttab\r")];
    let text = Listing::new(&TOOLS)
        .render(&ListOptions::default(), None)
        .unwrap();
    let value = parse(&text);
    assert_eq!(value["tools"][0]["title"], "say \"hi\" \\ \u{1} ✓");
    assert_eq!(value["tools"][0]["description"], "line\nbreak\ttab\r");
}

/// A listing of `n` tools built at run time (tests only: `tools!` builds them at compile time).
fn listing_of(n: usize) -> Listing {
    let tools: Vec<Tool> = (0..n)
        .map(|_| Tool::new("placeholder", Schema::NO_INPUT))
        .enumerate()
        .map(|(i, mut tool)| {
            tool.name = format!("tool_{i}").into();
            tool
        })
        .collect();
    Listing::new(Vec::leak(tools))
}

fn all_pages(listing: &Listing, page_size: usize) -> Vec<String> {
    let mut names = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let page = listing.page(cursor.as_deref(), page_size).unwrap();
        if page_size > 0 {
            assert!(page.tools.len() <= page_size);
        }
        names.extend(page.tools.iter().map(|t| t.name().to_owned()));
        match page.next_cursor {
            Some(next) => {
                assert!(
                    !page.tools.is_empty(),
                    "a page before the last is never empty"
                );
                cursor = Some(next);
            }
            None => return names,
        }
    }
}

proptest! {
    #[test]
    fn every_tool_appears_exactly_once_across_the_pages_in_order(n in 0usize..60, page_size in 0usize..12) {
        let listing = listing_of(n);
        let expected: Vec<String> = (0..n).map(|i| format!("tool_{i}")).collect();
        prop_assert_eq!(all_pages(&listing, page_size), expected);
    }

    #[test]
    fn any_string_that_is_not_an_issued_cursor_is_rejected(cursor in ".{1,40}") {
        let listing = listing_of(20);
        let issued: Vec<String> = (1..20).filter_map(|size| listing.page(None, size).unwrap().next_cursor).collect();
        prop_assume!(!issued.contains(&cursor));
        let error = listing.page(Some(&cursor), 5).unwrap_err();
        prop_assert_eq!(error.code(), -32602);
    }
}

#[test]
fn the_last_page_has_no_next_cursor() {
    let listing = listing_of(10);
    let first = listing.page(None, 4).unwrap();
    let second = listing.page(first.next_cursor.as_deref(), 4).unwrap();
    let third = listing.page(second.next_cursor.as_deref(), 4).unwrap();
    assert_eq!(third.tools.len(), 2);
    assert_eq!(third.next_cursor, None);
    let options = ListOptions::default().with_page_size(4);
    let last = parse(
        &listing
            .render(&options, second.next_cursor.as_deref())
            .unwrap(),
    );
    assert!(last.get("nextCursor").is_none());
    // An empty cursor is the first page.
    assert_eq!(listing.page(Some(""), 4).unwrap(), first);
}

#[test]
fn cursors_stay_valid_and_bind_to_their_listing() {
    let listing = listing_of(10);
    let cursor = listing.page(None, 3).unwrap().next_cursor.unwrap();
    // Still valid later, with another page size.
    assert_eq!(
        listing.page(Some(&cursor), 5).unwrap().tools[0].name(),
        "tool_3"
    );

    let tampered: Vec<String> = vec![
        cursor.replacen('3', "4", 1),
        format!("{cursor}0"),
        cursor[..cursor.len() - 1].to_owned(),
        cursor.to_uppercase(),
        format!("0{cursor}"),
        "3".to_owned(),
        "not a cursor".to_owned(),
    ];
    for bad in tampered {
        let error: CursorError = listing.page(Some(&bad), 3).unwrap_err();
        assert_eq!(error.code(), -32602, "{bad}");
        assert!(error.to_string().contains("invalid tools/list cursor"));
    }
    // A cursor of another listing.
    let other = listing_of(12);
    assert!(other.page(Some(&cursor), 3).is_err());
    assert!(ALL.render(&ListOptions::default(), Some(&cursor)).is_err());
}

#[test]
fn the_markdown_table_has_one_row_a_tool() {
    let table = ALL.to_markdown();
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 2 + ALL.len());
    assert_eq!(
        lines[0],
        "| name | display name | description | read-only | destructive | idempotent | open world |"
    );
    assert_eq!(
        lines[2],
        "| `list_notes` | List notes | List every saved note with its id and title. | yes | no | yes | no |"
    );
    // First line of the description only; effective hints (defaults applied).
    assert_eq!(
        lines[3],
        "| `add_note` | Add note | Save a new note. | no | yes | no | no |"
    );
}

/// A cell never breaks the table: `|`, backticks and line breaks in a name, a title or a
/// description (as a listing read from a peer may hold) are escaped.
#[test]
fn the_markdown_table_escapes_every_cell() {
    let tools = vec![
        Tool::new_owned("a|`b`\nc", Schema::NO_INPUT)
            .with_owned_title("x | `y`\r\nz")
            .with_owned_description("one | two `three`"),
    ];
    let table = Listing::new(Vec::leak(tools)).to_markdown();
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 3, "{table}");
    assert_eq!(
        lines[2],
        "| `` a\\|`b` c `` | x \\| \\`y\\` z | one \\| two \\`three\\` | no | yes | no | yes |"
    );
}

#[test]
fn rmcp_sees_the_same_tools() {
    let theirs = ALL.to_rmcp();
    let rendered = parse(
        &ALL.render(&ListOptions::new(ProtocolVersion::V2025_06_18), None)
            .unwrap(),
    );
    for (tool, wire) in theirs.iter().zip(rendered["tools"].as_array().unwrap()) {
        assert_eq!(&serde_json::to_value(tool).unwrap(), wire);
        let read: rmcp::model::Tool = serde_json::from_value(wire.clone()).unwrap();
        assert_eq!(&read, tool);
    }
    let from: Vec<rmcp::model::Tool> = ALL.into();
    assert_eq!(from, theirs);
}

#[test]
fn readiness_names_what_each_tool_lacks() {
    let lacking: Vec<(&str, Missing)> = ALL
        .not_ready(Readiness::Strict)
        .map(|(tool, missing)| (tool.name(), missing))
        .collect();
    assert_eq!(
        lacking,
        [
            // Read-only, but the strict level asks for every hint stated.
            ("list_notes", Missing::DestructiveHint),
            ("add_note", Missing::ReadOnlyHint),
            ("integers.all", Missing::Title),
            ("scalars", Missing::DestructiveHint),
            ("collections", Missing::ReadOnlyHint),
            ("paint", Missing::ReadOnlyHint),
            ("type", Missing::DestructiveHint),
        ]
    );
    assert_eq!(ALL.not_ready(Readiness::Directory).count(), 2);
}

/// Delete a note.
#[tool(read_only = false, destructive, open_world = false, title = "Delete")]
fn delete(id: u64) {
    let _ = id;
}

/// Find notes.
#[tool(read_only, destructive = false, open_world = false, title = "Find")]
fn find() {}

#[test]
fn ready_listings_compile_and_list() {
    let strict: Listing = tools![ready = strict; delete, find];
    let directory: Listing = tools![ready = directory; crate = mcp_annotations; find, delete,];
    assert_eq!(strict.len(), 2);
    assert_eq!(directory.tools()[0].name(), "find");
    let empty: Listing = tools![];
    assert!(empty.is_empty());
    delete(1);
    find();
}

#[test]
fn hand_built_listings_are_checked_at_run_time() {
    static TWICE: [Tool; 2] = [
        Tool::new("a", Schema::NO_INPUT),
        Tool::new("a", Schema::NO_INPUT),
    ];
    let error = Listing::new(&TWICE).check().unwrap_err();
    assert_eq!(error, InvalidListingError::DuplicateName("a".into()));
    assert_eq!(error.to_string(), "duplicate tool name `a`");
}

proptest! {
    /// Any text in a name, title or description renders as JSON that reads back as that text.
    #[test]
    fn any_text_renders_as_valid_json(name in ".{0,20}", title in "\\PC{0,40}|[\u{0}-\u{1f}\"\\\\]{0,10}", description in ".*") {
        let tools = vec![Tool::new_owned(name.clone(), Schema::NO_INPUT)
            .with_owned_title(title.clone())
            .with_owned_description(description.clone())
            .with_annotations(ToolAnnotations::new().with_owned_title(title.clone()))];
        let listing = Listing::new(Vec::leak(tools));
        let value = parse(&listing.render(&ListOptions::default(), None).unwrap());
        prop_assert_eq!(&value["tools"][0]["name"], &json!(name));
        prop_assert_eq!(&value["tools"][0]["title"], &json!(title));
        prop_assert_eq!(&value["tools"][0]["annotations"]["title"], &json!(title));
        prop_assert_eq!(&value["tools"][0]["description"], &json!(description));
    }
}

proptest! {
    /// The compile-time duplicate check (a `const fn`, run here at run time) finds exactly the
    /// names an earlier tool has, each with the first earlier tool of its name, whatever the
    /// names and however their hashes fall.
    #[test]
    fn the_duplicate_name_check_finds_exactly_the_duplicates(names in proptest::collection::vec("[a-c]{1,3}", 16)) {
        let tools: Vec<Tool> = names
            .iter()
            .map(|name| {
                let mut tool = Tool::new("placeholder", Schema::NO_INPUT);
                tool.name = name.clone().into();
                tool
            })
            .collect();
        let tools: [Tool; 16] = tools.try_into().unwrap();
        let index = mcp_annotations::__private::name_index::<16, 32>(&tools);
        for (later, name) in names.iter().enumerate() {
            let first = names.iter().position(|other| other == name).unwrap();
            let expected = if first < later { first as u32 + 1 } else { 0 };
            prop_assert_eq!(index.duplicates[later], expected, "{} at {}", name, later);
            if first < later {
                let message = mcp_annotations::__private::duplicate_name(&tools, first, later);
                let expected = format!(
                    "duplicate tool name `{name}` in tools![...]: entries {} and {} both have it",
                    first + 1,
                    later + 1
                );
                prop_assert!(message.text().starts_with(&expected), "{}", message.text());
            }
        }
    }
}

/// The name index `tools!` builds while compiling (the same `const fn`, run here at run time
/// on 10 000 tools): every listed name is found, at its own position, and no other name is.
#[test]
fn the_name_index_finds_every_tool_of_ten_thousand_and_nothing_else() {
    const N: usize = 10_000;
    let tools: Vec<Tool> = (0..N)
        .map(|i| Tool::new_owned(format!("tool_{i}"), Schema::NO_INPUT))
        .collect();
    let tools: &'static [Tool; N] = Box::leak(tools.into_boxed_slice().try_into().unwrap());
    let index = Box::leak(Box::new(
        mcp_annotations::__private::name_index::<N, 32_768>(tools),
    ));
    assert!(index.duplicates.iter().all(|&earlier| earlier == 0));
    let slots: &'static [u32] = &index.slots;
    let listing: Listing = Listing::from_parts(tools, &[], slots);
    for (i, tool) in tools.iter().enumerate() {
        let found = listing.get(tool.name()).expect("listed");
        assert!(std::ptr::eq(found, &tools[i]), "{}", tool.name());
    }
    for missing in ["tool_10000", "tool_", "", "Tool_1", "tool_01", "tool_9999 "] {
        assert!(listing.get(missing).is_none(), "{missing:?}");
    }
    // A listing without an index finds the same tools.
    let unindexed: Listing = Listing::new(tools);
    assert_eq!(
        unindexed.get("tool_9999").map(Tool::name),
        Some("tool_9999")
    );
}

/// A `tools!` listing calls each tool found through its index, and refuses any other name.
#[test]
fn a_listing_calls_through_its_name_index() {
    #[tool(read_only)]
    fn first() -> &'static str {
        "first"
    }
    #[tool(read_only)]
    fn second() -> &'static str {
        "second"
    }
    let listing: Listing = tools![first, second];
    for name in ["first", "second"] {
        let result = listing
            .call(&(), name, None, mcp_annotations::Context::none())
            .unwrap()
            .into_ready()
            .unwrap();
        assert_eq!(result.text_content(), name);
    }
    assert!(
        listing
            .call(&(), "third", None, mcp_annotations::Context::none())
            .is_err()
    );
}

/// Listings made at run time (per tenant, per filter) render through one cache of bounded
/// size: 1 200 distinct listings of 64 KiB each write 75 MiB of text, and the cache keeps at
/// most `RENDER_CACHE_BYTES` of it, however many are made.
#[test]
fn the_render_cache_keeps_a_bounded_number_of_bytes() {
    use mcp_annotations::{
        listing::ListOptions, listing::RENDER_CACHE_BYTES, listing::render_cache_bytes,
    };
    let description: &'static str = Box::leak("d".repeat(64 << 10).into_boxed_str());
    let tools: Vec<Tool> = (0..1_200)
        .map(|i| {
            Tool::new_owned(format!("tool_{i}"), Schema::NO_INPUT).with_description(description)
        })
        .collect();
    let tools: &'static [Tool] = Box::leak(tools.into_boxed_slice());
    let options = ListOptions::default();

    // A render keeps its text (the cache grows by it), and a second render of the same listing
    // is served from it (the cache does not grow by it again). Other tests of this binary
    // render beside this one, small listings far below the cache's bound: they add bytes, and
    // evict none.
    let kept: Listing = Listing::new(&tools[..1]);
    let before = render_cache_bytes();
    let text = kept.render(&options, None).unwrap();
    let after_first = render_cache_bytes();
    // The cache keeps the written tool (its 64 KiB description among it); the render wraps
    // it in the result's envelope.
    assert!(
        after_first >= before + description.len(),
        "{before} -> {after_first}, {} rendered",
        text.len()
    );
    assert_eq!(kept.render(&options, None).unwrap(), text);
    let after_second = render_cache_bytes();
    assert!(
        after_second < after_first + description.len(),
        "{after_first} -> {after_second}: the second render wrote {} bytes again",
        text.len()
    );

    let mut written = 0;
    for i in 0..tools.len() {
        let listing: Listing = Listing::new(&tools[i..=i]);
        let text = listing.render(&options, None).unwrap();
        assert!(text.contains(&format!(r#""name":"tool_{i}""#)));
        written += text.len();
        assert!(render_cache_bytes() <= RENDER_CACHE_BYTES);
    }
    assert!(written > RENDER_CACHE_BYTES, "{written}");
    // A listing let go renders again, the same.
    let first: Listing = Listing::new(&tools[..1]);
    assert!(
        first
            .render(&options, None)
            .unwrap()
            .contains(r#""name":"tool_0""#)
    );
}
