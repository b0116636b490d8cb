//! The `const` assertion of a listing that, when asked, every tool is ready for a tool
//! directory (that no two share a name is the name index's, in `listing/index.rs`). It fails
//! with a message that names the tool, since `const` evaluation reports only the panic's text.

use crate::host::{Missing, Readiness};
use crate::listing::index::Message;
use crate::tool::Tool;

/// Fails `const` evaluation at the first tool that is not ready for a directory at `level`,
/// naming the tool, what it lacks and the key that supplies it.
pub const fn assert_ready(tools: &[Tool], level: Readiness) {
    let mut i = 0;
    while i < tools.len() {
        if let Some(missing) = tools[i].missing_for(level) {
            let what = match level {
                Readiness::Directory => "` is not ready for a tool directory: it lacks ",
                Readiness::Strict => "` is not ready for a strict tool directory: it lacks ",
            };
            Message::new()
                .push("tool `")
                .push(tools[i].name())
                .push(what)
                .push(missing.as_str())
                .push("; add ")
                // `destructive` beside `read_only` is refused: a read-only tool destroys nothing.
                .push(
                    if matches!(missing, Missing::DestructiveHint)
                        && matches!(tools[i].annotations.read_only_hint, Some(true))
                    {
                        "#[tool(destructive = false)] (a read-only tool destroys nothing)"
                    } else {
                        missing.remedy()
                    },
                )
                .fail();
        }
        i += 1;
    }
}
