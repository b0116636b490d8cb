//! The values a case carries from call to call: what a call shows (its arguments, its
//! structured result, the numbers its text mentions) and their reuse in a later call's
//! arguments, so that `delete_note` gets an id `add_note` returned.

use serde_json::Value;

use super::Run;
use crate::generate::{scalar_paths, scalars};
use mcp_annotations::ToolResult;

impl<S: 'static> Run<'_, '_, S> {
    /// `arguments` with some of their values (strings and numbers, in order) replaced by values
    /// seen earlier in the case, as `reuse` chooses, each kept only while the arguments stay
    /// valid: so that `delete_note` gets an id that `add_note` returned.
    pub(super) fn reuse(
        &self,
        index: usize,
        arguments: &Value,
        reuse: &[u8],
        seen: &[Value],
    ) -> Value {
        let mut arguments = arguments.clone();
        if seen.is_empty() || reuse.is_empty() {
            return arguments;
        }
        let validator = self.validators[index].as_ref();
        let paths = scalar_paths(&arguments);
        for (leaf, path) in paths.into_iter().enumerate() {
            let choice = reuse.get(leaf).copied();
            let Some(choice) = choice.filter(|choice| choice % 3 == 0) else {
                continue;
            };
            let Some(current) = arguments.pointer(&path).cloned() else {
                continue;
            };
            let like: Vec<&Value> = seen
                .iter()
                .filter(|value| value.is_string() == current.is_string() && *value != &current)
                .collect();
            if like.is_empty() {
                continue;
            }
            let pick = like[usize::from(choice / 3) % like.len()].clone();
            if let Some(slot) = arguments.pointer_mut(&path) {
                *slot = pick;
            }
            if !validator.is_some_and(|validator| validator.is_valid(&arguments))
                && let Some(slot) = arguments.pointer_mut(&path)
            {
                *slot = current;
            }
        }
        arguments
    }
}

/// The values a call shows that a later call may use: its arguments' strings and numbers,
/// its structured result's, and the whole numbers its text mentions (`Saved note 3`).
pub(super) fn harvest(arguments: &Value, result: &ToolResult, seen: &mut Vec<Value>) {
    let mut add = |value: Value| {
        if !seen.contains(&value) && seen.len() < 64 {
            seen.push(value);
        }
    };
    let mut found = Vec::new();
    scalars(arguments, &mut found);
    if let Some(content) = &result.structured_content {
        scalars(content, &mut found);
    }
    for value in found {
        add(value);
    }
    if !result.is_error {
        for word in result.text_content().split(|c: char| !c.is_ascii_digit()) {
            if let Ok(number) = word.parse::<u64>() {
                add(Value::from(number));
            }
        }
    }
}
