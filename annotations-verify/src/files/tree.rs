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

use serde_json::Value;

use super::formats::git::{git_index_entries, is_git_index, is_git_lock};
use super::formats::{self, Format};

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

/// Every path under a folder (relative, `/`-separated), in order.
pub type Tree = BTreeMap<String, Entry>;

/// The tree under `root` (symbolic links recorded, not followed).
pub fn observe(root: &Path) -> Tree {
    let mut tree = Tree::new();
    walk(root, root, &mut tree);
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
    if let Some(file) = open_regular(path) {
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

/// `path` opened for reading if it is a regular file when opened: a link is not followed and
/// a FIFO does not wait for a writer (the path may have been replaced since it was looked at),
/// and what was opened is checked again by its descriptor.
fn open_regular(path: &Path) -> Option<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let file = options.open(path).ok()?;
    file.metadata().ok()?.is_file().then_some(file)
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

fn walk(root: &Path, dir: &Path, tree: &mut Tree) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Some((relative, entry)) = entry_of(root, &path) else {
            continue;
        };
        let dir = entry.kind == "dir";
        tree.insert(relative, entry);
        if dir {
            walk(root, &path, tree);
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
    if is_git_lock(&relative) {
        return None;
    }
    let mut hasher = DefaultHasher::new();
    // A git index, by what it stages: git rewrites it on a read to refresh the stat data
    // it caches, which changes no file staged. One it cannot read is judged by its bytes.
    let staged = (kind == "file" && is_git_index(&relative))
        .then(|| open_regular(path))
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
        "file" => open_regular(path).and_then(|file| read_file(file, &meta, &mut hasher)),
        _ => None,
    };
    let view = (kind == "file" && !git_index)
        .then(|| {
            let head = match &contents {
                Some(bytes) => bytes.iter().take(16).copied().collect(),
                None => head_of(path),
            };
            formats::view(path, &head, contents.as_deref())
        })
        .flatten();
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
    use super::*;
    use crate::files::classes::Classes;
    use crate::files::judge::{changed, diff, lost};

    fn same(before: &Tree, after: &Tree) -> bool {
        changed(before, after, &Classes::default(), false).is_none()
    }
    use std::sync::mpsc;
    use std::time::Duration;

    /// The tree of `root`, or a failure if the walk does not end within ten seconds.
    fn observe_in_time(root: &Path) -> Tree {
        let (send, receive) = mpsc::channel();
        let root = root.to_path_buf();
        std::thread::spawn(move || send.send(observe(&root)));
        receive
            .recv_timeout(Duration::from_secs(10))
            .expect("the walk ended in time")
    }

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("audit-tree-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// A line extended at the end of a file without a final newline: grown, not lost; a
    /// branch a commit moved forward: moved, not lost; a branch deleted: lost.
    #[test]
    fn growth_at_the_end_and_a_moved_branch_lose_nothing() {
        let dir = scratch("grown");
        std::fs::create_dir_all(dir.join(".git/refs/heads")).unwrap();
        std::fs::write(dir.join("log.txt"), "a\nb").unwrap();
        std::fs::write(dir.join(".git/refs/heads/main"), "1111\n").unwrap();
        let before = observe(&dir);
        std::fs::write(dir.join("log.txt"), "a\nbc\n").unwrap();
        std::fs::write(dir.join(".git/refs/heads/main"), "2222\n").unwrap();
        let after = observe(&dir);
        assert_eq!(lost(&before, &after, &Classes::default()), None);
        std::fs::remove_file(dir.join(".git/refs/heads/main")).unwrap();
        assert!(lost(&before, &observe(&dir), &Classes::default()).is_some());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A file holding one number that grew is a counter: no loss; one that went back is.
    #[test]
    fn a_counter_file_that_grew_lost_nothing() {
        let dir = scratch("counter");
        std::fs::write(dir.join("next.lock"), "7").unwrap();
        let before = observe(&dir);
        std::fs::write(dir.join("next.lock"), "8").unwrap();
        let after = observe(&dir);
        assert!(!same(&before, &after));
        assert_eq!(lost(&before, &after, &Classes::default()), None);
        assert!(lost(&after, &before, &Classes::default()).is_some());
        // A number inside a document is a value, overwritten.
        std::fs::write(dir.join("next.lock"), r#"{"balance": 7}"#).unwrap();
        let before = observe(&dir);
        std::fs::write(dir.join("next.lock"), r#"{"balance": 8}"#).unwrap();
        assert!(lost(&before, &observe(&dir), &Classes::default()).is_some());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn fifos_sockets_and_links_out_are_recorded_never_opened() {
        let dir = scratch("special");
        let made = std::process::Command::new("mkfifo")
            .arg(dir.join("pipe"))
            .status()
            .unwrap();
        assert!(made.success());
        let _socket = std::os::unix::net::UnixListener::bind(dir.join("socket")).unwrap();
        std::os::unix::fs::symlink("/etc/passwd", dir.join("out")).unwrap();
        std::os::unix::fs::symlink("/", dir.join("root")).unwrap();
        let tree = observe_in_time(&dir);
        assert_eq!(tree["pipe"].kind, "fifo");
        assert_eq!(tree["socket"].kind, "socket");
        assert_eq!(tree["out"].kind, "symlink");
        assert_eq!(tree["out"].contents.as_deref(), Some(&b"/etc/passwd"[..]));
        // The link to `/` is not walked into.
        assert_eq!(tree.len(), 4, "{:?}", tree.keys());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A path swapped between a regular file, a FIFO and a link to `/dev/zero` while the tree
    /// is walked: each walk ends (what was looked at as a file is opened without following a
    /// link or waiting for a writer, and checked again).
    #[cfg(unix)]
    #[test]
    fn a_path_swapped_during_the_walk_never_hangs_it() {
        use std::sync::Arc;
        use std::sync::atomic::{AtomicBool, Ordering};
        let dir = scratch("swap");
        let made = std::process::Command::new("mkfifo")
            .arg(dir.join("fifo"))
            .status()
            .unwrap();
        assert!(made.success());
        std::fs::write(dir.join("regular"), b"text").unwrap();
        std::os::unix::fs::symlink("/dev/zero", dir.join("zero")).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let swapper = {
            let (dir, stop) = (dir.clone(), Arc::clone(&stop));
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    for source in ["fifo", "regular", "zero"] {
                        let _ = std::fs::remove_file(dir.join("t"));
                        if std::fs::hard_link(dir.join(source), dir.join("t")).is_ok() {
                            let _ = std::fs::rename(dir.join("t"), dir.join("x"));
                        }
                    }
                }
            })
        };
        for _ in 0..300 {
            let tree = observe_in_time(&dir);
            assert!(tree.contains_key("regular"));
        }
        stop.store(true, Ordering::Relaxed);
        swapper.join().unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A git index is judged by what it stages: `git status` refreshing its stat cache after
    /// the files were touched changes nothing, staging a file does, and unstaging one loses it.
    #[test]
    fn a_git_index_is_read_by_what_it_stages() {
        let dir = scratch("git");
        let git = |args: &[&str]| {
            let done = std::process::Command::new("git")
                .args(["-c", "user.name=t", "-c", "user.email=t@t", "-C"])
                .arg(&dir)
                .args(args)
                .output()
                .unwrap();
            assert!(done.status.success(), "{args:?}: {done:?}");
        };
        git(&["init", "-q"]);
        std::fs::write(dir.join("a.txt"), "a").unwrap();
        std::fs::write(dir.join("b.txt"), "b").unwrap();
        git(&["add", "a.txt"]);
        let before = observe_in_time(&dir);
        let staged = String::from_utf8(before[".git/index"].contents.clone().unwrap()).unwrap();
        assert!(
            staged.starts_with("100644 ") && staged.ends_with(" a.txt\n"),
            "{staged}"
        );
        // Touched, then read: git rewrites the index with new stat data.
        std::thread::sleep(Duration::from_millis(1100));
        std::fs::write(dir.join("a.txt"), "a").unwrap();
        let raw_before = std::fs::read(dir.join(".git/index")).unwrap();
        git(&["status", "--porcelain"]);
        let raw_after = std::fs::read(dir.join(".git/index")).unwrap();
        let after = observe_in_time(&dir);
        assert_ne!(raw_before, raw_after, "git rewrote its index");
        assert!(same(&before, &after), "{:?}", diff(&before, &after, 12));
        git(&["add", "b.txt"]);
        let grown = observe_in_time(&dir);
        assert!(!same(&after, &grown));
        assert_eq!(lost(&after, &grown, &Classes::default()), None);
        git(&["rm", "-q", "--cached", "a.txt"]);
        let unstaged = observe_in_time(&dir);
        assert!(lost(&grown, &unstaged, &Classes::default()).is_some());
        // Moving HEAD to another branch of the same commit changes where the repository
        // stands and loses nothing.
        git(&["add", "a.txt"]);
        git(&["commit", "-qm", "first"]);
        git(&["branch", "other"]);
        let on_main = observe_in_time(&dir);
        git(&["checkout", "-q", "other"]);
        let on_other = observe_in_time(&dir);
        assert!(!same(&on_main, &on_other));
        assert_eq!(
            lost(&on_main, &on_other, &Classes::default()),
            None,
            "{:?}",
            diff(&on_main, &on_other, 12)
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The peak resident memory of this process, in KiB (Linux).
    #[cfg(target_os = "linux")]
    fn peak_kib() -> u64 {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let line = status
            .lines()
            .find(|line| line.starts_with("VmHWM:"))
            .unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_huge_file_is_hashed_in_bounded_memory_and_a_change_past_the_hashed_part_is_seen() {
        let dir = scratch("huge");
        let path = dir.join("sparse.bin");
        let file = std::fs::File::create(&path).unwrap();
        file.set_len(1 << 30).unwrap();
        drop(file);
        let before_peak = peak_kib();
        let before = observe_in_time(&dir);
        let grown = peak_kib().saturating_sub(before_peak);
        assert!(
            grown < 32 << 10,
            "the walk grew the peak memory by {grown} KiB"
        );
        assert_eq!(before["sparse.bin"].size, 1 << 30);
        assert!(before["sparse.bin"].contents.is_none());
        // A byte written near the end, past the hashed part, at the same size.
        std::thread::sleep(Duration::from_millis(20));
        {
            use std::io::{Seek, SeekFrom, Write};
            let mut file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
            file.seek(SeekFrom::Start((1 << 30) - 10)).unwrap();
            file.write_all(b"x").unwrap();
        }
        let after = observe_in_time(&dir);
        assert!(!same(&before, &after), "the change was seen");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
