//! The sandbox as a tree: every path under it with its kind, size, content hash and mode, and
//! small files' contents, to judge what a call did to it. Only regular files are opened:
//! FIFOs, sockets and devices are recorded by kind (opening a FIFO would wait for a writer),
//! symbolic links by their target, never followed. A file is hashed in a stream of bounded
//! memory, its first [`HASHED`] bytes at most: a change past them is seen by the size and the
//! modification time, which every write updates.

use std::collections::BTreeMap;
use std::fs::Metadata;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::Read;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::formats::git::{git_index_entries, is_git_index, is_git_lock};
use super::formats::{self, Format, Viewed};

/// Files up to this size are kept whole, to judge how they changed.
pub const KEPT: u64 = 1 << 20;

/// How much of a larger file is read to hash it: the walk stays bounded in time and memory
/// whatever a server writes (a 1 GiB sparse file is read for its first 64 MiB, in 64 KiB
/// pieces).
pub const HASHED: u64 = 64 << 20;

/// One path of the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// `file`, `dir`, `symlink`, `fifo`, `socket`, `device` or `other`.
    pub kind: &'static str,
    /// Its size in bytes (a folder's is 0; a file with a view, its view's JSON text's).
    pub size: u64,
    /// A hash of what it holds (its view, or its bytes), to tell a change without comparing.
    pub hash: u64,
    /// Its permission bits.
    pub mode: u32,
    /// The contents, for a file of at most [`KEPT`] bytes.
    pub contents: Option<Vec<u8>>,
    /// What the file holds by its format (a SQLite database's rows, an office document's
    /// parts, a JSON file's values), judged instead of its bytes where it has one.
    pub view: Option<(Format, Value)>,
}

/// The kind of an entry whose observation failed (an `--observe` command of the probe's that
/// exited with an error): nothing is said of what changed there.
pub const UNOBSERVED: &str = "unobserved";

impl Entry {
    /// The entry of a path that was not observed (a file the observer refused to read, an
    /// observation that failed), holding why: of kind [`UNOBSERVED`], about which no rule
    /// says anything.
    #[must_use]
    pub fn unobserved(why: String) -> Entry {
        let mut hasher = DefaultHasher::new();
        why.hash(&mut hasher);
        Entry {
            kind: UNOBSERVED,
            size: 0,
            hash: hasher.finish(),
            mode: 0,
            contents: Some(why.into_bytes()),
            view: None,
        }
    }

    /// Why the path was not observed, for an [`unobserved`](Self::unobserved) entry.
    #[must_use]
    pub fn why_unobserved(&self) -> Option<String> {
        (self.kind == UNOBSERVED).then(|| {
            String::from_utf8_lossy(self.contents.as_deref().unwrap_or_default()).into_owned()
        })
    }
}

/// Every path under a folder (relative, `/`-separated), in order.
pub type Tree = BTreeMap<String, Entry>;

/// The first path of `tree` that was not observed, with why (a file the observer refused to
/// read, an observation that failed): what keeps a judgement of the tree from being whole.
#[must_use]
pub fn unobserved(tree: &Tree) -> Option<(&str, String)> {
    tree.iter()
        .find_map(|(path, entry)| Some((path.as_str(), entry.why_unobserved()?)))
}

/// How long one observation of a tree may take: past it, what is left is not read and the
/// tree says it was not observed whole (under the path `.`), so that nothing is judged from
/// it. Each file's part of it is bounded already ([`HASHED`], the formats' own budgets); this
/// bounds their number.
pub const OBSERVING: Duration = Duration::from_secs(30);

/// The tree under `root` (symbolic links recorded, not followed), observed within
/// [`OBSERVING`].
pub fn observe(root: &Path) -> Tree {
    observe_within(root, OBSERVING)
}

/// The tree under `root`, observed within `time`.
fn observe_within(root: &Path, time: Duration) -> Tree {
    let mut tree = Tree::new();
    walk(root, time, &mut tree);
    // What SQLite keeps beside a database while it works (its write-ahead log, its shared
    // memory, its rollback journal) is read into the database's view, or is no state at all.
    let databases: Vec<String> = tree
        .iter()
        .filter(|(_, entry)| matches!(entry.view, Some((Format::Sqlite, _))))
        .map(|(path, _)| path.clone())
        .collect();
    for database in databases {
        for suffix in ["-wal", "-shm", "-journal"] {
            tree.remove(&format!("{database}{suffix}"));
        }
    }
    tree
}

/// The tree of what is at `path`: a folder as [`observe`] makes it; a file alone, under its
/// name (a SQLite database with what its journal or WAL holds); nothing, where nothing is
/// there.
pub fn observe_path(path: &Path) -> Tree {
    match (path.parent(), path.file_name()) {
        (Some(parent), Some(name)) if !path.is_dir() => {
            let mut tree = Tree::new();
            if let Some((relative, entry)) = entry_of(parent, &parent.join(name)) {
                tree.insert(relative, entry);
            }
            tree
        }
        _ => observe(path),
    }
}

/// The first bytes of a regular file, to tell its format.
fn head_of(path: &Path) -> Vec<u8> {
    let mut head = Vec::new();
    if let Some(file) = formats::open_regular(path) {
        let _ = file.take(16).read_to_end(&mut head);
    }
    head
}

/// What a path is, by its own metadata (a link is not followed).
fn kind_of(meta: &Metadata) -> &'static str {
    let kind = meta.file_type();
    if kind.is_symlink() {
        return "symlink";
    }
    if kind.is_dir() {
        return "dir";
    }
    if kind.is_file() {
        return "file";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "fifo";
        }
        if kind.is_socket() {
            return "socket";
        }
        if kind.is_block_device() || kind.is_char_device() {
            return "device";
        }
    }
    "other"
}

/// A regular file's contents, if it holds at most [`KEPT`] bytes; else its first [`HASHED`]
/// bytes, its size and its modification time go into `hasher`. Read in pieces, at most
/// [`HASHED`] bytes, whatever the file grows to meanwhile.
fn read_file(file: std::fs::File, meta: &Metadata, hasher: &mut DefaultHasher) -> Option<Vec<u8>> {
    let mut file = file.take(HASHED);
    let mut kept = Vec::new();
    (&mut file).take(KEPT + 1).read_to_end(&mut kept).ok()?;
    if kept.len() as u64 <= KEPT && meta.len() <= KEPT {
        return Some(kept);
    }
    kept.hash(hasher);
    let mut piece = vec![0u8; 64 << 10];
    loop {
        match file.read(&mut piece) {
            Ok(0) | Err(_) => break,
            Ok(read) => piece[..read].hash(hasher),
        }
    }
    meta.len().hash(hasher);
    if let Ok(modified) = meta.modified() {
        modified.hash(hasher);
    }
    None
}

/// Every path under `root` into `tree`, folder by folder (no recursion a sandbox's depth
/// controls), within `time`: past it, an unobserved entry at `.` says why.
fn walk(root: &Path, time: Duration, tree: &mut Tree) {
    let deadline = Instant::now() + time;
    let mut folders = vec![root.to_path_buf()];
    while let Some(dir) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            if Instant::now() > deadline {
                let why = format!(
                    "observing the folder took longer than {} ms: what is left was not read",
                    time.as_millis()
                );
                tree.insert(".".to_owned(), Entry::unobserved(why));
                return;
            }
            let path = entry.path();
            let Some((relative, entry)) = entry_of(root, &path) else {
                continue;
            };
            if entry.kind == "dir" {
                folders.push(path);
            }
            tree.insert(relative, entry);
        }
    }
}

/// The entry of `path`, under its path relative to `root`; `None` for what is no state (a
/// git lock file) or is gone.
fn entry_of(root: &Path, path: &Path) -> Option<(String, Entry)> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    let relative = path
        .strip_prefix(root)
        .map(|p| p.to_string_lossy().replace('\\', "/"))
        .unwrap_or_default();
    #[cfg(unix)]
    let mode = std::os::unix::fs::PermissionsExt::mode(&meta.permissions());
    #[cfg(not(unix))]
    let mode = u32::from(meta.permissions().readonly());
    let kind = kind_of(&meta);
    // Only what git itself makes: a lock file, never a folder (git makes none) nor what one
    // holds.
    if kind == "file" && is_git_lock(&relative) {
        return None;
    }
    let mut hasher = DefaultHasher::new();
    // A git index, by what it stages: git rewrites it on a read to refresh the stat data
    // it caches, which changes no file staged. One it cannot read is judged by its bytes.
    let staged = (kind == "file" && is_git_index(&relative))
        .then(|| formats::open_regular(path))
        .flatten()
        .and_then(|file| read_file(file, &meta, &mut DefaultHasher::new()))
        .and_then(|bytes| git_index_entries(&bytes))
        .map(String::into_bytes);
    let git_index = staged.is_some();
    let contents = match kind {
        _ if git_index => staged,
        "symlink" => {
            let target = std::fs::read_link(path).unwrap_or_default();
            Some(target.to_string_lossy().into_owned().into_bytes())
        }
        "file" => formats::open_regular(path).and_then(|file| read_file(file, &meta, &mut hasher)),
        _ => None,
    };
    let viewed = if kind == "file" && !git_index {
        let head = match &contents {
            Some(bytes) => bytes.iter().take(16).copied().collect(),
            None => head_of(path),
        };
        formats::view(path, &head, contents.as_deref())
    } else {
        Viewed::Plain
    };
    let view = match viewed {
        Viewed::View(format, view) => Some((format, view)),
        Viewed::Plain => None,
        // A file the observer refuses to read is not judged: nothing is said of what changed
        // there, and whoever judges says why.
        Viewed::Refused(why) => return Some((relative, Entry::unobserved(why))),
    };
    // A file with a view is what its view holds; a git index read by its entries is as
    // long as their text.
    let size = if kind == "dir" {
        // A folder's own size is its file system's bookkeeping, not what it holds.
        0
    } else if let Some((_, view)) = &view {
        let text = view.to_string();
        let mut hasher_of_view = DefaultHasher::new();
        text.hash(&mut hasher_of_view);
        hasher = hasher_of_view;
        text.len() as u64
    } else {
        if let Some(contents) = &contents {
            contents.hash(&mut hasher);
        }
        match &contents {
            Some(text) if git_index => text.len() as u64,
            _ => meta.len(),
        }
    };
    Some((
        relative,
        Entry {
            kind,
            size,
            hash: hasher.finish(),
            mode,
            contents,
            view,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::{observe, observe_within, unobserved};
    use std::time::Duration;

    #[test]
    fn a_nested_folder_is_walked_whole_and_a_walk_out_of_time_says_so() {
        let root = std::env::temp_dir().join(format!("observe-deep-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let mut dir = root.clone();
        std::fs::create_dir_all(&dir).unwrap();
        for _ in 0..64 {
            dir = dir.join("d");
            std::fs::create_dir(&dir).unwrap();
        }
        std::fs::write(dir.join("leaf"), "x").unwrap();
        let tree = observe(&root);
        assert_eq!(tree.len(), 65);
        assert!(tree.keys().any(|path| path.ends_with("/d/leaf")));
        assert_eq!(unobserved(&tree), None);
        let hurried = observe_within(&root, Duration::ZERO);
        let (path, why) = unobserved(&hurried).unwrap();
        assert_eq!(path, ".");
        assert!(
            why.starts_with("observing the folder took longer than 0 ms"),
            "{why}"
        );
        std::fs::remove_dir_all(&root).unwrap();
    }
}
