//! Progress on long work: drawn on stderr when stderr is a terminal (checked under a
//! pseudo-terminal, made with Python's `pty`), never through a pipe, and never on stdout.

use std::process::Command;

use serde_json::Value;

mod common;

use common::{audit_binary, example};

/// Runs `args` with stderr on a pseudo-terminal and stdout in `out`: what the terminal showed.
const UNDER_A_TERMINAL: &str = r#"
import os, pty, sys
out, argv = sys.argv[1], sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    os.dup2(os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 1)
    os.execv(argv[0], argv)
shown = b""
while True:
    try:
        data = os.read(fd, 65536)
    except OSError:
        break
    if not data:
        break
    shown += data
_, status = os.waitpid(pid, 0)
sys.stdout.buffer.write(shown)
sys.exit(os.waitstatus_to_exitcode(status))
"#;

fn probe_args() -> Vec<String> {
    let server = example("clean_server");
    [
        "probe",
        "--format",
        "json",
        "--cases",
        "2",
        "--runs",
        "1",
        "--",
        server.to_str().unwrap(),
    ]
    .map(str::to_owned)
    .to_vec()
}

#[test]
fn a_probe_shows_its_progress_on_a_terminal_only() {
    let dir = std::env::temp_dir().join(format!("audit-progress-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("report.json");
    let shown = Command::new("python3")
        .args([
            "-c",
            UNDER_A_TERMINAL,
            out.to_str().unwrap(),
            audit_binary(),
        ])
        .args(probe_args())
        .output()
        .expect("python3 runs the binary under a pseudo-terminal");
    assert_eq!(
        shown.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&shown.stderr)
    );
    let terminal = String::from_utf8_lossy(&shown.stdout);
    for word in ["probing", "/3 tools", "calls", "violations so far"] {
        assert!(terminal.contains(word), "{word:?} not shown: {terminal:?}");
    }
    // stdout is the report alone, the display cleared before it.
    let report: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(report["tools"].as_array().unwrap().len(), 3);
    let _ = std::fs::remove_dir_all(&dir);

    // Through pipes: nothing but the report.
    let piped = Command::new(audit_binary())
        .args(probe_args())
        .output()
        .unwrap();
    assert_eq!(piped.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&piped.stderr);
    assert!(!stderr.contains("probing"), "{stderr:?}");
    assert!(!stderr.contains('\u{1b}'), "{stderr:?}");
    let _: Value = serde_json::from_slice(&piped.stdout).unwrap();
}
