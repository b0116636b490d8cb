//! Hints per call on the wire: the tool-resolution draft's own wire examples read and written
//! back equal, and every request, result and error the crate writes valid against the draft's
//! JSON Schema (`tests/schemas/tool-resolution/`, with its source and commit) and, for the
//! -32021 error, against the 2026-07-28 schema. The crate's strict reader and the schema are
//! also held to agree on documents each mutated from a valid one.

use std::path::PathBuf;

use mcp_annotations::ProtocolVersion;
use mcp_annotations::ToolAnnotations;
use mcp_annotations::descriptor::Hint;
use mcp_annotations::resolution::{
    self, Declaration, ResolveError, ResolveRequest, ResolveResult, check_bound,
};
use serde_json::{Value, json};

fn folder() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/schemas/tool-resolution")
}

fn read(path: &str) -> Value {
    let path = folder().join(path);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// A validator for one definition of the draft's schema.
fn draft(definition: &str) -> jsonschema::Validator {
    let schema = read("tool-resolution.schema.json");
    assert!(
        schema["$defs"].get(definition).is_some(),
        "{definition} is not in the draft's schema"
    );
    jsonschema::validator_for(&json!({
        "$schema": schema["$schema"],
        "$ref": format!("#/$defs/{definition}"),
        "$defs": schema["$defs"],
    }))
    .unwrap()
}

fn assert_valid(validator: &jsonschema::Validator, value: &Value) {
    let errors: Vec<String> = validator
        .iter_errors(value)
        .map(|error| format!("{error} at {}", error.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}\n{value:#}");
}

/// Every combination of the four hints as stated: unset, false or true.
fn every_hint_set() -> Vec<ToolAnnotations> {
    let mut all = vec![ToolAnnotations::new()];
    for hint in Hint::ALL {
        all = all
            .into_iter()
            .flat_map(|hints| {
                [None, Some(false), Some(true)].map(|value| {
                    let stated = hints.stated().with(hint, value);
                    ToolAnnotations::from_stated(stated)
                })
            })
            .collect();
    }
    assert_eq!(all.len(), 81);
    all
}

/// The draft's four rules, written out a second time as implications over the hints as
/// stated, with the protocol's defaults spelled out here (not read through the accessors
/// `check_bound` uses), for every pair of listed and resolved hints.
#[test]
// Each clause is one of the draft's rules as it reads, not the shortest form.
#[allow(clippy::nonminimal_bool)]
fn the_bound_is_the_drafts_four_implications() {
    let all = every_hint_set();
    let mut kept = 0;
    for listed in &all {
        for resolved in &all {
            // (read-only, destructive, idempotent, open-world) after the defaults: unset
            // read-only is false, destructive true, idempotent false, open-world true; a
            // read-only tool is neither destructive nor anything but idempotent.
            let effective = |h: &ToolAnnotations| {
                let read_only = h.read_only_hint == Some(true);
                (
                    read_only,
                    !read_only && h.destructive_hint != Some(false),
                    read_only || h.idempotent_hint == Some(true),
                    h.open_world_hint != Some(false),
                )
            };
            let (lr, ld, li, lo) = effective(listed);
            let (rr, rd, ri, ro) = effective(resolved);
            let holds = (!lr || rr) && (lr || ld || rr || !rd) && (!li || rr || ri) && (lo || !ro);
            let (l, r) = (listed, resolved);
            assert_eq!(check_bound(l, r).is_ok(), holds, "{l:?} / {r:?}");
            kept += usize::from(holds);
        }
    }
    // Some pairs keep within, some do not: the check is not constant.
    assert!(kept > 0 && kept < all.len() * all.len());
}

#[test]
fn the_drafts_request_is_read_and_written_back_equal() {
    let request = read("wire/resolve-request.json");
    assert_valid(&draft("ResolveToolRequest"), &request);
    let params = &request["params"];
    let read = ResolveRequest::from_params(params).unwrap();
    assert_eq!(read.name, "manage_files");
    assert_eq!(read.arguments["action"], "read");
    assert_eq!(&read.to_params(), params);
    // Its `_meta` declares the extension the way 2026-07-28 reads it, and the crate writes the
    // same declaration for a request it makes.
    assert_eq!(
        Declaration::read(ProtocolVersion::V2026_07_28, read.meta.as_ref(), None),
        Declaration::Declared
    );
    let made = ResolveRequest::new("manage_files", read.arguments.clone())
        .declaring(ProtocolVersion::V2026_07_28);
    assert_eq!(made, read);
}

#[test]
fn the_drafts_result_is_read_and_written_back_equal() {
    let response = read("wire/resolve-response.json");
    assert_valid(&draft("ResolveToolResultResponse"), &response);
    let result = ResolveResult::from_value(&response["result"]).unwrap();
    assert_eq!(result.name(), "manage_files");
    assert!(result.annotations().read_only());
    assert_eq!(result.to_value(), response["result"]);
    // The same result, made from the read hints alone.
    let made = ResolveResult::new(
        "manage_files",
        ToolAnnotations::new()
            .with_read_only(true)
            .with_open_world(false),
    );
    assert_eq!(made.to_value(), response["result"]);
}

#[test]
fn the_drafts_resolvable_tool_bounds_its_resolution() {
    let tool = read("wire/resolvable-tool.json");
    assert_valid(&draft("ResolvableTool"), &tool);
    assert!(resolution::is_marked(tool["_meta"].as_object()));
    let (key, marker) = resolution::marker();
    assert_eq!(tool["_meta"][key.as_str()], marker);
    // The listed hints (another extension's key beside them is skipped) bound the example's
    // resolution, and the tool's mcp_annotations descriptor reads it whole.
    let listed: ToolAnnotations = serde_json::from_value(tool["annotations"].clone()).unwrap();
    let resolved =
        ResolveResult::from_value(&read("wire/resolve-response.json")["result"]).unwrap();
    assert!(check_bound(&listed, resolved.annotations()).is_ok());
    assert_eq!(
        resolved.accept("manage_files", &listed).unwrap(),
        *resolved.annotations()
    );
    let descriptor: mcp_annotations::Tool = serde_json::from_value(tool.clone()).unwrap();
    // The field records the marker, and `_meta` keeps what else the peer put there.
    assert!(descriptor.resolvable);
    assert!(descriptor.meta.is_none(), "{:?}", descriptor.meta);
    // Unmarked: no `_meta`, or `resolvable` not true.
    assert!(!resolution::is_marked(None));
    let unmarked = json!({"io.modelcontextprotocol/tool-resolution": {"resolvable": false}});
    assert!(!resolution::is_marked(unmarked.as_object()));
}

#[test]
fn every_result_written_is_valid_against_the_drafts_schema() {
    let validator = draft("ResolveToolResult");
    for hints in every_hint_set() {
        let result = ResolveResult::new("manage_files", hints.clone().with_title("Manage files"));
        let value = result.to_value();
        assert_valid(&validator, &value);
        // The four effective values, whatever was stated.
        for hint in Hint::ALL {
            assert_eq!(
                value["annotations"][hint.wire_name()],
                hints.effective(hint)
            );
        }
        assert_eq!(ResolveResult::from_value(&value).unwrap(), result);
    }
    // The validator is able to fail: a title is not part of a resolution.
    let mut titled = ResolveResult::new("t", ToolAnnotations::new()).to_value();
    titled["annotations"]["title"] = json!("T");
    assert!(!validator.is_valid(&titled));
}

#[test]
fn every_request_written_is_valid_against_the_drafts_schema() {
    let validator = draft("ResolveToolRequestParams");
    for version in ProtocolVersion::ALL {
        let arguments = json!({"path": "a.txt", "action": "delete"});
        let request = ResolveRequest::new("manage_files", arguments.as_object().unwrap().clone())
            .declaring(version);
        let params = request.to_params();
        assert_valid(&validator, &params);
        // A 2026-07-28 request declares the extension itself; an older one leaves it to the
        // session's `initialize`.
        let declared = Declaration::read(version, request.meta.as_ref(), None);
        assert_eq!(
            declared.is_declared(),
            version == ProtocolVersion::LATEST,
            "{version}"
        );
        assert_eq!(ResolveRequest::from_params(&params).unwrap(), request);
    }
    // Declaring keeps what the request's `_meta` already held.
    let mut meta = serde_json::Map::new();
    meta.insert("progressToken".into(), json!(7));
    meta.insert(
        "io.modelcontextprotocol/clientCapabilities".into(),
        json!({"extensions": {"com.example/other": {"a": 1}}, "roots": {}}),
    );
    let request = ResolveRequest {
        meta: Some(meta),
        ..ResolveRequest::new("t", serde_json::Map::new())
    }
    .declaring(ProtocolVersion::V2026_07_28);
    let params = request.to_params();
    assert_valid(&validator, &params);
    assert_eq!(params["_meta"]["progressToken"], 7);
    let capabilities = &params["_meta"]["io.modelcontextprotocol/clientCapabilities"];
    assert_eq!(
        capabilities["extensions"]["com.example/other"],
        json!({"a": 1})
    );
    assert_eq!(capabilities["roots"], json!({}));
}

/// The crate's reader and the draft's schema agree on what is a result: each document is a
/// valid result changed in one place.
#[test]
fn the_strict_reader_agrees_with_the_schema_on_results() {
    let validator = draft("ResolveToolResult");
    let valid = read("wire/resolve-response.json")["result"].clone();
    let mut cases = vec![valid.clone()];
    let mut change = |edit: &dyn Fn(&mut Value)| {
        let mut value = valid.clone();
        edit(&mut value);
        cases.push(value);
    };
    change(&|v| v["resultType"] = json!("partial"));
    change(&|v| {
        v.as_object_mut().unwrap().remove("resultType");
    });
    change(&|v| v["name"] = json!(7));
    change(&|v| {
        v["annotations"]
            .as_object_mut()
            .unwrap()
            .remove("openWorldHint");
    });
    change(&|v| v["annotations"]["readOnlyHint"] = json!("true"));
    change(&|v| v["annotations"]["readOnlyHint"] = Value::Null);
    change(&|v| v["annotations"]["title"] = json!("Read"));
    change(&|v| v["inputSchema"] = json!({"type": "object"}));
    change(&|v| v["_meta"] = json!({"io.modelcontextprotocol/serverInfo": {"name": "s"}}));
    change(&|v| v["_meta"] = json!({"com.example/x": 1}));
    change(&|v| v["_meta"] = json!([]));
    change(&|v| *v = json!([]));
    let mut both = (0, 0);
    for case in &cases {
        let schema_says = validator.is_valid(case);
        let reader_says = ResolveResult::from_value(case).is_ok();
        assert_eq!(schema_says, reader_says, "{case}");
        if schema_says {
            both.0 += 1;
        } else {
            both.1 += 1;
        }
    }
    // Both kinds are among the cases.
    assert_eq!(both, (2, cases.len() - 2));
}

/// And on what is a request's params.
#[test]
fn the_strict_reader_agrees_with_the_schema_on_requests() {
    let validator = draft("ResolveToolRequestParams");
    let valid = read("wire/resolve-request.json")["params"].clone();
    let mut cases = vec![valid.clone()];
    let mut change = |edit: &dyn Fn(&mut Value)| {
        let mut value = valid.clone();
        edit(&mut value);
        cases.push(value);
    };
    change(&|v| {
        v.as_object_mut().unwrap().remove("arguments");
    });
    change(&|v| {
        v.as_object_mut().unwrap().remove("_meta");
    });
    change(&|v| v["arguments"] = json!([]));
    change(&|v| v["arguments"] = json!({}));
    change(&|v| v["name"] = Value::Null);
    change(&|v| v["cursor"] = json!("x"));
    change(&|v| v["_meta"] = json!("x"));
    for case in &cases {
        let schema_says = validator.is_valid(case);
        let reader = ResolveRequest::from_params(case);
        assert_eq!(schema_says, reader.is_ok(), "{case}");
        if let Err(error) = reader {
            assert_eq!(error.code(), -32602, "{case}");
        }
    }
}

/// The -32021 error is the 2026-07-28 schema's `MissingRequiredClientCapabilityError`, and the
/// capability it names is what a request must declare.
#[test]
fn the_missing_capability_error_is_the_protocols() {
    let validator = jsonschema::validator_for(&annotations_tests::schema_definition(
        "full/schema-2026-07-28.json",
        "MissingRequiredClientCapabilityError",
    ))
    .unwrap();
    for declaration in [Declaration::Absent, Declaration::UnsupportedSettings] {
        let error = ResolveError::MissingCapability(declaration);
        let response = json!({"jsonrpc": "2.0", "id": 1, "error": error.to_error()});
        assert_valid(&validator, &response);
        let required = &response["error"]["data"]["requiredCapabilities"];
        assert_valid(&draft("ToolResolutionClientCapabilities"), required);
        let meta = json!({"io.modelcontextprotocol/clientCapabilities": required});
        assert!(
            Declaration::read(ProtocolVersion::V2026_07_28, meta.as_object(), None).is_declared()
        );
    }
    // Another error is not that one.
    let other = json!({"jsonrpc": "2.0", "id": 1, "error": ResolveError::UnknownTool("x".into()).to_error()});
    assert!(!validator.is_valid(&other));
}

/// The capability as a server declares it is the draft's `ToolResolutionServerCapabilities`.
#[test]
fn the_capability_is_the_drafts() {
    let mut extensions = serde_json::Map::new();
    extensions.insert(resolution::EXTENSION.to_owned(), resolution::settings());
    let capabilities = json!({"tools": {}, "extensions": extensions});
    assert_valid(&draft("ToolResolutionServerCapabilities"), &capabilities);
    // Settings this revision does not define are not its capability.
    let unknown = json!({"extensions": {resolution::EXTENSION: {"partial": true}}});
    assert!(!draft("ToolResolutionServerCapabilities").is_valid(&unknown));
    assert_eq!(
        Declaration::read(ProtocolVersion::V2025_06_18, None, Some(&unknown)),
        Declaration::UnsupportedSettings
    );
}

static LISTED: [mcp_annotations::Tool; 3] = [
    mcp_annotations::Tool::new("manage_files", mcp_annotations::schema::Schema::NO_INPUT)
        .with_annotations(
            ToolAnnotations::new()
                .with_destructive(true)
                .with_open_world(false),
        )
        .with_resolvable(true),
    mcp_annotations::Tool::new("ping", mcp_annotations::schema::Schema::NO_INPUT),
    mcp_annotations::Tool::new("tagged", mcp_annotations::schema::Schema::NO_INPUT)
        .with_resolvable(true),
];

/// The rendered tools of `listing`, as JSON.
fn rendered(
    listing: &mcp_annotations::Listing,
    options: &mcp_annotations::listing::ListOptions,
) -> Vec<Value> {
    let text = listing.render(options, None).unwrap();
    let result: Value = serde_json::from_str(&text).unwrap();
    result["tools"].as_array().unwrap().clone()
}

/// A resolvable tool carries the marker to a client that declared the extension, on every
/// version, and only to it; its own `_meta` is kept beside the marker, and a marker written
/// into `_meta` by hand is never listed.
#[test]
fn the_marker_is_listed_to_a_declaring_client_alone() {
    use mcp_annotations::listing::ListOptions;
    static WITH_META: std::sync::OnceLock<[mcp_annotations::Tool; 2]> = std::sync::OnceLock::new();
    let tools = WITH_META.get_or_init(|| {
        let mut own = serde_json::Map::new();
        own.insert("com.example/tier".into(), json!("gold"));
        let mut forged = own.clone();
        forged.insert(resolution::EXTENSION.into(), json!({"resolvable": true}));
        [
            LISTED[0].clone().with_meta(own),
            // Says it is resolvable in its `_meta`, yet answers no resolution.
            LISTED[1].clone().with_meta(forged),
        ]
    });
    let validator = draft("ResolvableTool");
    for listing in [
        mcp_annotations::Listing::new(&LISTED),
        mcp_annotations::Listing::new(tools),
    ] {
        for version in ProtocolVersion::ALL {
            let declared = rendered(
                &listing,
                &ListOptions::new(version).with_tool_resolution(true),
            );
            let plain = rendered(&listing, &ListOptions::new(version));
            for (tool, bare) in declared.iter().zip(&plain) {
                let resolvable = tool["name"] != "ping";
                assert_eq!(
                    resolution::is_marked(tool["_meta"].as_object()),
                    resolvable,
                    "{version} {tool}"
                );
                assert!(
                    !resolution::is_marked(bare["_meta"].as_object()),
                    "{version} {bare}"
                );
                assert!(
                    bare.get("_meta")
                        .is_none_or(|meta| meta.get(resolution::EXTENSION).is_none())
                );
                if resolvable {
                    assert_valid(&validator, tool);
                }
                // What the tool's own `_meta` says is kept, marker or not.
                if listing.tools()[0].meta.is_some() {
                    assert_eq!(tool["_meta"]["com.example/tier"], "gold", "{tool}");
                    assert_eq!(bare["_meta"]["com.example/tier"], "gold", "{bare}");
                }
                // Nothing else differs.
                let mut unmarked = tool.clone();
                if let Some(meta) = unmarked.get_mut("_meta").and_then(Value::as_object_mut) {
                    meta.remove(resolution::EXTENSION);
                    if meta.is_empty() {
                        unmarked.as_object_mut().unwrap().remove("_meta");
                    }
                }
                assert_eq!(&unmarked, bare, "{version}");
            }
        }
    }
    // Through a filter, the same.
    let filter = mcp_annotations::listing::Filter::new();
    let listing = mcp_annotations::Listing::new(&LISTED);
    let filtered = listing.filtered(&filter).unwrap();
    let text = filtered
        .render(
            &ListOptions::new(ProtocolVersion::LATEST).with_tool_resolution(true),
            None,
        )
        .unwrap();
    assert_eq!(text.matches("\"resolvable\":true").count(), 2, "{text}");
}

/// A descriptor read from a peer's listing says whether the peer marked it, and writes the
/// marker back (`Serialize` writes what a declaring client is listed).
#[test]
fn a_peers_marker_is_read_and_written_back() {
    let tool = read("wire/resolvable-tool.json");
    let descriptor: mcp_annotations::Tool = serde_json::from_value(tool.clone()).unwrap();
    assert!(descriptor.resolvable);
    let written = serde_json::to_value(&descriptor).unwrap();
    assert_eq!(written["_meta"], tool["_meta"]);
    let unmarked: mcp_annotations::Tool =
        serde_json::from_value(json!({"name": "t", "inputSchema": {"type": "object"}})).unwrap();
    assert!(!unmarked.resolvable);
    assert!(
        serde_json::to_value(&unmarked)
            .unwrap()
            .get("_meta")
            .is_none()
    );
}
