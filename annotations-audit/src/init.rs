//! `init`: one probe of a server, written as the settings file its next probes start from
//! (read by [`crate::cli::settings`]): the server's command and what fills its sandbox, the places
//! the run classed volatile or append-only, and each tool with its claimed hints (as comments,
//! with what the probe found of each) and the arguments that succeeded, each value with where
//! it came from. A tool with a claim left unjudged because none of its calls succeeded gets a
//! `TODO`: the probe refuses the file until its author writes arguments that work, or removes
//! the line.

use std::fmt::Write as _;
use std::path::PathBuf;

use mcp_annotations::descriptor::Hint;

use crate::cli::args::{InitArgs, ProbeArgs};
use crate::cli::settings::DEFAULT_FILE;
use crate::cli::settings::TODO;
use crate::cli::status::{Failure, Outcome, Status};
use crate::report::{ProbeReport, ProbedTool, Verdict};

/// `init`: the probe `args` ask for, then the settings file written from it; what was written,
/// in words.
pub fn run(args: &InitArgs) -> Outcome {
    let path = args
        .probe
        .settings
        .config
        .clone()
        .unwrap_or_else(|| PathBuf::from(DEFAULT_FILE));
    let output = &args.probe.output;
    let reported = output.format != crate::cli::args::Format::Text
        || output.sarif_file.is_some()
        || output.sarif_artifact.is_some()
        || args.probe.evidence.is_some();
    if reported {
        return Err(Failure::Usage(
            "init writes the settings file and no report: give --format, --sarif-file, \
             --sarif-artifact and --evidence to `probe`"
                .to_owned(),
        ));
    }
    if path.exists() && !args.force {
        return Err(Failure::Usage(format!(
            "{} is there already: give --force to write over it (its [[ignore]] entries \
             included), or --config FILE to write another",
            path.display()
        )));
    }
    // The settings file is written from this probe alone: none of an earlier one is read.
    let options = crate::probe::options(&args.probe, crate::cli::settings::ForProbe::default())?;
    crate::server::keep_log(&args.probe.connection)?;
    let report = crate::probe::probe(&options)?;
    crate::progress::finish();
    let (text, said) = written(&args.probe, &report);
    std::fs::write(&path, text)
        .map_err(|error| format!("cannot write {}: {error}", path.display()))?;
    Ok((
        Status::Clean,
        format!(
            "wrote {}: {said}\nNext: check the file, then `annotations-audit probe{}`\n",
            path.display(),
            match &args.probe.settings.config {
                Some(path) => format!(" --config {}", path.display()),
                None => String::new(),
            }
        ),
    ))
}

/// The settings file's text for `report`, a probe run as `args` ask, and what it holds, in
/// words.
fn written(args: &ProbeArgs, report: &ProbeReport) -> (String, String) {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# annotations-audit's settings for one server, written by `annotations-audit init` \
         ({}) from\n# one probe of it. `annotations-audit probe` reads this file (from the \
         working folder, or\n# with --config FILE), and refuses it until the arguments each \
         tool below asks for are\n# written. Each tool's `cases` are called before the \
         generated ones: edit them, add to them.\n# `{{sandbox}}` is the sandbox's path.\n",
        env!("CARGO_PKG_VERSION")
    );
    out.push_str("[probe]\n");
    let _ = writeln!(out, "command = {}", inline(&args.command));
    if let Some(http) = &args.remote.http {
        let _ = writeln!(out, "http = {}", inline(http));
    }
    if args.allow_open_world {
        out.push_str("allow-open-world = true\n");
    }
    // Where the file is read from another folder, a relative seed folder would be another.
    if let Some(dir) = &args.seed_dir {
        let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.clone());
        let _ = writeln!(out, "seed-dir = {}", inline(dir.to_string_lossy()));
    }
    if !args.env.is_empty() {
        let env: toml::Table = args
            .env
            .iter()
            .map(|(key, value)| (key.clone(), toml::Value::from(value.as_str())))
            .collect();
        let _ = writeln!(out, "env = {}", toml::Value::Table(env));
    }
    if !args.setup.is_empty() {
        let _ = writeln!(out, "setup = {}", inline(&args.setup));
    }
    let mut volatile: Vec<String> = args.volatile.iter().map(|p| p.text().to_owned()).collect();
    let found_volatile = report.control.volatile.len();
    volatile.extend(report.control.volatile.iter().cloned());
    if found_volatile > 0 {
        out.push_str(
            "# What changed while the server sat idle (the control session) is volatile: \
             reported, never judged.\n",
        );
    }
    // A place whose path holds `#` or `*` would be read back as a pointer or a glob: said, not
    // written.
    let (volatile, unwritable): (Vec<String>, Vec<String>) = volatile
        .into_iter()
        .partition(|place| !place.contains('*') && place.matches('#').count() <= 1);
    for place in &unwritable {
        let _ = writeln!(
            out,
            "# Volatile, and not writable as a place (its path holds `#` or `*`): {}",
            comment(place)
        );
    }
    if !volatile.is_empty() {
        let _ = writeln!(out, "volatile = {}", inline(&volatile));
    }
    let mut append_only: Vec<String> = args
        .append_only
        .iter()
        .map(|p| p.text().to_owned())
        .collect();
    for classed in &report.classed_append_only {
        let (place, why) = classed.split_once(": ").unwrap_or((classed, ""));
        let _ = writeln!(
            out,
            "# Classed append-only: {}: {}",
            comment(place),
            comment(why)
        );
        append_only.push(place.to_owned());
    }
    if !append_only.is_empty() {
        let _ = writeln!(out, "append-only = {}", inline(&append_only));
    }
    let (mut worked, mut todo) = (0, 0);
    for tool in &report.tools {
        out.push('\n');
        match tool_entry(tool, &mut out) {
            Entry::Worked => worked += 1,
            Entry::Todo => todo += 1,
            Entry::Other => {}
        }
    }
    let said = format!(
        "{} tools, {worked} with arguments that succeeded, {todo} with a TODO; {} places \
         volatile, {} append-only",
        report.tools.len(),
        volatile.len(),
        append_only.len()
    );
    (out, said)
}

/// What a tool's entry came to.
enum Entry {
    /// Arguments that succeeded are written.
    Worked,
    /// A `TODO` asks for them.
    Todo,
    /// Neither: nothing was called, or nothing claimed is left to judge.
    Other,
}

/// `tool`'s `[[tool]]` entry, after comments on what it claims and what the probe found.
fn tool_entry(tool: &ProbedTool, out: &mut String) -> Entry {
    let claims: Vec<String> = Hint::ALL
        .into_iter()
        .filter(|hint| tool.probe[*hint] != Verdict::Unclaimed)
        .map(|hint| format!("{} {}", hint.claim(), tool.probe[hint].word()))
        .collect();
    let _ = writeln!(
        out,
        "# `{}` claims {}; {} of {} calls succeeded.",
        comment(&tool.name),
        if claims.is_empty() {
            "nothing the probe judges".to_owned()
        } else {
            claims.join(", ")
        },
        tool.succeeded,
        tool.calls
    );
    let unexercised = Hint::ALL
        .into_iter()
        .any(|hint| tool.probe[hint] == Verdict::Unexercised);
    // A case TOML cannot hold (a null, an integer past its range) is said, not written.
    let (writable, unwritable): (Vec<_>, Vec<_>) = tool
        .succeeded_with
        .iter()
        .partition(|case| toml::Value::try_from(&case.arguments).is_ok());
    for case in unwritable {
        let _ = writeln!(
            out,
            "# Also succeeded, with a value TOML cannot write (a null): {}",
            comment(&case.arguments.to_string())
        );
    }
    let cases: Vec<(String, String)> = writable
        .into_iter()
        .filter_map(|case| {
            let value = toml::Value::try_from(&case.arguments).ok()?;
            let from: Vec<String> = case
                .from
                .iter()
                .map(|(pointer, origin)| {
                    format!("{} from {origin}", comment(pointer.trim_start_matches('/')))
                })
                .collect();
            Some((value.to_string(), from.join(", ")))
        })
        .collect();
    let called = tool.calls > 0
        || tool
            .unjudged
            .values()
            .any(|why| why.contains("no arguments"));
    let entry = if !cases.is_empty() {
        Entry::Worked
    } else if unexercised && called {
        let why = tool.unjudged.values().next().map_or("", String::as_str);
        let why = one_line(why, 300);
        let _ = writeln!(
            out,
            "{TODO} no call succeeded ({why}). Write arguments it accepts as `cases = [{{ name \
             = \"value\" }}]`, then remove this line."
        );
        Entry::Todo
    } else {
        for why in tool.unjudged.values().take(1) {
            let _ = writeln!(out, "# Not judged: {}", one_line(why, 300));
        }
        Entry::Other
    };
    out.push_str("[[tool]]\n");
    let _ = writeln!(out, "name = {}", inline(&tool.name));
    if !cases.is_empty() {
        out.push_str("cases = [\n");
        for (case, from) in cases {
            let _ = writeln!(out, "    {case}, # {from}");
        }
        out.push_str("]\n");
    }
    entry
}

/// `text` on one line of at most `most` characters, fit for a comment.
fn one_line(text: &str, most: usize) -> String {
    comment(&text.split_whitespace().collect::<Vec<_>>().join(" "))
        .chars()
        .take(most)
        .collect()
}

/// `text` as a TOML comment may hold it: its control characters escaped (`\n`, `\u{1b}`).
fn comment(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() && c != '\t' {
                c.escape_debug().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// `value` as a TOML value written inline.
fn inline(value: impl serde::Serialize) -> String {
    toml::Value::try_from(value).map_or_else(|_| "\"\"".to_owned(), |value| value.to_string())
}
