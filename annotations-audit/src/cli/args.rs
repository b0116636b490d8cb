//! The command line, as `clap` reads it: the subcommands `audit`, `probe`, `diff`, `explain`
//! and `completions`, and the spellings of earlier releases (`--probe`, `--diff`, the bare
//! `annotations-audit -- CMD`) mapped onto them.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};
use mcp_annotations_verify::judge::classes::Place;

use super::values::{bytes, header, key_value, place, seconds, writable};

/// The exit statuses, written once: every subcommand's help ends with them.
pub use super::status::TABLE as EXIT_STATUS;

const AUDIT_EXAMPLES: &str = "\
Examples:
  annotations-audit audit -- npx -y @modelcontextprotocol/server-memory
  annotations-audit audit --format json -- python -m mcp_server_git --repository .
  annotations-audit audit --http https://mcp.example.com/mcp --header 'Authorization: Bearer TOKEN'
  annotations-audit audit --format sarif --sarif-artifact server.js -- node server.js > audit.sarif";

const PROBE_EXAMPLES: &str = "\
Examples:
  annotations-audit probe -- node server.js '{sandbox}'
  annotations-audit probe --env MEMORY_FILE_PATH={sandbox}/memory.jsonl -- npx -y @modelcontextprotocol/server-memory
  annotations-audit probe --seed-dir fixtures/repo --cases 8 --seed 7 -- mcp-server-git --repository {sandbox}
  annotations-audit probe --append-only 'state.db#/tables/audit' --format sarif -- ./server > probe.sarif
  annotations-audit probe --http 'http://127.0.0.1:{port}/mcp' -- node server.js --port {port}";

const INIT_EXAMPLES: &str = "\
Examples:
  annotations-audit init -- node server.js '{sandbox}'
  annotations-audit init --seed-dir fixtures/repo -- mcp-server-git --repository {sandbox}/repo
  annotations-audit probe            # reads .annotations-audit.toml, refused while a TODO is left
  annotations-audit init --config probe.toml --force -- ./server && annotations-audit probe --config probe.toml";

const DIFF_EXAMPLES: &str = "\
Examples:
  annotations-audit diff pinned.json new.json
  annotations-audit diff pinned.json -- npx -y @modelcontextprotocol/server-memory
  annotations-audit diff pinned.json --allow trust --http https://mcp.example.com/mcp
  annotations-audit diff --format markdown pinned.json -- node server.js > comment.md";

/// Audit, probe and diff any MCP server's tool annotations.
///
/// The audit lists a server's tools and reports each one's effective hints, what a host would
/// do with it trusting the server or not, and every finding. The probe runs the server in a
/// sandbox and judges its hints by what each call changes there. The diff classifies what
/// changed between two listings.
#[derive(Parser, Debug)]
#[command(
    name = "annotations-audit",
    version,
    after_help = EXIT_STATUS,
    args_override_self = true
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// Parses a command line (the program's name first) and checks what clap's rules cannot say
    /// (a conflict with the server's command hides `requires = "http"`): `--header` and
    /// `--ca-cert` speak of an HTTP server, so without `--http` they are refused, not ignored.
    pub fn parse_checked<I, T>(args: I) -> Result<Cli, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let mut cli = Cli::try_parse_from(args)?;
        let (name, output) = match &cli.command {
            Command::Audit(args) => ("audit", &args.output),
            Command::Probe(args) => ("probe", &args.output),
            Command::Init(args) => ("init", &args.probe.output),
            Command::Diff(args) => ("diff", &args.output),
            Command::Completions { .. } | Command::Explain { .. } => return Ok(cli),
        };
        if output.format == Format::Listing && name != "audit" {
            return Err(refusal(
                name,
                clap::error::ErrorKind::InvalidValue,
                "--format listing is the audit's (annotations-audit audit --format listing -- \
                 CMD > tools.json pins a listing)",
            ));
        }
        let remote = match &mut cli.command {
            Command::Audit(args) => &mut args.remote,
            Command::Diff(args) => &mut args.remote,
            Command::Probe(args) => started_behind(args, "probe")?,
            Command::Init(args) => started_behind(&mut args.probe, "init")?,
            _ => return Ok(cli),
        };
        let refuse = |kind, message: String| refusal(name, kind, message);
        for (index, line) in remote.header.iter().enumerate() {
            let parsed = header(line).map_err(|why| {
                refuse(
                    clap::error::ErrorKind::ValueValidation,
                    format!(
                        "--header number {}: {why} (its value is not shown: it may hold a secret)",
                        index + 1
                    ),
                )
            })?;
            remote.headers.push(parsed);
        }
        if remote.http.is_none() {
            let given = if !remote.header.is_empty() {
                Some("--header")
            } else if remote.ca_cert.is_some() {
                Some("--ca-cert")
            } else {
                None
            };
            if let Some(given) = given {
                return Err(refuse(
                    clap::error::ErrorKind::MissingRequiredArgument,
                    format!(
                        "{given} is for a server reached with --http URL; a server run as a command reads no headers and no certificates"
                    ),
                ));
            }
        }
        Ok(cli)
    }
}

/// The remote part of a probe's arguments (`probe`'s or `init`'s), its `--http` URL checked
/// to be one the probe can start servers behind.
fn started_behind<'a>(args: &'a mut ProbeArgs, name: &str) -> Result<&'a mut Remote, clap::Error> {
    if let Some(url) = &args.remote.http {
        let told = args.command.iter().any(|word| word.contains("{port}"))
            || args.env.iter().any(|(_, value)| value.contains("{port}"));
        loopback(url, told)
            .map_err(|why| refusal(name, clap::error::ErrorKind::ValueValidation, why))?;
    }
    Ok(&mut args.remote)
}

/// Whether `url` (`probe --http`'s) is one the probe can start servers behind: an address of
/// this machine, its port `{port}` (each server the probe starts serves one of its own, told
/// to it by `{port}` in its command or environment: `told`). Why not, otherwise.
fn loopback(url: &str, told: bool) -> Result<(), String> {
    const WHY: &str = "the probe starts the server itself, in a sandbox whose state it observes \
        around each call, and starts more than one (each run afresh, two processes on one \
        sandbox)";
    let parsed = reqwest::Url::parse(&url.replace("{port}", "1"))
        .map_err(|error| format!("--http: not a URL ({error})"))?;
    let host = parsed.host_str().unwrap_or_default();
    let address = host.trim_start_matches('[').trim_end_matches(']');
    let local = host.eq_ignore_ascii_case("localhost")
        || address
            .parse::<std::net::IpAddr>()
            .is_ok_and(|address| address.is_loopback());
    if !local {
        return Err(format!(
            "{WHY}: --http names where the command after -- serves, an address of this machine \
             (127.0.0.1, [::1], localhost). A server someone else runs cannot be sandboxed or \
             reset; its listing is audited with `annotations-audit audit --http URL`"
        ));
    }
    if !url.contains("{port}") || !told {
        return Err(format!(
            "{WHY}, each on a port of its own: write {{port}} in --http's URL and where the \
             server reads its port, in its command or an --env value (e.g. --http \
             'http://127.0.0.1:{{port}}/mcp' -- node server.js --port {{port}})"
        ));
    }
    Ok(())
}

/// An error of the subcommand `name`, with its usage (named as the binary's).
fn refusal(
    name: &str,
    kind: clap::error::ErrorKind,
    message: impl std::fmt::Display,
) -> clap::Error {
    let mut command = <Cli as clap::CommandFactory>::command();
    command.build();
    let command = command.find_subcommand_mut(name).expect("a subcommand");
    command.error(kind, message)
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// List a server's tools: their effective hints, what a host does with them, every finding.
    ///
    /// The server is a command run over stdio (after `--`) or a Streamable HTTP endpoint
    /// (`--http`). A server that fails to start is shown with the last lines of its stderr.
    #[command(after_help = format!("{AUDIT_EXAMPLES}\n\n{EXIT_STATUS}"))]
    Audit(AuditArgs),
    /// Run a server in a sandbox folder and judge its hints by what each call changes there.
    ///
    /// The sandbox is the server's working directory, HOME and TMPDIR; `{sandbox}` in --env
    /// values and in the command is its path. The sandbox and the --writable places are the
    /// only places the server can write: in namespaces of its own (Linux, as root or in a user
    /// namespace) or under Landlock rules (Linux 5.13+, any user); --confine says which, and
    /// --confine none runs it as any process. A violation is
    /// reported only when it shows in each of --runs independent runs; otherwise the hint is
    /// reported nondeterministic, not violated.
    #[command(after_help = format!("{PROBE_EXAMPLES}\n\n{EXIT_STATUS}"))]
    Probe(Box<ProbeArgs>),
    /// Probe a server once and write a settings file to start from: its command, the places
    /// the probe classed volatile or append-only, and each tool with its claimed hints and
    /// the arguments that worked.
    ///
    /// The file is `.annotations-audit.toml` in the working folder, or the one --config names;
    /// `probe` reads it from there. A tool none of whose calls succeeded gets a `TODO` to
    /// write its arguments in, and `probe` refuses the file until none is left. It takes
    /// `probe`'s options but those of a report (--format, --sarif-file, --sarif-artifact,
    /// --evidence), and exits 0 once the file is written, whatever the probe found (the file's
    /// comments say it).
    #[command(after_help = format!("{INIT_EXAMPLES}\n\n{EXIT_STATUS}"))]
    Init(Box<InitArgs>),
    /// Classify what changed between two listings: breaking, trust or compatible.
    ///
    /// Each side is a saved tools/list result (or an array of tools); the new side may be a
    /// live server instead, after `--` or with --http.
    #[command(after_help = format!("{DIFF_EXAMPLES}\n\n{EXIT_STATUS}"))]
    Diff(DiffArgs),
    /// Print what a rule or a verdict means, how to fix the server, and how to ignore it.
    ///
    /// Every finding names its rule (`unset-hint`, `read-only-hint`, ...); without an id, every
    /// rule and verdict is listed.
    #[command(after_help = "Example:\n  annotations-audit explain read-only-hint")]
    Explain {
        /// The rule or verdict (as a finding, a SARIF result or the report names it).
        #[arg(value_name = "ID")]
        id: Option<String>,
    },
    /// Print a shell's completion script for annotations-audit.
    #[command(
        after_help = "Example:\n  annotations-audit completions bash > ~/.local/share/bash-completion/completions/annotations-audit"
    )]
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// How `probe` confines the server to its sandbox (`--confine`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Confine {
    /// Namespaces where this machine allows them, else Landlock; refuse where neither works.
    Auto,
    /// A mount namespace with every mount read-only but the sandbox (and a network namespace
    /// with no route out in a closed-world run): as root, or in a user namespace.
    Namespaces,
    /// Landlock rules (Linux 5.13+, no privilege needed): writes only in the sandbox, and no
    /// TCP connection in a closed-world run (Linux 6.7+).
    Landlock,
    /// Not confined: a write outside the sandbox goes unseen.
    None,
}

/// How the report is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A Markdown table with the findings, for a terminal or a log.
    #[value(alias = "table")]
    Text,
    /// The report as JSON, for machines.
    Json,
    /// A SARIF 2.1.0 log, for code scanning (GitHub's among them).
    Sarif,
    /// A Markdown document, for a pull request's comment.
    Markdown,
    /// `audit` only: the server's `tools/list` result as it sent it (every page), to pin in
    /// the repository and `diff` against later. Exits 0 once the listing is read.
    Listing,
}

/// The report's form.
#[derive(Args, Clone, Debug)]
pub struct Output {
    /// How to write the report.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// With --format sarif: the file every result is also placed in (the server's source or
    /// its pinned listing, relative to the repository); without it, each result on a tool is
    /// placed at the tool's name alone.
    #[arg(long, value_name = "PATH")]
    pub sarif_artifact: Option<String>,
    /// Also write the report as a SARIF log to FILE, whatever --format writes (one run, a
    /// report to read and a log to upload).
    #[arg(long, value_name = "FILE")]
    pub sarif_file: Option<PathBuf>,
}

/// The settings file, and whether its ignores apply.
#[derive(Args, Clone, Debug, Default)]
pub struct Settings {
    /// The settings file (TOML) whose ignore entries, each with its reason, keep what they name
    /// from failing the run, and whose `[probe]` and `[[tool]]` tell a probe the server and its
    /// cases (`init` writes it there) (default: `.annotations-audit.toml`, where there is one).
    #[arg(
        long,
        value_name = "FILE",
        help = "The settings file (TOML) whose [[ignore]] entries, each with its reason, keep \
                what they name from failing the run, and whose [probe] and [[tool]] tell a \
                probe the server and its cases (init writes it) [default: \
                .annotations-audit.toml, where there is one]"
    )]
    pub config: Option<PathBuf>,
    /// Run as if the settings file ignored nothing.
    #[arg(long)]
    pub no_ignores: bool,
    /// A JSON report of an earlier run of the same subcommand: what it had fails nothing, only
    /// what is new does; what it had and is gone is said.
    #[arg(long, value_name = "REPORT")]
    pub baseline: Option<PathBuf>,
}

/// How the server is started or reached, and how long it is waited for.
#[derive(Args, Debug)]
pub struct Connection {
    /// The longest wait for each of the server's answers, in seconds.
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = seconds)]
    pub timeout: Duration,
    /// Keep all of the server's stderr in FILE (each server's lines marked with its number,
    /// after a line naming it).
    #[arg(long, value_name = "FILE")]
    pub server_log: Option<PathBuf>,
}

/// A server reached over Streamable HTTP.
#[derive(Args, Debug)]
pub struct Remote {
    /// The server's Streamable HTTP endpoint (http:// or https://), instead of a command.
    #[arg(long, value_name = "URL", visible_alias = "url")]
    pub http: Option<String>,
    /// A header sent with every request, e.g. 'Authorization: Bearer TOKEN' (repeatable;
    /// its value is never printed).
    #[arg(
        long = "header",
        short = 'H',
        value_name = "NAME: VALUE",
        requires = "http"
    )]
    pub header: Vec<String>,
    /// The headers, read from `header` by [`Cli::parse_checked`] (so a malformed one is refused
    /// without its value, which may be a secret, in the message).
    #[arg(skip)]
    pub headers: Vec<(String, String)>,
    /// A PEM file of certificates to trust beside the platform's: a private CA, or the server's
    /// own certificate (one made with `openssl req -x509` included), pinned.
    #[arg(long, value_name = "FILE", requires = "http")]
    pub ca_cert: Option<PathBuf>,
}

/// `annotations-audit audit`.
#[derive(Args, Debug)]
pub struct AuditArgs {
    #[command(flatten)]
    pub output: Output,
    #[command(flatten)]
    pub settings: Settings,
    #[command(flatten)]
    pub connection: Connection,
    #[command(flatten)]
    pub remote: Remote,
    /// The server's command and its arguments, run over stdio.
    #[arg(
        value_name = "COMMAND",
        trailing_var_arg = true,
        required_unless_present = "http",
        conflicts_with = "http"
    )]
    pub command: Vec<String>,
}

/// `annotations-audit probe`.
#[derive(Args, Debug)]
pub struct ProbeArgs {
    #[command(flatten)]
    pub output: Output,
    #[command(flatten)]
    pub settings: Settings,
    #[command(flatten)]
    pub connection: Connection,
    /// Where the server the command starts serves Streamable HTTP, for a server that speaks
    /// no stdio: a URL of this machine whose port is `{port}`, which the command or an --env
    /// value passes on to the server (each server the probe starts gets a free port of its
    /// own). The probe waits for the port and talks to the server there, with --header and
    /// --ca-cert as the audit's.
    #[command(flatten)]
    pub remote: Remote,
    /// Generated calls of each tool.
    #[arg(long, value_name = "N", default_value_t = 16)]
    pub cases: u32,
    /// The seed the arguments are drawn with: the same seed, the same calls.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// A folder copied into the sandbox before each run.
    #[arg(long, value_name = "DIR")]
    pub seed_dir: Option<PathBuf>,
    /// An environment variable for the server (repeatable; `{sandbox}` is the sandbox's path).
    #[arg(long = "env", value_name = "KEY=VALUE", value_parser = key_value)]
    pub env: Vec<(String, String)>,
    /// Let the server reach the network: its closed-world claims go unjudged.
    #[arg(long)]
    pub allow_open_world: bool,
    /// The longest the whole probe may take, its listing, calls and restarts alike, in seconds.
    #[arg(long, value_name = "SECONDS", default_value = "180", value_parser = seconds)]
    pub probe_timeout: Duration,
    /// In how many independent runs a violation must show to be reported.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    pub runs: u32,
    /// A JSON object of arrays of arguments by tool name, called before the generated ones.
    #[arg(long, value_name = "FILE")]
    pub cases_file: Option<PathBuf>,
    /// Also write the evidence a host acts on to FILE: each tool's descriptor digest and a
    /// verdict for each hint it claimed (read by `mcp_annotations::host::Evidence`).
    #[arg(long, value_name = "FILE")]
    pub evidence: Option<PathBuf>,
    /// A place whose changes are reported, never judged: a path of the sandbox, or
    /// PATH#/json/pointer into what a file holds (a SQLite file's /tables/NAME/rows/KEY/COLUMN,
    /// `*` for any segment). Repeatable.
    #[arg(long, value_name = "PLACE", value_parser = place)]
    pub volatile: Vec<Place>,
    /// A place that may grow under an idempotent or non-destructive tool, never under a
    /// read-only one (a log, an audit table). Repeatable.
    #[arg(long, value_name = "PLACE", value_parser = place)]
    pub append_only: Vec<Place>,
    /// How the server is confined to the sandbox: `auto` takes the strongest this machine
    /// has, and refuses to probe where it has none.
    #[arg(long, value_enum, value_name = "METHOD", default_value_t = Confine::Auto)]
    pub confine: Confine,
    /// Run the server as any process, not confined to the sandbox: `--confine none`.
    #[arg(long, conflicts_with = "confine")]
    pub unconfined: bool,
    /// A place left writable beside the sandbox (repeatable); what it holds is not observed.
    #[arg(long, value_name = "DIR", value_parser = writable)]
    pub writable: Vec<PathBuf>,
    /// The most processes and threads one run of the server may have at once.
    #[arg(long, value_name = "N", default_value_t = 512, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_processes: u64,
    /// The most memory one run of the server may hold, its processes together (512M, 2G).
    #[arg(long, value_name = "SIZE", default_value = "2G", value_parser = bytes)]
    pub max_memory: u64,
    /// The most one run of the server may write to its sandbox (512M, 1G).
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = bytes)]
    pub max_disk: u64,
    /// A command (run with `sh -c` in the sandbox) around each call, printing as JSON state the
    /// sandbox's files do not hold; judged as the place @observe1, @observe2, ... Repeatable.
    #[arg(long, value_name = "CMD")]
    pub observe: Vec<String>,
    /// A command (run with `sh -c` in the sandbox, with the --env values) that sets up the
    /// server's state once the sandbox is filled from --seed-dir and before the server starts:
    /// in every run's fresh sandbox, the control session's included (a migration, a store's
    /// first setup). Repeatable, run in order; one that fails stops the probe (exit 3).
    #[arg(long, value_name = "CMD")]
    pub setup: Vec<String>,
    /// The server's command and its arguments, run in the sandbox (over stdio, or serving
    /// --http's URL); where none is given, the settings file's `[probe] command`.
    #[arg(value_name = "COMMAND", trailing_var_arg = true)]
    pub command: Vec<String>,
}

/// `annotations-audit init`.
#[derive(Args, Debug)]
pub struct InitArgs {
    /// Write over a settings file that is there already.
    #[arg(long)]
    pub force: bool,
    /// The probe whose findings the settings file is written from.
    #[command(flatten)]
    pub probe: ProbeArgs,
}

/// `annotations-audit diff`.
#[derive(Args, Debug)]
pub struct DiffArgs {
    #[command(flatten)]
    pub output: Output,
    #[command(flatten)]
    pub settings: Settings,
    #[command(flatten)]
    pub connection: Connection,
    #[command(flatten)]
    pub remote: Remote,
    /// The classes of change that do not fail the diff.
    #[arg(long, value_name = "CLASSES", value_delimiter = ',', value_parser = ["breaking", "trust"])]
    pub allow: Vec<String>,
    /// The old listing: a saved tools/list result or an array of tools.
    #[arg(value_name = "OLD")]
    pub old: String,
    /// The new listing, a file; or give a live server after `--` or with --http.
    #[arg(value_name = "NEW", conflicts_with_all = ["command", "http"])]
    pub new: Option<String>,
    /// The live server's command and its arguments, after `--`.
    #[arg(value_name = "COMMAND", last = true, conflicts_with = "http")]
    pub command: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_well_formed() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    #[test]
    fn options_come_in_any_order() {
        let parse = |args: &[&str]| {
            Cli::parse_checked(std::iter::once("annotations-audit").chain(args.iter().copied()))
        };
        let Command::Diff(diff) = parse(&[
            "diff", "old.json", "--format", "json", "new.json", "--allow", "trust",
        ])
        .unwrap()
        .command
        else {
            panic!("not a diff");
        };
        assert_eq!(
            (diff.old.as_str(), diff.new.as_deref()),
            ("old.json", Some("new.json"))
        );
        assert_eq!(diff.output.format, Format::Json);
        assert_eq!(diff.allow, ["trust"]);
        let Command::Audit(audit) = parse(&["audit", "node", "server.js", "--format", "json"])
            .unwrap()
            .command
        else {
            panic!("not an audit");
        };
        // Everything after the command is the command's.
        assert_eq!(audit.command, ["node", "server.js", "--format", "json"]);
        assert_eq!(audit.output.format, Format::Text);
        // A header without --http, a header without a colon: refused.
        let unheard = parse(&["audit", "-H", "A: b", "--", "x"]).unwrap_err();
        assert!(
            unheard
                .to_string()
                .contains("--header is for a server reached with --http"),
            "{unheard}"
        );
        let malformed =
            parse(&["audit", "--http", "http://h/", "-H", "Authorization s3cret"]).unwrap_err();
        let said = malformed.to_string();
        assert!(said.contains("--header number 1"), "{said}");
        assert!(!said.contains("s3cret"), "{said}");
        // The probe starts the server it reaches over HTTP: on this machine, and with its
        // command.
        let remote = parse(&["probe", "--http", "https://mcp.example.com/mcp", "--", "x"]);
        let said = remote.unwrap_err().to_string();
        assert!(said.contains("starts the server itself"), "{said}");
        assert!(parse(&["probe", "--http", "http://127.0.0.1:{port}/mcp"]).is_err());
        let fixed = parse(&[
            "probe",
            "--http",
            "http://127.0.0.1:3001/",
            "--",
            "x",
            "3001",
        ]);
        let said = fixed.unwrap_err().to_string();
        assert!(said.contains("each on a port of its own"), "{said}");
        let untold = parse(&["probe", "--http", "http://[::1]:{port}/", "--", "x"]);
        assert!(untold.is_err());
        for url in [
            "http://127.0.0.1:{port}/mcp",
            "http://[::1]:{port}/",
            "http://localhost:{port}/",
        ] {
            assert!(
                parse(&["probe", "--http", url, "--", "x", "{port}"]).is_ok(),
                "{url}"
            );
        }
        let by_env = [
            "probe",
            "--env",
            "PORT={port}",
            "--http",
            "http://localhost:{port}/",
        ];
        assert!(parse(&[&by_env[..], &["--", "x"]].concat()).is_ok());
    }
}
