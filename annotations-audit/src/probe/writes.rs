//! What a server tried to write outside the places it may, read from the record of its system
//! calls (see [`super::record`]): a file opened to write or made, a folder made or removed, a
//! name removed, renamed or linked, a file truncated, refused by the kernel (a read-only
//! mount, Landlock, or permissions). A confined tool that catches the refusal and answers as
//! if nothing happened is still seen trying, whatever it answers.

use std::path::{Component, Path, PathBuf};

use crate::report::{CallNote, Note};

/// The system calls that write a name or a file's contents, as strace names them.
pub(super) const CALLS: &[&str] = &[
    "open",
    "openat",
    "openat2",
    "creat",
    "mkdir",
    "mkdirat",
    "unlink",
    "unlinkat",
    "rmdir",
    "rename",
    "renameat",
    "renameat2",
    "link",
    "linkat",
    "symlink",
    "symlinkat",
    "truncate",
];

/// The errors of a refused write: a read-only file system, and a permission refused (by
/// Landlock, or the file's owner).
const REFUSALS: &[&str] = &["EROFS", "EACCES", "EPERM"];

/// The flags that make an `open` a write.
const WRITING: &[&str] = &["O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND"];

/// The most refused writes kept for one call.
const MOST: usize = 8;

/// A write the kernel refused, read from one recorded call.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Refused {
    /// The call (`openat`, `mkdir`, ...).
    call: String,
    /// The paths it would have written, as the call gave them.
    paths: Vec<String>,
    /// The error, as strace says it: `EROFS (Read-only file system)`.
    error: String,
}

/// The write `call` (as strace wrote it) was refused, where it is one.
pub(super) fn refused(call: &str) -> Option<Refused> {
    let (name, rest) = call.split_once('(')?;
    if !CALLS.contains(&name) {
        return None;
    }
    let (arguments, result) = rest.rsplit_once(") = ")?;
    let error = result.trim().strip_prefix("-1 ")?;
    if !REFUSALS.contains(&error.split(' ').next()?) {
        return None;
    }
    if name.starts_with("open") && !WRITING.iter().any(|flag| arguments.contains(flag)) {
        return None;
    }
    let quoted = quoted(arguments);
    let paths = match name {
        // The new name alone is written; the target is only named.
        "link" | "linkat" | "symlink" | "symlinkat" => quoted.last().cloned().into_iter().collect(),
        // Both names: one goes, the other comes.
        "rename" | "renameat" | "renameat2" => quoted,
        _ => quoted.into_iter().take(1).collect(),
    };
    (!paths.is_empty()).then(|| Refused {
        call: name.to_owned(),
        paths,
        error: error.to_owned(),
    })
}

/// The strings strace quoted in `arguments`, unescaped (`\"`, `\\`, `\n`, octal `\303`,
/// `\x41`); non-UTF-8 bytes as U+FFFD.
fn quoted(arguments: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut bytes = arguments.bytes().peekable();
    while let Some(byte) = bytes.next() {
        if byte != b'"' {
            continue;
        }
        let mut text = Vec::new();
        while let Some(byte) = bytes.next() {
            match byte {
                b'"' => break,
                b'\\' => match bytes.next() {
                    Some(b'n') => text.push(b'\n'),
                    Some(b't') => text.push(b'\t'),
                    Some(b'r') => text.push(b'\r'),
                    Some(b'v') => text.push(0x0b),
                    Some(b'f') => text.push(0x0c),
                    Some(b'x') => {
                        let mut value = 0_u8;
                        for _ in 0..2 {
                            match bytes.peek().and_then(|b| (*b as char).to_digit(16)) {
                                Some(digit) => {
                                    value = value.wrapping_mul(16).wrapping_add(digit as u8);
                                    bytes.next();
                                }
                                None => break,
                            }
                        }
                        text.push(value);
                    }
                    Some(digit @ b'0'..=b'7') => {
                        let mut value = digit - b'0';
                        for _ in 0..2 {
                            match bytes.peek() {
                                Some(next @ b'0'..=b'7') => {
                                    value = value.wrapping_mul(8).wrapping_add(next - b'0');
                                    bytes.next();
                                }
                                _ => break,
                            }
                        }
                        text.push(value);
                    }
                    Some(other) => text.push(other),
                    None => break,
                },
                other => text.push(other),
            }
        }
        found.push(String::from_utf8_lossy(&text).into_owned());
    }
    found
}

/// `path` with its `.` and `..` read as the kernel reads them (links aside).
fn lexical(path: &Path) -> PathBuf {
    let mut clean = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                clean.pop();
            }
            Component::CurDir => {}
            other => clean.push(other),
        }
    }
    clean
}

/// The refused writes among `calls` (a call's record) outside `sandbox` and the `writable`
/// places, each in words (`openat /etc/hosts: EROFS (Read-only file system)`), at most
/// [`MOST`]. Left out, as nothing a tool did: a path relative to a folder the record does not
/// name (the server's working folder is the sandbox), the devices, `/proc` and `/sys`, an
/// interpreter's byte-code cache (`__pycache__`), and the probe's own check of its confinement.
pub(super) fn outside(calls: &[String], sandbox: &Path, writable: &[PathBuf]) -> Vec<String> {
    let canonical = std::fs::canonicalize(sandbox).ok();
    let allowed: Vec<&Path> = [Some(sandbox), canonical.as_deref()]
        .into_iter()
        .flatten()
        .chain(writable.iter().map(PathBuf::as_path))
        .chain(["/dev", "/proc", "/sys"].map(Path::new))
        .collect();
    let mut found = Vec::new();
    for refused in calls.iter().filter_map(|call| refused(call)) {
        for path in &refused.paths {
            if !path.starts_with('/') {
                continue;
            }
            let clean = lexical(Path::new(path));
            let ours = clean.file_name().is_some_and(|name| {
                name.to_string_lossy()
                    .starts_with(".annotations-audit-confined-")
            });
            let cache = clean
                .components()
                .any(|part| part.as_os_str() == "__pycache__");
            if ours || cache || allowed.iter().any(|place| clean.starts_with(place)) {
                continue;
            }
            let said = format!("{} {}: {}", refused.call, clean.display(), refused.error);
            if !found.contains(&said) && found.len() < MOST {
                found.push(said);
            }
        }
    }
    found
}

/// What is said of the writes refused `outside` while `tool` was called with `arguments`: a
/// finding on the server the `first` time for the tool, and a note on the call, which
/// verifies nothing (what the writes would have changed is not known).
pub(super) fn said(
    outside: &[String],
    tool: &str,
    arguments: &serde_json::Value,
    first: bool,
) -> (Option<String>, Note) {
    let outside = outside.join("; ");
    let finding = first.then(|| {
        format!(
            "`{tool}` tried to write outside the sandbox, where it may not (the kernel refused \
             it): {outside}, while called with {arguments}"
        )
    });
    let note = Note::Call(CallNote::problem(
        arguments,
        format!(
            "tried to write outside the sandbox, refused: {outside}; what it would have \
             changed is not known, so the call verified nothing"
        ),
    ));
    (finding, note)
}

#[cfg(test)]
mod tests {
    use super::{Refused, outside, quoted, refused};
    use std::path::{Path, PathBuf};

    #[test]
    fn a_refused_write_is_read_from_a_recorded_call() {
        let open = r#"openat(AT_FDCWD, "/etc/x", O_WRONLY|O_CREAT|O_TRUNC, 0666) = -1 EROFS (Read-only file system)"#;
        assert_eq!(
            refused(open),
            Some(Refused {
                call: "openat".to_owned(),
                paths: vec!["/etc/x".to_owned()],
                error: "EROFS (Read-only file system)".to_owned(),
            })
        );
        // A read, a write that worked, a refusal that is no write's: none.
        let read =
            r#"openat(AT_FDCWD, "/etc/x", O_RDONLY|O_CLOEXEC) = -1 EACCES (Permission denied)"#;
        assert_eq!(refused(read), None);
        assert_eq!(refused(r#"mkdir("/tmp/a", 0777) = 0"#), None);
        assert_eq!(
            refused(r#"unlink("/x") = -1 ENOENT (No such file or directory)"#),
            None
        );
        let rename = r#"renameat2(AT_FDCWD, "/a", AT_FDCWD, "/b c", RENAME_NOREPLACE) = -1 EACCES (Permission denied)"#;
        assert_eq!(refused(rename).unwrap().paths, ["/a", "/b c"]);
        let link = r#"symlink("/target", "/etc/link") = -1 EPERM (Operation not permitted)"#;
        assert_eq!(refused(link).unwrap().paths, ["/etc/link"]);
        assert_eq!(quoted(r#""a\"b\\c\303\251\x41\n""#), ["a\"b\\c\u{e9}A\n"]);
    }

    #[test]
    fn only_writes_outside_the_writable_places_are_said() {
        let sandbox = Path::new("/tmp/sandbox-that-is-not-there");
        let writable = [PathBuf::from("/srv/left")];
        let calls: Vec<String> = [
            r#"openat(AT_FDCWD, "/etc/x", O_WRONLY|O_CREAT, 0666) = -1 EROFS (Read-only file system)"#,
            r#"openat(AT_FDCWD, "/etc/x", O_WRONLY|O_CREAT, 0666) = -1 EROFS (Read-only file system)"#,
            r#"mkdir("/tmp/sandbox-that-is-not-there/../escaped", 0777) = -1 EROFS (Read-only file system)"#,
            r#"mkdir("/tmp/sandbox-that-is-not-there/inside", 0777) = -1 EACCES (Permission denied)"#,
            r#"openat(AT_FDCWD, "/srv/left/file", O_WRONLY) = -1 EACCES (Permission denied)"#,
            r#"openat(AT_FDCWD, "relative", O_WRONLY) = -1 EROFS (Read-only file system)"#,
            r#"openat(AT_FDCWD, "/dev/tty", O_RDWR) = -1 EACCES (Permission denied)"#,
            r#"openat(AT_FDCWD, "/usr/lib/python3/__pycache__/a.pyc", O_WRONLY|O_CREAT) = -1 EROFS (Read-only file system)"#,
            r#"openat(AT_FDCWD, "/.annotations-audit-confined-12", O_WRONLY|O_CREAT) = -1 EROFS (Read-only file system)"#,
        ]
        .map(str::to_owned)
        .to_vec();
        assert_eq!(
            outside(&calls, sandbox, &writable),
            [
                "openat /etc/x: EROFS (Read-only file system)",
                "mkdir /tmp/escaped: EROFS (Read-only file system)",
            ]
        );
    }
}
