//! One call of a tool and what is read around it: the call itself (counted, a runtime it
//! needs or a panic said), the state's observation, and the result against the output schema.

use std::panic::{AssertUnwindSafe, catch_unwind};

use serde_json::Value;

use super::{Run, panic_message};
use crate::observe::Observed;
use mcp_annotations::{Context, ProtocolVersion, ToolResult};

impl<S: 'static> Run<'_, '_, S> {
    /// Calls the tool at `index`; `counted`: a call with valid arguments, which counts toward
    /// the tool's calls and successes (a call with broken ones does not).
    pub(super) async fn call(
        &self,
        state: &S,
        index: usize,
        arguments: &Value,
        counted: bool,
    ) -> ToolResult {
        let tool = self.tool(index);
        let arguments = arguments.as_object().cloned();
        let Ok(call) = self
            .verify
            .listing
            .call(state, tool.name(), arguments, Context::none())
        else {
            return ToolResult::error("not listed");
        };
        let result = call.await;
        if counted && let Some(count) = self.calls.borrow_mut().get_mut(index) {
            count.0 += 1;
            count.1 += u64::from(!result.is_error);
        }
        if result.is_error {
            let text = result.text_content();
            if text.contains("reactor") || text.contains("Tokio") {
                self.problem(format!(
                    "`{}` needs an async runtime: run the verification with `run_async` inside it",
                    tool.name()
                ));
            } else if let Some(at) = text.find("failed unexpectedly (it panicked: ") {
                self.note(format!(
                    "`{}` panicked on a call: {}",
                    tool.name(),
                    &text[at..]
                ));
            }
        }
        result
    }

    pub(super) fn observation(&self, state: &S) -> Option<Observed> {
        let observe = self.verify.observe.as_ref()?;
        let observed = catch_unwind(AssertUnwindSafe(|| {
            crate::observe::observe(observe, &self.verify.unordered, state)
        }));
        match observed {
            Ok(Ok(observed)) => {
                self.found.set(self.found.get() || observed.found());
                // A file the observer refused to read is judged nowhere: the run says so.
                #[cfg(feature = "files")]
                if let Observed::Files(tree) = &observed
                    && let Some((path, why)) = crate::observe::tree::unobserved(tree)
                {
                    self.problem(format!(
                        "`{path}` was not read ({why}): what changed there was not judged"
                    ));
                }
                Some(observed)
            }
            Ok(Err(error)) => {
                self.problem(format!("the observation could not be serialized: {error}"));
                None
            }
            Err(panic) => {
                self.problem(format!(
                    "the observation panicked: {}",
                    panic_message(&*panic)
                ));
                None
            }
        }
    }

    /// Why `result` is not what the tool's output schema lists, for some version.
    pub(super) fn output_problem(&self, index: usize, result: &ToolResult) -> Option<String> {
        let tool = self.tool(index);
        tool.output_schema.as_ref()?;
        for version in ProtocolVersion::ALL {
            let mut outputs = self.outputs.borrow_mut();
            let validator = outputs.entry((index, version)).or_insert_with(|| {
                // A listed schema no validator reads leaves the results of that version
                // unchecked: a problem of the run, said once, never a silent skip.
                let compiled = tool
                    .output_schema_for(version)
                    .ok_or_else(|| "it is not listed".to_owned())
                    .and_then(|text| {
                        serde_json::from_str::<Value>(&text).map_err(|error| error.to_string())
                    })
                    .and_then(|schema| {
                        jsonschema::validator_for(&schema).map_err(|error| error.to_string())
                    });
                match compiled {
                    Ok(validator) => Some(validator),
                    Err(error) => {
                        self.problem(format!(
                            "`{}`: its output schema for {version} is not one a validator reads, \
                             so its results were not checked against it: {error}",
                            tool.name()
                        ));
                        None
                    }
                }
            });
            let Some(validator) = validator else { continue };
            let written = result.to_json(version);
            let Some(content) = written.get("structuredContent") else {
                return Some(format!(
                    "a result without structured content, though the tool lists an output schema ({version})"
                ));
            };
            if let Some(error) = validator.iter_errors(content).next() {
                return Some(format!(
                    "{content} is not valid against the output schema of {version}: {error}"
                ));
            }
        }
        None
    }
}
