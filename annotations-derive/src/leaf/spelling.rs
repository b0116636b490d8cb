//! The known word a misspelled one most likely means, for the suggestions in messages about
//! `#[tool]`, `#[schema]` and icon keys. A leaf: it imports nothing of the crate.

/// The key of `keys` that `name` most likely means: the same words in another case or with
/// other separators (`minLength` for `min_length`), or a typo of a few letters.
pub(crate) fn closest(name: &str, keys: &[&'static str]) -> Option<&'static str> {
    let squashed = |s: &str| -> String {
        s.chars()
            .filter(|c| *c != '_' && *c != '-')
            .flat_map(char::to_lowercase)
            .collect()
    };
    let words = squashed(name);
    if let Some(exact) = keys.iter().find(|key| squashed(key) == words) {
        return Some(exact);
    }
    keys.iter()
        .map(|key| (edit_distance(&squashed(key), &words), *key))
        .filter(|(distance, key)| *distance <= (key.len() / 4).max(1))
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, key)| key)
}

/// The hint key (or other key) of `keys` that `name` most likely means, read as a hint's
/// name may be written: in the wire's spelling (`readOnlyHint`, `read_only_hint`) or another
/// case, or with a typo.
pub(crate) fn closest_key(name: &str, keys: &[&'static str]) -> Option<&'static str> {
    let lower = name.to_lowercase();
    let name = lower
        .strip_suffix("hint")
        .filter(|rest| !rest.is_empty())
        .unwrap_or(&lower);
    closest(name, keys)
}

/// Edit distance where swapping two neighbouring letters counts as one edit (optimal string
/// alignment), so `titel` is one edit from `title`.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

/// The message for the key `name` that is not among `keys` of `what` (`#[tool]`, `icon`): the
/// key it most likely means (`suggestion`), or every key there is; with no `keys` to list
/// (a key that is not an identifier, such as `open-world`), the name alone.
pub(crate) fn unknown_key(
    what: &str,
    name: &str,
    keys: &[&str],
    suggestion: Option<&str>,
) -> String {
    match suggestion {
        Some(known) => format!("unknown {what} key `{name}`; did you mean `{known}`?"),
        None if keys.is_empty() => format!("unknown {what} key `{name}`"),
        None => format!(
            "unknown {what} key `{name}`; expected one of {}",
            keys.iter()
                .map(|key| format!("`{key}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}
