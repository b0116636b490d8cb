//! Resolving a resolvable tool's call before making it, as a host would (`tools/resolve`):
//! the hints the call is judged by, and the resolution's own rules (it takes the valid
//! arguments, keeps within the listing and changes nothing observed).

use std::panic::{AssertUnwindSafe, catch_unwind};

use serde_json::Value;

use super::{Run, panic_message};
use crate::judge::Observation;
use crate::judge::observed::difference;
use crate::observe::Observed;

/// What resolving a call showed: the hints resolved (`None` where the resolver could not
/// tell) or what broke the extension's rules and the change seen; and the observation after
/// it, which the call is judged from (never charging the call with what resolving did).
pub(super) type ResolutionSeen = (
    Result<Option<mcp_annotations::ToolAnnotations>, (String, String)>,
    Option<Observed>,
);

impl<S: 'static> Run<'_, '_, S> {
    /// Resolves the call of the tool at `index` with `arguments` (`tools/resolve`, the
    /// extension declared) and observes the state again: the hints resolved (`None` where the
    /// resolver could not tell, which the extension allows: the listing's hints stand, and a
    /// note says so) and the observation after. `Err` with what broke the extension's rules
    /// (valid arguments refused, an answer outside the listing, the observation changed by
    /// resolving) and the change seen.
    pub(super) fn resolve(
        &self,
        state: &S,
        index: usize,
        arguments: &Value,
        before: Option<&Observed>,
    ) -> ResolutionSeen {
        use mcp_annotations::resolution::{Declaration, ResolveError, ResolveOptions};
        let tool = self.tool(index);
        let empty = serde_json::Map::new();
        let map = arguments.as_object().unwrap_or(&empty);
        let declared = ResolveOptions::new(Declaration::Declared);
        let answer = catch_unwind(AssertUnwindSafe(|| {
            self.verify
                .listing
                .resolve(state, tool.name(), map, &declared)
        }));
        let after = self.observation(state);
        if let (Some(before), Some(seen)) = (before, &after)
            && before.changed(seen, &self.classes, false).is_some()
        {
            let diff = difference(before, seen, 12);
            let detail = "resolving the call (which makes no call) changed the observation";
            return (Err((detail.into(), diff)), after);
        }
        let resolved = match answer {
            Ok(Ok(hints)) => Ok(Some(hints)),
            Ok(Err(ResolveError::CannotResolve(reason))) => {
                self.note(format!(
                    "`{}`: the resolver could not tell the hints of a call ({reason}); it was \
                     judged by the listed hints",
                    tool.name()
                ));
                Ok(None)
            }
            Ok(Err(error)) => Err((
                format!("tools/resolve answered {} ({error})", error.code()),
                String::new(),
            )),
            Err(panic) => Err((
                format!("tools/resolve panicked: {}", panic_message(&*panic)),
                String::new(),
            )),
        };
        (resolved, after)
    }
}
