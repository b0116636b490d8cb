//! The sandbox a server runs in: a fresh folder filled from the seed, the server started there (its
//! working directory, `HOME`, `TMPDIR` and the XDG folders), confined to it where Linux allows.

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::Options;
use super::observer::Observers;
use crate::cli::args::Confine;
use crate::server::{Peer, bounds};
use mcp_annotations_verify::observe::tree::{self, Tree};

/// The script that makes every mount read-only in the server's own mount namespace, then the
/// sandbox (its first argument) and the `--writable` places writable again, checks that every
/// other mount point refuses a write, and runs the server (the rest). A write outside them
/// fails with "Read-only file system". A mount point is read from `/proc/self/mountinfo` as
/// it escapes it (a space as `\040`, a tab `\011`, a newline `\012`, a backslash `\134`); a
/// remount that failed is seen by the check, which refuses to run the server (exit 97)
/// rather than claim a confinement that is not there. It runs before every start of a
/// server, under the recorder, which makes each process it starts dear: every mount point is
/// remounted by one `mount -a` from a table of them (made beside the sandbox where no file
/// was, removed before it is written, read by a descriptor: nothing is left, even where the
/// temp folder is a mount of its own and read-only after the pass), then each mount still
/// writable by mountinfo (the root, a file's mount point) on its own; besides those it starts
/// a few once (`awk` and `sed` twice, `dirname`, `pwd`), a subshell only for a point that
/// holds an escape, and checks the writes in the shell itself. No mount point read is no
/// confinement (exit 97), and a point that ends in a newline keeps it.
pub(super) const CONFINE: &str = r#"set -ef
sandbox="$1"; shift
writable="$1"; shift
probe=".annotations-audit-confined-$$"
beside="$(dirname "$sandbox")"
escapes='s/\\\([0-7][0-7][0-7]\)/\\0\1/g'
# Every mount point read-only, all at once: one `mount -a` reads a table of them (mountinfo's
# escapes are the table's; a source no mount has, or the pass skips one as mounted already).
# The table is made where nothing was (a name taken refuses), removed before it is written,
# and read by a descriptor, so that nothing is left beside the sandbox.
table="$beside/.annotations-audit-mounts-$$"
set -C
exec 3>"$table" 4<"$table"
set +C
rm -f "$table"
points="$(awk '{print "annotations-audit", $5, "none remount,bind,ro 0 0" > "/dev/fd/3"; print $5}' /proc/self/mountinfo | sed "$escapes")"
exec 3>&-
[ -n "$points" ] || { echo "not confined: no mount point read" >&2; exit 97; }
mount -a -T /dev/fd/4 2>/dev/null || true
exec 4<&-
unescape() { case "$point" in *\\*) point="$(printf '%b.' "$point")"; point="${point%.}";; esac; }
# Each mount that pass left writable (the root, which it leaves; the last mount at a path, the
# one seen there), a file's too, remounted on its own.
left="$(awk '{state[$5] = $6} END {for (p in state) if (state[p] !~ /^ro(,|$)/) print p}' /proc/self/mountinfo | sed "$escapes")"
while IFS= read -r point; do
  [ -n "$point" ] || continue
  unescape
  mount -o remount,bind,ro "$point" 2>/dev/null || true
done <<EOF
$left
EOF
for place in "$sandbox" $writable; do
  mount --bind "$place" "$place"
  mount -o remount,bind,rw "$place"
done
# Confined, or not at all: every mount point but the sandbox and the --writable places (a
# folder's new file, a file's own bytes), and the folder beside the sandbox, must refuse a
# write.
while IFS= read -r point; do
  unescape
  case "$point/" in "$sandbox"/*) continue;; esac
  for place in $writable; do case "$point/" in "$place"/*) continue 2;; esac; done
  if [ -d "$point" ]; then
    if { true > "$point/$probe"; } 2>/dev/null; then
      rm -f "$point/$probe"; echo "not confined: $point accepts a write" >&2; exit 97
    fi
  elif [ -f "$point" ] && { true >> "$point"; } 2>/dev/null; then
    echo "not confined: $point accepts a write" >&2; exit 97
  fi
done <<EOF
$points
EOF
check="$beside/$probe"
if { true > "$check"; } 2>/dev/null; then rm -f "$check"; echo "not confined" >&2; exit 97; fi
# The working folder again, by its path: the one held was the read-only mount's.
cd "$(pwd -P)"
exec "$@""#;

/// How this machine can give a server a mount namespace of its own, and a network namespace
/// where it can: the `unshare` command (util-linux) as root, or in a user namespace of its own
/// where that is all there is; why not, where neither works.
pub(super) fn confinement() -> Result<Vec<String>, String> {
    use std::sync::OnceLock;
    static FOUND: OnceLock<Result<Vec<String>, String>> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            // With a network namespace of its own first (no route out: what a closed-world
            // tool tries reaches nothing), then without, where this machine has none.
            let user: &[&str] = &["--user", "--map-root-user"];
            let tries: [(&[&str], &[&str]); 4] = [
                (&[], &["--mount", "--net"]),
                (user, &["--mount", "--net"]),
                (&[], &["--mount"]),
                (user, &["--mount"]),
            ];
            let mut why = String::from("no `unshare` command");
            // The whole script, on a folder of its own: where it runs, it runs for a server.
            let trial = std::env::temp_dir().join(format!(
                "annotations-audit-confine-{}",
                std::process::id()
            ));
            let _ = std::fs::create_dir_all(&trial);
            let trial_path = trial.to_string_lossy().into_owned();
            for (user, spaces) in tries {
                let mut prefix = vec!["unshare"];
                prefix.extend(user);
                prefix.extend(spaces);
                prefix.extend(["--propagation", "private"]);
                let ran = std::process::Command::new(prefix[0])
                    .args(&prefix[1..])
                    .args(["--", "sh", "-c", CONFINE, "sh", &trial_path, "", "true"])
                    .stdin(std::process::Stdio::null())
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::null())
                    .status();
                match ran {
                    Ok(status) if status.success() => {
                        let _ = std::fs::remove_dir_all(&trial);
                        return Ok(prefix.iter().map(|word| (*word).to_owned()).collect());
                    }
                    Ok(_) => why = "`unshare --mount` is not allowed here (neither as this user nor in a user namespace)".to_owned(),
                    Err(_) => {}
                }
            }
            let _ = std::fs::remove_dir_all(&trial);
            Err(why)
        })
        .clone()
}

pub(super) struct Sandbox {
    pub(super) dir: PathBuf,
    /// The user's `--observe` commands.
    observers: Observers,
    /// Whether the servers started on it are recorded (see [`super::record`]), where this
    /// machine can: not in a run that reads nothing of the record (two calls at once, a
    /// reproduction of no closed-world claim), since tracing a server costs it a fifth more
    /// of its start.
    pub(super) recorded: bool,
}

impl Sandbox {
    /// The sandbox as a tree, with what each `--observe` command printed.
    pub(super) fn observe(&self) -> Tree {
        // The commands first: what one writes in the sandbox as it runs (a cache) is in the
        // walk that follows, not charged to the next call.
        let mut observed = Tree::new();
        self.observers.add(&self.dir, &mut observed);
        let mut tree = tree::observe(&self.dir);
        tree.extend(observed);
        tree
    }

    /// The first `--observe` command that failed on any of `trees` (the observations around
    /// one call or one wait), else the first file of the sandbox the observer refused to read
    /// (larger, deeper or more numerous than it reads), in words: nothing is said of what
    /// changed there.
    pub(super) fn failure<'a>(&self, trees: impl IntoIterator<Item = &'a Tree>) -> Option<String> {
        trees.into_iter().find_map(|tree| {
            self.observers.failure(tree).or_else(|| {
                tree::unobserved(tree).map(|(path, why)| format!("`{path}` was not read: {why}"))
            })
        })
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = super::checkpoint::remove(&self.dir);
        let _ = std::fs::remove_file(super::record::record_of(&self.dir));
        super::record::forget(&self.dir);
    }
}

pub(super) fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        let kind = entry.file_type()?;
        if kind.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else if kind.is_file() {
            std::fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}

/// Starts the server in the sandbox (made again if a call removed it), every answer bounded
/// by the probe's deadline too.
pub(super) fn start(options: &Options, run: &Sandbox, deadline: Instant) -> Result<Peer, String> {
    let sandbox = run.dir.as_path();
    std::fs::create_dir_all(sandbox)
        .map_err(|error| format!("cannot make the sandbox again: {error}"))?;
    let place = sandbox.to_string_lossy();
    // A server over HTTP serves a port of its own, each one the probe starts (a run beside
    // the main one, a second process on one sandbox): `{port}` in the URL, the command and
    // the environment.
    let port = match &options.http {
        Some(_) => crate::server::free_port()?.to_string(),
        None => String::new(),
    };
    let fill = |text: &str| text.replace("{sandbox}", &place).replace("{port}", &port);
    let mut command: Vec<String> = options.command.iter().map(|arg| fill(arg)).collect();
    // The server runs in the sandbox: a program named by a relative path is found from here,
    // and so is an argument naming a file that is here and not in the sandbox (`node
    // server.js`); one the sandbox holds (a seeded `state.db`) stays the sandbox's.
    if let Ok(here) = std::env::current_dir() {
        for (at, word) in command.iter_mut().enumerate() {
            let path = Path::new(word.as_str());
            let relative = path.is_relative() && !word.starts_with('-') && !word.is_empty();
            let program = at == 0 && path.components().count() > 1;
            let file_here = at > 0 && here.join(path).exists() && !sandbox.join(path).exists();
            if relative && (program || file_here) {
                *word = here.join(path).to_string_lossy().into_owned();
            }
        }
    }
    // The sandbox is the server's home, and every place a program keeps its caches, settings
    // and sockets by is under it (a `XDG_CACHE_HOME` of the user's would be a write refused
    // outside the sandbox, or a bus to the user's session).
    let mut env: Vec<(String, String)> = vec![
        ("HOME".into(), place.to_string()),
        ("TMPDIR".into(), place.to_string()),
        ("XDG_CACHE_HOME".into(), format!("{place}/.cache")),
        ("XDG_CONFIG_HOME".into(), format!("{place}/.config")),
        ("XDG_DATA_HOME".into(), format!("{place}/.local/share")),
        ("XDG_STATE_HOME".into(), format!("{place}/.local/state")),
        ("XDG_RUNTIME_DIR".into(), place.to_string()),
    ];
    env.extend(options.env.iter().map(|(k, v)| (k.clone(), fill(v))));
    let writable: Vec<String> = options
        .writable
        .iter()
        .map(|place| place.to_string_lossy().into_owned())
        .collect();
    match confined(options)? {
        Confined::Namespaces(prefix) => {
            let mut wrapped = prefix;
            // The network as this machine has it, where the probe may call open-world tools,
            // and where it reaches the server over HTTP (its attempts are recorded all the
            // same).
            if !closed_world(options) {
                wrapped.retain(|word| word != "--net");
            }
            wrapped.extend(["--", "sh", "-c", CONFINE, "sh"].map(str::to_owned));
            wrapped.extend([place.to_string(), writable.join(" ")]);
            wrapped.extend(command);
            command = wrapped;
        }
        Confined::Landlock(_) => {
            command = super::landlock::wrapped(&place, &writable, closed_world(options), command)?;
        }
        Confined::None(_) => {}
    }
    // Outside the namespaces: the record is written where the probe reads it.
    if run.recorded && super::record::recorder().is_ok() {
        command = super::record::recorded(sandbox, command);
    }
    // Outermost, the run's bounds, every process of it held (the recorder too), and watched
    // from before it starts.
    let seed = options
        .seed_dir
        .as_deref()
        .map_or(0, |seed| bounds::on_disk(seed, u64::MAX).0);
    command = bounds::wrapped(&options.limits, seed, command)?;
    let token = crate::server::new_run();
    env.push((crate::server::RUN_VARIABLE.to_owned(), token.clone()));
    let watch = bounds::Watch::start(&token, sandbox, options.limits);
    // A command that fetches the server as it starts cannot without a network.
    let fetches = options.command.first().is_some_and(|program| {
        let name = Path::new(program)
            .file_name()
            .and_then(|name| name.to_str());
        matches!(name, Some("npx" | "uvx" | "bunx" | "pnpx" | "pipx"))
    });
    let offline = fetches && command.iter().any(|word| word == "--net");
    let turn = Turn::take(deadline);
    let started = match &options.http {
        Some((url, remote)) => Peer::serve(
            &command,
            (sandbox, &env),
            (&fill(url), remote),
            options.timeout,
            deadline,
        ),
        None => Peer::start(
            &command,
            Some(sandbox),
            &env,
            options.timeout,
            Some(deadline),
        ),
    };
    drop(turn);
    let started = match started {
        Ok(peer) => return Ok(peer.watched(watch)),
        Err(error) => {
            // What the run did past its bounds as it started, read once it is over.
            drop(watch);
            let exceeded = bounds::exceeded_by(&token);
            if exceeded.is_empty() {
                Err(error)
            } else {
                Err(format!("{error} (the server {})", exceeded.join("; ")))
            }
        }
    };
    started.map_err(|error| {
        if offline {
            format!(
                "{error} (the server runs with no network, and `{}` fetches it as it starts: \
                 install it first and run it from there, or pass --allow-open-world)",
                options.command[0]
            )
        } else {
            error
        }
    })
}

/// Whether the run is closed-world: no open-world tool called, no server reached over HTTP.
pub(super) fn closed_world(options: &Options) -> bool {
    !options.allow_open_world && options.http.is_none()
}

/// How a server is confined on this machine, as `--confine` asked.
pub(super) enum Confined {
    /// In namespaces of its own: the command that makes them.
    Namespaces(Vec<String>),
    /// Under Landlock rules: how they are enforced.
    Landlock(String),
    /// Not at all: why.
    None(String),
}

/// How `options` confine a server here.
///
/// # Errors
///
/// The method asked for (or, for `auto`, every method) is not available here: the probe
/// refuses rather than run a server it says nothing of.
pub(super) fn confined(options: &Options) -> Result<Confined, String> {
    let namespaces = || confinement().map(Confined::Namespaces);
    let landlock = || super::landlock::available(closed_world(options)).map(Confined::Landlock);
    match options.confine {
        Confine::None => Ok(Confined::None("--confine none".to_owned())),
        Confine::Namespaces => namespaces().map_err(|why| format!("--confine namespaces: {why}")),
        Confine::Landlock => landlock().map_err(|why| format!("--confine landlock: {why}")),
        Confine::Auto => namespaces().or_else(|in_namespaces| {
            landlock().map_err(|under_landlock| {
                format!(
                    "the server cannot be confined to its sandbox here (namespaces: \
                     {in_namespaces}; Landlock: {under_landlock}); --confine none runs it \
                     unconfined, where a write outside the sandbox goes unseen"
                )
            })
        }),
    }
}

/// What a write the confinement refuses fails with, as a server quotes its error: `None`
/// where nothing is refused.
pub(super) fn refusal(options: &Options) -> Option<&'static str> {
    match confined(options) {
        Ok(Confined::Namespaces(_)) => Some("Read-only file system"),
        Ok(Confined::Landlock(_)) => Some("Permission denied"),
        _ => None,
    }
}

/// A fresh sandbox filled from the seed and set up by the `--setup` commands, under `name`.
pub(super) fn sandbox(options: &Options, name: &str) -> Result<Sandbox, String> {
    let sandbox = empty(options, name)?;
    if let Some(seed) = &options.seed_dir {
        copy_dir(seed, &sandbox.dir)
            .map_err(|error| format!("cannot fill the sandbox from {}: {error}", seed.display()))?;
    }
    for command in &options.setup {
        sandbox
            .observers
            .set_up(command, &sandbox.dir)
            .map_err(|error| format!("the --setup command `{command}` failed: {error}"))?;
    }
    Ok(sandbox)
}

/// A fresh sandbox under `name` holding what the copy `from` (a [`Checkpoint`]'s) holds:
/// seeded and set up already.
///
/// [`Checkpoint`]: super::checkpoint::Checkpoint
pub(super) fn restored(options: &Options, name: &str, from: &Path) -> Result<Sandbox, String> {
    let sandbox = empty(options, name)?;
    super::checkpoint::copy(from, &sandbox.dir, &[], &mut (usize::MAX, u64::MAX))
        .map_err(|error| format!("cannot fill the sandbox from the main run's copy: {error}"))?;
    Ok(sandbox)
}

/// A fresh, empty sandbox under `name`.
fn empty(options: &Options, name: &str) -> Result<Sandbox, String> {
    let dir = std::env::temp_dir().join(format!(
        "annotations-audit-probe-{}-{}-{name}",
        std::process::id(),
        options.seed
    ));
    let _ = super::checkpoint::remove(&dir);
    let _ = std::fs::remove_file(super::record::record_of(&dir));
    std::fs::create_dir_all(&dir).map_err(|error| format!("cannot make the sandbox: {error}"))?;
    let sandbox = Sandbox {
        recorded: true,
        dir,
        observers: Observers {
            commands: options.observers.clone(),
            env: options.env.clone(),
            timeout: options.timeout,
        },
    };
    Ok(sandbox)
}

/// A turn to start a server: at most as many servers start at once as the machine has cores
/// (a start is mostly work: an interpreter loading its modules, each start slower, and all
/// slower to end, where more share the cores), the others waiting their turn until the
/// probe's deadline. Given back when dropped.
struct Turn;

/// How many servers are starting.
static STARTING: std::sync::Mutex<usize> = std::sync::Mutex::new(0);
static STARTED: std::sync::Condvar = std::sync::Condvar::new();

impl Turn {
    fn take(deadline: Instant) -> Turn {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        let mut starting = STARTING
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        while *starting >= cores {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            starting = STARTED
                .wait_timeout(starting, left)
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .0;
        }
        *starting += 1;
        Turn
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        let mut starting = STARTING
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *starting = starting.saturating_sub(1);
        STARTED.notify_one();
    }
}

/// What the report says of where the server could write, and of its network.
pub(super) fn surroundings(options: &Options) -> (String, String) {
    // What the writes were confined to; whether the network was cut off (a namespace with no
    // route out) or its TCP connections refused (Landlock).
    let closed = closed_world(options);
    let (written, isolated, refused) = match confined(options) {
        Ok(Confined::None(why)) | Err(why) => (
            format!("not confined ({why}): a write outside the sandbox goes unseen"),
            false,
            false,
        ),
        Ok(Confined::Namespaces(prefix)) => (
            "the sandbox (and --writable places) the only writable places: the server ran in \
             a mount namespace of its own"
                .to_owned(),
            closed && prefix.iter().any(|word| word == "--net"),
            false,
        ),
        Ok(Confined::Landlock(how)) => (
            format!(
                "the sandbox (and --writable places) the only writable places: the server ran \
                 under Landlock rules ({how})"
            ),
            false,
            closed,
        ),
    };
    let recorded = "every attempt of the server's processes to reach the network recorded \
                    (strace); the server";
    let network = match super::record::recorder() {
        Err(why) => format!(
            "attempts to reach the network not recorded ({why}): closed-world claims not judged"
        ),
        Ok(()) if isolated => {
            format!("{recorded} ran in a network namespace with no route out")
        }
        Ok(()) if refused => format!("{recorded} had its TCP connections refused (Landlock)"),
        Ok(()) if options.http.is_some() => {
            format!("{recorded} had this machine's network, where the probe reached it over HTTP")
        }
        Ok(()) => format!("{recorded} had this machine's network"),
    };
    (written, network)
}

#[cfg(test)]
mod tests;
