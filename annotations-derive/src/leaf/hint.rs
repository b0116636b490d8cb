//! The hints' keys in an attribute's list of keys. The hints themselves are
//! [`mcp_annotations_rules::Hint`], the one list every package walks. A leaf: it imports nothing
//! of the crate.

use mcp_annotations_rules::{ByHint, Hint};
use proc_macro2::{Ident, Span};

/// The values in [`Hint::ALL`]'s order: how the runtime's glue (`__private`) takes the four
/// hints, as an array a `const` can build.
pub(crate) fn in_order<T: Clone>(values: &ByHint<T>) -> Vec<T> {
    values.iter().map(|(_, value)| value.clone()).collect()
}

/// Where `hint` sits in the arrays the runtime's glue takes and gives ([`in_order`]).
pub(crate) fn place(hint: Hint) -> usize {
    Hint::ALL
        .iter()
        .position(|other| *other == hint)
        .unwrap_or_default()
}

/// The runtime's `ToolAnnotations` field that holds `hint` (`read_only_hint`): its attribute
/// key with `_hint`.
pub(crate) fn field(hint: Hint) -> Ident {
    Ident::new(&format!("{}_hint", hint.key()), Span::call_site())
}

/// The hints' keys, then `others`, as one list of `N` keys (`N` is the hints' count plus the
/// others'; a wrong `N` fails while compiling): a list of keys an attribute accepts names the
/// hints through [`Hint::ALL`], never one by one.
pub(crate) const fn keys_with<const N: usize>(others: &[&'static str]) -> [&'static str; N] {
    let mut keys = [""; N];
    let mut at = 0;
    while at < Hint::ALL.len() {
        keys[at] = Hint::ALL[at].key();
        at += 1;
    }
    let mut other = 0;
    while other < others.len() {
        keys[at] = others[other];
        at += 1;
        other += 1;
    }
    assert!(at == N, "N is the hints' count plus the others'");
    keys
}
