//! Streamable HTTP, as much as the audit needs: each message POSTed to the server's endpoint
//! (`http://` only: no TLS here), its answer read as JSON or as server-sent events, the
//! session's id carried from `initialize` on. Each answer is read under one deadline (the
//! timeout) and a bound on size, and an event stream is read only until it holds the answer.

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

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
        // One deadline for the whole answer, whatever the server sends meanwhile (a trickle of
        // bytes, keep-alive comments on an event stream it holds open).
        let deadline = Instant::now() + self.timeout;
        let late = || {
            format!(
                "the server did not answer within {} s",
                self.timeout.as_secs_f64()
            )
        };
        let mut reader = Reader {
            stream,
            buffer: Vec::new(),
            deadline,
        };
        let split = loop {
            if let Some(at) = reader.buffer.windows(4).position(|w| w == b"\r\n\r\n") {
                break at;
            }
            if !reader.more()? {
                return Err(if reader.timed_out() {
                    late()
                } else {
                    "the server's answer is not HTTP".to_owned()
                });
            }
        };
        let head = String::from_utf8_lossy(&reader.buffer[..split]).into_owned();
        reader.buffer.drain(..split + 4);
        let mut lines = head.lines();
        let status: u16 = lines
            .next()
            .and_then(|line| line.split_whitespace().nth(1))
            .and_then(|code| code.parse().ok())
            .ok_or("the server's answer has no status")?;
        let mut kind = String::new();
        let mut chunked = false;
        let mut length: Option<usize> = None;
        for line in lines {
            let Some((name, value)) = line.split_once(':') else {
                continue;
            };
            let (name, value) = (name.trim().to_ascii_lowercase(), value.trim());
            match name.as_str() {
                "mcp-session-id" => self.session = Some(value.to_owned()),
                "content-type" => kind = value.to_ascii_lowercase(),
                "transfer-encoding" => chunked = value.eq_ignore_ascii_case("chunked"),
                "content-length" => length = value.parse().ok(),
                _ => {}
            }
        }
        let events = kind.contains("text/event-stream");
        let wanted = message
            .get("id")
            .filter(|_| message.get("method").is_some());
        // The body, read until it is whole, or, on an event stream, until it holds the answer
        // to this request (the stream may stay open after it).
        let mut body = Body::new(chunked);
        loop {
            let data = std::mem::take(&mut reader.buffer);
            body.feed(&data)?;
            if body.done || length.is_some_and(|length| body.out.len() >= length) {
                break;
            }
            if events
                && let Some(id) = wanted
                && events_of(&body.out).iter().any(|event| answers(event, id))
            {
                break;
            }
            if status == 202 && length.unwrap_or(0) == 0 && !chunked {
                break;
            }
            if !reader.more()? {
                if reader.timed_out() {
                    return Err(late());
                }
                break;
            }
        }
        let mut body = body.out;
        if let Some(length) = length {
            body.truncate(length);
        }
        if status == 202 || body.is_empty() {
            return Ok(Vec::new());
        }
        if !(200..300).contains(&status) {
            let shown: String = String::from_utf8_lossy(&body).chars().take(120).collect();
            return Err(format!("the server answered HTTP {status}: {shown}"));
        }
        if events {
            Ok(events_of(&body))
        } else {
            Ok(vec![String::from_utf8_lossy(&body).into_owned()])
        }
    }
}

/// The connection, read under one deadline and a bound on size.
struct Reader {
    stream: TcpStream,
    buffer: Vec<u8>,
    deadline: Instant,
}

impl Reader {
    /// Reads what the server sent next, waiting at most until the deadline; `false` at the end
    /// of the connection or the deadline.
    fn more(&mut self) -> Result<bool, String> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Ok(false);
        }
        let _ = self.stream.set_read_timeout(Some(left));
        let mut piece = [0u8; 16 << 10];
        match self.stream.read(&mut piece) {
            Ok(0) => Ok(false),
            Ok(read) => {
                self.buffer.extend_from_slice(&piece[..read]);
                Ok(true)
            }
            Err(error)
                if matches!(
                    error.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                Ok(false)
            }
            Err(error) => Err(format!("cannot read the server's answer: {error}")),
        }
    }

    fn timed_out(&self) -> bool {
        Instant::now() >= self.deadline
    }
}

/// A body as it arrives: chunks put back together as they complete, bounded in size.
struct Body {
    chunked: bool,
    /// Bytes of a chunked body not decoded yet.
    pending: Vec<u8>,
    out: Vec<u8>,
    /// The last chunk has come.
    done: bool,
}

impl Body {
    fn new(chunked: bool) -> Body {
        Body {
            chunked,
            pending: Vec::new(),
            out: Vec::new(),
            done: false,
        }
    }

    fn feed(&mut self, data: &[u8]) -> Result<(), String> {
        if self.chunked {
            self.pending.extend_from_slice(data);
            let (decoded, used, done) = dechunk(&self.pending)?;
            self.out.extend_from_slice(&decoded);
            self.pending.drain(..used);
            self.done = done;
        } else {
            self.out.extend_from_slice(data);
        }
        if (self.out.len() + self.pending.len()) as u64 > MAX_ANSWER {
            return Err(format!(
                "the server's answer is longer than {} MiB",
                MAX_ANSWER >> 20
            ));
        }
        Ok(())
    }
}

/// The complete events of an event stream, each one's `data:` lines joined into a message.
fn events_of(body: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(body).replace("\r\n", "\n");
    let complete = text.rfind("\n\n").map_or("", |end| &text[..end]);
    complete
        .split("\n\n")
        .filter_map(|event| {
            let data: Vec<&str> = event
                .lines()
                .filter_map(|line| line.strip_prefix("data:"))
                .map(|data| data.strip_prefix(' ').unwrap_or(data))
                .collect();
            (!data.is_empty()).then(|| data.join("\n"))
        })
        .collect()
}

/// Whether `message` is the answer to the request `id`.
fn answers(message: &str, id: &Value) -> bool {
    serde_json::from_str::<Value>(message)
        .is_ok_and(|message| message.get("id") == Some(id) && message.get("method").is_none())
}

/// What the complete chunks at the start of `body` hold: their bytes, how many bytes of
/// `body` they took, and whether the last chunk (size 0) was among them.
fn dechunk(body: &[u8]) -> Result<(Vec<u8>, usize, bool), String> {
    let mut out = Vec::new();
    let mut used = 0;
    loop {
        let rest = &body[used..];
        let Some(end) = rest.windows(2).position(|w| w == b"\r\n") else {
            return Ok((out, used, false));
        };
        let size_text = String::from_utf8_lossy(&rest[..end]);
        let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("").trim(), 16)
            .map_err(|_| "a bad chunk size")?;
        if size == 0 {
            return Ok((out, body.len(), true));
        }
        let Some(chunk) = rest.get(end + 2..end + 2 + size) else {
            return Ok((out, used, false));
        };
        if rest.len() < end + 2 + size + 2 {
            return Ok((out, used, false));
        }
        out.extend_from_slice(chunk);
        used += end + 2 + size + 2;
    }
}
