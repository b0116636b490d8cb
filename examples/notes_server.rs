//! A notes server's tools, described with `#[tool]` and listed with `tools!`: the
//! `tools/list` result a client receives, the Markdown table for a README or a directory
//! submission, and what a host that reads the listing back may do with each tool.
//!
//! ```text
//! cargo run --example notes_server                        # all three, protocol 2026-07-28
//! cargo run --example notes_server -- --format json --protocol 2025-06-18
//! cargo run --example notes_server -- --format markdown
//! ```

use std::sync::Mutex;

use annotations::{Context, ListOptions, Listing, ProtocolVersion, Tool, Trust, tool, tools};

/// The server's state: its notes, behind a lock (calls share the state).
#[derive(Default)]
pub struct Notes(Mutex<Store>);

/// The notes themselves.
#[derive(Default)]
pub struct Store {
    notes: Vec<(u64, String, String)>,
    next_id: u64,
}

impl Notes {
    /// List every saved note with its id and title.
    #[tool(
        read_only,
        destructive = false,
        idempotent,
        open_world = false,
        title = "List notes"
    )]
    pub fn list_notes(&self) -> String {
        let store = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let lines: Vec<String> = store
            .notes
            .iter()
            .map(|(id, title, _)| format!("{id}: {title}"))
            .collect();
        lines.join("\n")
    }

    /// Save a new note. Use this when the user asks to write something down.
    #[tool(
        read_only = false,
        destructive = false,
        idempotent = false,
        open_world = false,
        title = "Add note"
    )]
    pub fn add_note(
        &self,
        /// Short title for the note
        title: String,
        /// Text of the note
        body: String,
    ) -> u64 {
        let mut store = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        store.next_id += 1;
        let id = store.next_id;
        store.notes.push((id, title, body));
        id
    }

    /// Permanently delete a note by id. This cannot be undone.
    #[tool(
        read_only = false,
        destructive,
        idempotent,
        open_world = false,
        title = "Delete note"
    )]
    pub fn delete_note(
        &self,
        /// Id of the note to delete, from list_notes
        note_id: u64,
    ) -> Result<String, String> {
        let mut store = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let at = store.notes.iter().position(|(id, _, _)| *id == note_id);
        let at = at.ok_or_else(|| format!("no note {note_id}"))?;
        Ok(format!("deleted {}", store.notes.remove(at).1))
    }
}

/// The server's tools, in the order clients see them. `ready = strict` makes it a compile
/// error for any of them to leave a title or a hint that directories ask for unstated.
pub static TOOLS: Listing<Notes> = tools![
    ready = strict;
    Notes::list_notes,
    Notes::add_note,
    Notes::delete_note,
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut version = ProtocolVersion::LATEST;
    let mut format = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next()) {
            ("--protocol", Some(value)) => {
                version = ProtocolVersion::parse(&value)
                    .ok_or_else(|| format!("unknown protocol version {value:?}"))?;
            }
            ("--format", Some(value)) if value == "json" || value == "markdown" => {
                format = Some(value);
            }
            _ => {
                return Err(
                    "usage: notes_server [--protocol VERSION] [--format json|markdown]".into(),
                );
            }
        }
    }

    let text = TOOLS.render(&ListOptions::new(version), None)?;
    let result: serde_json::Value = serde_json::from_str(&text)?;
    match format.as_deref() {
        Some("json") => println!("{}", indent(&text)),
        Some(_) => print!("{}", TOOLS.to_markdown()),
        None => {
            println!("== tools/list ({version}) ==");
            println!("{}", indent(&text));
            println!("\n== As a Markdown table ==");
            print!("{}", TOOLS.to_markdown());
            println!("\n== What a host reading this listing may do ==");
            host_view(&result)?;
            println!("\n== Calls through the listing, as a server makes them ==");
            let notes = Notes::default();
            for (name, arguments) in [
                ("add_note", r#"{"title": "Milk", "body": "Buy milk"}"#),
                ("list_notes", "{}"),
                ("delete_note", r#"{"note_id": 1}"#),
                ("delete_note", r#"{"note_id": 1}"#),
                ("delete_note", r#"{"note_id": "one"}"#),
                ("add_note", r#"{"title": "Eggs", "bdy": "Buy eggs"}"#),
            ] {
                let arguments = serde_json::from_str(arguments)?;
                let call = TOOLS.call(&notes, name, Some(arguments), Context::none())?;
                let result = annotations::__private::block_on(call);
                println!("{name:<12} -> {}", result.to_json());
            }
            let unknown = TOOLS.call(&notes, "rename_note", None, Context::none());
            if let Err(error) = unknown {
                println!("rename_note  -> protocol error {}: {error}", error.code());
            }
        }
    }
    Ok(())
}

/// Reads the tools back as a host would, and prints what it may do with each, trusting the
/// server or not.
fn host_view(result: &serde_json::Value) -> Result<(), Box<dyn std::error::Error>> {
    let tools: Vec<Tool> = serde_json::from_value(result["tools"].clone())?;
    println!(
        "{:<12} {:<10} {:>9} {:>9} {:>10}",
        "tool", "trust", "approval", "parallel", "plan mode"
    );
    for tool in &tools {
        tool.validate()?;
        for trust in [Trust::Trusted, Trust::Untrusted] {
            let view = tool.annotations.for_host(trust);
            println!(
                "{:<12} {:<10} {:>9} {:>9} {:>10}",
                tool.name(),
                format!("{trust:?}"),
                yes_no(view.needs_approval()),
                yes_no(view.may_run_in_parallel()),
                yes_no(view.allowed_in_plan_mode()),
            );
        }
    }
    Ok(())
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

fn yes_no(value: bool) -> &'static str {
    if value { "yes" } else { "no" }
}
