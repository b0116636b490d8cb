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
}

/// One request read from `stream`: its JSON body.
fn read_request(stream: &mut TcpStream) -> Option<Value> {
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut length = 0usize;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().ok()?;
        }
    }
    let mut body = vec![0u8; length];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
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
    let Some(request) = read_request(&mut stream) else {
        return;
    };
    let id = request.get("id").cloned();
    match (request["method"].as_str(), mode) {
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
            let _ = write!(stream, "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n");
        }
    }
}

/// A server on a free local port, each connection answered on a thread of its own.
fn serve(mode: Mode) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
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
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("the server did not answer within 2 s"),
        "{stderr}"
    );
    assert!(elapsed < Duration::from_secs(10), "{elapsed:?}");
}
