//! The audit over Streamable HTTP (`--http`) against servers that hold an answer open: an event
//! stream kept alive after its answer is read up to the answer, never to its end; an answer
//! that trickles in is bounded by `--timeout` as a whole, not per read.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

mod common;

use common::audit_binary;

/// How a test server answers.
#[derive(Clone, Copy)]
enum Mode {
    /// `tools/list` as a chunked event stream: a comment, the answer, then keep-alive
    /// comments every 100 ms for a minute.
    HeldStream,
    /// `initialize`'s answer one byte every 300 ms.
    Trickle,
    /// Every message answered with a `ping` request of the server's own, the audit's replies
    /// to them too: an answer never comes.
    PingLoop,
    /// Every request redirected (307) to the same path on this port of `localhost`: another
    /// origin.
    Redirect(u16),
    /// Every request refused with 401, the request's `Authorization` header echoed in the body.
    EchoRefusal,
    /// Every request refused with 401, the header echoed where the shown body is cut (past
    /// 100 characters of padding).
    LongRefusal,
    /// The header echoed in a tool's title and description and in the server's name.
    EchoTitle,
    /// `tools/list` answered with a JSON-RPC error that echoes the header, its letters
    /// written as JSON escapes.
    EchoError,
}

/// One request read from `stream`: its JSON body, and its `Authorization` header.
fn read_request(stream: &mut TcpStream) -> Option<(Value, String)> {
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut length = 0usize;
    let mut authorization = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().ok()?;
            } else if name.eq_ignore_ascii_case("authorization") {
                value.trim().clone_into(&mut authorization);
            }
        }
    }
    let mut body = vec![0u8; length];
    reader.read_exact(&mut body).ok()?;
    Some((serde_json::from_slice(&body).ok()?, authorization))
}

fn json_answer(stream: &mut TcpStream, body: &Value) {
    let body = body.to_string();
    let _ = write!(
        stream,
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nMcp-Session-Id: s1\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
}

fn chunk(stream: &mut TcpStream, text: &str) -> bool {
    write!(stream, "{:x}\r\n{text}\r\n", text.len())
        .and_then(|()| stream.flush())
        .is_ok()
}

fn handle(mut stream: TcpStream, mode: Mode) {
    let Some((request, authorization)) = read_request(&mut stream) else {
        return;
    };
    let id = request.get("id").cloned();
    match (request["method"].as_str(), mode) {
        (_, Mode::PingLoop) => json_answer(
            &mut stream,
            &json!({"jsonrpc": "2.0", "id": "p", "method": "ping"}),
        ),
        (_, Mode::Redirect(port)) => {
            let _ = write!(
                stream,
                "HTTP/1.1 307 Temporary Redirect\r\nLocation: http://localhost:{port}/mcp\r\n\
                 Content-Length: 0\r\nConnection: close\r\n\r\n"
            );
        }
        (_, Mode::EchoRefusal) => {
            let body = format!("denied for {authorization}");
            let _ = write!(
                stream,
                "HTTP/1.1 401 Unauthorized\r\nContent-Type: text/plain\r\n\
                 Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
        (_, Mode::LongRefusal) => {
            let body = format!("denied{} {authorization}", ".".repeat(100));
            let _ = write!(
                stream,
                "HTTP/1.1 401 Unauthorized\r\nContent-Type: text/plain\r\n\
                 Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
        (Some("tools/list"), Mode::EchoTitle) => json_answer(
            &mut stream,
            &json!({"jsonrpc": "2.0", "id": id, "result": {"tools": [
                {"name": "echo", "title": format!("Echo {authorization}"),
                    "description": format!("Sent {authorization}."),
                    "inputSchema": {"type": "object"},
                    "annotations": {"readOnlyHint": true, "openWorldHint": false}}]}}),
        ),
        (Some("tools/list"), Mode::EchoError) => {
            let escaped: String = authorization
                .chars()
                .map(|c| format!("\\u{:04x}", u32::from(c)))
                .collect();
            let body = format!(
                r#"{{"jsonrpc":"2.0","id":{},"error":{{"code":-32600,"message":"bad token {escaped}"}}}}"#,
                id.unwrap_or(Value::Null)
            );
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\
                 Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
        (Some("initialize"), Mode::Trickle) => {
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n"
            );
            for _ in 0..200 {
                if stream
                    .write_all(b" ")
                    .and_then(|()| stream.flush())
                    .is_err()
                {
                    return;
                }
                std::thread::sleep(Duration::from_millis(300));
            }
        }
        (Some("initialize"), _) => json_answer(
            &mut stream,
            &json!({"jsonrpc": "2.0", "id": id, "result": {"protocolVersion": "2025-06-18",
                "capabilities": {"tools": {}}, "serverInfo": {"name": "held", "version": "0"}}}),
        ),
        (Some("tools/list"), Mode::HeldStream) => {
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\
                 Transfer-Encoding: chunked\r\n\r\n"
            );
            let answer = json!({"jsonrpc": "2.0", "id": id, "result": {"tools": [
                {"name": "fine", "title": "Fine", "description": "A tool.",
                    "inputSchema": {"type": "object"},
                    "annotations": {"readOnlyHint": true, "openWorldHint": false}}]}});
            if !chunk(&mut stream, ": ready\n\n")
                || !chunk(&mut stream, &format!("data: {answer}\n\n"))
            {
                return;
            }
            for _ in 0..600 {
                std::thread::sleep(Duration::from_millis(100));
                if !chunk(&mut stream, ": keep-alive\n\n") {
                    return;
                }
            }
        }
        (Some(_), _) if id.is_some() => {
            json_answer(
                &mut stream,
                &json!({"jsonrpc": "2.0", "id": id, "result": {}}),
            );
        }
        _ => {
            let _ = write!(
                stream,
                "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            );
        }
    }
}

/// A server on a free local port, each connection answered on a thread of its own.
fn serve(mode: Mode) -> String {
    serve_on(TcpListener::bind("127.0.0.1:0").unwrap(), mode)
}

/// [`serve`], on `listener`.
fn serve_on(listener: TcpListener, mode: Mode) -> String {
    let address = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || handle(stream, mode));
        }
    });
    format!("http://{address}/mcp")
}

#[test]
fn an_event_stream_held_open_is_read_up_to_its_answer() {
    let url = serve(Mode::HeldStream);
    let started = Instant::now();
    let output = Command::new(audit_binary())
        .args([
            "audit",
            "--format",
            "json",
            "--timeout",
            "20",
            "--http",
            &url,
        ])
        .output()
        .unwrap();
    let elapsed = started.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let report: Value =
        serde_json::from_slice(&output.stdout).unwrap_or_else(|_| panic!("{stderr}"));
    assert_eq!(report["tools"][0]["name"], "fine", "{report}");
    assert_eq!(output.status.code(), Some(0), "{report} {stderr}");
    // Read to the answer, not to the stream's end a minute on, nor to the timeout.
    assert!(elapsed < Duration::from_secs(10), "{elapsed:?}");
}

#[test]
fn an_answer_that_trickles_in_is_bounded_by_the_timeout() {
    let url = serve(Mode::Trickle);
    let started = Instant::now();
    let output = Command::new(audit_binary())
        .args(["audit", "--timeout", "2", "--http", &url])
        .output()
        .unwrap();
    let elapsed = started.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("the server did not answer within 2 s"),
        "{stderr}"
    );
    assert!(elapsed < Duration::from_secs(10), "{elapsed:?}");
}

/// A server that answers every message, the audit's replies included, with a request of its
/// own never answers: the timeout still holds, over however many requests.
#[test]
fn a_server_that_only_asks_is_bounded_by_the_timeout() {
    let url = serve(Mode::PingLoop);
    let started = Instant::now();
    let output = Command::new(audit_binary())
        .args(["audit", "--timeout", "2", "--http", &url])
        .output()
        .unwrap();
    let elapsed = started.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("did not answer"), "{stderr}");
    assert!(elapsed < Duration::from_secs(10), "{elapsed:?}");
}

/// A redirect to another origin is not followed: the headers given (a token) never reach the
/// other server, and the audit says why it stopped.
#[test]
fn a_redirect_to_another_origin_is_not_followed() {
    let other = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = other.local_addr().unwrap().port();
    let reached = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let seen = std::sync::Arc::clone(&reached);
    std::thread::spawn(move || {
        for _ in other.incoming().flatten() {
            seen.store(true, std::sync::atomic::Ordering::SeqCst);
        }
    });
    let url = serve(Mode::Redirect(port));
    let output = Command::new(audit_binary())
        .args(["audit", "--timeout", "5", "--http", &url])
        .args(["-H", "Authorization: Bearer redirect-token-1234"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("another origin"), "{stderr}");
    assert!(!stderr.contains("redirect-token-1234"), "{stderr}");
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        !reached.load(std::sync::atomic::Ordering::SeqCst),
        "the other origin was reached"
    );
}

/// A server that echoes the token it refused: the token is not shown.
#[test]
fn a_token_the_server_echoes_is_not_shown() {
    let url = serve(Mode::EchoRefusal);
    let output = Command::new(audit_binary())
        .args(["audit", "--timeout", "5", "--http", &url])
        .args(["--header", "Authorization: Bearer echoed-token-5678"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("HTTP 401"), "{stderr}");
    assert!(stderr.contains("denied for"), "the body is shown: {stderr}");
    assert!(!stderr.contains("echoed-token-5678"), "{stderr}");
}

/// A token is redacted from whatever the server says before anything is cut, printed or
/// written: a refusal that echoes it where the shown body is cut shows none of it; a title, a
/// description and an error (its letters escaped) that repeat it show it in no format.
#[test]
fn a_token_the_server_echoes_is_redacted_everywhere() {
    let token = "echoed-token-5678";
    let header = format!("Authorization: Bearer {token}");
    let run = |mode: Mode, format: &str| {
        let url = serve(mode);
        let output = Command::new(audit_binary())
            .args([
                "audit",
                "--timeout",
                "5",
                "--format",
                format,
                "--http",
                &url,
            ])
            .args(["--header", &header])
            .args(if format == "sarif" {
                &["--sarif-artifact", "server.js"][..]
            } else {
                &[]
            })
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        (output.status.code(), stdout, stderr)
    };
    let (status, _, stderr) = run(Mode::LongRefusal, "text");
    assert_eq!(status, Some(3), "{stderr}");
    assert!(stderr.contains("denied...."), "{stderr}");
    // Not a piece of it: the cut falls inside where the token was.
    assert!(!stderr.contains("echoed-"), "{stderr}");
    for format in ["text", "json", "markdown", "sarif"] {
        let (_, stdout, stderr) = run(Mode::EchoTitle, format);
        assert!(stdout.contains("echo"), "{format}: {stdout} {stderr}");
        assert!(!stdout.contains(token), "{format}: {stdout}");
        assert!(!stderr.contains(token), "{format}: {stderr}");
    }
    let (status, stdout, stderr) = run(Mode::EchoError, "text");
    assert_eq!(status, Some(3), "{stdout} {stderr}");
    assert!(stderr.contains("bad token"), "{stderr}");
    assert!(
        !stderr.contains(token) && !stdout.contains(token),
        "{stderr}"
    );
}

/// An endpoint at an IPv6 literal (`http://[::1]:PORT/mcp`) is audited like any other.
#[test]
fn an_ipv6_literal_endpoint_is_audited() {
    let Ok(listener) = TcpListener::bind("[::1]:0") else {
        eprintln!(
            "NOT CHECKED: this machine has no IPv6 loopback, so an IPv6 endpoint was not audited"
        );
        return;
    };
    let url = serve_on(listener, Mode::HeldStream);
    assert!(url.starts_with("http://[::1]:"), "{url}");
    let output = Command::new(audit_binary())
        .args([
            "audit",
            "--format",
            "json",
            "--timeout",
            "20",
            "--http",
            &url,
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["tools"][0]["name"], "fine", "{report}");
}
