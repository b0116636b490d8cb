//! `diff`: what changed between two listings of a server (a pinned one and the live one, or two
//! files), each change classified, and whether the classes the user allows cover them.

use mcp_annotations::Tool;
use mcp_annotations::host::diff::Class;
use serde_json::Value;

use crate::cli::args::DiffArgs;
use crate::cli::status::{Failure, Outcome, Status};
use crate::report::ignore::Ignores;
use crate::report::{self, DiffReport};
use crate::server;

/// The tools of a side of `diff`: a saved `tools/list` result (or an array of tools), or
/// the live server's listing. A file that is not one is the command line's mistake (bad
/// usage); a server that does not answer is the run's.
fn tools_of(args: &DiffArgs, file: Option<&str>) -> Result<Vec<Tool>, Failure> {
    let listed: Vec<Value> = match file {
        Some(path) => {
            let usage = |error: String| Failure::Usage(format!("{path}: {error}"));
            let text = std::fs::read_to_string(path).map_err(|error| usage(error.to_string()))?;
            let value: Value =
                serde_json::from_str(&text).map_err(|error| usage(error.to_string()))?;
            let tools = value.get("tools").cloned().unwrap_or(value);
            match tools {
                Value::Array(tools) => tools,
                _ => {
                    return Err(usage(
                        "neither a tools/list result nor an array of tools".into(),
                    ));
                }
            }
        }
        None => {
            let mut peer = server::named(&args.command, &args.connection, &args.remote)?;
            peer.list_tools().map_err(|error| peer.explain(error))?.0
        }
    };
    listed
        .into_iter()
        .map(|raw| {
            let name = raw
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("(no name)")
                .to_owned();
            serde_json::from_value(raw).map_err(|error| {
                let message = format!("`{name}` cannot be read: {error}");
                match file {
                    Some(path) => Failure::Usage(format!("{path}: {message}")),
                    None => Failure::CouldNotRun(message),
                }
            })
        })
        .collect()
}

/// `diff`: what changed between the two listings `args` names, and the exit status it calls for.
pub fn run(args: &DiffArgs) -> Outcome {
    if args.new.is_none() && args.command.is_empty() && args.remote.http.is_none() {
        return Err(Failure::Usage(
            "diff needs the new side: a file (diff OLD NEW), a server after `--`, or --http URL"
                .to_owned(),
        ));
    }
    let mut ignores = Ignores::load(&args.settings, "diff").map_err(Failure::Usage)?;
    server::keep_log(&args.connection)?;
    let (old, new) = (
        tools_of(args, Some(&args.old))?,
        tools_of(args, args.new.as_deref())?,
    );
    let changes = mcp_annotations::host::diff::listings(&old, &new);
    // A change of a class not allowed fails the diff, unless an ignore covers it (by its
    // rule: `breaking-change`, `trust-change`).
    let ignored: Vec<Option<String>> = changes
        .iter()
        .map(|change| {
            let rule = report::sarif::diff_rule(change.class());
            ignores.reason(Some(change.tool()), rule, None)
        })
        .collect();
    let refused = changes.iter().zip(&ignored).any(|(change, ignored)| {
        ignored.is_none()
            && match change.class() {
                Class::Breaking => !args.allow.iter().any(|a| a == "breaking"),
                Class::Trust => !args.allow.iter().any(|a| a == "trust"),
                _ => false,
            }
    });
    ignores.say("diff");
    crate::progress::finish();
    let report = DiffReport {
        changes,
        ignored,
        refused,
        allowed: args.allow.clone(),
    };
    // SARIF's results are placed in the pinned (old) listing's file, which the repository
    // holds, unless told otherwise.
    let mut output = args.output.clone();
    if output.sarif_artifact.is_none() {
        output.sarif_artifact = Some(report::sarif::relative(&args.old));
    }
    let text = report::rendered(
        &output,
        &report,
        report::table::diff,
        report::markdown::diff,
        report::sarif::diff,
    )?;
    let failing = if refused {
        Status::Findings
    } else {
        Status::Clean
    };
    Ok((Status::of_results(failing, args.output.format), text))
}
