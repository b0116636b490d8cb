//! Streamable HTTP, as much as the audit needs: each message POSTed to the server's endpoint
//! (`http://` or `https://`, HTTP/1.1 or HTTP/2), its answer read as JSON or as server-sent
//! events, the session's id carried from `initialize` on. Each answer is read under one
//! deadline (the timeout, whatever the server sends meanwhile) and a bound on size, and an
//! event stream is read only until it holds the answer.
//!
//! The client is reqwest's (on hyper and rustls, with the platform's roots, ring's
//! cryptography, redirects bounded and proxies from the environment as curl reads them); the
//! JSON-RPC and its bounds are the audit's own, so that a hostile server meets the same limits
//! over HTTP as over stdio.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use serde_json::Value;

/// The longest answer read from a server.
const MAX_ANSWER: u64 = 64 << 20;

/// How many redirects a request follows.
const REDIRECTS: usize = 5;

/// How a remote server is reached beyond its URL.
#[derive(Clone, Debug, Default)]
pub struct Remote {
    /// Headers sent with every request (`--header`): their values are never shown.
    pub headers: Vec<(String, String)>,
    /// Certificates trusted beside the platform's (`--ca-cert`).
    pub ca_cert: Option<PathBuf>,
    /// Whether the proxies of the environment are passed by (a server on this machine).
    pub direct: bool,
}

/// The endpoint `url` (`--http`), refused where it is no `http://` or `https://` URL. The URL is
/// not repeated in the error: it may hold a token.
fn endpoint(url: &str) -> Result<reqwest::Url, String> {
    let parsed =
        reqwest::Url::parse(url).map_err(|error| format!("--http: not a URL ({error})"))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(format!(
            "--http: a Streamable HTTP endpoint is an http:// or https:// URL, not {}://",
            parsed.scheme()
        ));
    }
    Ok(parsed)
}

/// The headers sent with every request (`--header`), each value marked sensitive; refused
/// where a name or a value cannot be a header's. A value is not repeated in the error.
fn header_map(headers: &[(String, String)]) -> Result<HeaderMap, String> {
    let mut map = HeaderMap::new();
    for (name, value) in headers {
        let header = HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| format!("--header: `{name}` is not a header name"))?;
        let mut value = HeaderValue::from_str(value)
            .map_err(|_| format!("--header {name}: the value holds a character a header cannot"))?;
        value.set_sensitive(true);
        map.append(header, value);
    }
    Ok(map)
}

/// Whether the command line's `--http URL`, `--header`s and `--ca-cert` can be used, before
/// anything runs: what is wrong is the command line's mistake (bad usage), not the server's.
///
/// # Errors
///
/// What is wrong, said as [`Http::new`] would say it.
pub fn check(url: Option<&str>, remote: &Remote) -> Result<(), String> {
    if let Some(url) = url {
        endpoint(url)?;
    }
    header_map(&remote.headers)?;
    if let Some(path) = &remote.ca_cert {
        super::pinned::read(path)?;
    }
    Ok(())
}

/// A server's Streamable HTTP endpoint.
pub struct Http {
    /// `None` only once dropped.
    runtime: Option<tokio::runtime::Runtime>,
    client: reqwest::Client,
    url: reqwest::Url,
    session: Option<String>,
    /// The protocol version `initialize` chose, sent with every request after it.
    version: Option<HeaderValue>,
    timeout: Duration,
    /// What must never be shown: each header's value (and its last word, the token of
    /// `Bearer TOKEN`), the URL's password and query values. Removed from every message
    /// made of what the server sent.
    secrets: Vec<String>,
}

impl Drop for Http {
    fn drop(&mut self) {
        // A lookup still blocked in the resolver's thread is not waited for.
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

impl Http {
    /// The endpoint at `url` (`http://` or `https://`, an IPv6 literal in brackets).
    pub fn new(url: &str, timeout: Duration, remote: &Remote) -> Result<Http, String> {
        let parsed = endpoint(url)?;
        // Kept for the server's stderr too: the URL may have held `{port}` as the command
        // line was read.
        let secrets = super::secrets::of(Some(&parsed), &remote.headers);
        super::secrets::keep(secrets.clone());
        // One provider for the process; a second install (a second server) changes nothing.
        let _ = provider().install_default();
        let headers = header_map(&remote.headers)?;
        let mut builder = reqwest::Client::builder()
            .default_headers(headers)
            .connect_timeout(timeout)
            .redirect(redirects())
            .referer(false)
            .user_agent(concat!("annotations-audit/", env!("CARGO_PKG_VERSION")));
        if remote.direct {
            builder = builder.no_proxy();
        }
        if let Some(path) = &remote.ca_cert {
            // Beside the platform's roots, each given certificate pinned where a server
            // presents it as its own (`pinned`).
            let certificates = super::pinned::read(path)?;
            builder =
                builder.tls_backend_preconfigured(super::pinned::client_config(certificates)?);
        }
        let client = builder
            .build()
            .map_err(|error| format!("cannot set up HTTP: {}", described(&error)))?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|error| format!("cannot set up HTTP: {error}"))?;
        Ok(Http {
            runtime: Some(runtime),
            client,
            url: parsed,
            session: None,
            version: None,
            timeout,
            secrets,
        })
    }

    /// The protocol version `initialize` chose, for the requests after it.
    pub fn set_version(&mut self, version: &str) {
        self.version = HeaderValue::from_str(version).ok();
    }

    /// POSTs `message`; the messages the answer holds (none for a notification's `202`), read
    /// within the timeout and before `deadline`, if there is one.
    pub fn post(
        &mut self,
        message: &Value,
        deadline: Option<Instant>,
    ) -> Result<Vec<String>, String> {
        let mut request = self
            .client
            .post(self.url.clone())
            .header(CONTENT_TYPE, "application/json")
            .header(ACCEPT, "application/json, text/event-stream")
            .body(message.to_string());
        if let Some(session) = &self.session {
            request = request.header("Mcp-Session-Id", session);
        }
        if let Some(version) = &self.version {
            request = request.header("MCP-Protocol-Version", version);
        }
        let wanted = message
            .get("id")
            .filter(|_| message.get("method").is_some());
        // One deadline for the whole answer, whatever the server sends meanwhile (a trickle of
        // bytes, keep-alive comments on an event stream it holds open).
        let left = deadline.map(|deadline| deadline.saturating_duration_since(Instant::now()));
        let within = left.map_or(self.timeout, |left| left.min(self.timeout));
        let runtime = self.runtime.as_ref().ok_or("the HTTP link is closed")?;
        let secrets = &self.secrets;
        let answer = runtime.block_on(async {
            tokio::time::timeout(within, exchange(request, wanted, secrets)).await
        });
        let (session, messages) = answer
            .map_err(|_| {
                if within == self.timeout {
                    format!(
                        "the server did not answer within {} s",
                        self.timeout.as_secs_f64()
                    )
                } else {
                    "the server did not answer in the time left for the request".to_owned()
                }
            })?
            .map_err(|error| redact(&error, secrets))?;
        if session.is_some() {
            self.session = session;
        }
        Ok(messages)
    }
}

/// One request and its answer: the session id the answer gave, and the messages it holds,
/// every text in them with `secrets` redacted before anything reads it (a refusal's body
/// before it is shortened, an error, a tool's title, a result).
async fn exchange(
    request: reqwest::RequestBuilder,
    wanted: Option<&Value>,
    secrets: &[String],
) -> Result<(Option<String>, Vec<String>), String> {
    let mut response = request
        .send()
        .await
        .map_err(|error| format!("cannot reach the server: {}", described(&error)))?;
    let status = response.status();
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned)
    };
    let session = header("mcp-session-id");
    let events = header("content-type")
        .is_some_and(|kind| kind.to_ascii_lowercase().contains("text/event-stream"));
    // The body, read until it is whole, or, on an event stream, until it holds the answer to
    // this request (the stream may stay open after it).
    let mut body = Vec::new();
    // How far the events have been checked (to the end of the last complete one), and how far
    // the body has been searched for an event's end: each byte is looked at once or twice,
    // however the stream is cut.
    let (mut checked, mut searched) = (0usize, 0usize);
    while let Some(piece) = response
        .chunk()
        .await
        .map_err(|error| format!("cannot read the server's answer: {}", described(&error)))?
    {
        body.extend_from_slice(&piece);
        if body.len() as u64 > MAX_ANSWER {
            return Err(format!(
                "the server's answer is longer than {} MiB",
                MAX_ANSWER >> 20
            ));
        }
        if events && let Some(id) = wanted {
            let from = searched.saturating_sub(2).max(checked);
            searched = body.len();
            if let Some(end) = last_event_end(&body[from..]).map(|end| from + end) {
                let answered = events_of(&body[checked..end])
                    .iter()
                    .any(|event| answers(event, id));
                checked = end;
                if answered {
                    break;
                }
            }
        }
    }
    if !status.is_success() && (wanted.is_some() || !body.is_empty()) {
        let shown: String = redact(&String::from_utf8_lossy(&body), secrets)
            .chars()
            .filter(|c| !c.is_control())
            .take(120)
            .collect();
        let hint = if matches!(status.as_u16(), 401 | 403) {
            " (does it want credentials? --header 'Authorization: Bearer ...' sends them)"
        } else {
            ""
        };
        return Err(format!("the server answered HTTP {status}{hint}: {shown}"));
    }
    if status.as_u16() == 202 || body.is_empty() {
        return Ok((session, Vec::new()));
    }
    let messages = if events {
        events_of(&body)
    } else {
        vec![String::from_utf8_lossy(&body).into_owned()]
    };
    let messages = messages
        .iter()
        .map(|message| redact_message(message, secrets))
        .collect();
    Ok((session, messages))
}

/// A message with every secret redacted from each of its strings (and keys) as JSON reads
/// them, escapes undone (a token written `\u0053...` is the token); a message that is not
/// JSON, from its text.
fn redact_message(message: &str, secrets: &[String]) -> String {
    if secrets.is_empty() {
        return message.to_owned();
    }
    let Ok(mut value) = serde_json::from_str::<Value>(message) else {
        return redact(message, secrets);
    };
    redact_value(&mut value, secrets);
    value.to_string()
}

fn redact_value(value: &mut Value, secrets: &[String]) {
    match value {
        Value::String(text) if secrets.iter().any(|secret| text.contains(secret.as_str())) => {
            *text = redact(text, secrets);
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|item| redact_value(item, secrets)),
        Value::Object(object) => {
            let entries = std::mem::take(object);
            for (key, mut inner) in entries {
                redact_value(&mut inner, secrets);
                object.insert(redact(&key, secrets), inner);
            }
        }
        _ => {}
    }
}

/// Redirects followed: at most [`REDIRECTS`], and only within the endpoint's origin (the same
/// scheme, host and port), so that the headers given (a token) never reach another server,
/// nor travel again in clear after TLS.
fn redirects() -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(|attempt| {
        let first = attempt.previous().first().cloned();
        let same_origin = first.as_ref().is_some_and(|first| {
            first.scheme() == attempt.url().scheme()
                && first.host_str() == attempt.url().host_str()
                && first.port_or_known_default() == attempt.url().port_or_known_default()
        });
        if attempt.previous().len() > REDIRECTS {
            attempt.error(format!("more than {REDIRECTS} redirects"))
        } else if !same_origin {
            let to = attempt.url();
            let shown = format!(
                "{}://{}{}",
                to.scheme(),
                to.host_str().unwrap_or(""),
                to.port().map(|port| format!(":{port}")).unwrap_or_default()
            );
            attempt.error(format!(
                "the server redirects to another origin ({shown}), which is not followed: the \
                 headers given are for this one; audit that URL itself if it is meant"
            ))
        } else {
            attempt.follow()
        }
    })
}

/// `text` with every secret replaced.
fn redact(text: &str, secrets: &[String]) -> String {
    super::secrets::redact_with(text, secrets)
}

/// An error of the client with its causes (a certificate's problem lies three causes deep),
/// and without the URL (which may hold a token in its query).
fn described(error: &reqwest::Error) -> String {
    let mut text = error.to_string();
    let mut cause = std::error::Error::source(error);
    while let Some(inner) = cause {
        let said = inner.to_string();
        if !text.contains(&said) {
            text.push_str(": ");
            text.push_str(&said);
        }
        cause = inner.source();
    }
    if let Some(url) = error.url() {
        let mut shown = url.clone();
        shown.set_query(None);
        let _ = shown.set_password(None);
        let _ = shown.set_username("");
        text = text.replace(url.as_str(), shown.as_str());
    }
    text
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

/// Where the last complete event of `bytes` ends: just past its blank line (`\n\n` or
/// `\n\r\n`).
fn last_event_end(bytes: &[u8]) -> Option<usize> {
    (1..bytes.len()).rev().find_map(|i| {
        let blank = bytes[i] == b'\n'
            && (bytes[i - 1] == b'\n'
                || (i >= 2 && bytes[i - 1] == b'\r' && bytes[i - 2] == b'\n'));
        blank.then_some(i + 1)
    })
}

/// Whether `message` is the answer to the request `id`.
fn answers(message: &str, id: &Value) -> bool {
    serde_json::from_str::<Value>(message)
        .is_ok_and(|message| message.get("id") == Some(id) && message.get("method").is_none())
}

/// The cryptography of the audit's TLS: *ring*'s, which builds with a C compiler alone (no
/// cmake). rustls 0.23.48 marks it deprecated, as it lacks the post-quantum key exchange
/// that aws-lc-rs's provider has; the choice is kept, and said here, so that `cargo install`
/// without `--locked` (which takes the newest rustls) builds without a warning.
#[allow(deprecated)]
pub(super) fn provider() -> rustls::crypto::CryptoProvider {
    rustls::crypto::ring::default_provider()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn endpoint(url: &str, headers: &[(&str, &str)]) -> Result<Http, String> {
        let remote = Remote {
            headers: headers
                .iter()
                .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
                .collect(),
            ca_cert: None,
            direct: false,
        };
        Http::new(url, Duration::from_secs(1), &remote)
    }

    #[test]
    fn http_and_https_urls_are_read_ipv6_literals_among_them() {
        for url in [
            "http://127.0.0.1:8000/mcp",
            "https://mcp.example.com/mcp",
            "https://[::1]:8443/mcp",
        ] {
            assert!(endpoint(url, &[]).is_ok(), "{url}");
        }
        let error = endpoint("ftp://example.com/", &[]).err().unwrap();
        assert!(error.contains("http:// or https://"), "{error}");
        assert!(endpoint("not a url", &[]).is_err());
    }

    #[test]
    fn a_header_that_cannot_be_sent_is_refused_without_its_value() {
        let error = endpoint("https://h/", &[("Authorization", "Bearer abc\ndef")])
            .err()
            .unwrap();
        assert!(error.contains("Authorization"), "{error}");
        assert!(!error.contains("abc"), "{error}");
        assert!(endpoint("https://h/", &[("Bad Name", "x")]).is_err());
    }

    #[test]
    fn an_event_stream_is_read_by_its_complete_events() {
        let body =
            b"event: message\ndata: {\"id\":1,\"result\":{}}\n\n: keep-alive\n\ndata: {\"par";
        let events = events_of(body);
        assert_eq!(events, [r#"{"id":1,"result":{}}"#]);
        assert!(answers(&events[0], &serde_json::json!(1)));
        assert!(!answers(&events[0], &serde_json::json!(2)));
        // The end of the last complete event, with either line ending.
        assert_eq!(last_event_end(b"data: 1\n\ndata: 2"), Some(9));
        assert_eq!(last_event_end(b"data: 1\r\n\r\n"), Some(11));
        assert_eq!(last_event_end(b"data: 1\n"), None);
    }

    #[test]
    fn secrets_are_redacted_from_what_the_server_says() {
        let remote = Remote {
            headers: vec![("Authorization".into(), "Bearer s3cret-token".into())],
            ca_cert: None,
            direct: false,
        };
        let http = Http::new(
            "https://user:hunter22@h/mcp?api_key=QKEY1234",
            Duration::from_secs(1),
            &remote,
        )
        .unwrap();
        let said = "denied for Bearer s3cret-token (s3cret-token) hunter22 QKEY1234";
        let shown = redact(said, &http.secrets);
        for secret in ["s3cret-token", "hunter22", "QKEY1234"] {
            assert!(!shown.contains(secret), "{shown}");
        }
        assert!(shown.starts_with("denied for [redacted]"), "{shown}");
        // A URL that is not one is refused without being repeated.
        let error = endpoint("ftp://u:SEKRIT5@h/?token=SEKRIT5", &[])
            .err()
            .unwrap();
        assert!(!error.contains("SEKRIT5"), "{error}");
    }
}
