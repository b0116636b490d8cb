//! What a probe reads and writes beside its calls: the user's cases, each tool's seeded runner,
//! the values earlier calls showed, and the report's coverage and wording.

use std::path::Path;

use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::Value;

use crate::report::{ByHint, CallNote, Counted, Coverage, Note, ProbeReport, ProbedTool, Verdict};

/// What the server's run did past its bounds, not yet said, as findings on the server `when`
/// (`while ``tool`` was called with {...}`).
pub(super) fn past_bounds(session: &mut super::session::Session<'_>, when: &str) {
    for what in session.peer.exceeded() {
        session.findings.push(format!("the server {what}, {when}"));
    }
}

/// The notes on what `call` did that no claim judges: volatile state it changed, and its
/// attempts to reach the network.
pub(super) fn unjudged_notes(
    call: &super::runs::Call,
    arguments: &Value,
    classes: &mcp_annotations_verify::judge::classes::Classes,
) -> Vec<Note> {
    let mut notes = Vec::new();
    let volatile =
        mcp_annotations_verify::judge::volatile_changes(&call.before, &call.after, classes);
    if !volatile.is_empty() {
        notes.push(Note::Call(CallNote {
            volatile: Some(volatile),
            ..CallNote::problem(arguments, "changed volatile state only: not judged")
        }));
    }
    if let Some(attempts) = call.attempts.as_ref().filter(|a| !a.is_empty()) {
        notes.push(Note::Call(CallNote {
            arguments: arguments.clone(),
            from: None,
            network: Some(attempts.clone()),
            ..CallNote::default()
        }));
    }
    notes
}

/// The cases the user wrote, by tool name (`--cases-file`: a JSON object of arrays of argument
/// objects).
pub(super) fn cases_from_file(
    path: Option<&Path>,
) -> Result<serde_json::Map<String, Value>, String> {
    let Some(path) = path else {
        return Ok(serde_json::Map::new());
    };
    let text = std::fs::read_to_string(path)
        .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
    let cases: Value = serde_json::from_str(&text)
        .map_err(|error| format!("{} is not JSON: {error}", path.display()))?;
    let Value::Object(cases) = cases else {
        return Err(format!(
            "{}: a cases file is an object of tool names, each an array of argument objects",
            path.display()
        ));
    };
    for (tool, list) in &cases {
        let fine = list
            .as_array()
            .is_some_and(|list| list.iter().all(Value::is_object));
        if !fine {
            return Err(format!(
                "{}: `{tool}` is not an array of argument objects",
                path.display()
            ));
        }
    }
    Ok(cases)
}

/// Every string in `value` with the sandbox's path written `{sandbox}`: a report that does not
/// depend on where the sandbox was made.
pub(super) fn relative_to(value: &mut Value, sandbox: &str) {
    rebase(value, sandbox, "{sandbox}");
}

/// Every string in `value` with `from` (a sandbox's path) written `to`.
pub(super) fn rebase(value: &mut Value, from: &str, to: &str) {
    match value {
        Value::String(text) if text.contains(from) => *text = text.replace(from, to),
        Value::Array(items) => items.iter_mut().for_each(|item| rebase(item, from, to)),
        Value::Object(map) => map.values_mut().for_each(|item| rebase(item, from, to)),
        _ => {}
    }
}

/// How many of the hints the tools claim were judged (verified or violated), in all and hint
/// by hint, and the share judged.
pub(super) fn coverage(rows: &[ProbedTool]) -> Coverage {
    let by_hint = ByHint::from_fn(|hint| {
        let mut counted = Counted::default();
        for row in rows {
            match row.probe[hint] {
                Verdict::Unclaimed => {}
                Verdict::Verified | Verdict::Violated => {
                    counted.claimed += 1;
                    counted.judged += 1;
                }
                _ => counted.claimed += 1,
            }
        }
        counted
    });
    let (claimed, judged) = by_hint.iter().fold((0, 0), |(claimed, judged), (_, c)| {
        (claimed + c.claimed, judged + c.judged)
    });
    let share = if claimed == 0 {
        1.0
    } else {
        f64::from(judged) / f64::from(claimed)
    };
    Coverage {
        claimed,
        judged,
        share: (share * 100.0).round() / 100.0,
        by_hint,
    }
}

/// Every text of `report` with the sandbox's path written `{sandbox}`: a report that does not
/// depend on where the sandbox was made.
pub(super) fn relative(report: &mut ProbeReport, sandbox: &str) {
    let text = |text: &mut String| {
        if text.contains(sandbox) {
            *text = text.replace(sandbox, "{sandbox}");
        }
    };
    let texts = |texts: &mut [String]| texts.iter_mut().for_each(text);
    texts(&mut report.server);
    text(&mut report.confinement);
    text(&mut report.network);
    let control = &mut report.control;
    for lines in [&mut control.idle, &mut control.exit, &mut control.volatile] {
        texts(lines);
    }
    for tool in &mut report.tools {
        text(&mut tool.name);
        tool.unjudged.values_mut().for_each(text);
        tool.concurrency
            .iter_mut()
            .flat_map(|outcomes| outcomes.values_mut())
            .for_each(text);
        if let Some(fell_back) = tool.resolution.as_mut().and_then(|r| r.fell_back.as_mut()) {
            text(fell_back);
        }
        for case in &mut tool.succeeded_with {
            relative_to(&mut case.arguments, sandbox);
        }
        for note in &mut tool.notes {
            match note {
                Note::Said(said) => text(said),
                Note::Call(call) => {
                    relative_to(&mut call.arguments, sandbox);
                    if let Some(resolution) = &mut call.resolution {
                        relative_to(resolution, sandbox);
                    }
                    call.problem.iter_mut().for_each(text);
                    for lines in [
                        &mut call.volatile,
                        &mut call.network,
                        &mut call.runs,
                        &mut call.diff,
                    ] {
                        lines.iter_mut().for_each(|lines| texts(lines));
                    }
                }
            }
        }
    }
}

/// The first text a result holds, cut to `most` characters.
pub(super) fn first_text(result: &Value, most: usize) -> String {
    let text = result["content"]
        .as_array()
        .into_iter()
        .flatten()
        .find_map(|block| block.get("text").and_then(Value::as_str))
        .unwrap_or("");
    text.chars().take(most).collect()
}

/// A runner of its own for `tool`, seeded by `seed` and the tool's name.
pub(super) fn runner_for(seed: u64, tool: &str) -> TestRunner {
    // FNV-1a of the name: stable across runs and platforms.
    let mut name = 0xcbf2_9ce4_8422_2325u64;
    for byte in tool.bytes() {
        name = (name ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    seed_bytes[8..16].copy_from_slice(&name.to_le_bytes());
    TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes),
    )
}

/// The strings and numbers of a call's arguments and structured result, and what its text
/// names, for later calls: what one tool lists, creates or finds feeds the next one's
/// arguments.
pub(super) fn collect(arguments: &Value, result: &Value, seen: &mut Vec<Value>) {
    let mut found = Vec::new();
    mcp_annotations_verify::scalars(arguments, &mut found);
    if let Some(content) = result.get("structuredContent") {
        mcp_annotations_verify::scalars(content, &mut found);
    }
    for block in result
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(text) = block.get("text").and_then(Value::as_str) {
            named_in(text, &mut found);
        }
    }
    for value in found {
        if !seen.contains(&value) && seen.len() < 256 {
            seen.push(value);
        }
    }
}

/// What a result's `text` names, appended to `out`: the scalars of JSON text; else the numbers
/// it mentions and the items it lists, one word each (`Boxes: tea, jam`, a line per name, a
/// bullet list, a quoted name).
fn named_in(text: &str, out: &mut Vec<Value>) {
    let trimmed = text.trim();
    if trimmed.starts_with(['{', '['])
        && let Ok(json) = serde_json::from_str::<Value>(trimmed)
    {
        mcp_annotations_verify::scalars(&json, out);
        return;
    }
    for word in text.split(|c: char| !c.is_ascii_digit()) {
        if let Ok(number) = word.parse::<u64>() {
            out.push(Value::from(number));
        }
    }
    let mut items = Vec::new();
    for line in text.lines().take(64) {
        let line = line.trim().trim_start_matches(['-', '*', '•', '+']).trim();
        // What follows a label (`Boxes: tea, jam`, `id: 7`), else the line.
        let listed = line.split_once(": ").map_or(line, |(_, rest)| rest);
        items.extend(listed.split([',', ';']));
        // A name quoted within a sentence (`created 'tea'`).
        for quote in ['\'', '"', '`'] {
            items.extend(line.split(quote).skip(1).step_by(2));
        }
    }
    for item in items {
        let item = item
            .trim()
            .trim_matches(|c: char| matches!(c, '"' | '\'' | '`' | '.' | '(' | ')' | '[' | ']'));
        if !item.is_empty() && item.len() <= 64 && !item.contains(char::is_whitespace) {
            out.push(Value::from(item));
        }
    }
}

/// The least time a tool's cases may take before they are cut short: a tool whose every call
/// takes a few seconds still gets several.
const LEAST_SHARE: std::time::Duration = std::time::Duration::from_secs(15);

/// Why a tool's cases stop before `index` (of `total`), if they do: once one of its calls
/// succeeded, they took more than its share of the probe's time (`--probe-timeout` over the
/// tools, [`LEAST_SHARE`] at least); or two of them went unanswered (a third would most
/// likely wait as long). The first case is always made.
pub(super) fn stop_early(
    spent: std::time::Duration,
    (total_time, tools): (std::time::Duration, usize),
    (succeeded, unanswered): (u32, u32),
    (index, total): (u32, u32),
) -> Option<String> {
    if index == 0 {
        return None;
    }
    let share = (total_time / u32::try_from(tools.max(1)).unwrap_or(u32::MAX)).max(LEAST_SHARE);
    if unanswered >= 2 {
        return Some(format!(
            "{unanswered} calls went unanswered: stopped after {index} of {total} cases"
        ));
    }
    (succeeded > 0 && spent > share).then(|| {
        format!(
            "its calls took {:.0} s, past its share of the probe's time ({:.0} s): stopped after \
             {index} of {total} cases",
            spent.as_secs_f64(),
            share.as_secs_f64()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::{named_in, stop_early};
    use serde_json::{Value, json};
    use std::time::Duration;

    #[test]
    fn what_an_answer_names_feeds_the_next_calls() {
        let named = |text: &str| {
            let mut out = Vec::new();
            named_in(text, &mut out);
            out
        };
        assert_eq!(named("Boxes: tea, jam"), [json!("tea"), json!("jam")]);
        assert_eq!(
            named("- notes.md\n- todo 2.md\n* id: 17"),
            [json!(2), json!(17), json!("notes.md"), json!("17")]
        );
        assert_eq!(
            named("Created note 'weekly plan' as `n-3`."),
            [json!(3), json!("n-3")]
        );
        assert_eq!(
            named(r#"{"items": [{"id": "a1", "size": 4}]}"#),
            [json!("a1"), json!(4)]
        );
        // Prose names nothing.
        assert_eq!(named("The shelf is empty today"), Vec::<Value>::new());
    }

    #[test]
    fn a_tool_stops_past_its_share_once_a_call_succeeded_or_after_two_unanswered() {
        let s = Duration::from_secs;
        // 180 s over 4 tools: 45 s each; over 20 tools, 15 s at least.
        assert_eq!(stop_early(s(40), (s(180), 4), (1, 0), (3, 16)), None);
        let past = stop_early(s(50), (s(180), 4), (1, 0), (3, 16)).unwrap();
        assert!(past.starts_with("its calls took 50 s, past its share of the probe's time (45 s): stopped after 3 of 16"), "{past}");
        assert!(stop_early(s(16), (s(180), 20), (1, 0), (2, 16)).is_some());
        // Nothing succeeded yet: it goes on, until two calls went unanswered.
        assert_eq!(stop_early(s(50), (s(180), 4), (0, 1), (2, 16)), None);
        let unanswered = stop_early(s(60), (s(180), 4), (0, 2), (2, 16)).unwrap();
        assert!(
            unanswered.starts_with("2 calls went unanswered"),
            "{unanswered}"
        );
        // The first case is always made.
        assert_eq!(stop_early(s(500), (s(180), 4), (5, 5), (0, 16)), None);
    }
}
