//! The sandbox as a tree: every path under it with its kind, size, content hash and mode, and
//! small files' contents, to judge what a call did to it.

use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::Path;

/// Files up to this size are kept whole, to judge how they changed.
const KEPT: u64 = 1 << 20;

/// One path of the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub kind: &'static str,
    pub size: u64,
    pub hash: u64,
    pub mode: u32,
    /// The contents, for a file of at most [`KEPT`] bytes.
    pub contents: Option<Vec<u8>>,
}

/// Every path under a folder (relative, `/`-separated), in order.
pub type Tree = BTreeMap<String, Entry>;

/// The tree under `root` (symbolic links recorded, not followed).
pub fn observe(root: &Path) -> Tree {
    let mut tree = Tree::new();
    walk(root, root, &mut tree);
    tree
}

fn walk(root: &Path, dir: &Path, tree: &mut Tree) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        let relative = path
            .strip_prefix(root)
            .map(|p| p.to_string_lossy().replace('\\', "/"))
            .unwrap_or_default();
        #[cfg(unix)]
        let mode = std::os::unix::fs::PermissionsExt::mode(&meta.permissions());
        #[cfg(not(unix))]
        let mode = u32::from(meta.permissions().readonly());
        let (kind, contents) = if meta.is_symlink() {
            let target = std::fs::read_link(&path).unwrap_or_default();
            (
                "symlink",
                Some(target.to_string_lossy().into_owned().into_bytes()),
            )
        } else if meta.is_dir() {
            ("dir", None)
        } else {
            let contents = (meta.len() <= KEPT)
                .then(|| std::fs::read(&path).ok())
                .flatten();
            ("file", contents)
        };
        let mut hasher = DefaultHasher::new();
        match &contents {
            Some(contents) => contents.hash(&mut hasher),
            None if kind == "file" => std::fs::read(&path).unwrap_or_default().hash(&mut hasher),
            None => {}
        }
        tree.insert(
            relative,
            Entry {
                kind,
                size: meta.len(),
                hash: hasher.finish(),
                mode,
                contents,
            },
        );
        if kind == "dir" {
            walk(root, &path, tree);
        }
    }
}

/// Whether two trees are the same (paths, kinds, sizes, contents, modes).
pub fn same(before: &Tree, after: &Tree) -> bool {
    before.len() == after.len()
        && before.iter().zip(after).all(|((a, x), (b, y))| {
            a == b && x.kind == y.kind && x.size == y.size && x.hash == y.hash && x.mode == y.mode
        })
}

/// What `after` lost of `before`, by the non-destructive rule: a path gone, or a file whose
/// contents were not kept (JSON by the additive rule, text by its lines as a multiset, other
/// bytes only grown at the end). `None` when nothing was lost.
pub fn lost(before: &Tree, after: &Tree) -> Option<String> {
    for (path, old) in before {
        let Some(new) = after.get(path) else {
            return Some(format!("`{path}` was removed"));
        };
        if old.kind != new.kind {
            return Some(format!(
                "`{path}` changed from a {} to a {}",
                old.kind, new.kind
            ));
        }
        if old.kind != "file" || old.hash == new.hash {
            continue;
        }
        let (Some(was), Some(is)) = (&old.contents, &new.contents) else {
            if new.size < old.size {
                return Some(format!(
                    "`{path}` shrank from {} to {} bytes",
                    old.size, new.size
                ));
            }
            continue;
        };
        let json = |bytes: &[u8]| serde_json::from_slice::<serde_json::Value>(bytes).ok();
        if let (Some(was), Some(is)) = (json(was), json(is)) {
            if !mcp_annotations_verify::contains(&was, &is) {
                return Some(format!(
                    "`{path}`: something in its JSON was removed or overwritten"
                ));
            }
            continue;
        }
        if let (Ok(was), Ok(is)) = (std::str::from_utf8(was), std::str::from_utf8(is)) {
            // JSON Lines: each line a JSON value, judged as an array of them by the additive
            // rule (a store that rewrites a record it added to keeps it).
            let records = |text: &str| -> Option<Vec<serde_json::Value>> {
                text.lines()
                    .filter(|line| !line.trim().is_empty())
                    .map(|line| serde_json::from_str(line).ok())
                    .collect()
            };
            if let (Some(was), Some(is)) = (records(was), records(is)) {
                let (was, is) = (serde_json::Value::Array(was), serde_json::Value::Array(is));
                if !mcp_annotations_verify::contains(&was, &is) {
                    return Some(format!(
                        "`{path}`: a record of its JSON Lines was removed or overwritten"
                    ));
                }
                continue;
            }
            let mut lines: BTreeMap<&str, i64> = BTreeMap::new();
            for line in is.lines() {
                *lines.entry(line).or_default() += 1;
            }
            for line in was.lines() {
                let count = lines.entry(line).or_default();
                *count -= 1;
                if *count < 0 {
                    let shown: String = line.chars().take(60).collect();
                    return Some(format!("`{path}` lost the line {shown:?}"));
                }
            }
            continue;
        }
        if !is.starts_with(was) {
            return Some(format!("`{path}` was overwritten, not grown at its end"));
        }
    }
    None
}

/// The differences between two trees, one line each, at most `limit`.
pub fn diff(before: &Tree, after: &Tree, limit: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for (path, old) in before {
        match after.get(path) {
            None => lines.push(format!("- {path} ({})", old.kind)),
            Some(new) if new.hash != old.hash || new.size != old.size || new.mode != old.mode => {
                lines.push(format!("~ {path} ({} -> {} bytes)", old.size, new.size));
            }
            Some(_) => {}
        }
    }
    for (path, new) in after {
        if !before.contains_key(path) {
            lines.push(format!("+ {path} ({}, {} bytes)", new.kind, new.size));
        }
    }
    lines.truncate(limit);
    lines
}
