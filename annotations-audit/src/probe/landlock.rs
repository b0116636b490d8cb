//! `--confine landlock`: the server confined by Landlock rules, which need no privilege and no
//! user namespace (GitHub's Ubuntu 24.04 runners block those for users): the audit runs itself
//! as a small wrapper (`annotations-audit __confine ...`) that restricts itself, checks the
//! restriction holds, and then becomes the server (`exec`), which inherits it with every
//! process it starts.
//!
//! What the rules say: writing, making, removing, renaming, linking and truncating files only
//! beneath the sandbox and the `--writable` places (and on the terminal and null devices);
//! reading as before; in a closed-world run, no TCP connection (Linux 6.7+, Landlock ABI 4).
//! A write elsewhere fails with "Permission denied".

use std::path::PathBuf;

/// The wrapper's name on the audit's command line: not a subcommand a user types.
pub(crate) const SUBCOMMAND: &str = "__confine";

/// The exit status of a wrapper that could not confine (as the mount-namespace script's).
const NOT_CONFINED: i32 = 97;

/// What the wrapper's stderr says before why it could not confine.
const NOT_CONFINED_SAID: &str = "not confined: ";

/// What the wrapper is asked.
#[derive(Debug, Default, PartialEq)]
struct Asked {
    sandbox: PathBuf,
    writable: Vec<PathBuf>,
    /// Refuse TCP connections (a closed-world run).
    no_connect: bool,
    /// Confine, check, print how, and exit: the audit's trial of whether Landlock works here.
    check: bool,
    command: Vec<String>,
}

/// The wrapper's command line for `command`: the audit's own program, then what it is asked.
pub(super) fn wrapped(
    sandbox: &str,
    writable: &[String],
    no_connect: bool,
    command: Vec<String>,
) -> Result<Vec<String>, String> {
    let program = std::env::current_exe()
        .map_err(|error| format!("cannot find the audit's own program to confine with: {error}"))?;
    let mut words = vec![
        program.to_string_lossy().into_owned(),
        SUBCOMMAND.to_owned(),
        "--sandbox".to_owned(),
        sandbox.to_owned(),
    ];
    for place in writable {
        words.extend(["--writable".to_owned(), place.clone()]);
    }
    if no_connect {
        words.push("--no-connect".to_owned());
    }
    words.push("--".to_owned());
    words.extend(command);
    Ok(words)
}

fn parse(args: &[String]) -> Result<Asked, String> {
    let mut asked = Asked::default();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        match word.as_str() {
            "--sandbox" => asked.sandbox = words.next().ok_or("--sandbox DIR")?.into(),
            "--writable" => asked
                .writable
                .push(words.next().ok_or("--writable DIR")?.into()),
            "--no-connect" => asked.no_connect = true,
            "--check" => asked.check = true,
            "--" => {
                asked.command = words.cloned().collect();
                break;
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if asked.sandbox.as_os_str().is_empty() {
        return Err("no --sandbox".to_owned());
    }
    if asked.command.is_empty() && !asked.check {
        return Err("no command after --".to_owned());
    }
    Ok(asked)
}

/// The wrapper: confines itself as `args` say, checks it, and becomes the command (or, with
/// `--check`, prints how it was confined). Its exit status where it cannot: 97 not confined,
/// 127 the command not run, 2 a bad command line.
pub(crate) fn main(args: &[String]) -> i32 {
    let asked = match parse(args) {
        Ok(asked) => asked,
        Err(why) => {
            eprintln!("annotations-audit {SUBCOMMAND}: {why}");
            return 2;
        }
    };
    let how = match restrict(&asked).and_then(|how| check(&asked).map(|()| how)) {
        Ok(how) => how,
        Err(why) => {
            eprintln!("{NOT_CONFINED_SAID}{why}");
            return NOT_CONFINED;
        }
    };
    if asked.check {
        println!("{how}");
        return 0;
    }
    run(&asked.command)
}

#[cfg(target_os = "linux")]
fn run(command: &[String]) -> i32 {
    use std::os::unix::process::CommandExt;
    let error = std::process::Command::new(&command[0])
        .args(&command[1..])
        .exec();
    eprintln!("cannot run {}: {error}", command[0]);
    127
}

#[cfg(not(target_os = "linux"))]
fn run(_: &[String]) -> i32 {
    NOT_CONFINED
}

/// The devices a server writes to as any program does, whatever it is confined to.
#[cfg(target_os = "linux")]
const DEVICES: [&str; 8] = [
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
    "/dev/tty",
    "/dev/ptmx",
    "/dev/pts",
];

/// Restricts this process (and what it will run) to writing beneath the sandbox and the
/// writable places; how, in words (`fully enforced`, or what this kernel lacks).
#[cfg(target_os = "linux")]
fn restrict(asked: &Asked) -> Result<String, String> {
    use landlock::{
        ABI, AccessFs, AccessNet, Ruleset, RulesetAttr, RulesetCreatedAttr, RulesetStatus,
        path_beneath_rules,
    };
    let failed = |error: landlock::RulesetError| error.to_string();
    // ABI 5: writes, reparenting, truncation and device ioctls; TCP from ABI 4.
    let abi = ABI::V5;
    let write = AccessFs::from_write(abi);
    let mut ruleset = Ruleset::default().handle_access(write).map_err(failed)?;
    if asked.no_connect {
        ruleset = ruleset
            .handle_access(AccessNet::ConnectTcp)
            .map_err(failed)?;
    }
    let mut places = vec![asked.sandbox.clone()];
    places.extend(asked.writable.iter().cloned());
    let status = ruleset
        .create()
        .map_err(failed)?
        .add_rules(path_beneath_rules(&places, write))
        .map_err(failed)?
        .add_rules(path_beneath_rules(DEVICES, write))
        .map_err(failed)?
        .restrict_self()
        .map_err(failed)?;
    match status.ruleset {
        RulesetStatus::FullyEnforced => Ok("fully enforced".to_owned()),
        RulesetStatus::PartiallyEnforced => Ok(format!(
            "partly enforced: this kernel's Landlock lacks some of ABI 5{}",
            if asked.no_connect {
                " (TCP needs Linux 6.7: connections may go through)"
            } else {
                ""
            }
        )),
        RulesetStatus::NotEnforced => Err(format!(
            "Landlock is not available here ({:?})",
            status.landlock
        )),
    }
}

#[cfg(not(target_os = "linux"))]
fn restrict(_: &Asked) -> Result<String, String> {
    Err("Landlock is Linux's".to_owned())
}

/// Whether the restriction holds: a write beside the sandbox (outside every writable place)
/// is refused.
fn check(asked: &Asked) -> Result<(), String> {
    let Some(beside) = asked.sandbox.parent() else {
        return Ok(());
    };
    let probe = beside.join(format!(
        ".annotations-audit-confined-{}",
        std::process::id()
    ));
    if asked.writable.iter().any(|place| probe.starts_with(place)) {
        return Ok(());
    }
    match std::fs::File::create(&probe) {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Err(format!("{} accepts a write", beside.display()))
        }
        Err(_) => Ok(()),
    }
}

/// Whether Landlock confines a server on this machine, tried once on a folder of its own with
/// the wrapper itself: how it is enforced, or why not.
pub(super) fn available(no_connect: bool) -> Result<String, String> {
    use std::sync::OnceLock;
    static FOUND: [OnceLock<Result<String, String>>; 2] = [OnceLock::new(), OnceLock::new()];
    FOUND[usize::from(no_connect)]
        .get_or_init(|| {
            let trial = std::env::temp_dir().join(format!(
                "annotations-audit-landlock-{}-{}",
                std::process::id(),
                u8::from(no_connect)
            ));
            let _ = std::fs::create_dir_all(&trial);
            let mut words = wrapped(&trial.to_string_lossy(), &[], no_connect, Vec::new())?;
            // `--check` before `--`: confine, check and say how, run nothing.
            words.pop();
            words.push("--check".to_owned());
            let output = std::process::Command::new(&words[0])
                .args(&words[1..])
                .stdin(std::process::Stdio::null())
                .output();
            let _ = std::fs::remove_dir_all(&trial);
            let output = output.map_err(|error| format!("the wrapper did not run: {error}"))?;
            if output.status.success() {
                Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
            } else {
                let said = String::from_utf8_lossy(&output.stderr);
                Err(said.trim().trim_start_matches(NOT_CONFINED_SAID).to_owned())
            }
        })
        .clone()
}

#[cfg(test)]
mod tests {
    use super::{Asked, parse, wrapped};

    #[test]
    fn the_wrapper_reads_back_what_the_audit_writes() {
        let words = wrapped(
            "/tmp/s b",
            &["/tmp/w".to_owned()],
            true,
            vec!["node".to_owned(), "--".to_owned(), "x".to_owned()],
        )
        .unwrap();
        assert_eq!(words[1], super::SUBCOMMAND);
        assert_eq!(
            parse(&words[2..]).unwrap(),
            Asked {
                sandbox: "/tmp/s b".into(),
                writable: vec!["/tmp/w".into()],
                no_connect: true,
                check: false,
                command: vec!["node".to_owned(), "--".to_owned(), "x".to_owned()],
            }
        );
        assert!(parse(&["--sandbox".to_owned(), "/s".to_owned()]).is_err());
        assert!(parse(&["--bogus".to_owned()]).is_err());
    }
}
