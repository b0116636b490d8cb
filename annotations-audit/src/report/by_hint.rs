//! A value for each hint ([`ByHint`], the rules' one table of the hints) as a report writes
//! it: an object with each hint's value under its claim (`readOnly`, `nonDestructive`, ...).

use mcp_annotations::descriptor::ByHint;
use serde::ser::{Serialize, SerializeMap, Serializer};

/// `values` as an object keyed by each hint's claim, for `#[serde(serialize_with)]`.
pub fn by_claim<T: Serialize, S: Serializer>(
    values: &ByHint<T>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let mut map = serializer.serialize_map(None)?;
    entries(values, &mut map)?;
    map.end()
}

/// Each hint's value under its claim, into `map`: an object's entries, with others beside.
pub fn entries<T: Serialize, M: SerializeMap>(
    values: &ByHint<T>,
    map: &mut M,
) -> Result<(), M::Error> {
    for (hint, value) in values.iter() {
        map.serialize_entry(hint.claim(), value)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use mcp_annotations::descriptor::Hint;

    use super::*;

    #[test]
    fn each_hint_is_written_under_its_claim() {
        #[derive(serde::Serialize)]
        struct Shown(#[serde(serialize_with = "by_claim")] ByHint<u32>);
        for counted in Hint::ALL {
            let mut counts = ByHint::<u32>::default();
            counts[counted] += 2;
            let shown = serde_json::to_value(Shown(counts)).unwrap();
            assert_eq!(shown.as_object().unwrap().len(), 4, "{shown}");
            for hint in Hint::ALL {
                let expected = if hint == counted { 2 } else { 0 };
                assert_eq!(shown[hint.claim()], expected, "{shown}");
            }
        }
    }
}
