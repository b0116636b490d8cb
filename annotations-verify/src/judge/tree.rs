//! The rules over trees: whether a call changed anything (read-only), anything again
//! (idempotent), or lost anything (non-destructive); each file by its view where it has one,
//! outside the places the user classed volatile, an append-only place allowed to grow where
//! growth is allowed.

use std::collections::BTreeMap;

use serde_json::Value;

use super::classes::Classes;
use crate::compare::{contains, differences};
use crate::observe::formats::git::is_git_cursor;
use crate::observe::formats::{self, Format};
use crate::observe::tree::{Entry, Tree, UNOBSERVED};

/// Whether two entries are the same (kind, size, contents or view, mode), or cannot be told
/// apart: one is an `--observe` command's that failed.
fn unchanged(x: &Entry, y: &Entry) -> bool {
    unknown(x, y) || (x.kind == y.kind && x.size == y.size && x.hash == y.hash && x.mode == y.mode)
}

/// Whether either entry is an observation that failed: nothing is said of what changed there.
fn unknown(x: &Entry, y: &Entry) -> bool {
    x.kind == UNOBSERVED || y.kind == UNOBSERVED
}

/// The first change from `before` to `after` outside the volatile places of `classes`, in
/// words; with `growth_allowed`, an append-only place that only grew is no change. `None`
/// when nothing changed.
pub fn changed(
    before: &Tree,
    after: &Tree,
    classes: &Classes,
    growth_allowed: bool,
) -> Option<String> {
    for (path, old) in before {
        if classes.volatile_path(path) {
            continue;
        }
        let Some(new) = after.get(path) else {
            return Some(format!("`{path}` was removed"));
        };
        if unchanged(old, new) {
            continue;
        }
        let append_only = growth_allowed && classes.append_only_path(path);
        match (&old.view, &new.view) {
            (Some((was_format, was)), Some((is_format, is))) if was_format == is_format => {
                let was = classes.without_volatile(path, was);
                let mut is = classes.without_volatile(path, is);
                if growth_allowed {
                    is = classes.without_growth(path, &was, &is);
                }
                if was == is || (append_only && contains(&was, &is)) {
                    continue;
                }
                let mut at = Vec::new();
                differences(&was, &is, "", &mut at, 1);
                let at = at.first().map_or(String::new(), |line| format!(": {line}"));
                return Some(format!("`{path}` changed{at}"));
            }
            _ if append_only && old.kind == new.kind && grew(old, new) => {}
            _ if old.kind != new.kind => {
                return Some(format!(
                    "`{path}` changed from a {} to a {}",
                    old.kind, new.kind
                ));
            }
            _ => return Some(format!("`{path}` changed")),
        }
    }
    after
        .keys()
        .find(|path| {
            let grown = growth_allowed && classes.append_only_path(path);
            !(before.contains_key(*path) || classes.volatile_path(path) || grown)
        })
        .map(|path| format!("`{path}` was added"))
}

/// Whether a file only grew: its old bytes a prefix of its new ones, or (text) its old lines
/// all among its new ones.
fn grew(old: &Entry, new: &Entry) -> bool {
    match (&old.contents, &new.contents) {
        (Some(was), Some(is)) => {
            is.starts_with(was)
                || text(was, is).is_some_and(|(was, is)| line_lost(was, is).is_none())
        }
        _ => new.size >= old.size,
    }
}

/// The changes from `before` to `after` that are in volatile places only, one line each: what
/// the report shows and never judges.
pub fn volatile_changes(before: &Tree, after: &Tree, classes: &Classes) -> Vec<String> {
    let mut lines = Vec::new();
    for (path, new) in after {
        let old = before.get(path);
        if old.is_some_and(|old| unchanged(old, new)) {
            continue;
        }
        if classes.volatile_path(path) {
            lines.push(format!("`{path}`"));
            continue;
        }
        if let (Some((_, was)), Some((_, is))) = (old.and_then(|old| old.view.as_ref()), &new.view)
        {
            let (masked_was, masked_is) = (
                classes.without_volatile(path, was),
                classes.without_volatile(path, is),
            );
            if masked_was == masked_is && was != is {
                let mut at = Vec::new();
                differences(was, is, "", &mut at, 3);
                for line in at {
                    lines.push(format!("`{path}` {line}"));
                }
            }
        }
    }
    lines
}

/// What `after` lost of `before` outside the volatile places of `classes`, by the
/// non-destructive rule: a path gone, or a file whose contents were not kept (a view by the
/// additive rule, text by its lines as a multiset, other bytes only grown at the end). `None`
/// when nothing was lost.
///
/// ```
/// use mcp_annotations::descriptor::Hint;
/// use mcp_annotations_verify::judge::{self, classes::Classes};
/// use mcp_annotations_verify::observe::tree;
///
/// let dir = std::env::temp_dir().join(format!("judge-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// std::fs::write(dir.join("notes.json"), r#"{"1": "milk"}"#).unwrap();
/// let before = tree::observe(&dir);
///
/// // A note added: a change, and nothing lost.
/// std::fs::write(dir.join("notes.json"), r#"{"1": "milk", "2": "eggs"}"#).unwrap();
/// let after = tree::observe(&dir);
/// let classes = Classes::default();
/// assert!(judge::broken(Hint::ReadOnly, &before, &after, None, &classes).is_some());
/// assert_eq!(judge::broken(Hint::Destructive, &before, &after, None, &classes), None);
///
/// // The first note overwritten: a loss, named by where it is.
/// std::fs::write(dir.join("notes.json"), r#"{"1": "tea", "2": "eggs"}"#).unwrap();
/// let lost = judge::lost(&after, &tree::observe(&dir), &classes);
/// assert_eq!(lost.as_deref(), Some("`notes.json` (JSON): /1 was overwritten"));
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn lost(before: &Tree, after: &Tree, classes: &Classes) -> Option<String> {
    for (path, old) in before {
        if classes.volatile_path(path) {
            continue;
        }
        // Which branch or commit a git repository has checked out is where it stands, not
        // what it holds: moving it loses no commit, branch or file (those are judged
        // themselves), so it is a change, never a loss.
        if is_git_cursor(path) && after.contains_key(path) {
            continue;
        }
        let Some(new) = after.get(path) else {
            return Some(format!("`{path}` was removed"));
        };
        if unknown(old, new) {
            continue;
        }
        if old.kind != new.kind {
            return Some(format!(
                "`{path}` changed from a {} to a {}",
                old.kind, new.kind
            ));
        }
        if !matches!(old.kind, "file" | "observed") || old.hash == new.hash {
            continue;
        }
        if let (Some((was_format, was)), Some((is_format, is))) = (&old.view, &new.view)
            && was_format == is_format
        {
            let mut was = classes.without_volatile(path, was);
            let mut is = classes.without_volatile(path, is);
            if *was_format == Format::Sqlite {
                if let Some(counter) = counter_reset(&was, &is) {
                    return Some(format!("`{path}`: the counter of `{counter}` went back"));
                }
                was.as_object_mut().map(|view| view.remove("sequences"));
                is.as_object_mut().map(|view| view.remove("sequences"));
            }
            // A file that holds one whole number, which grew: a counter (the next id), like
            // SQLite's. It went forward and lost nothing; one that went back is a loss.
            if let (Some(old), Some(new)) = (was.as_i64(), is.as_i64()) {
                if new < old {
                    return Some(format!("`{path}`: the counter it holds went back"));
                }
                continue;
            }
            if let Some(what) = crate::compare::lost_at(&was, &is, "") {
                return Some(format!("`{path}` ({}): {what}", was_format.word()));
            }
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
        // Grown at its end, whatever it holds (a last line without its newline extended).
        if is.starts_with(was) {
            continue;
        }
        // A database or a container whose view could not be read: its bytes say nothing of
        // what it holds, so no loss is claimed.
        if [formats::sqlite::MAGIC, formats::zip::MAGIC]
            .iter()
            .any(|magic| was.starts_with(magic) || is.starts_with(magic))
        {
            continue;
        }
        let Some((was, is)) = text(was, is) else {
            return Some(format!("`{path}` was overwritten, not grown at its end"));
        };
        if let Some(line) = line_lost(was, is) {
            return Some(format!("`{path}` lost the line {line:?}"));
        }
    }
    None
}

/// A counter of SQLite's `AUTOINCREMENT` that went back or was removed: the next row would
/// reuse an id. A counter that grew lost nothing.
fn counter_reset(was: &Value, is: &Value) -> Option<String> {
    let was = was.get("sequences")?.as_object()?;
    let is = is.get("sequences").and_then(Value::as_object);
    was.iter()
        .find(|(name, old)| {
            let new = is.and_then(|is| is.get(*name)).and_then(Value::as_i64);
            new.is_none_or(|new| old.as_i64().is_some_and(|old| new < old))
        })
        .map(|(name, _)| name.clone())
}

/// Both contents as text, where both are.
fn text<'a>(was: &'a [u8], is: &'a [u8]) -> Option<(&'a str, &'a str)> {
    Some((
        std::str::from_utf8(was).ok()?,
        std::str::from_utf8(is).ok()?,
    ))
}

/// The first line of `was` that `is` no longer has (lines as a multiset), cut to 60
/// characters; `None` when every line is kept.
fn line_lost(was: &str, is: &str) -> Option<String> {
    let mut lines: BTreeMap<&str, i64> = BTreeMap::new();
    for line in is.lines() {
        *lines.entry(line).or_default() += 1;
    }
    for line in was.lines() {
        let count = lines.entry(line).or_default();
        *count -= 1;
        if *count < 0 {
            return Some(line.chars().take(60).collect());
        }
    }
    None
}

/// The differences between two trees, one line each, at most `limit`: a file with a view by
/// the pointers at which it changed.
pub fn diff(before: &Tree, after: &Tree, limit: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for (path, old) in before {
        match after.get(path) {
            None => lines.push(format!("- {path} ({})", old.kind)),
            Some(new) if !unchanged(old, new) => match (&old.view, &new.view) {
                (Some((_, was)), Some((_, is))) => {
                    let mut at = Vec::new();
                    differences(was, is, "", &mut at, limit);
                    for difference in at {
                        lines.push(format!("{} {path}#{}", difference.sign, difference.place()));
                    }
                }
                _ => lines.push(format!("~ {path} ({} -> {} bytes)", old.size, new.size)),
            },
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

/// What a call did, counted by kind of change: for each file, each container in it (a table's
/// rows, an object's keys, an array) and each sign (`+` added, `-` removed, `~` changed, `>`
/// grown by an item), how many of its places changed so, outside volatile places and beside
/// the growth of append-only ones. Keys name no row or item (their ids vary between runs), so
/// two runs of the same calls compare: two concurrent calls that added two rows where one call
/// adds one show one more `+` under that table.
pub fn effect(before: &Tree, after: &Tree, classes: &Classes) -> Effect {
    let mut counts = Effect::new();
    let mut count = |sign: char, place: String, by: usize| {
        *counts.entry((sign, place)).or_default() += by;
    };
    for (path, old) in before {
        if classes.volatile_path(path) {
            continue;
        }
        match after.get(path) {
            None => count('-', path.clone(), 1),
            Some(new) if !unchanged(old, new) => match (&old.view, &new.view) {
                (Some((was_format, was)), Some((is_format, is))) if was_format == is_format => {
                    let was = classes.without_volatile(path, was);
                    let is = classes.without_volatile(path, is);
                    let is = classes.without_growth(path, &was, &is);
                    // A whole append-only file that only grew: growth, which is allowed.
                    if classes.append_only_path(path) && contains(&was, &is) {
                        continue;
                    }
                    let mut at = Vec::new();
                    differences(&was, &is, "", &mut at, 10_000);
                    for difference in at {
                        match difference.lengths {
                            Some((was, is)) if is > was => {
                                count('>', format!("{path}#{}", difference.pointer), is - was);
                            }
                            _ => {
                                let parent = difference
                                    .pointer
                                    .rsplit_once('/')
                                    .map_or("", |(parent, _)| parent);
                                count(difference.sign, format!("{path}#{parent}"), 1);
                            }
                        }
                    }
                }
                _ if classes.append_only_path(path) && old.kind == new.kind && grew(old, new) => {}
                _ => count('~', path.clone(), 1),
            },
            Some(_) => {}
        }
    }
    for path in after.keys() {
        let grown = classes.append_only_path(path);
        if !before.contains_key(path) && !classes.volatile_path(path) && !grown {
            let parent = path.rsplit_once('/').map_or("", |(parent, _)| parent);
            count('+', format!("{parent}/"), 1);
        }
    }
    counts
}

/// What [`effect`] counts: how many places changed, by sign and by the place they are under.
pub type Effect = BTreeMap<(char, String), usize>;

/// Where `twice` (the effect of two calls at once) did more than `once` (of one call): the
/// first kind of change it made more often, in words.
pub fn more_than(once: &Effect, twice: &Effect) -> Option<String> {
    twice.iter().find_map(|(kind @ (sign, place), &count)| {
        let single = once.get(kind).copied().unwrap_or(0);
        let what = match sign {
            '+' => "added under",
            '-' => "removed under",
            '>' => "items added to",
            _ => "changed under",
        };
        (count > single).then(|| format!("{count} {what} `{place}`, where one call makes {single}"))
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::observe::tree::*;

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
