//! Fixtures shared by the integration tests in `tests/`.
#![forbid(unsafe_code)]

use annotations::ToolAnnotations;

pub mod tools;

/// The three states of a hint: unset, stated `false`, stated `true`.
pub const HINT_STATES: [Option<bool>; 3] = [None, Some(false), Some(true)];

/// Every combination of the four hints (3^4 = 81), without a title.
pub fn all_hint_combinations() -> Vec<ToolAnnotations> {
    let mut all = Vec::with_capacity(81);
    for read_only_hint in HINT_STATES {
        for destructive_hint in HINT_STATES {
            for idempotent_hint in HINT_STATES {
                for open_world_hint in HINT_STATES {
                    all.push(ToolAnnotations {
                        title: None,
                        read_only_hint,
                        destructive_hint,
                        idempotent_hint,
                        open_world_hint,
                    });
                }
            }
        }
    }
    all
}

/// Every combination of the four hints, each once without a title and once with one
/// (3^4 x 2 = 162).
pub fn all_combinations() -> Vec<ToolAnnotations> {
    all_hint_combinations()
        .into_iter()
        .flat_map(|hints| {
            let titled = hints.clone().with_title("Delete \"note\" ✓");
            [hints, titled]
        })
        .collect()
}
