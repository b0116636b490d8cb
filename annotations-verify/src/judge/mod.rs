//! Which observation judges a claimed hint, and the rules it is judged by: what
//! [`Verify`](crate::Verify) checks an author's tools with, and what `annotations-audit probe`
//! checks any server's sandbox with, so that both judge alike.
//!
//! - [`broken`]: a hint claimed at its trusted value, judged on what was observed around a
//!   call: read-only by whether anything changed, non-destructive by whether anything was
//!   lost, idempotent by whether the same call made again changed anything again; open world
//!   by no observation of state;
//! - the rules over a [`Tree`](crate::observe::tree::Tree) of files: whether a call changed
//!   anything ([`changed`]), lost anything ([`lost`]), and what it did counted by place
//!   ([`effect`]) (feature `files`);
//! - [`classes`]: the places a user classes *volatile* (changes reported, never judged) or
//!   *append-only* (growth allowed where a tool may add) (feature `files`).

#[cfg(feature = "files")]
pub mod classes;
#[cfg(feature = "files")]
mod lines;
pub(crate) mod observed;
#[cfg(all(test, feature = "files"))]
mod tests;
#[cfg(feature = "files")]
mod tree;

use mcp_annotations_rules::Hint;

#[cfg(feature = "files")]
pub use self::lines::written_time;
#[cfg(feature = "files")]
pub use self::tree::{Effect, changed, diff, effect, lost, more_than, untold, volatile_changes};

pub(crate) use self::observed::Classes;

/// What a claimed hint is judged on: an observation of the state before and after a call.
pub trait Observation {
    /// The places of it a user classes apart (volatile, append-only).
    type Classes;

    /// What changed from `self` to `after`, in words, or `None` where nothing did. With
    /// `growth_allowed`, an append-only place that only grew is no change.
    fn changed(
        &self,
        after: &Self,
        classes: &Self::Classes,
        growth_allowed: bool,
    ) -> Option<String>;

    /// What `self` had that `after` lost (removed or overwritten), in words, or `None` where
    /// everything is kept.
    fn lost(&self, after: &Self, classes: &Self::Classes) -> Option<String>;
}

#[cfg(feature = "files")]
impl Observation for crate::observe::tree::Tree {
    type Classes = classes::Classes;

    fn changed(
        &self,
        after: &Self,
        classes: &classes::Classes,
        growth_allowed: bool,
    ) -> Option<String> {
        changed(self, after, classes, growth_allowed)
    }

    fn lost(&self, after: &Self, classes: &classes::Classes) -> Option<String> {
        lost(self, after, classes)
    }
}

/// The claim judged by making the same call again: the idempotent claim, judged on what the
/// second call changed (one after the other, or two at once).
pub const BY_REPEATING: Hint = Hint::Idempotent;

/// Whether judging `hint` takes the call made a second time with the same arguments: whether
/// it is [`BY_REPEATING`].
#[must_use]
pub const fn needs_again(hint: Hint) -> bool {
    hint.is(BY_REPEATING)
}

/// What broke `hint`, claimed at its [trusted value](Hint::trusted_value), as observed around
/// one call: `before` it, `after` it, and `again` after the same call made a second time
/// (where [`needs_again`] and it was made). `None` where the claim held, and where what
/// judges it was not observed: open world is seen in no observation of state (the probe
/// judges it by the network), idempotence not without `again`.
///
/// - read-only: nothing changed from `before` to `after` (nor from `after` to `again`: the
///   second call is a call too);
/// - non-destructive: nothing `before` had is lost `after` (nor anything `after` had lost
///   `again`);
/// - idempotent: nothing changed from `after` to `again` (an append-only place may grow).
///
/// ```
/// use mcp_annotations::descriptor::Hint;
/// use mcp_annotations_verify::judge::{Observation, broken};
///
/// /// A counter observed by its value.
/// struct Count(u64);
///
/// impl Observation for Count {
///     type Classes = ();
///     fn changed(&self, after: &Count, _: &(), _: bool) -> Option<String> {
///         (self.0 != after.0).then(|| format!("{} -> {}", self.0, after.0))
///     }
///     fn lost(&self, after: &Count, classes: &()) -> Option<String> {
///         self.changed(after, classes, false)
///     }
/// }
///
/// // A call that added one: not read-only, and not idempotent when the second call adds one
/// // more.
/// let (before, after, again) = (Count(1), Count(2), Count(3));
/// assert_eq!(broken(Hint::ReadOnly, &before, &after, None, &()).as_deref(), Some("1 -> 2"));
/// assert_eq!(broken(Hint::Idempotent, &before, &after, Some(&again), &()).as_deref(), Some("2 -> 3"));
/// assert_eq!(broken(Hint::OpenWorld, &before, &after, None, &()), None);
/// // A first call that changed nothing does not hide a second one that did.
/// let same = Count(1);
/// assert_eq!(broken(Hint::ReadOnly, &before, &same, Some(&after), &()).as_deref(), Some("1 -> 2"));
/// ```
pub fn broken<O: Observation + ?Sized>(
    hint: Hint,
    before: &O,
    after: &O,
    again: Option<&O>,
    classes: &O::Classes,
) -> Option<String> {
    // The same call again is a call too: read-only and non-destructive hold for it as well.
    let then = |rule: &dyn Fn(&O, &O) -> Option<String>| {
        rule(before, after).or_else(|| again.and_then(|again| rule(after, again)))
    };
    match hint {
        Hint::ReadOnly => then(&|x, y| x.changed(y, classes, false)),
        Hint::Destructive => then(&|x, y| x.lost(y, classes)),
        Hint::Idempotent => again.and_then(|again| after.changed(again, classes, true)),
        Hint::OpenWorld => None,
    }
}
