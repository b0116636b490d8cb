//! A notes server's three tools, annotated, checked, written in both wire forms, and read back
//! as a host that trusts the server and one that does not would act on them.
//!
//! Run with `cargo run --example notes_server`.

use annotations::{ToolAnnotations, Trust};

const LIST_NOTES: ToolAnnotations = ToolAnnotations::new()
    .with_title("List notes")
    .with_read_only(true)
    .with_open_world(false);
const ADD_NOTE: ToolAnnotations = ToolAnnotations::ADDITIVE_WRITE.with_title("Add note");
const DELETE_NOTE: ToolAnnotations = ToolAnnotations::DESTRUCTIVE_WRITE
    .with_idempotent(true)
    .with_title("Delete note");

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let tools = [
        ("list_notes", LIST_NOTES),
        ("add_note", ADD_NOTE),
        ("delete_note", DELETE_NOTE),
    ];

    println!("== What the server states ==");
    for (name, annotations) in &tools {
        annotations.check()?;
        println!("{name}");
        println!("  as stated: {}", serde_json::to_string(annotations)?);
        println!(
            "  explicit:  {}",
            serde_json::to_string(&annotations.explicit())?
        );
    }

    // A host receives the compact form over the wire, from a peer it may or may not trust.
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

    println!("\n== What a peer got wrong ==");
    for bad in [
        r#"{"readOnlyHint": true, "destructiveHint": true}"#,
        r#"{"readOnlyHint": "yes"}"#,
    ] {
        match serde_json::from_str::<ToolAnnotations>(bad) {
            Ok(received) => match received.check() {
                Ok(()) => println!("{bad}: consistent"),
                Err(conflict) => println!("{bad}: {conflict}"),
            },
            Err(err) => println!("{bad}: {err}"),
        }
    }
    Ok(())
}

fn yes_no(value: bool) -> &'static str {
    if value { "yes" } else { "no" }
}
