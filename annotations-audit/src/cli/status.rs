//! The exit statuses, each its own: what a CI step or a script branches on. Written once here;
//! `--help` and the README print [`TABLE`].

use super::args::Format;

/// How a run of the audit ended, as its exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    /// Nothing fails: no error finding, no violated hint, no refused change.
    Clean = 0,
    /// An error finding (`audit`), a call that broke the protocol (`probe`), a breaking or
    /// trust change not allowed (`diff`).
    Findings = 1,
    /// The command line, or a file it names, is wrong: nothing was run.
    Usage = 2,
    /// The server or the machine failed the run: no verdict.
    CouldNotRun = 3,
    /// A hint the probe saw violated.
    Violations = 4,
}

impl Status {
    /// The status a run's results call for, written as `format`: a SARIF log carries its
    /// results itself (code scanning decides what they fail), so it is `Clean` whatever they are.
    pub fn of_results(failing: Status, format: Format) -> Status {
        if format == Format::Sarif {
            Status::Clean
        } else {
            failing
        }
    }

    /// The process's exit status.
    pub fn code(self) -> i32 {
        self as i32
    }
}

/// The exit-status table, as `--help` ends.
pub const TABLE: &str = "\
Exit status:
  0  clean: no error finding, no violated hint, no refused change
  1  findings: an error finding (audit), a call that broke the protocol and no violated
     hint (probe), a breaking or trust change not --allow'ed (diff)
  2  bad usage: a bad command line, or a file it names (--config, --baseline, --cases-file,
     diff's listings) that cannot be read or is not what it should be; nothing was run
  3  could not run: a server that does not start or answer, a sandbox that cannot be made,
     a report that cannot be written
  4  violations: a hint the probe saw violated
  What an [[ignore]] entry covers, or --baseline had, fails nothing. With --format sarif the
  results are the log's and the status is 0, 2 or 3.";

/// Why a run gave no report.
#[derive(Debug)]
pub enum Failure {
    /// The command line, or a file it names, is wrong.
    Usage(String),
    /// The server or the machine failed the run.
    CouldNotRun(String),
}

impl Failure {
    /// The exit status for it.
    pub fn status(&self) -> Status {
        match self {
            Failure::Usage(_) => Status::Usage,
            Failure::CouldNotRun(_) => Status::CouldNotRun,
        }
    }

    /// What to say.
    pub fn message(&self) -> &str {
        match self {
            Failure::Usage(message) | Failure::CouldNotRun(message) => message,
        }
    }
}

/// An error that says nothing of its class is the run's: the server's or the machine's.
impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure::CouldNotRun(message)
    }
}

/// A run's outcome: its status and its report's text, or why there is none.
pub type Outcome = Result<(Status, String), Failure>;
