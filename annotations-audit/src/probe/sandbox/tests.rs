//! The confinement script, run in a mount namespace of its own on mounts made for each test.

use std::process::Output;

use super::{CONFINE, confinement};

/// `script` run as root in a mount namespace of its own (no network namespace: a tmpfs
/// needs none), given `dir`, the confinement script and `more`; what it did. `None`, said,
/// where this machine gives no mount namespace.
fn in_namespace(dir: &std::path::Path, script: &str, more: &[&str]) -> Option<Output> {
    let Ok(mut prefix) = confinement() else {
        eprintln!("NOT CHECKED: no mount namespace here");
        return None;
    };
    prefix.retain(|word| word != "--net");
    let output = std::process::Command::new(&prefix[0])
        .args(&prefix[1..])
        .args(["--", "sh", "-c", script, "sh"])
        .arg(dir)
        .arg(CONFINE)
        .args(more)
        .output()
        .unwrap();
    Some(output)
}

/// A mount whose path holds a space (as `/media/$USER/My Passport` does) is read back from
/// mountinfo's `\040` and made read-only like any other: the server's write there fails,
/// where it once went through and the report said the sandbox was the only writable place.
#[test]
fn a_mount_whose_path_holds_a_space_is_confined_too() {
    assert_mount_confined("my passport");
}

/// A mount point whose path ends in a newline (`\012` in mountinfo) keeps it once
/// unescaped: without it, the remount and the check went to another path, and the
/// mount stayed writable with nothing said.
#[test]
fn a_mount_whose_path_ends_in_a_newline_is_confined_too() {
    assert_mount_confined("notes\n");
}

/// Where the temp folder is a mount of its own (a tmpfs `/tmp`), read-only once every
/// mount is: the server starts all the same, nothing is left beside its sandbox, and a
/// file that is a mount point of its own refuses a write too.
#[test]
fn a_temp_folder_of_its_own_and_a_files_mount_are_confined_and_left_clean() {
    let dir = std::env::temp_dir().join(format!("confine-own-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A tmpfs over the folder beside the sandbox, and a file mounted on itself in it.
    let script = r#"mount -t tmpfs none "$1" || exit 3
mkdir "$1/sandbox" && echo kept > "$1/file" && mount --bind "$1/file" "$1/file" || exit 4
exec sh -c "$2" sh "$1/sandbox" "" sh -c 'ls -a "$0"; { echo more >> "$0/file"; } 2>&1; true > "$0/after"' "$1""#;
    let Some(output) = in_namespace(&dir, script, &[]) else {
        let _ = std::fs::remove_dir_all(&dir);
        return;
    };
    let _ = std::fs::remove_dir_all(&dir);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    // The server ran: it listed the folder beside its sandbox, with nothing left there.
    assert!(
        stdout.lines().any(|line| line == "sandbox"),
        "{stdout} {stderr}"
    );
    assert!(!stdout.contains(".annotations-audit-"), "{stdout}");
    // Its writes beside the sandbox and to the file's mount were refused.
    assert_eq!(
        stdout.matches("Read-only file system").count(),
        1,
        "{stdout}"
    );
    assert!(stderr.contains("Read-only file system"), "{stderr}");
    assert!(!matches!(output.status.code(), Some(0 | 3 | 4)), "{stderr}");
}

/// A tmpfs mounted at `name` beside the sandbox, written before the confinement, refuses
/// the server's write after it.
fn assert_mount_confined(name: &str) {
    // A folder for each test: two at once must not remove each other's.
    let tag: String = name.chars().filter(char::is_ascii_alphanumeric).collect();
    let dir = std::env::temp_dir().join(format!("confine-mount-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(dir.join("sandbox")).unwrap();
    std::fs::create_dir_all(dir.join(name)).unwrap();
    // Inside a namespace of its own: a tmpfs at the path, then the confinement.
    let script = r#"mount -t tmpfs none "$1/$3" || exit 3
: > "$1/$3/before" || exit 4
exec sh -c "$2" sh "$1/sandbox" "" sh -c ': > "$0/$1/after"' "$1" "$3""#;
    let Some(output) = in_namespace(&dir, script, &[name]) else {
        let _ = std::fs::remove_dir_all(&dir);
        return;
    };
    // The table of mount points written beside the sandbox is gone.
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.starts_with(".annotations-audit-"))
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        left.is_empty(),
        "{name:?}: left beside the sandbox: {left:?}"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    // The tmpfs was made and written before the confinement: the refusal is its doing.
    assert!(
        !matches!(output.status.code(), Some(0 | 3 | 4)),
        "{name:?}: {:?} {stderr}",
        output.status
    );
    assert!(
        stderr.contains("Read-only file system"),
        "{name:?}: {stderr}"
    );
}

/// A mount that cannot be made read-only (here a `mount` that knows no `-a` and fails on one
/// file's mount point) stops the server from starting (exit 97), whether a folder or a file:
/// never a confinement claimed that is not there. The other mounts are made read-only one by
/// one all the same.
#[test]
fn a_files_mount_left_writable_refuses_to_run() {
    let dir = std::env::temp_dir().join(format!("confine-file-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("bin")).unwrap();
    let real = ["/usr/bin/mount", "/bin/mount"]
        .into_iter()
        .find(|path| std::path::Path::new(path).exists())
        .expect("a mount command");
    std::fs::write(
        dir.join("bin/mount"),
        format!(
            "#!/bin/sh\n[ \"$1\" = -a ] && exit 32\ncase \"$*\" in */stuck) exit 32;; esac\nexec {real} \"$@\"\n"
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(
        dir.join("bin/mount"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    let script = r#"mkdir "$1/sandbox" && echo kept > "$1/stuck" && mount --bind "$1/stuck" "$1/stuck" || exit 4
PATH="$1/bin:$PATH" exec sh -c "$2" sh "$1/sandbox" "" sh -c 'echo started'"#;
    let Some(output) = in_namespace(&dir, script, &[]) else {
        let _ = std::fs::remove_dir_all(&dir);
        return;
    };
    let _ = std::fs::remove_dir_all(&dir);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert_eq!(output.status.code(), Some(97), "{stdout} {stderr}");
    assert!(!stdout.contains("started"), "{stdout}");
    assert!(
        stderr.contains("not confined: ") && stderr.contains("/stuck accepts a write"),
        "{stderr}"
    );
}
