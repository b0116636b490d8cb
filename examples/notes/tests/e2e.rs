//! The notes example, end to end: the built server spawned as a child process and driven by
//! rmcp's own client over stdio, and its notes file under kills and concurrent servers.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use mcp_annotations::{Tool, ToolAnnotations};
use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};

/// The built `notes` server.
fn notes_binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_notes"))
}

/// A fresh directory for one test's notes file, removed when the test ends (passed or not).
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn temp_dir(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("annotations-notes-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

async fn connect(notes_file: &Path) -> RunningService<RoleClient, ()> {
    connect_waiting(notes_file, 5000).await
}

/// A client of a server that waits at most `lock_wait_ms` for another process's lock.
async fn connect_waiting(notes_file: &Path, lock_wait_ms: u64) -> RunningService<RoleClient, ()> {
    let mut command = tokio::process::Command::new(notes_binary());
    command.env("NOTES_FILE", notes_file);
    command.env("NOTES_LOCK_WAIT_MS", lock_wait_ms.to_string());
    let (transport, _) = TokioChildProcess::builder(command)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    ().serve(transport).await.unwrap()
}

async fn call(client: &rmcp::Peer<RoleClient>, name: &str, arguments: Value) -> (bool, String) {
    let params = CallToolRequestParams::new(name.to_owned())
        .with_arguments(arguments.as_object().cloned().unwrap());
    let result = client.call_tool(params).await.unwrap();
    let text = result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n");
    (result.is_error == Some(true), text)
}

#[tokio::test]
async fn a_client_lists_and_calls_the_notes_tools() {
    let dir = temp_dir("calls");
    let client = connect(&dir.join("notes.json")).await;

    let info = client.peer_info().unwrap();
    assert_eq!(
        info.server_info.as_ref().map(|i| i.name.as_str()),
        Some("notes")
    );

    let tools = client.list_all_tools().await.unwrap();
    let tool = |name: &str| -> Tool {
        let theirs = tools.iter().find(|t| t.name == name).unwrap();
        serde_json::from_value(serde_json::to_value(theirs).unwrap()).unwrap()
    };
    let list = tool("list_notes");
    assert_eq!(list.title(), Some("List notes"));
    assert_eq!(
        list.description(),
        Some("List every saved note with its id and title.")
    );
    assert_eq!(
        list.input_schema.to_value(),
        json!({"type": "object", "additionalProperties": false})
    );
    assert_eq!(
        list.annotations,
        ToolAnnotations::new()
            .with_title("List notes")
            .with_read_only(true)
            .with_destructive(false)
            .with_idempotent(true)
            .with_open_world(false)
    );
    let add = tool("add_note");
    assert_eq!(
        add.description(),
        Some("Save a new note. Use this when the user asks to write something down.")
    );
    assert_eq!(
        add.input_schema.to_value(),
        json!({
            "type": "object",
            "properties": {
                "title": {"type": "string", "description": "Short title for the note"},
                "body": {"type": "string", "description": "Text of the note"}
            },
            "required": ["title", "body"],
            "additionalProperties": false
        })
    );
    assert_eq!(
        add.annotations,
        ToolAnnotations::new()
            .with_title("Add note")
            .with_read_only(false)
            .with_destructive(false)
            .with_idempotent(false)
            .with_open_world(false)
    );
    let delete = tool("delete_note");
    assert_eq!(
        delete.description(),
        Some("Permanently delete a note by id. This cannot be undone.")
    );
    assert_eq!(
        delete.input_schema.to_value()["properties"]["note_id"]["type"],
        "integer"
    );
    assert_eq!(
        delete.input_schema.to_value()["properties"]["note_id"]["description"],
        "Id of the note to delete, from list_notes"
    );
    assert_eq!(
        delete.annotations,
        ToolAnnotations::new()
            .with_title("Delete note")
            .with_read_only(false)
            .with_destructive(true)
            .with_idempotent(true)
            .with_open_world(false)
    );

    assert_eq!(
        call(&client, "list_notes", json!({})).await,
        (false, "No notes saved.".into())
    );
    assert_eq!(
        call(
            &client,
            "add_note",
            json!({"title": "Milk", "body": "Buy milk"})
        )
        .await,
        (false, "Saved note 1: Milk".into())
    );
    assert_eq!(
        call(
            &client,
            "add_note",
            json!({"title": "Eggs", "body": "A dozen"})
        )
        .await,
        (false, "Saved note 2: Eggs".into())
    );
    assert_eq!(
        call(&client, "list_notes", json!({})).await,
        (false, "1: Milk\n2: Eggs".into())
    );
    assert_eq!(
        call(&client, "delete_note", json!({"note_id": 1})).await,
        (false, "Deleted note 1: Milk".into())
    );
    assert_eq!(
        call(&client, "list_notes", json!({})).await,
        (false, "2: Eggs".into())
    );

    // Bad arguments are failed results, and the server keeps serving.
    for (name, arguments, message) in [
        (
            "add_note",
            json!({"title": "No body"}),
            "missing argument `body`",
        ),
        (
            "add_note",
            json!({"title": 5, "body": "x"}),
            "invalid argument `title`: expected a string, found 5",
        ),
        (
            "delete_note",
            json!({"note_id": "one"}),
            "invalid argument `note_id`",
        ),
        ("delete_note", json!({"note_id": 99}), "No note with id 99."),
        (
            "add_note",
            json!({"title": "Big", "body": "x".repeat(10 << 20)}),
            "a note holds at most",
        ),
    ] {
        let (error, text) = call(&client, name, arguments).await;
        assert!(error && text.contains(message), "{name}: {text}");
    }
    // Ids are never reused: the newest note deleted, the next one still gets a new id.
    call(&client, "delete_note", json!({"note_id": 2})).await;
    assert_eq!(
        call(&client, "add_note", json!({"title": "Tea", "body": ""}))
            .await
            .1,
        "Saved note 3: Tea"
    );

    // The file is the guide's format.
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("notes.json")).unwrap()).unwrap();
    assert_eq!(saved, json!([{"id": 3, "title": "Tea", "body": ""}]));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_corrupt_file_is_an_error_never_an_empty_list() {
    let dir = temp_dir("corrupt");
    let file = dir.join("notes.json");
    std::fs::write(&file, "[{\"id\": 1, \"title\": \"Milk\"").unwrap();
    let output = std::process::Command::new(notes_binary())
        .env("NOTES_FILE", &file)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("is not a JSON array of notes"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "[{\"id\": 1, \"title\": \"Milk\"",
        "left as it was"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_on_one_file_lose_none_of_each_others_notes() {
    let dir = temp_dir("two");
    let file = dir.join("notes.json");
    two_servers(&file, &file).await;
}

/// One server given a symbolic link and one given its target share one lock: neither loses
/// the other's notes. A link whose target does not exist yet is written through, creating it.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_link_and_its_target_are_one_notes_file() {
    let dir = temp_dir("link-and-target");
    std::fs::create_dir_all(dir.join("real")).unwrap();
    let file = dir.join("real").join("notes.json");
    let link = dir.join("notes.json");
    std::os::unix::fs::symlink("real/notes.json", &link).unwrap();
    two_servers(&link, &file).await;
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

/// Two servers, on `first` and on `second`, add 40 notes each at once; all 80 are saved.
async fn two_servers(first: &Path, second: &Path) {
    let file = second;
    let (a, b) = (connect(first).await, connect(second).await);
    let adds = |client: RunningService<RoleClient, ()>, who: &'static str| async move {
        for i in 0..40 {
            let (error, _) = call(
                &client,
                "add_note",
                json!({"title": format!("{who} {i}"), "body": ""}),
            )
            .await;
            assert!(!error);
        }
        client.cancel().await.unwrap();
    };
    tokio::join!(adds(a, "a"), adds(b, "b"));
    let saved: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    assert_eq!(saved.len(), 80);
    let mut ids: Vec<u64> = saved.iter().map(|n| n["id"].as_u64().unwrap()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 80, "every id is distinct");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_never_leaves_a_broken_file_or_loses_an_answered_note() {
    let dir = temp_dir("kill");
    let file = dir.join("notes.json");
    let mut answered: Vec<String> = Vec::new();
    // How many bursts the kill cut short.
    let mut interrupted = 0;
    for round in 0..12u64 {
        let mut command = tokio::process::Command::new(notes_binary());
        command.env("NOTES_FILE", &file).stderr(Stdio::null());
        let (transport, _stderr) = TokioChildProcess::builder(command)
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let pid = transport.id().unwrap();
        let client = ().serve(transport).await.unwrap();
        let client = std::sync::Arc::new(client);
        // A burst of adds, killed after a pseudo-random delay.
        let burst = {
            let client = client.clone();
            tokio::spawn(async move {
                let mut done = Vec::new();
                for i in 0..200 {
                    let title = format!("round {round} note {i}");
                    let params = CallToolRequestParams::new("add_note").with_arguments(
                        json!({"title": title, "body": "x"})
                            .as_object()
                            .cloned()
                            .unwrap(),
                    );
                    match client.call_tool(params).await {
                        Ok(result) if result.is_error != Some(true) => done.push(title),
                        _ => break,
                    }
                }
                done
            })
        };
        let delay = (round * 7919) % 40 + 5;
        tokio::time::sleep(std::time::Duration::from_millis(delay)).await;
        // SIGKILL: the server gets no chance to clean up. The kill must land on the running
        // server, and the burst must be cut short by it.
        let killed = std::process::Command::new("kill")
            .args(["-9", &pid.to_string()])
            .status()
            .unwrap();
        assert!(
            killed.success(),
            "round {round}: the server was not running to be killed"
        );
        let done = burst.await.unwrap();
        if done.len() < 200 {
            interrupted += 1;
        }
        answered.extend(done);
        // After every kill the file is whole, and holds every note whose add was answered.
        let text = std::fs::read_to_string(&file).unwrap_or_else(|_| "[]".into());
        let saved: Vec<Value> =
            serde_json::from_str(&text).expect("the notes file is always valid JSON");
        let titles: std::collections::HashSet<&str> =
            saved.iter().map(|n| n["title"].as_str().unwrap()).collect();
        for title in &answered {
            assert!(
                titles.contains(title.as_str()),
                "{title} was answered but is missing"
            );
        }
    }
    assert!(!answered.is_empty());
    // A burst of 200 adds (each a locked, synced write of the file) takes far longer than the
    // 5 to 44 ms before the kill: the kill cuts them short (one of 12 may have been quicker).
    assert!(
        interrupted >= 11,
        "only {interrupted} of 12 bursts were interrupted"
    );
}

/// While another process holds the file's lock, the server still answers `ping` and
/// `tools/list` at once, and a call that needs the file gets a clear error after the bounded
/// wait; once the lock is released, calls work again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_held_lock_never_stalls_the_server_and_a_waiting_call_gets_an_answer() {
    use std::time::{Duration, Instant};
    let dir = temp_dir("lock");
    let notes = dir.join("notes.json");
    let client = connect_waiting(&notes, 1500).await;
    assert!(
        !call(&client, "add_note", json!({"title": "a", "body": ""}))
            .await
            .0
    );

    let lock = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(dir.join("notes.json.lock"))
        .unwrap();
    lock.lock().unwrap();
    let started = Instant::now();
    let waiting = {
        let peer = client.peer().clone();
        tokio::spawn(async move {
            let params = CallToolRequestParams::new("add_note".to_owned()).with_arguments(
                json!({"title": "b", "body": ""})
                    .as_object()
                    .cloned()
                    .unwrap(),
            );
            peer.call_tool(params).await.unwrap()
        })
    };
    let waiting_list = {
        let peer = client.peer().clone();
        tokio::spawn(async move {
            peer.call_tool(CallToolRequestParams::new("list_notes".to_owned()))
                .await
                .unwrap()
        })
    };
    tokio::time::sleep(Duration::from_millis(200)).await;
    for _ in 0..3 {
        let listed = tokio::time::timeout(Duration::from_millis(500), client.list_all_tools())
            .await
            .expect("tools/list answers while the file is locked")
            .unwrap();
        assert_eq!(listed.len(), 4);
    }
    for result in [waiting.await.unwrap(), waiting_list.await.unwrap()] {
        assert_eq!(result.is_error, Some(true));
        let text = result.content[0].as_text().unwrap().text.clone();
        assert!(text.contains("is locked by another process"), "{text}");
    }
    assert!(started.elapsed() < Duration::from_secs(10));
    drop(lock);
    let (error, text) = call(&client, "list_notes", json!({})).await;
    assert!(!error && text.contains("a"), "{text}");
    client.cancel().await.unwrap();
}

/// A save keeps the file's permissions, writes through a symbolic link to its target, and
/// removes the temporary file a killed writer left; a title has a size limit.
#[cfg(unix)]
#[tokio::test]
async fn saves_keep_permissions_follow_links_and_clean_up_after_killed_writers() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir("files");
    let target = dir.join("real.json");
    std::fs::write(&target, "[]").unwrap();
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o600)).unwrap();
    let link = dir.join("notes.json");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let stale = dir.join("real.json.4194303.tmp");
    std::fs::write(&stale, "half a file").unwrap();

    let client = connect(&link).await;
    assert!(
        !call(&client, "add_note", json!({"title": "kept", "body": ""}))
            .await
            .0
    );
    let (error, text) = call(
        &client,
        "add_note",
        json!({"title": "t".repeat(2000), "body": ""}),
    )
    .await;
    assert!(error && text.contains("a title holds at most"), "{text}");
    client.cancel().await.unwrap();

    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let saved = std::fs::read_to_string(&target).unwrap();
    assert!(saved.contains("kept"), "{saved}");
    let mode = std::fs::metadata(&target).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    assert!(
        !stale.exists(),
        "the killed writer's temporary file is removed"
    );
}

/// On a read-only file system the notes are still listed; only a change fails, saying why.
/// Needs a read-only mount, which this test makes with `mount` (root on Linux), so it runs
/// only when asked: `cargo test -p notes --test e2e -- --ignored`, which CI does where it can
/// mount.
#[cfg(target_os = "linux")]
#[tokio::test]
#[ignore = "needs root, to mount a read-only file system"]
async fn a_read_only_file_system_still_lists_the_notes() {
    let dir = temp_dir("read-only");
    let mount = |args: &[&str]| {
        std::process::Command::new("mount")
            .args(args)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success())
    };
    assert!(
        mount(&["-t", "tmpfs", "tmpfs", dir.to_str().unwrap()]),
        "cannot mount a file system here: run this test as root on Linux"
    );
    std::fs::write(
        dir.join("notes.json"),
        r#"[{"id": 1, "title": "kept", "body": ""}]"#,
    )
    .unwrap();
    assert!(mount(&["-o", "remount,ro", dir.to_str().unwrap()]));
    let client = connect(&dir.join("notes.json")).await;
    let (error, text) = call(&client, "list_notes", json!({})).await;
    let (add_error, add_text) = call(&client, "add_note", json!({"title": "x", "body": ""})).await;
    client.cancel().await.unwrap();
    let _ = std::process::Command::new("umount").arg(&*dir).status();
    assert!(!error && text == "1: kept", "{text}");
    assert!(
        add_error && add_text.contains("Read-only file system"),
        "{add_text}"
    );
}

/// A client of the server that declares the tool-resolution extension, on `version`: in
/// `initialize` before 2026-07-28, on each request (rmcp's discover mode) from then.
async fn connect_resolving(
    notes_file: &Path,
    version: rmcp::model::ProtocolVersion,
) -> RunningService<RoleClient, rmcp::model::ClientConfig> {
    use rmcp::model::{ClientCapabilities, ClientConfig, Implementation};
    use rmcp::service::{ClientLifecycleMode, ClientServiceExt};
    let mut command = tokio::process::Command::new(notes_binary());
    command.env("NOTES_FILE", notes_file);
    let (transport, _) = TokioChildProcess::builder(command)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut capabilities = ClientCapabilities::default();
    capabilities.extensions = Some(
        [(RESOLUTION.to_owned(), serde_json::Map::new())]
            .into_iter()
            .collect(),
    );
    let config = ClientConfig::new(capabilities, Implementation::new("e2e", "1"))
        .with_protocol_version(version.clone());
    if version == rmcp::model::ProtocolVersion::V_2026_07_28 {
        let mode = ClientLifecycleMode::Discover {
            preferred_versions: vec![version],
        };
        config.serve_with_lifecycle(transport, mode).await.unwrap()
    } else {
        config.serve(transport).await.unwrap()
    }
}

const RESOLUTION: &str = "io.modelcontextprotocol/tool-resolution";

/// `manage_note` is listed with the worst of its actions and marked resolvable; each call is
/// resolved to its action's own hints (a read is read-only, a delete destructive), without
/// being made; the calls then do what they say. On each protocol version, through rmcp's
/// client sending the extension's custom request.
#[tokio::test]
async fn manage_note_is_resolved_per_call_on_every_version() {
    use rmcp::model::{ClientRequest, CustomRequest, ProtocolVersion, ServerResult};
    for version in [
        ProtocolVersion::V_2025_06_18,
        ProtocolVersion::V_2025_11_25,
        ProtocolVersion::V_2026_07_28,
    ] {
        let dir = temp_dir(&format!("resolve-{version}"));
        let client = connect_resolving(&dir.join("notes.json"), version.clone()).await;
        let tools = client.list_all_tools().await.unwrap();
        let manage = tools
            .iter()
            .find(|tool| tool.name == "manage_note")
            .unwrap();
        let manage: Tool = serde_json::from_value(serde_json::to_value(manage).unwrap()).unwrap();
        assert!(manage.resolvable, "{version}: {manage:?}");
        let listed = &manage.annotations;
        assert!(listed.destructive() && !listed.idempotent() && !listed.open_world());

        let (failed, _) = call(&client, "add_note", json!({"title": "Milk", "body": "2 l"})).await;
        assert!(!failed);
        let resolve = |action: &str| {
            let params =
                json!({"name": "manage_note", "arguments": {"note_id": 1, "action": action}});
            client.send_request(ClientRequest::CustomRequest(CustomRequest::new(
                "tools/resolve",
                Some(params),
            )))
        };
        let mut resolved = Vec::new();
        for action in ["read", "append", "delete"] {
            let answer = resolve(action).await.unwrap();
            let ServerResult::CustomResult(result) = answer else {
                panic!("{version} {action}: not a custom result: {answer:?}");
            };
            let result = mcp_annotations::resolution::ResolveResult::from_value(&result.0)
                .unwrap_or_else(|error| panic!("{version} {action}: {error}"));
            // The host's own check: the name, and the bound of the listing.
            result.accept("manage_note", listed).unwrap();
            resolved.push(result.annotations().clone());
        }
        assert!(resolved[0].read_only(), "{version}: a read is read-only");
        assert!(!resolved[1].read_only() && !resolved[1].destructive());
        assert!(resolved[2].destructive() && resolved[2].idempotent());
        // Resolving ran nothing: the note is still there, unchanged.
        let (_, text) = call(
            &client,
            "manage_note",
            json!({"note_id": 1, "action": "read"}),
        )
        .await;
        assert_eq!(text, "1: Milk\n\n2 l", "{version}");
        let (failed, _) = call(
            &client,
            "manage_note",
            json!({"note_id": 1, "action": "append", "text": "and bread"}),
        )
        .await;
        assert!(!failed);
        let (_, text) = call(
            &client,
            "manage_note",
            json!({"note_id": 1, "action": "read"}),
        )
        .await;
        assert_eq!(text, "1: Milk\n\n2 l\nand bread", "{version}");
        let (failed, _) = call(
            &client,
            "manage_note",
            json!({"note_id": 1, "action": "delete"}),
        )
        .await;
        assert!(!failed);
        let (_, text) = call(&client, "list_notes", json!({})).await;
        assert_eq!(text, "No notes saved.", "{version}");
        client.cancel().await.unwrap();
    }
}
