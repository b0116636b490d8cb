//! A state's observation judged: its JSON by [`contains`] and equality, its files by the rules
//! over trees.

use super::Observation;
use crate::compare::{contains, diff, differences, lost_at};
use crate::observe::Observed;

/// The places classed volatile or append-only (none without the `files` feature).
#[cfg(feature = "files")]
pub(crate) type Classes = super::classes::Classes;
/// The places classed volatile or append-only (none without the `files` feature).
#[cfg(not(feature = "files"))]
pub(crate) type Classes = ();

impl Observation for Observed {
    type Classes = Classes;

    #[cfg_attr(not(feature = "files"), allow(unused_variables))]
    fn changed(&self, after: &Observed, classes: &Classes, growth_allowed: bool) -> Option<String> {
        match (self, after) {
            (Observed::Json(was), Observed::Json(is)) => {
                let mut places = Vec::new();
                differences(was, is, "", &mut places, 1);
                places.first().map(ToString::to_string)
            }
            #[cfg(feature = "files")]
            (Observed::Files(was), Observed::Files(is)) => {
                super::changed(was, is, classes, growth_allowed)
            }
            #[cfg(feature = "files")]
            _ => Some("the observation changed its kind".to_owned()),
        }
    }

    #[cfg_attr(not(feature = "files"), allow(unused_variables))]
    fn lost(&self, after: &Observed, classes: &Classes) -> Option<String> {
        match (self, after) {
            // The additive rule as `contains` reads it: a `null` given a value is not kept.
            (Observed::Json(was), Observed::Json(is)) => (!contains(was, is)).then(|| {
                lost_at(was, is, "").unwrap_or_else(|| "a `null` was given a value".to_owned())
            }),
            #[cfg(feature = "files")]
            (Observed::Files(was), Observed::Files(is)) => super::lost(was, is, classes),
            #[cfg(feature = "files")]
            _ => Some("the observation changed its kind".to_owned()),
        }
    }
}

/// How `after` differs from `before`, for the report: at most `limit` lines.
pub(crate) fn difference(before: &Observed, after: &Observed, limit: usize) -> String {
    match (before, after) {
        (Observed::Json(was), Observed::Json(is)) => diff(was, is, limit),
        #[cfg(feature = "files")]
        (Observed::Files(was), Observed::Files(is)) => super::diff(was, is, limit).join("\n"),
        #[cfg(feature = "files")]
        _ => String::new(),
    }
}
