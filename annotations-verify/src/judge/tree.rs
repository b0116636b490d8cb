//! The rules over trees: whether a call changed anything (read-only), anything again
//! (idempotent), or lost anything (non-destructive); each file by its view where it has one,
//! outside the places the user classed volatile, an append-only place allowed to grow where
//! growth is allowed.

use std::collections::BTreeMap;

use serde_json::Value;

use super::classes::Classes;
use crate::compare::{contains, differences};
use crate::observe::formats::git::{is_git_cursor, is_git_index};
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

/// Where [`lost`] cannot tell whether a call lost anything, nor [`changed`] whether a file in
/// an append-only place only grew: a file that changed without shrinking and is too large to
/// read (past [`KEPT`](crate::observe::tree::KEPT) bytes, judged by its size and a hash), or
/// a database or container that changed and has no view to compare. `None` when every
/// change outside the volatile places was read, or [`lost`] found a loss; a claim of non-destruction (or idempotence,
/// where growth is allowed) is then judged, and otherwise never verified by this call.
///
/// ```
/// # #[cfg(feature = "files")] {
/// use mcp_annotations_verify::judge::{self, classes::Classes};
/// use mcp_annotations_verify::observe::tree::{self, KEPT};
///
/// let dir = std::env::temp_dir().join(format!("untold-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let big = vec![b'a'; KEPT as usize + 1];
/// std::fs::write(dir.join("big.log"), &big).unwrap();
/// let before = tree::observe_path(&dir);
/// // The same size, other bytes: nothing shrank, and what was lost cannot be read.
/// std::fs::write(dir.join("big.log"), vec![b'b'; big.len()]).unwrap();
/// let after = tree::observe_path(&dir);
/// let classes = Classes::default();
/// assert_eq!(judge::lost(&before, &after, &classes), None);
/// assert!(judge::untold(&before, &after, &classes).unwrap().contains("too large to read"));
/// # std::fs::remove_dir_all(&dir).unwrap();
/// # }
/// ```
pub fn untold(before: &Tree, after: &Tree, classes: &Classes) -> Option<String> {
    losses(before, after, classes).ok().flatten()
}

/// Whether a file only grew: its old bytes a prefix of its new ones, or (text) its old lines
/// all among its new ones.
fn grew(old: &Entry, new: &Entry) -> bool {
    match (&old.contents, &new.contents) {
        (Some(was), Some(is)) => {
            is.starts_with(was)
                || text(was, is).is_some_and(|(was, is)| super::lines::kept(was, is))
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
    losses(before, after, classes).err()
}

/// [`lost`] and [`untold`] in one walk: `Err` with the first loss, else `Ok` with the first
/// change whose loss cannot be told, if any.
fn losses(before: &Tree, after: &Tree, classes: &Classes) -> Result<Option<String>, String> {
    let mut untold = None;
    // What a repository's own files lost before what git keeps of them (`.git/index`, its
    // objects): the loss a reader recognises, where both show it.
    let inside_git = |path: &str| path.starts_with(".git/") || path.contains("/.git/");
    // A file added where it is judged (not a volatile place, not git's own objects): what a
    // text that counts the files (a progress line, a total) counts again.
    let added = after.iter().any(|(path, entry)| {
        entry.kind == "file"
            && !before.contains_key(path)
            && !inside_git(path)
            && !classes.volatile_path(path)
    });
    let outside = before.iter().filter(|(path, _)| !inside_git(path));
    let within = before.iter().filter(|(path, _)| inside_git(path));
    for (path, old) in outside.chain(within) {
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
            return Err(format!("`{path}` was removed"));
        };
        if unknown(old, new) {
            continue;
        }
        if old.kind != new.kind {
            return Err(format!(
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
                    return Err(format!("`{path}`: the counter of `{counter}` went back"));
                }
                was.as_object_mut().map(|view| view.remove("sequences"));
                is.as_object_mut().map(|view| view.remove("sequences"));
            }
            // A file that holds one whole number, which grew: a counter (the next id), like
            // SQLite's. It went forward and lost nothing; one that went back is a loss.
            if let (Some(old), Some(new)) = (was.as_i64(), is.as_i64()) {
                if new < old {
                    return Err(format!("`{path}`: the counter it holds went back"));
                }
                continue;
            }
            if let Some(what) = crate::compare::lost_at(&was, &is, "") {
                return Err(format!("`{path}` ({}): {what}", was_format.word()));
            }
            continue;
        }
        let (Some(was), Some(is)) = (&old.contents, &new.contents) else {
            if new.size < old.size {
                return Err(format!(
                    "`{path}` shrank from {} to {} bytes",
                    old.size, new.size
                ));
            }
            untold.get_or_insert_with(|| {
                format!(
                    "`{path}` changed and is too large to read ({} bytes): what changed in it \
                     cannot be told",
                    old.size.max(new.size)
                )
            });
            continue;
        };
        // Grown at its end, whatever it holds (a last line without its newline extended).
        if is.starts_with(was) {
            continue;
        }
        // A database or a container whose view could not be read: its bytes say nothing of
        // what it holds, so no loss is claimed, nor is none.
        if [formats::sqlite::MAGIC, formats::zip::MAGIC]
            .iter()
            .any(|magic| was.starts_with(magic) || is.starts_with(magic))
        {
            untold.get_or_insert_with(|| {
                format!(
                    "`{path}` changed, and what it holds could not be read: what changed in \
                     it cannot be told"
                )
            });
            continue;
        }
        let Some((was, is)) = text(was, is) else {
            return Err(format!("`{path}` was overwritten, not grown at its end"));
        };
        // A git index by the paths it stages: an entry staged again (a file the server
        // regenerated and staged) keeps the path, and the old contents stay in the objects.
        if is_git_index(path) {
            if let Some(entry) = super::lines::index_path_lost(was, is) {
                return Err(format!("`{path}` no longer stages {entry:?}"));
            }
            continue;
        }
        if let Some(line) = super::lines::line_lost(was, is, added) {
            return Err(format!("`{path}` lost the line {line:?}"));
        }
    }
    Ok(untold)
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
