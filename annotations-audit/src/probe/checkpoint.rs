//! The main run's sandbox as the last call of a judged tool found it, copied aside: a run that
//! reproduces that call starts from the copy instead of making every earlier call again. A
//! copy is kept only where it can stand for the calls: no `--observe` command (what one
//! observes is not in the folder) and no `--setup` command (what one sets up afresh in each
//! sandbox may be outside it too), at most [`MAX_FILES`] entries and [`MAX_BYTES`] bytes, and
//! no file that names the main sandbox's own path (a server that keeps where its files are
//! would find the main run's, not its own).

use std::path::{Path, PathBuf};

use mcp_annotations_verify::observe::tree::Tree;

/// How many files and folders a copy holds at most.
const MAX_FILES: usize = 4096;

/// How many bytes a copy holds at most.
const MAX_BYTES: u64 = 64 << 20;

/// The copy, and the tree it holds.
pub(super) struct Checkpoint {
    dir: PathBuf,
    /// What the copy holds, as the main run observed it; `None` while there is no copy.
    held: Option<Tree>,
    /// Whether copies are kept at all (not where a user's observer sees state outside the
    /// folder, nor where a set-up command prepares each sandbox).
    kept: bool,
    /// How many copies could not be kept: past [`MOST_REFUSED`], none is tried again.
    refused: u32,
    /// How many copies were taken aside ([`detach`](Self::detach)): each one's folder is
    /// named for its number.
    detached: u32,
}

/// A copy taken aside for runs that go on while the main run makes its next calls: a folder
/// of its own, removed once the last run that starts from it is done with it.
pub(super) struct Kept {
    pub(super) dir: PathBuf,
    /// What the copy holds, as the main run observed it.
    pub(super) tree: Tree,
}

impl Drop for Kept {
    fn drop(&mut self) {
        let _ = remove(&self.dir);
    }
}

/// How many copies that cannot be kept (a sandbox too large, a file that names its path) are
/// tried before the probe stops keeping copies: each try reads the whole sandbox.
const MOST_REFUSED: u32 = 3;

impl Checkpoint {
    /// No copy yet, kept beside the main sandbox `main`; `kept` false where none may be
    /// kept.
    pub(super) fn new(main: &Path, kept: bool) -> Self {
        let mut name = main.as_os_str().to_owned();
        name.push("-checkpoint");
        Checkpoint {
            dir: PathBuf::from(name),
            held: None,
            kept,
            refused: 0,
            detached: 0,
        }
    }

    /// The sandbox `sandbox` (its path as a server writes it, `path`) copied, where it is not
    /// as the copy holds it already: it holds `tree` now, or there is no copy (a run that
    /// reproduces the next call then makes every earlier call again).
    pub(super) fn take(&mut self, sandbox: &Path, path: &str, tree: &Tree) {
        if !self.kept || self.refused >= MOST_REFUSED || self.held.as_ref() == Some(tree) {
            return;
        }
        self.held = None;
        if remove(&self.dir).is_err() {
            self.refused = MOST_REFUSED;
            return;
        }
        let mut budget = (MAX_FILES, MAX_BYTES);
        // The path as the server is given it, as the kernel resolves it, and as JSON may
        // escape it.
        let real = std::fs::canonicalize(sandbox)
            .map(|real| real.to_string_lossy().into_owned())
            .unwrap_or_default();
        let escaped = path.replace('/', "\\/");
        let named = [path, real.as_str(), escaped.as_str()];
        match copy(sandbox, &self.dir, &named, &mut budget) {
            Ok(()) => self.held = Some(tree.clone()),
            Err(_) => {
                self.refused += 1;
                let _ = remove(&self.dir);
            }
        }
    }

    /// The copy, where it holds `tree`: what a run that starts from it must observe.
    pub(super) fn of(&self, tree: &Tree) -> Option<&Path> {
        (self.held.as_ref() == Some(tree)).then_some(self.dir.as_path())
    }

    /// The copy, where it holds `tree`, moved to a folder of its own for runs that go on
    /// beside the main one (the next call's copy is then taken afresh); `None` where there
    /// is no such copy, or it cannot be moved.
    pub(super) fn detach(&mut self, tree: &Tree) -> Option<Kept> {
        self.of(tree)?;
        self.held = None;
        self.detached += 1;
        let mut name = self.dir.as_os_str().to_owned();
        name.push(format!("-{}", self.detached));
        let dir = PathBuf::from(name);
        let _ = remove(&dir);
        match std::fs::rename(&self.dir, &dir) {
            Ok(()) => Some(Kept {
                dir,
                tree: tree.clone(),
            }),
            Err(_) => {
                let _ = remove(&self.dir);
                None
            }
        }
    }
}

impl Drop for Checkpoint {
    fn drop(&mut self) {
        let _ = remove(&self.dir);
    }
}

/// `dir` removed whole, where it is: each folder in it made writable first (a server may have
/// left one read-only, whose entries could not be removed otherwise).
pub(super) fn remove(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    fn writable(dir: &Path) {
        let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700));
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                writable(&entry.path());
            }
        }
    }
    match std::fs::symlink_metadata(dir) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(error) => Err(error),
        Ok(_) => {
            writable(dir);
            std::fs::remove_dir_all(dir)
        }
    }
}

/// `from` copied to `to` (files, folders and symbolic links, with their permissions), each
/// file's bytes read once: refused where a file, or a link's target, names one of `named`
/// (the sandbox's path, in the forms a server may write it; empty ones aside), or the copy
/// would pass `budget` (entries, bytes).
pub(super) fn copy(
    from: &Path,
    to: &Path,
    named: &[&str],
    budget: &mut (usize, u64),
) -> Result<(), String> {
    let names = |bytes: &[u8]| {
        named.iter().filter(|name| !name.is_empty()).any(|name| {
            let name = name.as_bytes();
            bytes.windows(name.len()).any(|window| window == name)
        })
    };
    let failed = |error: std::io::Error| format!("{}: {error}", from.display());
    std::fs::create_dir_all(to).map_err(failed)?;
    for entry in std::fs::read_dir(from).map_err(failed)? {
        let entry = entry.map_err(failed)?;
        budget.0 = budget
            .0
            .checked_sub(1)
            .ok_or("the sandbox holds too many files to copy")?;
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        let failed = |error: std::io::Error| format!("{}: {error}", source.display());
        let meta = std::fs::symlink_metadata(&source).map_err(failed)?;
        if meta.is_dir() {
            copy(&source, &target, named, budget)?;
        } else if meta.is_symlink() {
            let link = std::fs::read_link(&source).map_err(failed)?;
            if names(link.as_os_str().as_encoded_bytes()) {
                return Err(format!(
                    "`{}` links into the sandbox's own path",
                    source.display()
                ));
            }
            std::os::unix::fs::symlink(link, &target).map_err(failed)?;
            continue;
        } else if meta.is_file() {
            budget.1 = budget
                .1
                .checked_sub(meta.len())
                .ok_or("the sandbox holds too many bytes to copy")?;
            let bytes = std::fs::read(&source).map_err(failed)?;
            if names(&bytes) {
                return Err(format!(
                    "`{}` names the sandbox's own path",
                    source.display()
                ));
            }
            std::fs::write(&target, bytes).map_err(failed)?;
        } else {
            // A socket or a pipe is the running server's, not state a copy can hold.
            continue;
        }
        std::fs::set_permissions(&target, meta.permissions()).map_err(failed)?;
    }
    let meta = std::fs::metadata(from).map_err(failed)?;
    std::fs::set_permissions(to, meta.permissions()).map_err(failed)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Checkpoint;
    use mcp_annotations_verify::observe::tree;

    fn folder(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("checkpoint-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        dir
    }

    /// The copy holds the sandbox's files, links and modes, and is made again only when the
    /// tree it holds moved.
    #[test]
    fn a_copy_holds_what_the_sandbox_held_when_it_was_taken() {
        use std::os::unix::fs::PermissionsExt;
        let dir = folder("holds");
        std::fs::write(dir.join("sub/a.txt"), "one\n").unwrap();
        std::fs::set_permissions(
            dir.join("sub/a.txt"),
            std::fs::Permissions::from_mode(0o600),
        )
        .unwrap();
        std::os::unix::fs::symlink("sub/a.txt", dir.join("link")).unwrap();
        let taken = tree::observe(&dir);
        let mut checkpoint = Checkpoint::new(&dir, true);
        checkpoint.take(&dir, &dir.to_string_lossy(), &taken);
        let copy = checkpoint.of(&taken).expect("a copy").to_owned();
        assert_eq!(tree::observe(&copy), taken);
        // The sandbox moves on; the copy holds what it held until it is taken again.
        std::fs::write(dir.join("sub/a.txt"), "two\n").unwrap();
        let moved = tree::observe(&dir);
        assert!(checkpoint.of(&moved).is_none());
        assert_eq!(
            std::fs::read_to_string(copy.join("sub/a.txt")).unwrap(),
            "one\n"
        );
        checkpoint.take(&dir, &dir.to_string_lossy(), &moved);
        assert_eq!(tree::observe(checkpoint.of(&moved).unwrap()), moved);
        // A folder the server left read-only is copied, and removed with the rest.
        std::fs::set_permissions(dir.join("sub"), std::fs::Permissions::from_mode(0o500)).unwrap();
        let locked = tree::observe(&dir);
        checkpoint.take(&dir, &dir.to_string_lossy(), &locked);
        assert_eq!(tree::observe(checkpoint.of(&locked).unwrap()), locked);
        std::fs::set_permissions(dir.join("sub"), std::fs::Permissions::from_mode(0o700)).unwrap();
        drop(checkpoint);
        assert!(!copy.exists(), "the copy is removed with the checkpoint");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A copy taken aside holds what it held, in a folder of its own, until the runs that
    /// start from it are done; the next call's copy is taken afresh.
    #[test]
    fn a_copy_taken_aside_outlives_the_next_one_and_not_its_runs() {
        let dir = folder("aside");
        std::fs::write(dir.join("sub/a.txt"), "one\n").unwrap();
        let taken = tree::observe(&dir);
        let mut checkpoint = Checkpoint::new(&dir, true);
        checkpoint.take(&dir, &dir.to_string_lossy(), &taken);
        let kept = checkpoint.detach(&taken).expect("a copy taken aside");
        assert!(
            checkpoint.of(&taken).is_none(),
            "no longer the checkpoint's"
        );
        assert!(checkpoint.detach(&taken).is_none(), "taken aside once");
        assert_eq!(tree::observe(&kept.dir), taken);
        assert_eq!(kept.tree, taken);
        // The next copy, of the same tree, is another folder.
        checkpoint.take(&dir, &dir.to_string_lossy(), &taken);
        let next = checkpoint.of(&taken).expect("taken again").to_owned();
        assert_ne!(next, kept.dir);
        let aside = kept.dir.clone();
        drop(kept);
        assert!(!aside.exists(), "removed once its runs are done");
        assert_eq!(tree::observe(&next), taken);
        drop(checkpoint);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A file or a link that names the sandbox's own path keeps no copy: a server that reads
    /// it would find the main run's files.
    #[test]
    fn no_copy_where_a_file_or_a_link_names_the_sandbox() {
        let dir = folder("names");
        let path = dir.to_string_lossy().into_owned();
        std::fs::write(
            dir.join("sub/config.json"),
            format!("{{\"db\": \"{path}/x.db\"}}"),
        )
        .unwrap();
        let taken = tree::observe(&dir);
        let mut checkpoint = Checkpoint::new(&dir, true);
        checkpoint.take(&dir, &path, &taken);
        assert!(checkpoint.of(&taken).is_none());
        // Nor where a link points into it (a copy's link would lead to the main run's files).
        std::fs::remove_file(dir.join("sub/config.json")).unwrap();
        std::os::unix::fs::symlink(dir.join("sub"), dir.join("current")).unwrap();
        let linked = tree::observe(&dir);
        checkpoint.take(&dir, &path, &linked);
        assert!(checkpoint.of(&linked).is_none());
        std::fs::remove_file(dir.join("current")).unwrap();
        // Once no file names it, a copy is kept.
        std::fs::write(dir.join("sub/config.json"), "{\"db\": \"x.db\"}").unwrap();
        let moved = tree::observe(&dir);
        checkpoint.take(&dir, &path, &moved);
        assert!(checkpoint.of(&moved).is_some());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
