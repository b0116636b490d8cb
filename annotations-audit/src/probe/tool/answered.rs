//! What a call came back with: a result that may say it failed, a JSON-RPC error, an exit,
//! no answer; each failure noted, and what a result names kept for later calls.

use serde_json::Value;

use super::{Outcome, ToolProbe};
use crate::probe::answers::failed;
use crate::probe::parts::{collect, first_text, relative_to};
use crate::probe::runs::Call;
use crate::probe::session::Session;
use crate::report::{CallNote, Note};
use crate::server::Answer;

impl ToolProbe<'_, '_, '_> {
    /// What `call` came back with, its failures noted: a JSON-RPC error (a finding), an exit
    /// (a finding on the server too), no answer.
    pub(super) fn outcome<'c>(
        &mut self,
        session: &mut Session<'_>,
        call: &'c Call,
        arguments: &Value,
    ) -> Outcome<'c> {
        let problem = |problem: String| Note::Call(CallNote::problem(arguments, problem));
        match &call.answer {
            Ok(Answer::Result(result)) => Outcome::Result(result),
            Ok(Answer::Error(error)) => {
                self.learned.learn(error["message"].as_str().unwrap_or(""));
                self.failures.push(format!("a JSON-RPC error {error}"));
                self.notes.push(problem(format!(
                    "valid arguments answered with a JSON-RPC error: {error}"
                )));
                Outcome::Failed
            }
            // A call the server did not live through is judged by the sandbox it left, and
            // is a finding of its own.
            Err(error) if session.peer.exited() => {
                self.failures.push("the server exited".to_owned());
                session.exit_reported = true;
                session.findings.push(format!(
                    "the server exited while `{}` was called with {arguments} ({}); started again",
                    self.tool.name(),
                    session.peer.explain(error.clone())
                ));
                self.notes
                    .push(problem("the server exited during the call".to_owned()));
                Outcome::Failed
            }
            Err(error) => {
                self.unanswered += 1;
                self.failures.push(error.clone());
                self.notes.push(problem(error.clone()));
                Outcome::Unanswered
            }
        }
    }

    /// A call's `result`: whether it succeeded; a failed one's text kept (and a write outside
    /// the sandbox said), a successful one's structured content checked against the output
    /// schema, and its values kept for later calls.
    pub(super) fn result(
        &mut self,
        session: &mut Session<'_>,
        result: &Value,
        arguments: &Value,
    ) -> bool {
        let succeeded = !failed(result);
        if !succeeded {
            let text = first_text(result, usize::MAX).replace(&session.sandbox_path, "{sandbox}");
            // Said only of an answer that calls itself an error (a text read as a failure by
            // its words may be a read refused, not a write).
            let refused = crate::probe::sandbox::refusal(session.options);
            let error = result.get("isError") == Some(&Value::Bool(true))
                || text.trim_start().to_ascii_lowercase().starts_with("error");
            if error && refused.is_some_and(|words| text.contains(words)) && !self.wrote_outside {
                self.wrote_outside = true;
                let shown: String = text.chars().take(200).collect();
                session.findings.push(format!(
                    "`{}` tried to write outside the sandbox, the only writable place: {shown:?}",
                    self.tool.name()
                ));
            }
            self.learned.learn(&first_text(result, 2000));
            let text: String = text.chars().take(120).collect();
            self.failures.push(format!("a failed result: {text:?}"));
        }
        let mut shown = result.clone();
        relative_to(&mut shown, &session.sandbox_path);
        collect(arguments, &shown, &mut session.seen);
        if succeeded {
            self.succeeded += 1;
            session.answered(self.tool.name(), &shown);
            let outside = match (&self.output, result.get("structuredContent")) {
                (Some(output), Some(content)) => output
                    .iter_errors(content)
                    .next()
                    .map(|error| error.to_string()),
                _ => None,
            };
            if let Some(error) = outside {
                self.notes.push(Note::Call(CallNote::problem(
                    arguments,
                    format!("a result outside the output schema: {error}"),
                )));
            }
        }
        succeeded
    }
}
