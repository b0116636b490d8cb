//! A server whose tools fail until one of its own sets it up (a store that needs its
//! `init`, an `upgrade` first): when every call of a tool failed with one same answer (one
//! that speaks of setting up, or that another tool gave too) before a tool whose name or
//! description says it initialises, sets up, upgrades or bootstraps was called and
//! succeeded, the tool is probed again after it, and the report says so. Its calls changed the sandbox, so every reproduction run replays them before the
//! calls it reproduces: it comes first in every run.

use mcp_annotations::Tool;
use serde_json::Value;

use super::session::Session;
use crate::report::{Note, ProbedTool};

/// The words of a tool's name that say it sets the server up.
const NAMES: [&str; 9] = [
    "init",
    "initialize",
    "initialise",
    "setup",
    "upgrade",
    "bootstrap",
    "migrate",
    "install",
    "prepare",
];

/// What a description's first sentence says of a tool that sets the server up.
const SAID: [&str; 7] = [
    "initializ",
    "initialis",
    "set up",
    "sets up",
    "upgrade",
    "bootstrap",
    "migrat",
];

/// Whether `tool`'s name or the first sentence of its description says it sets the server up.
pub(super) fn sets_up(tool: &Tool) -> bool {
    let words = mcp_annotations_verify::name_words(tool.name());
    let named = words.iter().any(|word| NAMES.contains(&word.as_str()))
        || words.windows(2).any(|pair| pair == ["set", "up"]);
    let description = tool.description.as_deref().unwrap_or_default();
    let first = description
        .split(". ")
        .next()
        .unwrap_or_default()
        .to_lowercase();
    named || SAID.iter().any(|said| first.contains(said))
}

/// Probes again, after the set-up tool, the tools whose every call failed the same way before
/// it was called: each row in `probed` (in the order probed, with its listing index) replaced
/// by the new one, with a note; the server's finding says which tool set it up.
///
/// # Errors
///
/// The server died and cannot be started again.
pub(super) fn again(
    session: &mut Session<'_>,
    tools: &[Tool],
    probed: &mut [(usize, ProbedTool)],
    written: impl Fn(&Tool) -> Vec<(Value, &'static str)>,
) -> Result<(), String> {
    let Some(primer) = probed
        .iter()
        .position(|(at, row)| row.succeeded > 0 && sets_up(&tools[*at]))
    else {
        return Ok(());
    };
    let setup = tools[probed[primer].0].name().to_owned();
    let failed_alike = |index: usize| {
        let (at, row) = &probed[index];
        row.failed_alike
            .as_deref()
            .filter(|_| super::judges_a_claim(&tools[*at]))
    };
    // The tools probed before it whose every call gave one answer that either names what
    // setting up does (or the tool) or is the answer of another such tool too: what they
    // lacked. A tool that failed its own way (a wrong code) is left as it was.
    let lacking = |answer: &str| {
        let lower = answer.to_lowercase();
        // Words that start as setting up does (`initialize`, `not initialised`, `upgrade`),
        // not ones that hold such letters (`definition`).
        let starts = ["init", "setup", "upgrade", "bootstrap", "migrat", "install"];
        let names = lower.contains(&setup.to_lowercase())
            || lower.contains("set up")
            || lower
                .split(|c: char| !c.is_alphanumeric())
                .any(|word| starts.iter().any(|start| word.starts_with(start)));
        names
            || (0..primer)
                .filter(|&i| failed_alike(i) == Some(answer))
                .count()
                > 1
    };
    let before: Vec<usize> = (0..primer)
        .filter(|&index| failed_alike(index).is_some_and(lacking))
        .collect();
    if before.is_empty() {
        return Ok(());
    }
    let names: Vec<String> = before
        .iter()
        .map(|&index| format!("`{}`", probed[index].1.name))
        .collect();
    session.findings.push(format!(
        "every call of {} failed alike before `{setup}`, whose name or description says it \
         sets the server up, was called: probed again after it (every reproduction run \
         replays its calls first)",
        names.join(", ")
    ));
    for index in before {
        let tool = &tools[probed[index].0];
        if std::time::Instant::now() > session.deadline {
            break;
        }
        let calls = probed[index].1.calls;
        let answer = probed[index].1.failed_alike.clone().unwrap_or_default();
        let mut row = super::tool::probe(session, tool, &written(tool), None)?.finish(session);
        row.notes.insert(
            0,
            Note::Said(format!(
                "probed again after `{setup}` set the server up: before it, its {calls} calls \
                 each answered {answer}"
            )),
        );
        probed[index].1 = row;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::sets_up;

    #[test]
    fn a_tool_that_sets_the_server_up_says_so_by_name_or_description() {
        let tool = |name: &str, description: &str| -> mcp_annotations::Tool {
            serde_json::from_value(serde_json::json!({
                "name": name,
                "description": description,
                "inputSchema": {"type": "object"}
            }))
            .unwrap()
        };
        for (name, description) in [
            ("init_store", ""),
            ("initStore", ""),
            ("set_up", ""),
            ("db-upgrade", ""),
            ("open", "Initializes the notebook. Call it first."),
            ("start", "Sets up the memory store"),
        ] {
            assert!(sets_up(&tool(name, description)), "{name}");
        }
        for (name, description) in [
            ("list_items", "Lists the items"),
            ("initial_balance", "The balance set at the start"),
            ("note", "Adds a note. Set up a reminder with remind."),
        ] {
            assert!(!sets_up(&tool(name, description)), "{name}");
        }
    }
}
