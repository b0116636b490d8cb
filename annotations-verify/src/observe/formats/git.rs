//! A git repository as the probe sees it: its index by what it stages (mode, object id and path
//! of each entry), not the stat data git caches beside them and refreshes on a read; where the
//! repository stands (`HEAD` and the heads git keeps beside it), which moves without a loss;
//! and the lock files git holds while it writes, which are no state at all.

/// Whether `relative` is a lock file git holds while it writes (`index.lock`, `HEAD.lock`, a
/// ref's `.lock`): a child git still finishing, never what the repository holds.
pub fn is_git_lock(relative: &str) -> bool {
    let inside = relative
        .strip_prefix(".git/")
        .or_else(|| relative.split_once("/.git/").map(|(_, inside)| inside));
    // A lock beside what it locks (`index.lock`, `refs/heads/main.lock`): never one inside a
    // folder whose name ends `.lock`, which git does not make.
    inside.is_some_and(|inside| {
        let mut parts = inside.rsplit('/');
        parts.next().is_some_and(|name| name.ends_with(".lock"))
            && parts.all(|folder| !folder.ends_with(".lock"))
    })
}

/// Whether `relative` is where a git repository says where it stands: its `HEAD` and the
/// heads git keeps beside it while it works (`ORIG_HEAD`, `FETCH_HEAD`, `MERGE_HEAD`).
pub fn is_git_cursor(relative: &str) -> bool {
    let inside = relative
        .strip_prefix(".git/")
        .or_else(|| relative.split_once("/.git/").map(|(_, inside)| inside));
    // A branch or tag moved (a commit moves its branch forward) keeps every commit it named
    // (commits are objects, judged themselves); one removed is a loss, as any path removed.
    inside.is_some_and(|inside| {
        [
            "HEAD",
            "ORIG_HEAD",
            "FETCH_HEAD",
            "MERGE_HEAD",
            "COMMIT_EDITMSG",
        ]
        .contains(&inside)
            || inside.starts_with("refs/")
    })
}

/// Whether `relative` is a git repository's index (`.git/index`, at any depth).
pub fn is_git_index(relative: &str) -> bool {
    relative == ".git/index" || relative.ends_with("/.git/index")
}

/// The entries a git index (versions 2 and 3) stages, one line each: mode, object id and path,
/// in the index's order, without the stat data git caches beside them or the extensions after
/// them. `None` for anything else (another version, a file cut short), which is then judged by
/// its bytes.
pub fn git_index_entries(bytes: &[u8]) -> Option<String> {
    let word = |at: usize| -> Option<u32> {
        Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
    };
    if bytes.get(..4)? != b"DIRC" || !matches!(word(4)?, 2 | 3) {
        return None;
    }
    let version = word(4)?;
    let count = word(8)?;
    let mut at = 12;
    let mut out = String::new();
    for _ in 0..count {
        let start = at;
        let mode = word(at + 24)?;
        let id = bytes.get(at + 40..at + 60)?;
        let flags = u16::from_be_bytes(bytes.get(at + 60..at + 62)?.try_into().ok()?);
        at += 62;
        // Version 3's extended flags, when the entry says it has them.
        if version == 3 && flags & 0x4000 != 0 {
            at += 2;
        }
        let end = at + bytes.get(at..)?.iter().position(|&b| b == 0)?;
        let path = String::from_utf8_lossy(&bytes[at..end]);
        // The entry is padded with NULs to a multiple of eight bytes.
        at = start + (end - start + 8) / 8 * 8;
        let id: String = id.iter().map(|b| format!("{b:02x}")).collect();
        out.push_str(&format!("{mode:o} {id} {path}\n"));
    }
    Some(out)
}
