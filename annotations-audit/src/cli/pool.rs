//! What the probe's generated arguments may be replaced with: the sandbox's folders and files
//! (for a value whose name says it is a path), a git repository's refs (for one whose name says
//! it is a ref), and the values earlier calls showed, each kept only while the arguments stay
//! valid.

use std::path::Path;

use serde_json::Value;

use super::tree::Tree;

/// The sandbox's paths, relative and absolute, and every string and number seen in earlier
/// arguments and results: what generated strings and numbers may be replaced with.
pub fn pool(sandbox: &Path, tree: &Tree, seen: &[Value]) -> Pool {
    let mut pool = Pool::default();
    for (path, entry) in tree {
        // A git repository's branches and tags, and the commits they name: what a tool that
        // takes a ref can be given (`main`, a commit id), where a random string names none.
        for kind in ["/refs/heads/", "/refs/tags/"] {
            if let Some((_, name)) = path.split_once(&format!(".git{kind}")) {
                pool.refs.push(Value::from(name));
                if let Some(id) = entry.contents.as_deref().map(String::from_utf8_lossy) {
                    pool.refs.push(Value::from(id.trim()));
                }
            }
        }
        // What a tool is meant to reach: not the insides of hidden folders (`.git`).
        if path.split('/').any(|part| part.starts_with('.')) {
            continue;
        }
        let absolute = sandbox.join(path).to_string_lossy().into_owned();
        // Paths a tool may be given: folders and regular files, not pipes or devices.
        let into = match entry.kind {
            "dir" => &mut pool.dirs,
            "file" => &mut pool.files,
            _ => continue,
        };
        into.push(Value::from(absolute));
        into.push(Value::from(path.clone()));
    }
    pool.dirs
        .push(Value::from(sandbox.to_string_lossy().into_owned()));
    if !pool.refs.is_empty() {
        pool.refs.push(Value::from("HEAD"));
    }
    pool.seen = seen.to_vec();
    pool
}

/// What generated values may be replaced with: the sandbox's folders and files (absolute and
/// relative) and the values earlier calls showed.
#[derive(Default)]
pub struct Pool {
    dirs: Vec<Value>,
    files: Vec<Value>,
    /// A git repository's refs and the commits they name, and `HEAD`.
    refs: Vec<Value>,
    seen: Vec<Value>,
}

impl Pool {
    /// The candidates for the value at `path` (a JSON pointer into the arguments): a git
    /// repository's refs for a value whose name says it is one (`ref`, `branch`, `revision`,
    /// `commit`), paths of the sandbox for a value whose name says it is one (`path`, `file`,
    /// `dir`, `repo`), the values seen for any other.
    fn for_leaf(&self, path: &str, current: &Value) -> Vec<&Value> {
        let name = path
            .rsplit('/')
            .find(|part| part.parse::<usize>().is_err())
            .unwrap_or("");
        let name = name.to_ascii_lowercase();
        let is = |words: &[&str]| words.iter().any(|word| name.contains(word));
        let paths: Vec<&Value> = if !current.is_string() {
            Vec::new()
        } else if is(&["ref", "branch", "revision", "commit", "sha", "tag"]) {
            self.refs.iter().collect()
        } else if is(&["dir", "repo", "folder", "root"]) {
            self.dirs.iter().collect()
        } else if is(&["target"]) {
            // A path or a ref (what to diff against).
            self.files
                .iter()
                .chain(&self.dirs)
                .chain(&self.refs)
                .collect()
        } else if is(&["file", "path", "source", "destination"]) {
            self.files.iter().chain(&self.dirs).collect()
        } else {
            Vec::new()
        };
        if !paths.is_empty() {
            return paths;
        }
        self.seen
            .iter()
            .chain(&self.files)
            .filter(|value| {
                value.is_string() == current.is_string() && value.is_number() == current.is_number()
            })
            .collect()
    }
}

/// `arguments` with some strings and numbers replaced from `pool` (as `choices` say), each
/// kept only while the arguments stay valid to `validator`.
pub fn reuse(
    arguments: &Value,
    choices: &[u8],
    pool: &Pool,
    validator: &jsonschema::Validator,
) -> Value {
    let mut arguments = arguments.clone();
    let paths = mcp_annotations_verify::scalar_paths(&arguments);
    for (leaf, path) in paths.into_iter().enumerate() {
        let Some(current) = arguments.pointer(&path).cloned() else {
            continue;
        };
        let like = pool.for_leaf(&path, &current);
        if like.is_empty() {
            continue;
        }
        // A path-like value (or a ref) is taken from the sandbox unless the choice says keep
        // (1 in 3); any other value 1 time in 3.
        let choice = choices.get(leaf).copied().unwrap_or(0);
        let path_like = current.is_string()
            && like.first().is_some_and(|value| {
                value.as_str().is_some_and(|text| {
                    pool.dirs
                        .iter()
                        .chain(&pool.files)
                        .chain(&pool.refs)
                        .any(|p| p.as_str() == Some(text))
                })
            });
        let taken = if path_like {
            choice % 3 != 2
        } else {
            choice % 3 == 0 && !choices.is_empty()
        };
        if !taken {
            continue;
        }
        if let Some(slot) = arguments.pointer_mut(&path) {
            *slot = like[usize::from(choice) % like.len()].clone();
        }
        let valid = validator.is_valid(&arguments);
        match arguments.pointer_mut(&path) {
            Some(slot) if !valid => *slot = current,
            _ => {}
        }
    }
    arguments
}
