//! The reports of `audit`, `probe` and `diff`, and their writers: the table (`--format text`),
//! Markdown for a pull request's comment and SARIF for code scanning (`--format json` is the
//! report itself).

use std::collections::BTreeMap;

use mcp_annotations::descriptor::Hint;
use mcp_annotations::host::diff::Change;
use serde::Serialize;
use serde_json::Value;

use crate::cli::args::{Format, Output};

pub mod baseline;
mod by_hint;
pub mod evidence;
pub mod ignore;
pub mod markdown;
pub mod rules;
pub mod sarif;
pub mod table;
pub mod text;

pub use mcp_annotations::descriptor::ByHint;

/// The kind of the finding on a tool the audit cannot read (not one of the library's: the
/// library's findings are about tools it has read).
pub const UNREADABLE_TOOL: &str = "unreadable-tool";
/// The kind of a finding on the listing itself (its pages, its cursor, its answers).
pub const LISTING_PROBLEM: &str = "listing-problem";
/// The kind of a finding on the tool-resolution extension as the server states it: a tool
/// marked resolvable by a server that does not declare the extension, a marker that is not
/// the draft's, the extension declared with settings this revision does not define.
pub const TOOL_RESOLUTION: &str = "tool-resolution";

/// The order a probe's report lists the claims in (its tables' columns, its SARIF rules, and
/// the order one call's broken claims are judged and noted): what a host relies on most first
/// (nothing changed, nothing changed twice, nothing lost, nothing reached).
pub const CLAIMS: [Hint; 4] = Hint::BY_RELIANCE;

/// A finding of the audit: what kind it is (a rule), how grave, and what it says.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    /// The kind (`unset-hint`, [`LISTING_PROBLEM`], ...): SARIF's rule.
    pub kind: String,
    /// `error` or `warning`.
    pub severity: String,
    /// What was found, in words (quoting the server where it says what it sent).
    pub message: String,
    /// Why the user ignores it (an `[[ignore]]` entry's reason): it then fails nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ignored: Option<String>,
}

/// What `audit` produces: the listing's own findings, and each tool's.
#[derive(Debug, Serialize)]
pub struct AuditReport {
    /// The findings on the listing as a whole (its pages, the extension's settings).
    pub listing: Vec<Finding>,
    /// Each tool listed, the ones the audit could read first, in the order listed.
    pub tools: Vec<AuditedTool>,
}

/// A tool of an audit's report.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum AuditedTool {
    /// A tool the audit could read.
    Read(ReadTool),
    /// A tool whose JSON the audit could not read: its findings say why.
    Unreadable(UnreadableTool),
}

impl AuditedTool {
    /// The tool's name.
    pub fn name(&self) -> &str {
        match self {
            AuditedTool::Read(tool) => &tool.name,
            AuditedTool::Unreadable(tool) => &tool.name,
        }
    }

    /// The findings on the tool.
    pub fn findings(&self) -> &[Finding] {
        match self {
            AuditedTool::Read(tool) => &tool.findings,
            AuditedTool::Unreadable(tool) => &tool.findings,
        }
    }

    /// The findings on the tool, to mark the ignored ones.
    pub fn findings_mut(&mut self) -> &mut [Finding] {
        match self {
            AuditedTool::Read(tool) => &mut tool.findings,
            AuditedTool::Unreadable(tool) => &mut tool.findings,
        }
    }
}

/// A tool the audit read: its hints as a host acts on them, and what a host would do.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadTool {
    /// The tool's name.
    pub name: String,
    /// The name a host shows (its title, else its name).
    pub display_name: String,
    /// Each hint at its effective value, under its wire name without `Hint`.
    pub effective: BTreeMap<&'static str, bool>,
    /// Whether its calls are resolved one by one (`tools/resolve`).
    pub resolvable: bool,
    /// What a host that trusts the server does with it.
    pub trusted: Decisions,
    /// What a host that does not trust the server does with it.
    pub untrusted: Decisions,
    /// The findings on it.
    pub findings: Vec<Finding>,
}

/// A host's decisions on a tool.
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Decisions {
    /// Whether a call asks the user first.
    pub approval: bool,
    /// Whether calls may run side by side.
    pub parallel: bool,
    /// Whether a plan mode offers it.
    pub plan_mode: bool,
}

/// A tool the audit could not read.
#[derive(Debug, Serialize)]
pub struct UnreadableTool {
    /// Its name, or `(no name)`.
    pub name: String,
    /// Always `false`: what tells it from a tool read, in the JSON.
    pub readable: bool,
    /// Why it could not be read, and its marker's findings.
    pub findings: Vec<Finding>,
}

/// A claimed hint's verdict in a probe.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// A call that succeeded, fully observed, kept it, and none broke it.
    Verified,
    /// Broken in every run.
    Violated,
    /// Seen to break in some runs and not in others.
    Nondeterministic,
    /// Claimed, but no call judged it.
    Unexercised,
    /// Not claimed: nothing to judge.
    #[default]
    Unclaimed,
}

impl Verdict {
    /// The verdict in the report's words.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Verified => "verified",
            Verdict::Violated => "violated",
            Verdict::Nondeterministic => "nondeterministic",
            Verdict::Unexercised => "unexercised",
            Verdict::Unclaimed => "unclaimed",
        }
    }
}

/// What `probe` produces.
#[derive(Debug, Serialize)]
pub struct ProbeReport {
    /// Each tool, in the order the server lists them.
    pub tools: Vec<ProbedTool>,
    /// What the server did beside its tools' calls (died, exited, wrote outside).
    pub server: Vec<String>,
    /// The seed the arguments were drawn with.
    pub seed: u64,
    /// Where the server could write, in words.
    pub confinement: String,
    /// What the server's network was, and whether its attempts were recorded, in words.
    pub network: String,
    /// What ended the server's processes with each run, in words.
    pub processes: String,
    /// What bounded each run's processes, memory and disk, in words.
    pub limits: String,
    /// How many of the claimed hints were judged.
    pub coverage: Coverage,
    /// In how many runs a violation must show.
    pub runs: u32,
    /// What the control session (no call) saw change.
    pub control: ControlReport,
    /// Each claim the probe judges, under its claim (`readOnly`, ...): which definition of
    /// the hint is tested (the spec's) and what a call must do to break it.
    #[serde(rename = "judgedBy")]
    pub judged_by: BTreeMap<&'static str, &'static str>,
    /// The tables the calls showed to be logs (a repeated call only added rows, each stamped
    /// with the time, and no call changed or removed one), classed append-only as
    /// `--append-only` classes a place: each place, with why.
    #[serde(rename = "classedAppendOnly")]
    pub classed_append_only: Vec<String>,
}

/// What the probe tests of each claim it judges, under the claim: the spec's definition of
/// the hint and what breaks it in a call.
pub const JUDGED_BY: [(&str, &str); 4] = [
    (
        "readOnly",
        "the spec's readOnlyHint (the tool does not modify its environment): broken by any \
         change a call makes to the sandbox's state (files, databases, documents, what an \
         --observe command shows), beyond the places classed volatile",
    ),
    (
        "idempotent",
        "the spec's idempotentHint (calling it again with the same arguments has no \
         additional effect): broken where the second of two identical calls, one after the \
         other or two at once, changed the state again, beyond what places classed \
         append-only only gained",
    ),
    (
        "nonDestructive",
        "the spec's destructiveHint: false (the tool performs only additive updates): broken \
         by anything a call removed or overwrote",
    ),
    (
        "closedWorld",
        "the spec's openWorldHint: false (the tool does not interact with external \
         entities): broken by any attempt of the server to reach the network during a call, \
         DNS and loopback included, as strace records it",
    ),
];

impl ProbeReport {
    /// Where the server ran, each with its key: its confinement, its network, what ended its
    /// processes, what bounded its runs, in words; what every format says beside the verdicts.
    #[must_use]
    pub fn surroundings(&self) -> [(&'static str, &str); 4] {
        [
            ("confinement", &self.confinement),
            ("network", &self.network),
            ("processes", &self.processes),
            ("limits", &self.limits),
        ]
    }
}

/// One tool's probe.
#[derive(Debug, Serialize)]
pub struct ProbedTool {
    /// The tool's name.
    pub name: String,
    /// The digest of its descriptor as the server listed it (`sha256:` and the hex SHA-256 of
    /// its canonical JSON, `mcp_annotations::host::Evidence::digest`): which descriptor the
    /// verdicts are on.
    pub digest: String,
    /// Each hint's verdict, under its claim.
    #[serde(serialize_with = "by_hint::by_claim")]
    pub probe: ByHint<Verdict>,
    /// How many calls succeeded.
    pub succeeded: u32,
    /// How many calls were made.
    pub calls: u32,
    /// Each claim left unjudged (unexercised or nondeterministic), and why.
    pub unjudged: BTreeMap<&'static str, String>,
    /// The first distinct arguments that succeeded (three at most), each value with where it
    /// came from: what `annotations-audit init` writes as the tool's cases.
    #[serde(rename = "succeededWith")]
    pub succeeded_with: Vec<Case>,
    /// The one answer every call gave, where there were calls and none succeeded: what tells a
    /// server that needs setting up (not written: the notes and `unjudged` say it).
    #[serde(skip)]
    pub failed_alike: Option<String>,
    /// What the calls showed beside the verdicts: violations, problems, notes.
    pub notes: Vec<Note>,
    /// What two identical calls at once showed of an idempotence claim, by way of making
    /// them (or why they were not tried); `null` where idempotence is not claimed.
    pub concurrency: Option<BTreeMap<&'static str, String>>,
    /// For a resolvable tool, what its resolutions claimed beyond the listing and how the
    /// calls kept it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resolution: Option<ResolutionReport>,
    /// Each violated claim the user ignores, under its claim, with the `[[ignore]]` entry's
    /// reason: it then fails nothing.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub ignored: BTreeMap<&'static str, String>,
}

/// What a resolvable tool's resolutions came to: written as one object, each hint's verdict
/// under its claim beside `resolved` and `fellBack`.
#[derive(Debug)]
pub struct ResolutionReport {
    /// Each hint's verdict on what resolutions claimed beyond the listing.
    pub verdicts: ByHint<Verdict>,
    /// How many calls were resolved.
    pub resolved: u32,
    /// Why the first call that fell back on the listed hints did.
    pub fell_back: Option<String>,
}

impl Serialize for ResolutionReport {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        by_hint::entries(&self.verdicts, &mut map)?;
        map.serialize_entry("resolved", &self.resolved)?;
        if let Some(why) = &self.fell_back {
            map.serialize_entry("fellBack", why)?;
        }
        map.end()
    }
}

/// A call's arguments, and where each of their values came from.
#[derive(Debug, Serialize)]
pub struct Case {
    /// The arguments.
    pub arguments: Value,
    /// Where each scalar value came from, by its JSON pointer in `arguments`: `schema` (its
    /// `enum`, `const`, `examples` or `default`), `description` (a literal it quotes),
    /// `format` (a well-known format its `format` or name says), `generated` (drawn within the
    /// schema's types and bounds), `state` (read from the sandbox), `earlier-call` (what an
    /// earlier call's arguments or answer held), `error` (what a failed call's answer named
    /// as wanted), `settings` (the settings file), `cases-file` (`--cases-file`).
    pub from: BTreeMap<String, &'static str>,
}

/// A note of a probe: a sentence, or what one call showed.
// A tool's notes are few (a call's each, a sentence each) and mostly calls: boxing them saves
// nothing worth an allocation per note.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Note {
    /// A sentence on the tool as a whole (why it was not called, why its cases stopped).
    Said(String),
    /// What one call showed.
    Call(CallNote),
}

/// What one call showed: the hint it broke (if it broke one), and what it did.
#[derive(Debug, Default, Serialize)]
pub struct CallNote {
    /// The hint broken, under its claim, where the note is a verdict's.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "claim")]
    pub hint: Option<Hint>,
    /// The call's arguments.
    pub arguments: Value,
    /// Where each scalar value of `arguments` came from, by its JSON pointer (as
    /// [`Case::from`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<BTreeMap<String, &'static str>>,
    /// The hints the call's resolution gave, where the verdict is on them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resolution: Option<Value>,
    /// What went wrong, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
    /// The volatile state the call changed, not judged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub volatile: Option<Vec<String>>,
    /// The server's attempts to reach the network during the call.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub network: Option<Vec<String>>,
    /// What each run of the reproduction saw.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runs: Option<Vec<String>>,
    /// What the call changed, line by line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<Vec<String>>,
    /// Why the user ignores the problem (an `[[ignore]]` entry's reason).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ignored: Option<String>,
}

impl CallNote {
    /// Whether the note is a call's problem that breaks the protocol (a protocol error for
    /// valid arguments, a result outside the output schema): an error, where an unanswered
    /// call or an exit is the server's trouble, a warning.
    pub fn breaks_protocol(&self) -> bool {
        self.hint.is_none() && self.problem.as_deref().is_some_and(breaks_protocol)
    }

    /// Whether the note is a call's problem (`call-problem`): what went wrong with a call, not
    /// a claim's verdict nor why a call was not judged. An error where it
    /// [breaks the protocol](Self::breaks_protocol), else a warning.
    pub fn is_call_problem(&self) -> bool {
        self.hint.is_none()
            && self
                .problem
                .as_deref()
                .is_some_and(|problem| !problem.ends_with("not judged"))
    }
}

impl CallNote {
    /// A note on the call with `arguments` that `problem` says went wrong.
    pub fn problem(arguments: &Value, problem: impl Into<String>) -> Self {
        CallNote {
            arguments: arguments.clone(),
            from: None,
            problem: Some(problem.into()),
            ..CallNote::default()
        }
    }
}

/// A hint under its claim (`nonDestructive`).
#[allow(clippy::ref_option)] // serde hands a field to its serializer by reference
fn claim<S: serde::Serializer>(hint: &Option<Hint>, serializer: S) -> Result<S::Ok, S::Error> {
    match hint {
        Some(hint) => serializer.serialize_str(hint.claim()),
        None => serializer.serialize_none(),
    }
}

/// How many of the hints the tools claim were judged (verified or violated).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Coverage {
    /// Claimed, in all.
    pub claimed: u32,
    /// Judged, in all.
    pub judged: u32,
    /// The share judged, to two decimals (1 where nothing is claimed).
    pub share: f64,
    /// Claimed and judged, hint by hint.
    #[serde(serialize_with = "by_hint::by_claim")]
    pub by_hint: ByHint<Counted>,
}

/// How many tools claim a hint, and on how many it was judged.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Counted {
    /// Claimed.
    pub claimed: u32,
    /// Judged.
    pub judged: u32,
}

/// What the control session (start, list, wait, exit, no call) saw.
#[derive(Debug, Default, Serialize)]
pub struct ControlReport {
    /// What changed while the server sat idle.
    pub idle: Vec<String>,
    /// What changed as it exited.
    pub exit: Vec<String>,
    /// The places found volatile.
    pub volatile: Vec<String>,
}

/// What `diff` produces: each change between the two listings. Written as `{"changes": [...]}`,
/// each change an object of its tool, what changed, its class, and why it is ignored where an
/// `[[ignore]]` entry covers it.
#[derive(Debug)]
pub struct DiffReport {
    /// Each change, classified.
    pub changes: Vec<Change>,
    /// Why each change is ignored, in the order of `changes` (`None`: not ignored).
    pub ignored: Vec<Option<String>>,
    /// Whether a change of a class the user did not allow fails the diff.
    pub refused: bool,
    /// The classes the user allowed (`--allow`).
    pub allowed: Vec<String>,
}

impl DiffReport {
    /// Why the change at `index` is ignored, if it is.
    pub fn ignored(&self, index: usize) -> Option<&str> {
        self.ignored.get(index).and_then(Option::as_deref)
    }
}

impl Serialize for DiffReport {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        #[derive(Serialize)]
        struct Shown<'a> {
            tool: &'a str,
            change: &'a str,
            class: String,
            #[serde(skip_serializing_if = "Option::is_none")]
            ignored: Option<&'a str>,
        }
        let shown: Vec<Shown<'_>> = self
            .changes
            .iter()
            .enumerate()
            .map(|(at, change)| Shown {
                tool: change.tool(),
                change: change.what(),
                class: change.class().to_string(),
                ignored: self.ignored(at),
            })
            .collect();
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry("changes", &shown)?;
        map.end()
    }
}

/// Whether a call's `problem` (a note's words) breaks the protocol: a protocol error for valid
/// arguments, or a result outside the output schema.
pub fn breaks_protocol(problem: &str) -> bool {
    problem.starts_with("valid arguments") || problem.starts_with("a result outside")
}

/// The rule of a call's own problem (a protocol error, a result outside the output schema, no
/// answer).
pub const CALL_PROBLEM: &str = "call-problem";

/// A hint's rule: its wire name in kebab case (`readOnlyHint` is `read-only-hint`).
pub fn hint_rule(hint: Hint) -> std::borrow::Cow<'static, str> {
    let mut id = String::new();
    for c in hint.wire_name().chars() {
        if c.is_ascii_uppercase() {
            id.push('-');
        }
        id.push(c.to_ascii_lowercase());
    }
    id.into()
}

/// A hint's key in the report's `effective` object: its wire name without `Hint`.
pub fn effective_key(hint: Hint) -> &'static str {
    hint.wire_name().trim_end_matches("Hint")
}

/// `report` in the form `output` asks; `table` is its text form, `markdown` and `sarif` its
/// other two (`--format listing` is the audit's alone, written there). With `--sarif-file`,
/// the SARIF log is also written to that file; a file that cannot be written is an error.
pub fn rendered<R: Serialize>(
    output: &Output,
    report: &R,
    table: fn(&R) -> String,
    markdown: fn(&R) -> String,
    sarif: fn(&R, Option<&str>) -> Value,
) -> Result<String, String> {
    let artifact = output.sarif_artifact.as_deref();
    if let Some(path) = &output.sarif_file {
        std::fs::write(path, pretty(&sarif(report, artifact)))
            .map_err(|error| format!("cannot write the SARIF log {}: {error}", path.display()))?;
    }
    Ok(match output.format {
        Format::Text | Format::Listing => table(report),
        Format::Markdown => markdown(report),
        Format::Json => pretty(&versioned(report)),
        Format::Sarif => pretty(&sarif(report, artifact)),
    })
}

/// The version of the JSON report (`reportVersion`), whose schema the package ships
/// (`schemas/report-v1.json`): within one version a report only gains keys.
pub const REPORT_VERSION: u32 = 1;

/// `report` as JSON with its `reportVersion`.
fn versioned(report: &impl Serialize) -> Value {
    let mut value = serde_json::to_value(report).unwrap_or_default();
    if let Some(object) = value.as_object_mut() {
        object.insert("reportVersion".to_owned(), REPORT_VERSION.into());
    }
    value
}

/// `value` as indented JSON, and a newline; through a [`Value`], whose objects hold their keys
/// sorted, so that a report's keys come in one order whatever type made them.
pub fn pretty(value: &impl Serialize) -> String {
    serde_json::to_value(value)
        .and_then(|value| serde_json::to_string_pretty(&value))
        .unwrap_or_default()
        + "\n"
}
