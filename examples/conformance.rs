//! The server the official MCP conformance suite's tool scenarios call, written with
//! `#[tool]` and `tools![...]` alone (no rmcp `#[tool]`, no descriptor by hand), served by rmcp
//! over Streamable HTTP from the listing (`Listing::list_tools_rmcp` and `call_tool_rmcp` in a
//! `ServerHandler` that also answers `logging/setLevel`).
//!
//! ```text
//! cargo run --example conformance -- --port 0     # a free port
//! cargo run --example conformance -- --stdio      # the same server on stdin and stdout
//! cargo run --example conformance -- --port 0 --tls-cert cert.pem --tls-key key.pem --bearer TOKEN
//! npx @modelcontextprotocol/conformance server --url http://127.0.0.1:PORT/mcp --scenario tools-call-image
//! ```
//!
//! The first line on standard output is `listening on http://127.0.0.1:PORT/mcp`, printed once
//! the server accepts connections. The tools that talk back to the client (logging, progress,
//! sampling, elicitation) take rmcp's request context as a `#[context]` parameter.

// rmcp marks logging and sampling deprecated: protocol 2026-07-28 removes them (SEP-2577). The
// suite's scenarios for them are of 2025-06-18 and 2025-11-25, where they are part of MCP.
#![allow(deprecated)]

use std::sync::Mutex;
use std::time::Duration;

use mcp_annotations::{
    Listing, ToolSchema, content::Audio, content::Content, content::EmbeddedResource,
    content::Image, content::MimeType, tool, tools,
};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CreateMessageRequestParams, ElicitRequestParams,
    ElicitationAction, ElicitationSchema, ListToolsResult, LoggingLevel,
    LoggingMessageNotificationParam, PaginatedRequestParams, ProgressNotificationParam,
    SamplingMessage, ServerCapabilities, ServerConfig, SetLevelRequestParams,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Value, json};

/// rmcp's request context: progress, logging and requests to the client.
type Request = RequestContext<RoleServer>;

/// A 1x1 red pixel, as PNG.
const RED_PIXEL: [u8; 69] = [
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53,
    0xde, 0x00, 0x00, 0x00, 0x0c, 0x49, 0x44, 0x41, 0x54, 0x78, 0xda, 0x63, 0xf8, 0xcf, 0xc0, 0x00,
    0x00, 0x03, 0x01, 0x01, 0x00, 0xf7, 0x03, 0x41, 0x43, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e,
    0x44, 0xae, 0x42, 0x60, 0x82,
];

/// A tenth of a second of silence: 8 kHz, 8-bit mono PCM in a WAV file.
fn silence_wav() -> Vec<u8> {
    let samples = 800u32;
    let mut wav = Vec::with_capacity(44 + samples as usize);
    wav.extend_from_slice(b"RIFF");
    wav.extend_from_slice(&(36 + samples).to_le_bytes());
    wav.extend_from_slice(b"WAVEfmt ");
    wav.extend_from_slice(&16u32.to_le_bytes()); // the format chunk's size
    wav.extend_from_slice(&1u16.to_le_bytes()); // PCM
    wav.extend_from_slice(&1u16.to_le_bytes()); // mono
    wav.extend_from_slice(&8000u32.to_le_bytes()); // samples a second
    wav.extend_from_slice(&8000u32.to_le_bytes()); // bytes a second
    wav.extend_from_slice(&1u16.to_le_bytes()); // bytes a sample
    wav.extend_from_slice(&8u16.to_le_bytes()); // bits a sample
    wav.extend_from_slice(b"data");
    wav.extend_from_slice(&samples.to_le_bytes());
    wav.resize(44 + samples as usize, 0x80); // 8-bit silence is the middle value
    wav
}

/// The server's state: the logging level the client set.
pub struct Conformance {
    level: Mutex<LoggingLevel>,
}

/// How a logging level ranks, least severe first.
fn rank(level: LoggingLevel) -> u8 {
    match level {
        LoggingLevel::Debug => 0,
        LoggingLevel::Info => 1,
        LoggingLevel::Notice => 2,
        LoggingLevel::Warning => 3,
        LoggingLevel::Error => 4,
        LoggingLevel::Critical => 5,
        LoggingLevel::Alert => 6,
        LoggingLevel::Emergency => 7,
    }
}

/// Returns a simple text response.
#[tool(read_only, open_world = false, title = "Simple text")]
fn test_simple_text() -> &'static str {
    "This is a simple text response for testing."
}

/// Returns an image: a 1x1 red pixel.
#[tool(read_only, open_world = false, title = "Image content")]
fn test_image_content() -> Image {
    Image::png(RED_PIXEL)
}

/// Returns audio: a tenth of a second of silence, as WAV.
#[tool(read_only, open_world = false, title = "Audio content")]
fn test_audio_content() -> Audio {
    Audio::wav(silence_wav())
}

/// Returns an embedded text resource.
#[tool(read_only, open_world = false, title = "Embedded resource")]
fn test_embedded_resource() -> EmbeddedResource {
    EmbeddedResource::text(
        "test://embedded-resource",
        "This is an embedded resource content.",
    )
    .with_mime_type(MimeType::TEXT)
}

/// Returns text, an image and an embedded resource, in that order.
#[tool(read_only, open_world = false, title = "Mixed content")]
fn test_multiple_content_types() -> Vec<Content> {
    vec![
        Content::text("Multiple content types test:"),
        Image::png(RED_PIXEL).into(),
        EmbeddedResource::text(
            "test://mixed-content-resource",
            r#"{"test":"data","value":123}"#,
        )
        .with_mime_type(MimeType::JSON)
        .into(),
    ]
}

/// Sends three log messages while it runs, 50 ms apart.
#[tool(read_only, open_world = false, title = "Logging")]
async fn test_tool_with_logging(
    #[context] server: &Conformance,
    #[context] request: Request,
) -> &'static str {
    let wanted = *server
        .level
        .lock()
        .unwrap_or_else(|poison| poison.into_inner());
    for (i, message) in [
        "Tool execution started",
        "Tool processing data",
        "Tool execution completed",
    ]
    .into_iter()
    .enumerate()
    {
        if i > 0 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        if rank(LoggingLevel::Info) >= rank(wanted) {
            let note = LoggingMessageNotificationParam::new(LoggingLevel::Info, json!(message))
                .with_logger("conformance");
            let _ = request.peer.notify_logging_message(note).await;
        }
    }
    "Logging test completed"
}

/// Always fails, with a message for the model.
#[tool(read_only, open_world = false, title = "Error handling")]
fn test_error_handling() -> Result<(), &'static str> {
    Err("This tool intentionally returns an error for testing")
}

/// Reports progress 0, 50 and 100 of 100, 50 ms apart, when the call asks for progress.
#[tool(read_only, open_world = false, title = "Progress")]
async fn test_tool_with_progress(#[context] request: Request) -> &'static str {
    let token = request.meta.get_progress_token();
    for (i, progress) in [0.0, 50.0, 100.0].into_iter().enumerate() {
        if i > 0 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        if let Some(token) = &token {
            let note = ProgressNotificationParam::new(token.clone(), progress).with_total(100.0);
            let _ = request.peer.notify_progress(note).await;
        }
    }
    "Progress test completed"
}

/// Asks the client's model to answer a prompt (sampling) and returns its answer.
#[tool(read_only, title = "Sampling")]
async fn test_sampling(
    /// The prompt to send to the model
    prompt: String,
    #[context] request: Request,
) -> Result<String, String> {
    let params = CreateMessageRequestParams::new(vec![SamplingMessage::user_text(prompt)], 100);
    let answer = request
        .peer
        .create_message(params)
        .await
        .map_err(|error| format!("Sampling failed: {error}"))?;
    let text = answer
        .message
        .content
        .first()
        .and_then(|content| content.as_text())
        .map_or_else(|| "(no text)".to_owned(), |text| text.text.clone());
    Ok(format!("LLM response: {text}"))
}

/// Asks the user for input through the client (elicitation) with this schema.
async fn elicit(request: &Request, message: String, schema: Value) -> Result<String, String> {
    let requested_schema: ElicitationSchema = serde_json::from_value(schema)
        .map_err(|error| format!("the elicitation schema is invalid: {error}"))?;
    let answer = request
        .peer
        .create_elicitation(ElicitRequestParams::FormElicitationParams {
            meta: None,
            message,
            requested_schema,
        })
        .await
        .map_err(|error| format!("Elicitation failed: {error}"))?;
    let action = match answer.action {
        ElicitationAction::Accept => "accept",
        ElicitationAction::Decline => "decline",
        ElicitationAction::Cancel => "cancel",
        _ => "unknown",
    };
    let content = answer
        .content
        .map_or_else(|| "null".to_owned(), |c| c.to_string());
    Ok(format!("action={action}, content={content}"))
}

/// Asks the user for a name and an email address (elicitation).
#[tool(read_only, open_world = false, title = "Elicitation")]
async fn test_elicitation(
    /// The message to show the user
    message: String,
    #[context] request: Request,
) -> Result<String, String> {
    let schema = json!({
        "type": "object",
        "properties": {
            "username": {"type": "string", "description": "User's response"},
            "email": {"type": "string", "description": "User's email address"}
        },
        "required": ["username", "email"]
    });
    let answer = elicit(&request, message, schema).await?;
    Ok(format!("User response: {answer}"))
}

/// Asks the user for input with a default for every primitive type (SEP-1034).
#[tool(read_only, open_world = false, title = "Elicitation defaults")]
async fn test_elicitation_sep1034_defaults(#[context] request: Request) -> Result<String, String> {
    let schema = json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "Name", "default": "John Doe"},
            "age": {"type": "integer", "description": "Age", "default": 30},
            "score": {"type": "number", "description": "Score", "default": 95.5},
            "status": {
                "type": "string",
                "description": "Status",
                "enum": ["active", "inactive", "pending"],
                "default": "active"
            },
            "verified": {"type": "boolean", "description": "Verified", "default": true}
        }
    });
    let answer = elicit(&request, "Please review your details".into(), schema).await?;
    Ok(format!("Elicitation completed: {answer}"))
}

/// Asks the user to choose, in each of the five ways an enum can be offered (SEP-1330).
#[tool(read_only, open_world = false, title = "Elicitation enums")]
async fn test_elicitation_sep1330_enums(#[context] request: Request) -> Result<String, String> {
    let schema = json!({
        "type": "object",
        "properties": {
            "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
            "titledSingle": {
                "type": "string",
                "oneOf": [
                    {"const": "value1", "title": "First Option"},
                    {"const": "value2", "title": "Second Option"},
                    {"const": "value3", "title": "Third Option"}
                ]
            },
            "legacyEnum": {
                "type": "string",
                "enum": ["opt1", "opt2", "opt3"],
                "enumNames": ["Option One", "Option Two", "Option Three"]
            },
            "untitledMulti": {
                "type": "array",
                "items": {"type": "string", "enum": ["option1", "option2", "option3"]}
            },
            "titledMulti": {
                "type": "array",
                "items": {
                    "anyOf": [
                        {"const": "value1", "title": "First Choice"},
                        {"const": "value2", "title": "Second Choice"},
                        {"const": "value3", "title": "Third Choice"}
                    ]
                }
            }
        }
    });
    let answer = elicit(&request, "Please choose".into(), schema).await?;
    Ok(format!("Elicitation completed: {answer}"))
}

/// A postal address. Its schema is JSON Schema 2020-12, with a definition of its own.
#[derive(serde::Deserialize)]
pub struct Address {
    /// The street.
    pub street: Option<String>,
    /// The city.
    pub city: Option<String>,
}

impl ToolSchema for Address {
    fn tool_schema() -> Value {
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$ref": "#/$defs/address",
            "$defs": {
                "address": {
                    "type": "object",
                    "properties": {
                        "street": {"type": "string"},
                        "city": {"type": "string"}
                    }
                }
            }
        })
    }
}

/// Tool with JSON Schema 2020-12 features
#[tool(read_only, open_world = false, title = "JSON Schema 2020-12")]
fn json_schema_2020_12_tool(name: Option<String>, address: Option<Address>) -> String {
    let city = address.and_then(|address| address.city.or(address.street));
    format!(
        "name={}, city={}",
        name.as_deref().unwrap_or("-"),
        city.as_deref().unwrap_or("-")
    )
}

/// Every tool the suite's tool scenarios call.
static TOOLS: Listing<Conformance> = tools![
    test_simple_text,
    test_image_content,
    test_audio_content,
    test_embedded_resource,
    test_multiple_content_types,
    test_tool_with_logging,
    test_error_handling,
    test_tool_with_progress,
    test_sampling,
    test_elicitation,
    test_elicitation_sep1034_defaults,
    test_elicitation_sep1330_enums,
    json_schema_2020_12_tool,
];

impl ServerHandler for Conformance {
    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: Request,
    ) -> Result<ListToolsResult, ErrorData> {
        TOOLS.list_tools_rmcp(
            request.as_ref(),
            &context,
            &mcp_annotations::listing::ListOptions::default(),
        )
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: Request,
    ) -> Result<CallToolResponse, ErrorData> {
        TOOLS
            .call_tool_rmcp(self, request, context)
            .await
            .map(Into::into)
    }

    fn get_tool(&self, name: &str) -> Option<rmcp::model::Tool> {
        TOOLS.get(name).map(Into::into)
    }

    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_logging()
                .build(),
        )
        .with_server_info(rmcp::model::Implementation::new(
            "annotations-conformance",
            env!("CARGO_PKG_VERSION"),
        ))
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: Request,
    ) -> Result<(), ErrorData> {
        *self
            .level
            .lock()
            .unwrap_or_else(|poison| poison.into_inner()) = request.level;
        Ok(())
    }
}

const USAGE: &str =
    "usage: conformance [--port PORT | --stdio] [--tls-cert FILE --tls-key FILE] [--bearer TOKEN]
  --port 0: a free port (default 3001); --stdio: MCP on stdin and stdout;
  --tls-cert, --tls-key: serve https:// (PEM files; HTTP/1.1 and HTTP/2 by ALPN);
  --bearer: answer 401 to a request without `Authorization: Bearer TOKEN`";

fn main() {
    if let Err(error) = run() {
        eprintln!("conformance: {error}");
        std::process::exit(2);
    }
}

/// How the HTTP side is served: over TLS or not, asking a token or not.
#[derive(Default)]
struct Served {
    tls_cert: Option<std::path::PathBuf>,
    tls_key: Option<std::path::PathBuf>,
    bearer: Option<String>,
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let mut port: u16 = 3001;
    let mut stdio = false;
    let mut served = Served::default();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--port" => {
                let value = args.next().ok_or(USAGE)?;
                port = value
                    .parse()
                    .map_err(|_| format!("not a port: {value:?}\n{USAGE}"))?;
            }
            "--stdio" => stdio = true,
            "--tls-cert" => served.tls_cert = Some(args.next().ok_or(USAGE)?.into()),
            "--tls-key" => served.tls_key = Some(args.next().ok_or(USAGE)?.into()),
            "--bearer" => served.bearer = Some(args.next().ok_or(USAGE)?),
            "--help" | "-h" => {
                println!("{USAGE}");
                return Ok(());
            }
            _ => return Err(format!("unknown argument {arg:?}\n{USAGE}").into()),
        }
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    if stdio {
        // The same server over stdio, for clients that start it as a process.
        return runtime.block_on(async {
            use rmcp::ServiceExt;
            let server = Conformance {
                level: Mutex::new(LoggingLevel::Info),
            };
            server
                .serve(rmcp::transport::stdio())
                .await?
                .waiting()
                .await?;
            Ok(())
        });
    }
    runtime.block_on(serve(port, served))
}

/// The TLS side of `--tls-cert` and `--tls-key`: the certificate chain and key read from
/// their PEM files, HTTP/2 and HTTP/1.1 offered by ALPN.
fn tls_acceptor(
    cert: &std::path::Path,
    key: &std::path::Path,
) -> Result<tokio_rustls::TlsAcceptor, Box<dyn std::error::Error>> {
    use tokio_rustls::rustls;
    use tokio_rustls::rustls::pki_types::pem::PemObject;
    use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};

    let chain = std::fs::read(cert).map_err(|error| format!("{}: {error}", cert.display()))?;
    let chain = CertificateDer::pem_slice_iter(&chain).collect::<Result<Vec<_>, _>>()?;
    let key = std::fs::read(key).map_err(|error| format!("{}: {error}", key.display()))?;
    let key = PrivateKeyDer::from_pem_slice(&key)?;
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_no_client_auth()
        .with_single_cert(chain, key)?;
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(tokio_rustls::TlsAcceptor::from(std::sync::Arc::new(config)))
}

/// Serves MCP at `/mcp` on 127.0.0.1:`port` until the process is stopped.
async fn serve(port: u16, served: Served) -> Result<(), Box<dyn std::error::Error>> {
    use std::io::Write;

    use http_body_util::BodyExt;
    use hyper::body::Incoming;
    use hyper_util::rt::{TokioExecutor, TokioIo};

    let acceptor = match (&served.tls_cert, &served.tls_key) {
        (Some(cert), Some(key)) => Some(tls_acceptor(cert, key)?),
        (None, None) => None,
        _ => return Err(format!("--tls-cert and --tls-key go together\n{USAGE}").into()),
    };
    let bearer = std::sync::Arc::new(served.bearer.map(|token| format!("Bearer {token}")));
    let service = StreamableHttpService::new(
        || {
            Ok(Conformance {
                level: Mutex::new(LoggingLevel::Info),
            })
        },
        LocalSessionManager::default().into(),
        StreamableHttpServerConfig::default(),
    );
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    let address = listener.local_addr()?;
    let scheme = if acceptor.is_some() { "https" } else { "http" };
    let mut stdout = std::io::stdout();
    writeln!(stdout, "listening on {scheme}://{address}/mcp")?;
    stdout.flush()?;
    loop {
        let (stream, _) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(error) => {
                eprintln!("conformance: accept failed: {error}");
                continue;
            }
        };
        let service = service.clone();
        let bearer = bearer.clone();
        let acceptor = acceptor.clone();
        tokio::spawn(async move {
            let handle = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
                let service = service.clone();
                let bearer = bearer.clone();
                async move {
                    let text = |status, body: &'static [u8]| {
                        let body = http_body_util::Full::new(hyper::body::Bytes::from_static(body));
                        let mut answer = hyper::Response::new(body.boxed());
                        *answer.status_mut() = status;
                        answer
                    };
                    let authorized = bearer.as_ref().as_ref().is_none_or(|wanted| {
                        request
                            .headers()
                            .get(hyper::header::AUTHORIZATION)
                            .is_some_and(|given| given.as_bytes() == wanted.as_bytes())
                    });
                    if !authorized {
                        let mut refused = text(
                            hyper::StatusCode::UNAUTHORIZED,
                            b"a bearer token is required\n",
                        );
                        refused.headers_mut().insert(
                            hyper::header::WWW_AUTHENTICATE,
                            hyper::header::HeaderValue::from_static("Bearer realm=\"mcp\""),
                        );
                        Ok::<_, std::convert::Infallible>(refused)
                    } else if request.uri().path() == "/mcp" {
                        Ok(service.handle(request).await)
                    } else {
                        Ok(text(
                            hyper::StatusCode::NOT_FOUND,
                            b"not found; MCP is at /mcp\n",
                        ))
                    }
                }
            });
            // A client that goes away mid-stream (as every client does with an open SSE
            // stream when it exits) is not worth a line.
            match acceptor {
                Some(acceptor) => {
                    let stream = match acceptor.accept(stream).await {
                        Ok(stream) => stream,
                        Err(error) => {
                            eprintln!("conformance: TLS handshake failed: {error}");
                            return;
                        }
                    };
                    let builder =
                        hyper_util::server::conn::auto::Builder::new(TokioExecutor::new());
                    let connection = builder.serve_connection(TokioIo::new(stream), handle);
                    if let Err(error) = connection.await {
                        let incomplete = error
                            .downcast_ref::<hyper::Error>()
                            .is_some_and(hyper::Error::is_incomplete_message);
                        if !incomplete {
                            eprintln!("conformance: connection failed: {error}");
                        }
                    }
                }
                None => {
                    let connection = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), handle);
                    if let Err(error) = connection.await
                        && !error.is_incomplete_message()
                    {
                        eprintln!("conformance: connection failed: {error}");
                    }
                }
            }
        });
    }
}
