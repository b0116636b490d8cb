//! `annotations-audit`: a host's audit of any MCP server's tools, installed with
//! `cargo install mcp-annotations-audit`. See `annotations-audit --help`.
//!
//! Each job is a module: [`audit`] (a server's listing and its findings), [`probe`] (its hints
//! checked by behaviour in a sandbox) and [`diff`] (what changed between two listings); [`init`] writes the settings file
//! ([`cli::settings`]) a probe starts from. They
//! reach servers through [`server`] and write what they find as a [`report`]; [`cli`] is the
//! command line alone and [`progress`] what a terminal sees while they run. This file parses,
//! dispatches and writes.

#![forbid(unsafe_code)]

mod audit;
mod cli;
mod diff;
mod init;
mod probe;
mod progress;
mod report;
mod server;

use clap::CommandFactory;

use cli::args::{Cli, Command};
use cli::status::{Failure, Status};

fn main() {
    // The wrapper that confines a server with Landlock, then becomes it: nothing of the
    // audit's own (no subreaper, no last sweep) goes with it.
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some(probe::landlock::SUBCOMMAND) {
        std::process::exit(probe::landlock::main(&args[1..]));
    }
    // The wrapper that bounds a server's run (a cgroup, rlimits), then becomes it.
    if args.first().map(String::as_str) == Some(server::bounds::SUBCOMMAND) {
        std::process::exit(server::bounds::main(&args[1..]));
    }
    // Every process a server leaves (a daemon forked twice) is the audit's to end and reap,
    // not init's to keep; the last thing the audit does is end whatever is still there.
    server::adopt_orphans();
    let status = {
        let _last = EndAll;
        run(args)
    };
    std::process::exit(status);
}

/// Ends whatever the audit started that is still there when it is dropped: after the run,
/// and while a panic unwinds.
struct EndAll;

impl Drop for EndAll {
    fn drop(&mut self) {
        server::end_all();
    }
}

/// Runs the command line; the exit status ([`Status`]).
fn run(args: Vec<String>) -> i32 {
    let (args, notes) = match cli::legacy::modernize(args) {
        Ok(modern) => modern,
        Err(error) => {
            eprintln!("error: {error}");
            return Status::Usage.code();
        }
    };
    for note in notes {
        eprintln!("{note}");
    }
    let cli = match Cli::parse_checked(std::iter::once("annotations-audit".to_owned()).chain(args))
    {
        Ok(cli) => cli,
        Err(error) => {
            // Help and the version on stdout with 0; a bad command line on stderr with 2.
            let _ = error.print();
            return error.exit_code();
        }
    };
    // The command line's secrets, kept before any server speaks (its stderr may repeat them).
    let remote = match &cli.command {
        Command::Audit(args) => Some(&args.remote),
        Command::Probe(args) => Some(&args.remote),
        Command::Init(args) => Some(&args.probe.remote),
        Command::Diff(args) => Some(&args.remote),
        Command::Completions { .. } | Command::Explain { .. } => None,
    };
    if let Some(remote) = remote {
        let url = remote
            .http
            .as_deref()
            .and_then(|url| reqwest::Url::parse(url).ok());
        server::secrets::keep(server::secrets::of(url.as_ref(), &remote.headers));
        // A URL, a header or a --ca-cert file that cannot be used is the command line's
        // mistake; a probe's URL holds `{port}` until the server's port is known.
        let url = remote.http.as_deref().filter(|url| !url.contains("{port}"));
        let remote_of = server::http::Remote {
            headers: remote.headers.clone(),
            ca_cert: remote.ca_cert.clone(),
            direct: false,
        };
        if let Err(error) = server::http::check(url, &remote_of) {
            eprintln!("annotations-audit: {error}");
            return Status::Usage.code();
        }
    }
    let outcome = match &cli.command {
        Command::Audit(args) => audit::run(args),
        Command::Probe(args) => probe::run(args),
        Command::Init(args) => init::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Explain { id } => report::rules::explain(id.as_deref())
            .map(|page| (Status::Clean, page))
            .map_err(Failure::Usage),
        Command::Completions { shell } => {
            let mut script = Vec::new();
            clap_complete::generate(
                *shell,
                &mut Cli::command(),
                "annotations-audit",
                &mut script,
            );
            Ok((Status::Clean, String::from_utf8_lossy(&script).into_owned()))
        }
    };
    progress::finish();
    match outcome {
        Ok((status, text)) => match write_out(&text) {
            Ok(()) => status.code(),
            Err(error) => {
                eprintln!("annotations-audit: cannot write the report: {error}");
                Status::CouldNotRun.code()
            }
        },
        Err(failure) => {
            eprintln!("annotations-audit: {}", failure.message());
            failure.status().code()
        }
    }
}

/// Writes `text` on stdout. A reader that stopped reading (`| head`) is no failure of the
/// audit: what it read is what it asked for, and the status stays the audit's.
fn write_out(text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}
