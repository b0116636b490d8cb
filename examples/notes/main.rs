//! An MCP notes server built on `mcp-annotations`: the same three tools as the MCP guide's Python
//! notes server (list, add, delete), each stating all four hints, and `manage_note`, whose calls
//! a host may resolve to each action's own hints (`tools/resolve`), listed under the strictest
//! directory requirement, served by rmcp over stdio from the listing (`ListingServer`).
//!
//! ```text
//! cargo run -p notes -- --list [--protocol 2025-06-18|2025-11-25|2026-07-28] [--format json|markdown]
//! cargo run -p notes              # serve MCP on stdio
//! ```
//!
//! Notes live in the JSON file named by `NOTES_FILE` (default `~/.notes-mcp.json`, the guide's),
//! changed atomically and under a lock (a call waits for another process's lock at most
//! `NOTES_LOCK_WAIT_MS`, 5000 by default, then fails). Logs go to stderr; stdout carries only
//! the protocol.

mod store;
mod tools;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use mcp_annotations::{
    ProtocolVersion, listing::Filter, listing::ListOptions, rmcp::ListingServer,
};
use rmcp::ServiceExt;
use rmcp::model::{Implementation, ServerCapabilities, ServerConfig};

use crate::store::Store;
use crate::tools::{LOCK_WAIT, Notes, TOOLS};

/// The notes file: `NOTES_FILE`, else `~/.notes-mcp.json`.
fn notes_file() -> PathBuf {
    if let Some(path) = std::env::var_os("NOTES_FILE").filter(|path| !path.is_empty()) {
        return PathBuf::from(path);
    }
    let home = std::env::var_os("HOME").or_else(|| std::env::var_os("USERPROFILE"));
    home.map_or_else(
        || PathBuf::from(".notes-mcp.json"),
        |home| PathBuf::from(home).join(".notes-mcp.json"),
    )
}

const USAGE: &str = "usage: notes [--read-only] [--toolsets notes,cleanup] [--list [--protocol \
     2025-06-18|2025-11-25|2026-07-28] [--format json|markdown] [--by-toolset]]";

fn main() {
    if let Err(error) = run() {
        eprintln!("notes: {error}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let mut list = false;
    let mut version = ProtocolVersion::LATEST;
    let mut markdown = false;
    let mut by_toolset = false;
    // The operator's filter, as GitHub's server takes it: `--read-only` keeps the tools that
    // only read, `--toolsets` names the groups offered.
    let mut filter = Filter::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--list" => list = true,
            "--protocol" => {
                let value = args.next().ok_or(USAGE)?;
                version = ProtocolVersion::parse(&value)
                    .ok_or_else(|| format!("unknown protocol version {value:?}\n{USAGE}"))?;
            }
            "--format" => match args.next().as_deref() {
                Some("json") => markdown = false,
                Some("markdown") => markdown = true,
                _ => return Err(USAGE.into()),
            },
            "--read-only" => filter = filter.read_only(),
            "--toolsets" => {
                let value = args.next().ok_or(USAGE)?;
                filter = filter.toolsets(value.split(',').map(str::trim).filter(|t| !t.is_empty()));
            }
            "--by-toolset" => by_toolset = true,
            "--help" | "-h" => {
                println!("{USAGE}");
                return Ok(());
            }
            _ => return Err(format!("unknown argument {arg:?}\n{USAGE}").into()),
        }
    }
    // A typo in a toolset's name is an error that lists the real ones, never an empty server.
    let offered = TOOLS.filtered(&filter)?;
    if list {
        let out = match (markdown, by_toolset) {
            (true, true) => offered.to_markdown_by_toolset(),
            (true, false) => offered.to_markdown(),
            (false, _) => indent(&offered.render(&ListOptions::new(version), None)?) + "\n",
        };
        // A reader that stops early (`| head`) is not an error.
        return match std::io::Write::write_all(&mut std::io::stdout().lock(), out.as_bytes()) {
            Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => Err(error.into()),
            _ => Ok(()),
        };
    }

    let lock_wait = std::env::var("NOTES_LOCK_WAIT_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .map_or(LOCK_WAIT, Duration::from_millis);
    if offered.tools().next().is_none() {
        eprintln!("notes: the filter leaves no tools to offer");
    }
    let store = Store::open(notes_file(), lock_wait)?;
    if std::io::stdin().is_terminal() {
        eprintln!(
            "notes: serving MCP on stdio, notes in {}.\n\
             Connect a client to this command, for example the MCP Inspector:\n\
             \x20   npx @modelcontextprotocol/inspector cargo run -p notes\n\
             or list the tools instead: cargo run -p notes -- --list",
            store.path().display()
        );
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let notes = Notes::new(Arc::new(store));
        let info = ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("notes", env!("CARGO_PKG_VERSION")))
            .with_instructions("Notes saved in a JSON file: list, add and delete them.");
        let server = ListingServer::new(TOOLS, notes)
            .with_info(info)
            .with_filter(filter)?;
        let running = server.serve(rmcp::transport::stdio()).await?;
        running.waiting().await?;
        Ok::<(), Box<dyn std::error::Error>>(())
    })
}

/// Compact JSON text indented for reading, keys in the order the server wrote them.
fn indent(json: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    let (mut in_string, mut escaped) = (false, false);
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        out.push_str(&"  ".repeat(depth));
    };
    let mut chars = json.chars().peekable();
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '{' | '[' => {
                out.push(c);
                if matches!(chars.peek(), Some('}' | ']')) {
                    out.extend(chars.next());
                } else {
                    depth += 1;
                    newline(&mut out, depth);
                }
            }
            '}' | ']' => {
                depth -= 1;
                newline(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(c);
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            _ => out.push(c),
        }
    }
    out
}
