//! Streamable HTTP, as much as the audit needs: each message POSTed to the server's endpoint
//! (`http://` only: no TLS here), its answer read as JSON or as server-sent events, the
//! session's id carried from `initialize` on. Every read bounded in time and size.

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

use serde_json::Value;

/// The longest answer read from a server.
const MAX_ANSWER: u64 = 64 << 20;

/// A server's Streamable HTTP endpoint.
pub struct Http {
    host: String,
    port: u16,
    path: String,
    session: Option<String>,
    timeout: Duration,
}

impl Http {
    /// The endpoint at `url` (`http://host[:port]/path`).
    pub fn new(url: &str, timeout: Duration) -> Result<Http, String> {
        let rest = url.strip_prefix("http://").ok_or_else(|| {
            format!("{url}: only http:// URLs are read (no TLS here); for https, put a local proxy in front")
        })?;
        let (authority, path) = match rest.find('/') {
            Some(at) => (&rest[..at], &rest[at..]),
            None => (rest, "/"),
        };
        let (host, port) = match authority.rsplit_once(':') {
            Some((host, port)) => (
                host,
                port.parse().map_err(|_| format!("{url}: a bad port"))?,
            ),
            None => (authority, 80),
        };
        Ok(Http {
            host: host.to_owned(),
            port,
            path: path.to_owned(),
            session: None,
            timeout,
        })
    }

    /// POSTs `message`; the messages the answer holds (none for a notification's `202`).
    pub fn post(&mut self, message: &Value) -> Result<Vec<String>, String> {
        let address = (self.host.as_str(), self.port)
            .to_socket_addrs()
            .map_err(|error| format!("cannot find {}: {error}", self.host))?
            .next()
            .ok_or_else(|| format!("cannot find {}", self.host))?;
        let mut stream = TcpStream::connect_timeout(&address, self.timeout)
            .map_err(|error| format!("cannot connect to {}:{}: {error}", self.host, self.port))?;
        let _ = stream.set_read_timeout(Some(self.timeout));
        let _ = stream.set_write_timeout(Some(self.timeout));
        let body = message.to_string();
        let mut request = format!(
            "POST {} HTTP/1.1\r\nHost: {}:{}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\
             Connection: close\r\n",
            self.path,
            self.host,
            self.port,
            body.len()
        );
        if let Some(session) = &self.session {
            request.push_str(&format!("Mcp-Session-Id: {session}\r\n"));
            request.push_str("MCP-Protocol-Version: 2025-06-18\r\n");
        }
        request.push_str("\r\n");
        request.push_str(&body);
        stream
            .write_all(request.as_bytes())
            .map_err(|error| format!("cannot write to the server: {error}"))?;
        let mut answer = Vec::new();
        (&mut stream)
            .take(MAX_ANSWER + 1)
            .read_to_end(&mut answer)
            .map_err(|error| format!("cannot read the server's answer: {error}"))?;
        if answer.len() as u64 > MAX_ANSWER {
            return Err(format!(
                "the server's answer is longer than {} MiB",
                MAX_ANSWER >> 20
            ));
        }
        let split = answer
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .ok_or("the server's answer is not HTTP")?;
        let head = String::from_utf8_lossy(&answer[..split]).into_owned();
        let mut body = answer[split + 4..].to_vec();
        let mut lines = head.lines();
        let status: u16 = lines
            .next()
            .and_then(|line| line.split_whitespace().nth(1))
            .and_then(|code| code.parse().ok())
            .ok_or("the server's answer has no status")?;
        let mut kind = String::new();
        let mut chunked = false;
        for line in lines {
            let Some((name, value)) = line.split_once(':') else {
                continue;
            };
            let (name, value) = (name.trim().to_ascii_lowercase(), value.trim());
            match name.as_str() {
                "mcp-session-id" => self.session = Some(value.to_owned()),
                "content-type" => kind = value.to_ascii_lowercase(),
                "transfer-encoding" => chunked = value.eq_ignore_ascii_case("chunked"),
                _ => {}
            }
        }
        if chunked {
            body = dechunk(&body)?;
        }
        if status == 202 || body.is_empty() {
            return Ok(Vec::new());
        }
        if !(200..300).contains(&status) {
            let shown: String = String::from_utf8_lossy(&body).chars().take(120).collect();
            return Err(format!("the server answered HTTP {status}: {shown}"));
        }
        let text = String::from_utf8_lossy(&body).into_owned();
        if kind.contains("text/event-stream") {
            // Each event's `data:` lines, joined, are one message.
            let mut messages = Vec::new();
            for event in text.replace("\r\n", "\n").split("\n\n") {
                let data: Vec<&str> = event
                    .lines()
                    .filter_map(|line| line.strip_prefix("data:"))
                    .map(|data| data.strip_prefix(' ').unwrap_or(data))
                    .collect();
                if !data.is_empty() {
                    messages.push(data.join("\n"));
                }
            }
            Ok(messages)
        } else {
            Ok(vec![text])
        }
    }
}

/// A chunked body, put back together.
fn dechunk(mut body: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    loop {
        let end = body
            .windows(2)
            .position(|w| w == b"\r\n")
            .ok_or("a bad chunked answer")?;
        let size_text = String::from_utf8_lossy(&body[..end]);
        let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("").trim(), 16)
            .map_err(|_| "a bad chunk size")?;
        body = &body[end + 2..];
        if size == 0 {
            return Ok(out);
        }
        let chunk = body.get(..size).ok_or("a chunk cut short")?;
        out.extend_from_slice(chunk);
        body = body.get(size + 2..).unwrap_or(&[]);
    }
}
