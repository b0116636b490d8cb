//! `[[ignore]]`: findings and violations the user has judged not to apply, each with its
//! reason, read from the settings file (`.annotations-audit.toml` in the working folder, or the
//! file `--config` names). An ignored finding or violation stays in the report, marked with
//! its reason (SARIF: a suppression), and no longer decides the exit status; an entry that
//! matched nothing in the run is warned about, so that ignores do not outlive what they were
//! for.

use std::path::{Path, PathBuf};

use mcp_annotations::descriptor::Hint;
use serde::Deserialize;

use super::{AuditReport, CALL_PROBLEM, Finding, Note, ProbeReport, Verdict};
use crate::cli::args::Settings;

/// The settings file as written: `[[ignore]]` entries, and the probe's part (`[probe]`,
/// `[[tool]]`, read by [`crate::cli::settings`]); every other key refused (a misspelt
/// `[[ignores]]` would otherwise ignore nothing, silently).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    ignore: Vec<Written>,
    #[serde(default, rename = "probe")]
    _probe: Option<toml::Table>,
    #[serde(default, rename = "tool")]
    _tool: Vec<toml::Table>,
}

/// One `[[ignore]]` entry as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Written {
    tool: Option<String>,
    hint: Option<String>,
    rule: Option<String>,
    reason: Option<String>,
}

/// One entry, checked: what it covers, why, and what it matched in this run.
#[derive(Debug)]
struct Entry {
    tool: Option<String>,
    hint: Option<Hint>,
    rule: Option<String>,
    reason: String,
    matched: usize,
    /// An item of a baseline: it covers one finding, of exactly its tool (none: the listing's
    /// or the server's), rule and hint.
    known: bool,
}

impl Entry {
    /// Whether a run of `command` can produce what the entry names: a claim, a hint's rule,
    /// a call's or the server's problem for a probe; a class of change for a diff; the
    /// listing's rules for an audit.
    fn applies(&self, command: &str) -> bool {
        let rule = self.rule.as_deref().unwrap_or_default();
        let hint_rule = rule.ends_with("-hint") && !matches!(rule, "unset-hint" | "ignored-hint");
        let probe = hint_rule || rule == CALL_PROBLEM || (rule.is_empty() && self.hint.is_some());
        let diff = rule.ends_with("-change");
        match command {
            "probe" => probe,
            "diff" => diff,
            _ => !probe && !diff,
        }
    }

    /// Whether the entry covers a finding of `rule` (and `hint`) on `tool`.
    fn covers(&self, tool: Option<&str>, rule: &str, hint: Option<Hint>) -> bool {
        if self.known {
            return self.matched == 0
                && self.tool.as_deref() == tool
                && self.rule.as_deref() == Some(rule)
                && self.hint == hint;
        }
        self.tool.as_deref().is_none_or(|named| Some(named) == tool)
            && self.rule.as_deref().is_none_or(|named| named == rule)
            && self.hint.is_none_or(|named| Some(named) == hint)
    }

    /// The entry as its file says it, for a warning (`tool = "x", rule = "y"`).
    fn shown(&self) -> String {
        let mut parts = Vec::new();
        if let Some(tool) = &self.tool {
            parts.push(format!("tool = {tool:?}"));
        }
        if let Some(hint) = self.hint {
            parts.push(format!("hint = {:?}", hint.claim()));
        }
        if let Some(rule) = &self.rule {
            parts.push(format!("rule = {rule:?}"));
        }
        parts.join(", ")
    }
}

/// The ignores of one run.
#[derive(Debug, Default)]
pub struct Ignores {
    entries: Vec<Entry>,
    from: Option<PathBuf>,
}

impl Ignores {
    /// The ignores `settings` asks for: none with `--no-ignores`; else the `[[ignore]]`
    /// entries of `--config FILE`, or of `.annotations-audit.toml` where the working folder has
    /// one. A file that cannot be read, or an entry without a reason, is refused, naming it.
    pub fn load(settings: &Settings, command: &str) -> Result<Ignores, String> {
        let mut ignores = match crate::cli::settings::path(settings) {
            _ if settings.no_ignores => Ignores::default(),
            Some(path) => Ignores::read_file(&path)?,
            None => Ignores::default(),
        };
        if let Some(path) = &settings.baseline {
            super::baseline::read(path, command, &mut ignores)?;
        }
        Ok(ignores)
    }

    /// The entries of the settings file `path`.
    fn read_file(path: &Path) -> Result<Ignores, String> {
        let text = std::fs::read_to_string(path).map_err(|error| {
            format!("cannot read the settings file {}: {error}", path.display())
        })?;
        Ignores::read(&text, path)
    }

    /// Adds an item of a baseline: what it covers (one finding of `rule` and `hint` on `tool`)
    /// is known, and fails nothing; `reason` says where it was known.
    pub(super) fn known(
        &mut self,
        tool: Option<&str>,
        rule: &str,
        hint: Option<Hint>,
        reason: &str,
    ) {
        self.entries.push(Entry {
            tool: tool.map(str::to_owned),
            hint,
            rule: Some(rule.to_owned()),
            reason: reason.to_owned(),
            matched: 0,
            known: true,
        });
    }

    /// The entries of the settings file `path`, whose text is `text`.
    fn read(text: &str, path: &Path) -> Result<Ignores, String> {
        let shown = path.display();
        let file: File =
            toml::from_str(text).map_err(|error| format!("the settings file {shown}: {error}"))?;
        let mut entries = Vec::new();
        for (at, written) in file.ignore.into_iter().enumerate() {
            let which = format!("{shown}: [[ignore]] entry {}", at + 1);
            let hint = match written.hint.as_deref() {
                None => None,
                Some(claim) => Some(
                    Hint::ALL
                        .into_iter()
                        .find(|hint| hint.claim() == claim)
                        .ok_or_else(|| {
                            let claims = Hint::ALL.map(Hint::claim).join(", ");
                            format!("{which}: hint = {claim:?} is no claim; one of {claims}")
                        })?,
                ),
            };
            if let Some(rule) = &written.rule
                && !super::rules::is_rule(rule)
            {
                return Err(format!(
                    "{which}: rule = {rule:?} is no rule (annotations-audit explain lists them)"
                ));
            }
            if hint.is_none() && written.rule.is_none() {
                return Err(format!(
                    "{which} names neither a rule nor a hint: say what it ignores (rule = \
                     \"unset-hint\", hint = \"readOnly\")"
                ));
            }
            // An entry that can match nothing is a mistake in the file, not an ignore.
            if let Some(rule) = &written.rule {
                if !super::rules::can_be_ignored(rule) {
                    return Err(format!(
                        "{which}: rule = {rule:?} fails nothing (its findings are warnings on \
                         the server as a whole), so there is nothing to ignore"
                    ));
                }
                let hint_rule = Hint::ALL
                    .into_iter()
                    .find(|named| super::hint_rule(*named) == rule.as_str());
                let without_hint = rule == CALL_PROBLEM || rule.ends_with("-change");
                if let Some(hint) = hint
                    && (hint_rule.is_some_and(|named| named != hint) || without_hint)
                {
                    return Err(format!(
                        "{which}: hint = {:?} with rule = {rule:?} matches nothing (a finding of \
                         that rule is on {}); drop one of them",
                        hint.claim(),
                        match hint_rule {
                            Some(named) => format!("the {:?} claim alone", named.claim()),
                            None => "no hint".to_owned(),
                        }
                    ));
                }
            }
            let reason = written.reason.unwrap_or_default();
            if reason.trim().is_empty() {
                return Err(format!(
                    "{which} has no reason: each ignore says why what it ignores does not apply \
                     (reason = \"...\")"
                ));
            }
            entries.push(Entry {
                tool: written.tool,
                hint,
                rule: written.rule,
                reason,
                matched: 0,
                known: false,
            });
        }
        Ok(Ignores {
            entries,
            from: Some(path.to_path_buf()),
        })
    }

    /// The reason a finding or violation of `rule` (and of `hint`, where it is a claim's) on
    /// `tool` (none: the listing or the server as a whole) is ignored, from the first entry
    /// that covers it; `None` where none does. An entry covers what it names: its tool (every
    /// tool where it names none), its rule, its hint.
    pub fn reason(&mut self, tool: Option<&str>, rule: &str, hint: Option<Hint>) -> Option<String> {
        let entry = self
            .entries
            .iter_mut()
            .find(|entry| entry.covers(tool, rule, hint))?;
        entry.matched += 1;
        Some(entry.reason.clone())
    }

    /// As [`reason`](Self::reason), from the settings file's entries alone (none of a
    /// baseline's).
    pub fn reason_unknown(
        &mut self,
        tool: Option<&str>,
        rule: &str,
        hint: Option<Hint>,
    ) -> Option<String> {
        let entry = self
            .entries
            .iter_mut()
            .find(|entry| !entry.known && entry.covers(tool, rule, hint))?;
        entry.matched += 1;
        Some(entry.reason.clone())
    }

    /// A warning for each entry that matched nothing in this run.
    pub fn unused(&self, command: &str) -> Vec<String> {
        let from = self
            .from
            .as_deref()
            .map(|path| path.display().to_string())
            .unwrap_or_default();
        self.entries
            .iter()
            .enumerate()
            .filter(|(_, entry)| entry.matched == 0 && !entry.known && entry.applies(command))
            .map(|(at, entry)| {
                format!(
                    "warning: {from}: [[ignore]] entry {} ({}) matched nothing in this run: \
                     remove it if what it ignored is gone",
                    at + 1,
                    entry.shown()
                )
            })
            .collect()
    }
}

impl Ignores {
    /// What the baseline had and this run did not find, a line each.
    pub fn gone(&self) -> Vec<String> {
        self.entries
            .iter()
            .filter(|entry| entry.known && entry.matched == 0)
            .map(|entry| format!("gone since the baseline: {}", entry.shown()))
            .collect()
    }

    /// What is said on stderr after a run: each entry that matched nothing, and what the
    /// baseline had that is gone.
    pub fn say(&self, command: &str) {
        for line in self.unused(command).into_iter().chain(self.gone()) {
            eprintln!("annotations-audit: {line}");
        }
    }
}

/// Marks each finding of `report` an entry of `ignores` covers with its reason; whether an
/// error finding is left that no entry covers (what fails the audit).
pub fn audit(report: &mut AuditReport, ignores: &mut Ignores) -> bool {
    let mut failing = false;
    let mut mark = |tool: Option<&str>, finding: &mut Finding| {
        let hint = super::baseline::hint_named(&finding.message);
        finding.ignored = ignores.reason(tool, &finding.kind, hint);
        failing |= finding.ignored.is_none() && finding.severity == "error";
    };
    for finding in &mut report.listing {
        mark(None, finding);
    }
    for tool in &mut report.tools {
        let name = tool.name().to_owned();
        for finding in tool.findings_mut() {
            mark(Some(&name), finding);
        }
    }
    failing
}

/// Marks each violated claim of `report` (the listing's or a resolution's) and each call that
/// broke the protocol that an entry of `ignores` covers, with its reason (a claim by its hint
/// or its rule, `read-only-hint`; a call's problem by `call-problem`); whether a violation is
/// left that no entry covers, and whether such a call is (what fails the probe: status 4, 1).
pub fn probe(report: &mut ProbeReport, ignores: &mut Ignores) -> (bool, bool) {
    let (mut violations, mut findings) = (false, false);
    for tool in &mut report.tools {
        for hint in Hint::ALL {
            let violated = tool.probe[hint] == Verdict::Violated
                || tool
                    .resolution
                    .as_ref()
                    .is_some_and(|resolution| resolution.verdicts[hint] == Verdict::Violated);
            if !violated {
                continue;
            }
            match ignores.reason(Some(&tool.name), &super::hint_rule(hint), Some(hint)) {
                Some(reason) => {
                    tool.ignored.insert(hint.claim(), reason);
                }
                None => violations = true,
            }
        }
        // Every call problem is marked where an entry covers it (as an audit's warnings are);
        // one that breaks the protocol fails the probe unless covered.
        for note in &mut tool.notes {
            if let Note::Call(note) = note
                && note.is_call_problem()
            {
                // A baseline knows the problems that fail (it records those alone): a warning
                // is marked by the settings file's entries only, and never uses up what the
                // baseline knew of an error.
                note.ignored = if note.breaks_protocol() {
                    ignores.reason(Some(&tool.name), CALL_PROBLEM, None)
                } else {
                    ignores.reason_unknown(Some(&tool.name), CALL_PROBLEM, None)
                };
                findings |= note.ignored.is_none() && note.breaks_protocol();
            }
        }
    }
    (violations, findings)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Ignores, String> {
        Ignores::read(text, Path::new("settings.toml"))
    }

    #[test]
    fn an_entry_covers_what_it_names_and_says_why() {
        let mut ignores = read(
            "[[ignore]]\ntool = \"search\"\nhint = \"readOnly\"\nreason = \"a cache\"\n\n\
             [[ignore]]\nrule = \"unset-hint\"\nreason = \"set by the gateway\"\n",
        )
        .unwrap();
        let read_only = Some(Hint::ReadOnly);
        assert_eq!(
            ignores
                .reason(Some("search"), "read-only-hint", read_only)
                .as_deref(),
            Some("a cache")
        );
        assert_eq!(
            ignores.reason(Some("other"), "read-only-hint", read_only),
            None
        );
        assert_eq!(
            ignores.reason(Some("search"), "destructive-hint", Some(Hint::Destructive)),
            None
        );
        assert_eq!(
            ignores.reason(None, "unset-hint", None).as_deref(),
            Some("set by the gateway")
        );
        assert!(ignores.unused("audit").is_empty());
    }

    #[test]
    fn an_entry_that_matched_nothing_is_warned_about() {
        let ignores =
            read("[[ignore]]\nrule = \"no-title\"\nreason = \"shown by name\"\n").unwrap();
        let unused = ignores.unused("audit");
        assert_eq!(unused.len(), 1);
        assert!(
            unused[0].contains("entry 1 (rule = \"no-title\")"),
            "{unused:?}"
        );
    }

    #[test]
    fn an_entry_without_a_reason_or_a_target_is_refused_by_its_number() {
        let no_reason = read(
            "[[ignore]]\nrule = \"no-title\"\n\n[[ignore]]\nrule = \"unset-hint\"\nreason = \" \"\n",
        );
        assert!(no_reason.unwrap_err().contains("entry 1 has no reason"));
        let blank = read(
            "[[ignore]]\nrule = \"no-title\"\nreason = \"x\"\n[[ignore]]\nrule = \"unset-hint\"\nreason = \" \"\n",
        );
        assert!(blank.unwrap_err().contains("entry 2 has no reason"));
        let nothing = read("[[ignore]]\ntool = \"x\"\nreason = \"x\"\n").unwrap_err();
        assert!(
            nothing.contains("names neither a rule nor a hint"),
            "{nothing}"
        );
        let claim = read("[[ignore]]\nhint = \"readOnlyHint\"\nreason = \"x\"\n").unwrap_err();
        assert!(claim.contains("one of readOnly, nonDestructive"), "{claim}");
        let rule = read("[[ignore]]\nrule = \"verified\"\nreason = \"x\"\n").unwrap_err();
        assert!(rule.contains("is no rule"), "{rule}");
        let typo = read("[[ignores]]\nrule = \"no-title\"\nreason = \"x\"\n").unwrap_err();
        assert!(typo.contains("ignores"), "{typo}");
    }

    /// An entry that could match nothing is refused, naming why: a rule whose findings fail
    /// nothing, a hint beside another hint's rule or beside a rule on no hint.
    #[test]
    fn an_entry_that_can_match_nothing_is_refused() {
        let server = read("[[ignore]]\nrule = \"server-problem\"\nreason = \"x\"\n").unwrap_err();
        assert!(server.contains("fails nothing"), "{server}");
        let other =
            read("[[ignore]]\nhint = \"readOnly\"\nrule = \"idempotent-hint\"\nreason = \"x\"\n")
                .unwrap_err();
        assert!(other.contains("the \"idempotent\" claim alone"), "{other}");
        let call =
            read("[[ignore]]\nhint = \"readOnly\"\nrule = \"call-problem\"\nreason = \"x\"\n")
                .unwrap_err();
        assert!(call.contains("no hint"), "{call}");
        // What can match is kept: a hint with its own rule, a hint named in an audit finding.
        assert!(
            read("[[ignore]]\nhint = \"readOnly\"\nrule = \"read-only-hint\"\nreason = \"x\"\n")
                .is_ok()
        );
        assert!(
            read("[[ignore]]\nhint = \"closedWorld\"\nrule = \"unset-hint\"\nreason = \"x\"\n")
                .is_ok()
        );
    }
}
