//! One case on a fresh state: the calls before it, the call checked, and each promise judged
//! in turn (the arguments taken, the output schema, the hints claimed, broken arguments
//! refused); the first violation of a kind not yet found.

use std::panic::{AssertUnwindSafe, catch_unwind};

use serde_json::Value;

use super::reuse::harvest;
use super::{Case, Run, panic_message, refused_as_argument};
use crate::generate::{Broken, broken};
use crate::judge;
use crate::judge::observed::difference;
use crate::observe::Observed;
use crate::report::{Violation, ViolationKind};
use mcp_annotations::ToolAnnotations;
use mcp_annotations::descriptor::Hint;

/// What a case's checked call is reported with, whichever promise it broke.
struct Checked<'c> {
    tool: &'c str,
    /// The calls before it, each tool's name and arguments.
    sequence: Vec<(String, Value)>,
    arguments: Value,
    /// The hints `tools/resolve` gave for the call, judged instead of the listed ones.
    resolution: Option<ToolAnnotations>,
    listed: &'c ToolAnnotations,
    excluded: &'c [ViolationKind],
}

impl Checked<'_> {
    /// Whether a violation of `kind` is still looked for.
    fn checks(&self, kind: ViolationKind) -> bool {
        !self.excluded.contains(&kind)
    }

    /// The hints the call is judged by: the resolution's, else the listing's.
    fn hints(&self) -> &ToolAnnotations {
        self.resolution.as_ref().unwrap_or(self.listed)
    }

    /// A violation of `kind`. A hint broken that the listing claims too is the listing's lie;
    /// only what the resolution claimed beyond it is the resolution's.
    fn found(
        &self,
        kind: ViolationKind,
        detail: String,
        arguments: &Value,
        diff: String,
    ) -> Violation {
        let listing_claims = kind.hint().is_none_or(|hint| self.listed.claims(hint));
        Violation {
            tool: self.tool.to_owned(),
            kind,
            detail,
            sequence: self.sequence.clone(),
            arguments: arguments.clone(),
            diff,
            resolution: self.resolution.clone().filter(|_| !listing_claims),
        }
    }
}

impl<S: 'static> Run<'_, '_, S> {
    /// Runs one case on a fresh state; the first violation found, of a kind not `excluded`.
    pub(super) async fn case(
        &self,
        index: usize,
        case: &Case,
        excluded: &[ViolationKind],
    ) -> Option<Violation> {
        let state = match catch_unwind(AssertUnwindSafe(|| (self.verify.make)())) {
            Ok(state) => state,
            Err(panic) => {
                self.problem(format!(
                    "the state could not be built: {}",
                    panic_message(&*panic)
                ));
                return None;
            }
        };
        let mut seen = Vec::new();
        let mut sequence = Vec::new();
        for (tool, arguments, reuse) in &case.before {
            let arguments = self.reuse(*tool, arguments, reuse, &seen);
            let result = self.call(&state, *tool, &arguments, true).await;
            harvest(&arguments, &result, &mut seen);
            sequence.push((self.tool(*tool).name().to_owned(), arguments));
        }
        let arguments = self.reuse(index, &case.arguments, &case.reuse, &seen);
        let tool = self.tool(index);
        let mut checked = Checked {
            tool: tool.name(),
            sequence,
            arguments,
            resolution: None,
            listed: &tool.annotations,
            excluded,
        };
        let mut before = self.observation(&state);
        // A resolvable tool's call is judged by what `tools/resolve` says of it, and the
        // resolution itself by the extension's rules.
        if tool.resolvable {
            let (resolved, after) =
                self.resolve(&state, index, &checked.arguments, before.as_ref());
            before = after;
            match resolved {
                Ok(hints) => checked.resolution = hints,
                Err((detail, diff)) if checked.checks(ViolationKind::Resolution) => {
                    let arguments = checked.arguments.clone();
                    return Some(checked.found(
                        ViolationKind::Resolution,
                        detail,
                        &arguments,
                        diff,
                    ));
                }
                Err(_) => {}
            }
        }
        let result = self.call(&state, index, &checked.arguments, true).await;
        let after = self.observation(&state);
        let text = result.text_content();
        if checked.checks(ViolationKind::ValidArgumentsRefused)
            && result.is_error
            && refused_as_argument(&text)
        {
            let detail = format!("refused with \"{text}\"");
            return Some(checked.found(
                ViolationKind::ValidArgumentsRefused,
                detail,
                &checked.arguments,
                String::new(),
            ));
        }
        if checked.checks(ViolationKind::OutputSchema)
            && !result.is_error
            && let Some(problem) = self.output_problem(index, &result)
        {
            let kind = ViolationKind::OutputSchema;
            return Some(checked.found(kind, problem, &checked.arguments, String::new()));
        }
        if let (Some(before), Some(after)) = (&before, &after)
            && let Some(violation) = self
                .hints_broken(&state, index, &checked, before, after)
                .await
        {
            return Some(violation);
        }
        self.invalid_accepted(&state, index, case, &checked).await
    }

    /// The first hint the call's hints claim that what was observed around it broke: each
    /// claimed at its trusted value (those a read-only claim settles judged by it alone),
    /// judged by [`judge::broken`]; the call made again where the judgement needs it.
    async fn hints_broken(
        &self,
        state: &S,
        index: usize,
        checked: &Checked<'_>,
        before: &Observed,
        after: &Observed,
    ) -> Option<Violation> {
        let hints = checked.hints();
        let read_only = hints.effective(Hint::ReadOnly);
        for hint in Hint::ALL {
            let Some(kind) = ViolationKind::of(hint) else {
                continue;
            };
            let claimed = hints.claims(hint);
            if !claimed || (read_only && hint.implied_by_read_only()) || !checked.checks(kind) {
                continue;
            }
            let again = if judge::needs_again(hint) {
                self.call(state, index, &checked.arguments, true).await;
                match self.observation(state) {
                    Some(again) => Some(again),
                    None => continue,
                }
            } else {
                None
            };
            if judge::broken(hint, before, after, again.as_ref(), &self.classes).is_some() {
                let diff = match &again {
                    Some(again) => difference(after, again, 12),
                    None => difference(before, after, 12),
                };
                return Some(checked.found(kind, kind.detail().into(), &checked.arguments, diff));
            }
        }
        None
    }

    /// Whether arguments that break one rule of the input schema were taken: the case's
    /// broken set, called on the state the case left; a violation where the call was
    /// accepted or failed without naming the argument.
    async fn invalid_accepted(
        &self,
        state: &S,
        index: usize,
        case: &Case,
        checked: &Checked<'_>,
    ) -> Option<Violation> {
        let kind = ViolationKind::InvalidArgumentsAccepted;
        let (Value::Object(valid), Some(validator)) = (&checked.arguments, &self.validators[index])
        else {
            return None;
        };
        if !checked.checks(kind) {
            return None;
        }
        let broken = broken(validator, &self.schemas[index], valid);
        if broken.is_empty() {
            return None;
        }
        let Broken {
            argument,
            rule,
            arguments,
        } = &broken[case.broken.index(broken.len())];
        let arguments = Value::Object(arguments.clone());
        let result = self.call(state, index, &arguments, false).await;
        let text = result.text_content();
        let named = refused_as_argument(&text) && text.contains(&format!("`{argument}`"));
        if named {
            return None;
        }
        let what = if result.is_error {
            format!("failed without naming it: \"{text}\"")
        } else {
            "accepted".to_owned()
        };
        let detail = format!("{rule} (`{argument}`) was {what}");
        Some(checked.found(kind, detail, &arguments, String::new()))
    }
}
