//! The descriptor's remaining fields, stated in `#[tool(...)]`: `icons`, `meta` (the `_meta`
//! object) and `task_support` (`execution.taskSupport`), each listed only to the protocol
//! versions that define it, valid against each version's official schema, read back from a
//! peer's listing, and carried to rmcp.

use mcp_annotations::{
    Context, Listing, ProtocolVersion, Tool, call::CallTool, descriptor::IconTheme,
    descriptor::StaticTool, descriptor::TaskSupport, listing::ListOptions, tool, tools,
};
use serde_json::{Value, json};

/// Export the report.
#[tool(
    read_only,
    open_world = false,
    icons = [
        "https://example.com/export.svg",
        { src = "data:image/png;base64,iVBORw0KGgo=", mime_type = "image/png", sizes = ["48x48", "any"], theme = "dark" },
    ],
    meta = r#"{"com.example/tier": "gold", "com.example/limits": {"perMinute": 10, "total": 18446744073709551617}}"#,
    task_support = "optional",
)]
fn export_report() -> String {
    "done".to_owned()
}

/// Ping, with nothing more stated.
#[tool(read_only, open_world = false)]
fn ping() {}

/// A tool struct with an icon and tasks required.
#[derive(mcp_annotations::Tool, serde::Deserialize)]
#[tool(read_only, open_world = false, icons = ["https://example.com/slow.png"], task_support = "required")]
pub struct SlowJob {}

impl CallTool<()> for SlowJob {
    type Output = ();

    async fn call(self, _: &(), _: Context<'_>) {}
}

static TOOLS: Listing = tools![export_report, ping, SlowJob];

// The generated constant is a literal: readable in `const`, borrowed in place.
const _: () = assert!(EXPORT_REPORT_TOOL.icons().len() == 2);
const _: () = assert!(matches!(
    EXPORT_REPORT_TOOL.task_support,
    Some(TaskSupport::Optional)
));

fn validator(version: ProtocolVersion, definition: &str) -> jsonschema::Validator {
    let file = format!("full/schema-{version}.json");
    jsonschema::validator_for(&annotations_tests::schema_definition(&file, definition)).unwrap()
}

fn listed(version: ProtocolVersion) -> Value {
    let options = ListOptions::new(version);
    serde_json::from_str(&TOOLS.render(&options, None).unwrap()).unwrap()
}

#[test]
fn the_constant_holds_each_field() {
    let tool: &Tool = &EXPORT_REPORT_TOOL;
    let name = EXPORT_REPORT_TOOL.name();
    assert_eq!(name, "export_report");
    assert_eq!(tool.icons[0].src(), "https://example.com/export.svg");
    assert_eq!(tool.icons[1].mime_type().unwrap().as_str(), "image/png");
    assert_eq!(tool.icons[1].sizes(), ["48x48", "any"]);
    assert_eq!(tool.icons[1].theme(), Some(IconTheme::Dark));
    assert_eq!(
        tool.meta_object().unwrap()["com.example/limits"]["perMinute"],
        10
    );
    assert_eq!(tool.task_support, Some(TaskSupport::Optional));
    assert_eq!(SlowJob::TOOL.task_support, Some(TaskSupport::Required));
    assert!(PING_TOOL.icons.is_empty() && PING_TOOL.meta.is_none());
    for tool in TOOLS.tools() {
        tool.check().unwrap();
    }
}

#[test]
fn each_version_lists_the_fields_it_defines_and_its_schema_accepts_them() {
    for version in ProtocolVersion::ALL {
        let result = listed(version);
        let errors: Vec<String> = validator(version, "ListToolsResult")
            .iter_errors(&result)
            .map(|error| error.to_string())
            .collect();
        assert!(errors.is_empty(), "{version}: {errors:?} in {result}");
        let export = &result["tools"][0];
        assert_eq!(export["_meta"]["com.example/tier"], "gold", "{version}");
        let text = TOOLS.render(&ListOptions::new(version), None).unwrap();
        assert!(
            text.contains(r#""total": 18446744073709551617}"#),
            "the meta's text as written: {text}"
        );
        let has_icons = export.get("icons").is_some();
        let has_execution = export.get("execution").is_some();
        match version {
            ProtocolVersion::V2025_06_18 => assert!(!has_icons && !has_execution),
            ProtocolVersion::V2025_11_25 => {
                assert_eq!(export["execution"], json!({"taskSupport": "optional"}));
                assert_eq!(
                    export["icons"][1],
                    json!({"src": "data:image/png;base64,iVBORw0KGgo=", "mimeType": "image/png", "sizes": ["48x48", "any"], "theme": "dark"})
                );
                assert_eq!(result["tools"][2]["execution"]["taskSupport"], "required");
            }
            _ => assert!(has_icons && !has_execution, "{version}"),
        }
        let ping = &result["tools"][1];
        for key in ["icons", "execution", "_meta"] {
            assert!(ping.get(key).is_none(), "{version}: {ping}");
        }
    }
}

#[test]
fn a_peers_listing_reads_back_into_the_same_fields() {
    let result = listed(ProtocolVersion::V2025_11_25);
    let read: Tool = serde_json::from_value(result["tools"][0].clone()).unwrap();
    assert_eq!(read.icons, EXPORT_REPORT_TOOL.icons);
    assert_eq!(read.task_support, Some(TaskSupport::Optional));
    assert_eq!(read.meta_object(), EXPORT_REPORT_TOOL.meta_object());
    // What `Serialize` writes is the newest version's form, which has no `execution`.
    let latest = listed(ProtocolVersion::LATEST);
    assert_eq!(serde_json::to_value(&read).unwrap(), latest["tools"][0]);
    for (bad, says) in [(json!({"src": 1}), "icons[0]"), (json!("x"), "icons[0]")] {
        let tool = json!({"name": "t", "inputSchema": {"type": "object"}, "icons": [bad]});
        let error = serde_json::from_value::<Tool>(tool)
            .unwrap_err()
            .to_string();
        assert!(error.contains(says), "{error}");
    }
    let tool = json!({"name": "t", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "sometimes"}});
    let error = serde_json::from_value::<Tool>(tool)
        .unwrap_err()
        .to_string();
    assert!(error.contains("execution.taskSupport"), "{error}");
}

#[test]
fn rmcp_gets_the_icons_and_meta() {
    let theirs = rmcp::model::Tool::from(&EXPORT_REPORT_TOOL);
    let icons = theirs.icons.unwrap();
    assert_eq!(icons.len(), 2);
    assert_eq!(icons[1].src, "data:image/png;base64,iVBORw0KGgo=");
    assert_eq!(theirs.meta.unwrap().0["com.example/tier"], "gold");
}

#[test]
fn meta_that_is_not_an_object_is_refused_by_check() {
    let mut tool = Tool::new("t", mcp_annotations::schema::Schema::NO_INPUT);
    tool.meta = Some("[1]".into());
    assert!(tool.check().unwrap_err().to_string().contains("_meta"));
    let options = ListOptions::new(ProtocolVersion::V2025_11_25);
    let listing: &'static [Tool] = Box::leak(Box::new([tool]));
    let rendered: Value =
        serde_json::from_str(&Listing::<()>::new(listing).render(&options, None).unwrap()).unwrap();
    assert!(rendered["tools"][0].get("_meta").is_none());
}

/// `Serialize for Tool` writes what the newest version lists, field for field, for every
/// field a descriptor may state (icons, `_meta` with its numbers, a task support that the
/// newest version no longer lists, an output schema).
#[test]
fn serialize_writes_the_tool_as_the_latest_version_lists_it() {
    let latest = listed(ProtocolVersion::LATEST);
    for (i, tool) in TOOLS.tools().iter().enumerate() {
        assert_eq!(
            serde_json::to_value(tool).unwrap(),
            latest["tools"][i],
            "{}",
            tool.name()
        );
    }
    assert!(latest["tools"][0].get("execution").is_none());
    // And for tools with output schemas, objects and not (wrapped only for older versions).
    let options = ListOptions::new(ProtocolVersion::LATEST);
    let all: Value = serde_json::from_str(
        &annotations_tests::tools::ALL
            .render(&options, None)
            .unwrap(),
    )
    .unwrap();
    let tools = annotations_tests::tools::ALL.tools();
    assert!(tools.iter().any(|tool| tool.output_schema.is_some()));
    for (i, tool) in tools.iter().enumerate() {
        assert_eq!(
            serde_json::to_value(tool).unwrap(),
            all["tools"][i],
            "{}",
            tool.name()
        );
    }
}
