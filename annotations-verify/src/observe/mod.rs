//! What a state is observed as, before and after each call: its JSON (arrays that are sets
//! put in one order: those its types say are, and those the author names), or the folder it
//! keeps its data in as a [`tree::Tree`] of files, each read by its [format](formats)
//! (feature `files`).
//!
//! - [`tree`]: the folder as a tree, every path with its kind, size, hash and mode, each
//!   file's view where its format has one;
//! - [`formats`]: the views, chosen by a file's contents, not its name: a SQLite database as
//!   its tables and rows (keyed by primary key, its journal and WAL read into it), a zip
//!   container (an `.xlsx`, a `.docx`) member by member with XML as element trees, JSON and
//!   JSON Lines as their values, a git repository's index by what it stages.
//!
//! What a call did to an observation is [judged](crate::judge) apart.

#[cfg(feature = "files")]
pub mod formats;
pub(crate) mod sets;
#[cfg(feature = "files")]
pub mod tree;

use serde_json::Value;

/// Puts every array of `value` at `pointer` (a JSON pointer, `*` for any key or index) in one
/// order, by each item's JSON text, so that two observations of one set compare equal.
pub(crate) fn as_set(value: &mut Value, pointer: &str) {
    let segments: Vec<String> = if pointer.is_empty() {
        Vec::new()
    } else {
        // One leading `/` only: `//tags` is the key `""`, then `tags`.
        pointer
            .strip_prefix('/')
            .unwrap_or(pointer)
            .split('/')
            .map(|segment| segment.replace("~1", "/").replace("~0", "~"))
            .collect()
    };
    sort_at(value, &segments);
}

/// [`as_set`] at each of `pointers`, the deepest first: an array of sets is put in order by
/// its items once each of them is.
pub(crate) fn as_sets(value: &mut Value, pointers: &[String]) {
    let mut pointers: Vec<&String> = pointers.iter().collect();
    pointers.sort_by_key(|pointer| std::cmp::Reverse(pointer.matches('/').count()));
    for pointer in pointers {
        as_set(value, pointer);
    }
}

fn sort_at(value: &mut Value, segments: &[String]) {
    let Some((first, rest)) = segments.split_first() else {
        if let Value::Array(items) = value {
            items.sort_by_cached_key(Value::to_string);
        }
        return;
    };
    match value {
        Value::Object(object) if first == "*" => {
            object.values_mut().for_each(|inner| sort_at(inner, rest));
        }
        Value::Object(object) => {
            if let Some(inner) = object.get_mut(first) {
                sort_at(inner, rest);
            }
        }
        Value::Array(items) if first == "*" => {
            items.iter_mut().for_each(|inner| sort_at(inner, rest))
        }
        Value::Array(items) => {
            if let Some(inner) = first.parse::<usize>().ok().and_then(|at| items.get_mut(at)) {
                sort_at(inner, rest);
            }
        }
        _ => {}
    }
}

/// One observation of a state: its JSON, or the files it keeps its data in.
pub(crate) enum Observed {
    /// The state's JSON.
    Json(Value),
    /// The files the state keeps its data in.
    #[cfg(feature = "files")]
    Files(tree::Tree),
}

/// A state observed as its JSON, or why it could not be serialized.
type ObserveJson<'a, S> = Box<dyn Fn(&S) -> Result<Value, String> + 'a>;

/// What a state is observed as.
pub(crate) enum Observe<'a, S> {
    /// Its JSON, or why it could not be serialized.
    Json(ObserveJson<'a, S>),
    /// The folder or file it keeps its data in, observed by what the files hold.
    #[cfg(feature = "files")]
    Files(Box<dyn Fn(&S) -> std::path::PathBuf + 'a>),
}

impl<S> Observe<'_, S> {
    /// Whether the state is observed as its JSON.
    pub(crate) fn is_json(&self) -> bool {
        matches!(self, Observe::Json(_))
    }
}

/// `state` observed as `observe` says, each array at an `unordered` pointer compared as a
/// set; why not, where its JSON could not be made.
pub(crate) fn observe<S>(
    observe: &Observe<'_, S>,
    unordered: &[String],
    state: &S,
) -> Result<Observed, String> {
    match observe {
        Observe::Json(observe) => observe(state).map(|mut value| {
            as_sets(&mut value, unordered);
            Observed::Json(value)
        }),
        #[cfg(feature = "files")]
        Observe::Files(path) => Ok(Observed::Files(tree::observe_path(&path(state)))),
    }
}

impl Observed {
    /// Whether what was observed is there: JSON always is; files where their path was.
    pub(crate) fn found(&self) -> bool {
        match self {
            Observed::Json(_) => true,
            #[cfg(feature = "files")]
            Observed::Files(tree) => !tree.is_empty(),
        }
    }
}
