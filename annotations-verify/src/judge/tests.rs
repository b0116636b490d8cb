//! The rules over trees on folders made for them: growth, moved branches, links, FIFOs,
//! large and sparse files, and files a hostile server makes.

use std::path::Path;

use super::classes::Classes;
use super::{changed, diff, lost};
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

/// A zip container holding `members`, deflated.
fn zipped(members: &[(&str, &[u8])]) -> Vec<u8> {
    use std::io::Write;
    let mut out = std::io::Cursor::new(Vec::new());
    let mut writer = ::zip::ZipWriter::new(&mut out);
    for (name, bytes) in members {
        writer
            .start_file(*name, ::zip::write::SimpleFileOptions::default())
            .unwrap();
        writer.write_all(bytes).unwrap();
    }
    writer.finish().unwrap();
    out.into_inner()
}

/// Files a hostile server can make cost the observer little: a document nested fifty
/// thousand deep is refused by its depth, counted before it is parsed (the XML reader would
/// overflow the stack), a kilobytes-small one of
/// a million empty elements is refused by its node count, a sparse file of 256 MiB that
/// starts like SQLite is refused by its size before anything is copied, and a write-ahead
/// log that is a link is never followed. A refused file is not judged: no change, no loss
/// is said of it, and the tree says why.
#[test]
fn files_a_hostile_server_makes_are_bounded_or_refused() {
    let dir = scratch("hostile");
    let deep = format!("{}{}", "<a>".repeat(50_000), "</a>".repeat(50_000));
    std::fs::write(
        dir.join("deep.docx"),
        zipped(&[("word/document.xml", deep.as_bytes())]),
    )
    .unwrap();
    let flat = format!("<r>{}</r>", "<c/>".repeat(1_000_000));
    let flat = zipped(&[("xl/worksheets/sheet1.xml", flat.as_bytes())]);
    assert!(flat.len() < 64 << 10, "a small file: {} bytes", flat.len());
    std::fs::write(dir.join("flat.xlsx"), flat).unwrap();
    let sparse = std::fs::File::create(dir.join("sparse.db")).unwrap();
    {
        use std::io::Write;
        (&sparse)
            .write_all(crate::observe::formats::sqlite::MAGIC)
            .unwrap();
    }
    sparse.set_len(256 << 20).unwrap();
    let outside = scratch("hostile-outside");
    std::fs::write(outside.join("secret"), "not the server's").unwrap();
    {
        let connection = rusqlite::Connection::open(dir.join("linked.db")).unwrap();
        connection
            .execute_batch("CREATE TABLE t (id INTEGER PRIMARY KEY); INSERT INTO t VALUES (1);")
            .unwrap();
    }
    std::os::unix::fs::symlink(outside.join("secret"), dir.join("linked.db-wal")).unwrap();

    let before = observe_in_time(&dir);
    let deep = before["deep.docx"].why_unobserved().expect("refused");
    assert!(deep.contains("nests deeper"), "{deep}");
    let flat = before["flat.xlsx"].why_unobserved().expect("refused");
    assert!(flat.contains("nodes"), "{flat}");
    let sparse = before["sparse.db"].why_unobserved().expect("refused");
    assert!(sparse.contains("MiB"), "{sparse}");
    let linked = before["linked.db"].why_unobserved().expect("refused");
    assert!(linked.contains("not a regular file"), "{linked}");
    let (path, _) = unobserved(&before).expect("said");
    assert!(["deep.docx", "flat.xlsx", "linked.db", "sparse.db"].contains(&path));

    // A refused file rewritten: nothing said of it, by either rule.
    std::fs::write(dir.join("flat.xlsx"), b"PK\x03\x04 rewritten").unwrap();
    let after = observe_in_time(&dir);
    let classes = Classes::default();
    assert_eq!(lost(&before, &after, &classes), None);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&outside);
}

/// What git itself makes while it writes (`index.lock`) is no state; a folder named like a
/// lock, which git never makes, and what it holds are state like any other: a write there is
/// a change.
#[test]
fn only_gits_own_lock_files_are_left_out() {
    let dir = scratch("locks");
    std::fs::create_dir_all(dir.join(".git/anything.lock")).unwrap();
    std::fs::write(dir.join(".git/anything.lock/state"), "1").unwrap();
    std::fs::write(dir.join(".git/index.lock"), "git at work").unwrap();
    let before = observe_in_time(&dir);
    assert!(
        before.contains_key(".git/anything.lock/state"),
        "{before:?}"
    );
    assert!(!before.contains_key(".git/index.lock"));
    std::fs::write(dir.join(".git/anything.lock/state"), "2").unwrap();
    std::fs::write(dir.join(".git/index.lock"), "git still at work").unwrap();
    let after = observe_in_time(&dir);
    let changed = changed(&before, &after, &Classes::default(), false);
    assert!(
        changed
            .as_deref()
            .is_some_and(|what| what.contains("anything.lock/state")),
        "{changed:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
