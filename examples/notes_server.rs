//! A notes server's tools, annotated with `#[tool]`, checked while compiling, written in both
//! wire forms, and read back as a host that trusts the server and one that does not would act
//! on them.
//!
//! Run with `cargo run --example notes_server`.

use annotations::{ToolAnnotations, Trust, tool};

/// The server's state: its notes.
#[derive(Default)]
struct Notes {
    notes: Vec<String>,
}

impl Notes {
    /// List every saved note with its id.
    #[tool(read_only, open_world = false, title = "List notes")]
    fn list_notes(&self) -> String {
        let lines: Vec<String> = self
            .notes
            .iter()
            .enumerate()
            .map(|(id, text)| format!("{id}: {text}"))
            .collect();
        lines.join("; ")
    }

    /// Save a new note and return its id.
    #[tool(destructive = false, open_world = false, title = "Add note")]
    fn add_note(&mut self, text: &str) -> usize {
        self.notes.push(text.to_owned());
        self.notes.len() - 1
    }

    /// Permanently delete a note by id.
    #[tool(destructive, idempotent, open_world = false, title = "Delete note")]
    fn delete_note(&mut self, note_id: usize) -> Result<String, String> {
        if note_id < self.notes.len() {
            Ok(self.notes.remove(note_id))
        } else {
            Err(format!("no note {note_id}"))
        }
    }
}

/// Fetch a public web page (here: pretend to).
#[tool(http = "GET", title = "Fetch page")]
fn fetch_page(url: &str) -> String {
    format!("<html>{url}</html>")
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let tools = [
        ("list_notes", Notes::LIST_NOTES_ANNOTATIONS),
        ("add_note", Notes::ADD_NOTE_ANNOTATIONS),
        ("delete_note", Notes::DELETE_NOTE_ANNOTATIONS),
        ("fetch_page", FETCH_PAGE_ANNOTATIONS),
    ];

    println!("== The handlers at work ==");
    let mut notes = Notes::default();
    notes.add_note("buy milk");
    notes.add_note("call mum");
    println!("list_notes  -> {}", notes.list_notes());
    println!("delete_note -> {:?}", notes.delete_note(0));
    println!("delete_note -> {:?}", notes.delete_note(5));
    println!("fetch_page  -> {}", fetch_page("https://example.com"));

    println!("\n== What the server states (compact, then explicit) ==");
    for (name, annotations) in &tools {
        println!("{name}");
        println!("  {}", serde_json::to_string(annotations)?);
        println!("  {}", serde_json::to_string(&annotations.explicit())?);
    }

    // A host receives the compact form over the wire, from a server it may or may not trust.
    println!("\n== What a host may act on ==");
    println!(
        "{:<12} {:<10} {:>9} {:>9} {:>10}",
        "tool", "trust", "approval", "parallel", "plan mode"
    );
    for (name, annotations) in &tools {
        let received: ToolAnnotations = serde_json::from_str(&serde_json::to_string(annotations)?)?;
        received.check()?;
        for trust in [Trust::Trusted, Trust::Untrusted] {
            let view = received.for_host(trust);
            println!(
                "{:<12} {:<10} {:>9} {:>9} {:>10}",
                name,
                format!("{trust:?}"),
                yes_no(view.needs_approval()),
                yes_no(view.may_run_in_parallel()),
                yes_no(view.allowed_in_plan_mode()),
            );
        }
    }

    println!("\n== What another server got wrong ==");
    for bad in [
        r#"{"readOnlyHint": true, "destructiveHint": true}"#,
        r#"{"readOnlyHint": "yes"}"#,
        r#"["readOnlyHint"]"#,
    ] {
        match serde_json::from_str::<ToolAnnotations>(bad) {
            Ok(received) => match received.check() {
                Ok(()) => println!("{bad}\n  consistent"),
                Err(conflict) => println!("{bad}\n  {conflict}"),
            },
            Err(err) => println!("{bad}\n  {err}"),
        }
    }
    Ok(())
}

fn yes_no(value: bool) -> &'static str {
    if value { "yes" } else { "no" }
}
