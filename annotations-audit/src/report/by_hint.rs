//! A value for each of the protocol's hints, walked in [`Hint::ALL`]'s order and written in a
//! report under each hint's claim (`readOnly`, `nonDestructive`, ...).

use std::ops::{Index, IndexMut};

use mcp_annotations::descriptor::Hint;
use serde::ser::{Serialize, SerializeMap, Serializer};

/// A `T` for each hint.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ByHint<T>([T; 4]);

/// Where a hint's value is kept: its place in [`Hint::ALL`].
const fn slot(hint: Hint) -> usize {
    match hint {
        Hint::ReadOnly => 0,
        Hint::Destructive => 1,
        Hint::Idempotent => 2,
        Hint::OpenWorld => 3,
    }
}

impl<T> ByHint<T> {
    /// Each hint's value, `value(hint)`.
    pub fn from_fn(mut value: impl FnMut(Hint) -> T) -> Self {
        ByHint(Hint::ALL.map(&mut value))
    }

    /// Each hint with its value, in [`Hint::ALL`]'s order.
    pub fn iter(&self) -> impl Iterator<Item = (Hint, &T)> {
        Hint::ALL.into_iter().map(|hint| (hint, &self[hint]))
    }
}

impl<T> Index<Hint> for ByHint<T> {
    type Output = T;

    fn index(&self, hint: Hint) -> &T {
        &self.0[slot(hint)]
    }
}

impl<T> IndexMut<Hint> for ByHint<T> {
    fn index_mut(&mut self, hint: Hint) -> &mut T {
        &mut self.0[slot(hint)]
    }
}

impl<T: Serialize> Serialize for ByHint<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(Hint::ALL.len()))?;
        for (hint, value) in self.iter() {
            map.serialize_entry(hint.claim(), value)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_hint_has_a_place_of_its_own() {
        let places = ByHint::from_fn(slot);
        let mut seen: Vec<usize> = places.iter().map(|(_, at)| *at).collect();
        seen.dedup();
        assert_eq!(seen, [0, 1, 2, 3]);
        let mut counts = ByHint::<u32>::default();
        counts[Hint::Idempotent] += 2;
        assert_eq!(counts[Hint::Idempotent], 2);
        assert_eq!(counts[Hint::Destructive], 0);
        assert_eq!(
            serde_json::to_value(counts).unwrap(),
            serde_json::json!({"readOnly": 0, "nonDestructive": 0, "idempotent": 2, "closedWorld": 0})
        );
    }
}
