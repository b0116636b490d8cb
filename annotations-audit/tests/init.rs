//! `annotations-audit init`: one probe of a server written as the settings file its next
//! probes start from. What worked is kept, each value with where it came from; a tool none of
//! whose calls succeeded gets a `TODO`, which `probe` refuses until its author writes
//! arguments; once written, they are called first and the report says they came from the file.

use serde_json::Value;

mod common;

use common::{Folder, example, run_in as run, tool, valid_report};

#[test]
fn init_writes_what_worked_asks_for_what_did_not_and_probe_reads_it() {
    let folder = Folder::new("init");
    let dir = folder.0.clone();
    std::fs::create_dir_all(dir.join("seed/boxes")).unwrap();
    std::fs::write(dir.join("seed/boxes/tea"), "green").unwrap();
    let server = example("picky_server");
    let server = server.to_str().unwrap();
    let probe_options = ["--cases", "6", "--seed", "3", "--runs", "1"];
    let mut init = vec!["init", "--seed-dir", "seed"];
    init.extend(probe_options);
    init.extend(["--", server]);
    let made = run(&dir, &init);
    let said = String::from_utf8_lossy(&made.stdout);
    assert_eq!(
        made.status.code(),
        Some(0),
        "{said}{}",
        String::from_utf8_lossy(&made.stderr)
    );
    assert!(
        said.contains("5 tools, 4 with arguments that succeeded, 1 with a TODO"),
        "{said}"
    );
    let path = dir.join(".annotations-audit.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    // The server's command and its seed, as given.
    assert!(text.contains(&format!("command = [{server:?}]")), "{text}");
    // The seed folder made absolute: the file may be read from another folder.
    let seed = std::fs::canonicalize(dir.join("seed")).unwrap();
    assert!(
        text.contains(&format!("seed-dir = {:?}", seed.to_str().unwrap())),
        "{text}"
    );
    // `open_box` worked with the name `list_boxes` gave, and says so.
    let open_box = entry(&text, "open_box");
    assert!(open_box.contains("{ name = \"tea\" }"), "{open_box}");
    assert!(
        open_box.contains("name from earlier-call") || open_box.contains("name from state"),
        "{open_box}"
    );
    assert!(!open_box.contains("TODO"), "{open_box}");
    // `unlock` never worked: a TODO says why, with the server's answer.
    let unlock = entry(&text, "unlock");
    assert!(unlock.contains("# TODO: no call succeeded"), "{unlock}");
    assert!(unlock.contains("wrong code"), "{unlock}");
    // `put_label` failed until `init_shelf`, listed after it, set the shelf up: it was probed
    // again after it, and worked.
    let put_label = entry(&text, "put_label");
    assert!(put_label.contains("cases = ["), "{put_label}");
    assert!(!put_label.contains("TODO"), "{put_label}");
    // A second init does not write over the first unless told.
    let again = run(&dir, &init);
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("--force"));
    // The probe refuses the file while its TODO is there, naming the line.
    let mut probe = vec!["probe", "--format", "json"];
    probe.extend(probe_options);
    let refused = run(&dir, &probe);
    assert_eq!(refused.status.code(), Some(2));
    let why = String::from_utf8_lossy(&refused.stderr);
    let line = text.lines().position(|l| l.contains("TODO")).unwrap() + 1;
    assert!(
        why.contains(&format!("still has a TODO on line {line}")),
        "{why}"
    );
    // Its author writes the code; the probe then takes the server's command from the file,
    // calls the written case first, and verifies what it claims.
    let written = text.replace(
        &text
            .lines()
            .find(|l| l.contains("TODO"))
            .unwrap()
            .to_owned(),
        "",
    );
    let written = written.replace(
        "name = \"unlock\"\n",
        "name = \"unlock\"\ncases = [{ code = \"sesame-42\" }]\n",
    );
    std::fs::write(&path, written).unwrap();
    let probed = run(&dir, &probe);
    let report: Value = serde_json::from_slice(&probed.stdout)
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&probed.stderr)));
    valid_report(&report);
    assert_eq!(probed.status.code(), Some(0), "{report}");
    let unlock = tool(&report, "unlock");
    assert_eq!(unlock["probe"]["nonDestructive"], "verified", "{unlock}");
    assert_eq!(unlock["probe"]["idempotent"], "verified", "{unlock}");
    assert_eq!(
        unlock["succeededWith"][0],
        serde_json::json!({"arguments": {"code": "sesame-42"}, "from": {"/code": "settings"}})
    );
    // The cases written for `put_label` fail before the shelf is set up, and work after.
    let put_label = tool(&report, "put_label");
    assert_eq!(
        put_label["probe"]["nonDestructive"], "verified",
        "{put_label}"
    );
    assert!(
        put_label["notes"][0]
            .as_str()
            .is_some_and(|note| note.starts_with("probed again after `init_shelf`")),
        "{put_label}"
    );
    let said = report["server"].to_string();
    assert!(
        said.contains("every call of `put_label` failed alike before `init_shelf`"),
        "{said}"
    );
    drop(folder);
}

/// The lines of `tool`'s entry in `text`: its comments and its `[[tool]]` table.
fn entry(text: &str, tool: &str) -> String {
    let at = text.find(&format!("# `{tool}` claims")).unwrap();
    let rest = &text[at..];
    let end = rest[1..].find("\n# `").map_or(rest.len(), |end| end + 1);
    rest[..end].to_owned()
}
