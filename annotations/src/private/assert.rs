//! What keeps a tool of a listing from being ready for a tool directory, when the listing asks
//! (that no two share a name is the name index's, in `listing/index.rs`): a message that names
//! the tool, since `const` evaluation reports only the panic's text, with which the generated
//! code panics at the tool's entry.

use crate::host::{Missing, Readiness};
use crate::listing::index::Message;
use crate::tool::Tool;

/// What keeps `tool` from being ready for a directory at `level`: the tool, what it lacks and
/// the key that supplies it; an empty message when it is ready. The generated code fails
/// `const` evaluation with it at the tool's entry.
#[must_use]
pub const fn ready_problem(tool: &Tool, level: Readiness) -> Message {
    let Some(missing) = tool.missing_for(level) else {
        return Message::new();
    };
    let what = match level {
        Readiness::Directory => "` is not ready for a tool directory: it lacks ",
        Readiness::Strict => "` is not ready for a strict tool directory: it lacks ",
    };
    Message::new()
        .push("tool `")
        .push(tool.name())
        .push(what)
        .push(missing.as_str())
        .push("; add ")
        // `destructive` beside `read_only` is refused: a read-only tool destroys nothing.
        .push(
            if matches!(missing, Missing::DestructiveHint)
                && matches!(tool.annotations.read_only_hint, Some(true))
            {
                "#[tool(destructive = false)] (a read-only tool destroys nothing)"
            } else {
                missing.remedy()
            },
        )
}
