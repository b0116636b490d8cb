//! The command line as earlier releases spelled it, mapped onto this one's subcommands
//! ([`modernize`]), and a misspelled subcommand said rather than run as the server.

use super::args::Cli;

/// The subcommands' names, as the command line spells them.
const SUBCOMMANDS: [&str; 7] = [
    "audit",
    "probe",
    "init",
    "diff",
    "explain",
    "completions",
    "help",
];

/// The arguments in this release's spelling, and a note for each earlier spelling mapped:
/// `--probe ...` is `probe ...`, `--diff OLD [NEW] ...` is `diff OLD [NEW] ...`, and the bare
/// `annotations-audit [OPTIONS] [--] CMD` is `audit`. Options may come before the subcommand
/// (`--format json audit -- CMD`). Only the options before the first word that is neither an
/// option nor an option's value are looked at: nothing of the server's command is.
///
/// # Errors
///
/// A first word that is not a subcommand but is spelled like one (`prob`): said, with the
/// subcommand meant, rather than run as the server.
pub fn modernize(mut args: Vec<String>) -> Result<(Vec<String>, Vec<String>), String> {
    let mut notes = Vec::new();
    let valued = options_with_values();
    // The options part: up to `--`, a subcommand, or the first positional word.
    let mut end = 0;
    while let Some(arg) = args.get(end) {
        if arg == "--" || SUBCOMMANDS.contains(&arg.as_str()) {
            break;
        }
        if arg.len() > 1 && arg.starts_with('-') {
            let takes_value = !arg.contains('=') && valued.contains(arg.as_str());
            end += if takes_value { 2 } else { 1 };
            continue;
        }
        break;
    }
    let end = end.min(args.len());
    if matches!(args.get(end), Some(word) if SUBCOMMANDS.contains(&word.as_str())) {
        // Options before the subcommand are the subcommand's.
        let subcommand = args.remove(end);
        args.insert(0, subcommand);
        return Ok((args, notes));
    }
    if args[..end]
        .iter()
        .any(|arg| matches!(arg.as_str(), "-h" | "--help" | "-V" | "--version"))
        && !args[..end]
            .iter()
            .any(|arg| arg == "--probe" || arg == "--diff")
        || args.is_empty()
    {
        return Ok((args, notes));
    }
    let mode = ["--probe", "--diff"]
        .into_iter()
        .find(|mode| args[..end].iter().any(|arg| arg == mode));
    let subcommand = match mode {
        Some(mode) => {
            let at = args[..end]
                .iter()
                .position(|arg| arg == mode)
                .unwrap_or_default();
            args.remove(at);
            let subcommand = mode.trim_start_matches('-');
            notes.push(format!(
                "note: `{mode}` is spelled `annotations-audit {subcommand}` now (see `annotations-audit {subcommand} --help`)"
            ));
            subcommand
        }
        None => {
            if let Some(word) = args.get(end).filter(|word| *word != "--")
                && let Some(meant) = misspelled(word)
            {
                return Err(format!(
                    "`{word}` is not a subcommand: did you mean `{meant}`? (a server's command \
                     goes after `--`: annotations-audit audit -- {word} ...)"
                ));
            }
            "audit"
        }
    };
    args.insert(0, subcommand.to_owned());
    Ok((args, notes))
}

/// The subcommand `word` looks like a misspelling of, if any: at most two edits away, and not a
/// path.
fn misspelled(word: &str) -> Option<&'static str> {
    if word.contains('/') || word.contains('.') {
        return None;
    }
    SUBCOMMANDS
        .into_iter()
        .filter(|name| *name != "help")
        .find(|name| edits(word, name) <= 2)
}

/// The Levenshtein distance between `a` and `b`.
fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substituted = previous + usize::from(ca != *cb);
            previous = row[j + 1];
            row[j + 1] = substituted.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

/// Every option of every subcommand that takes a value, as typed (`--format`, `-H`), and the
/// legacy options' (`--diff` takes none: its files are positional).
fn options_with_values() -> std::collections::HashSet<String> {
    use clap::CommandFactory;
    let mut found = std::collections::HashSet::new();
    for subcommand in Cli::command().get_subcommands() {
        for arg in subcommand.get_arguments() {
            if arg.is_positional() || !arg.get_action().takes_values() {
                continue;
            }
            for long in arg
                .get_long()
                .into_iter()
                .chain(arg.get_all_aliases().into_iter().flatten())
            {
                found.insert(format!("--{long}"));
            }
            if let Some(short) = arg.get_short() {
                found.insert(format!("-{short}"));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(args: &[&str]) -> Vec<String> {
        args.iter().map(|arg| (*arg).to_owned()).collect()
    }

    #[test]
    fn earlier_spellings_map_onto_subcommands() {
        let modernize = |args| modernize(args).unwrap();
        let (args, notes) = modernize(strings(&["--format", "json", "--", "node", "s.js"]));
        assert_eq!(
            args,
            strings(&["audit", "--format", "json", "--", "node", "s.js"])
        );
        assert!(notes.is_empty());
        let (args, notes) = modernize(strings(&["--probe", "--cases", "3", "--", "x", "--diff"]));
        assert_eq!(
            args,
            strings(&["probe", "--cases", "3", "--", "x", "--diff"])
        );
        assert_eq!(notes.len(), 1);
        assert!(notes[0].contains("`annotations-audit probe`"), "{notes:?}");
        let (args, _) = modernize(strings(&[
            "--format", "json", "--diff", "old.json", "--", "srv",
        ]));
        assert_eq!(
            args,
            strings(&["diff", "--format", "json", "old.json", "--", "srv"])
        );
        // This release's spelling, and nothing at all, are left alone.
        for given in [&["probe", "--", "x"][..], &["--version"], &[]] {
            assert_eq!(modernize(strings(given)).0, strings(given));
        }
        // Options before the subcommand are its own; the server's words are never read, even
        // one spelled like a mode or a subcommand.
        assert_eq!(
            modernize(strings(&["--format", "json", "diff", "a", "b"])).0,
            strings(&["diff", "--format", "json", "a", "b"])
        );
        assert_eq!(
            modernize(strings(&["echo", "hi", "--diff", "e.json"])).0,
            strings(&["audit", "echo", "hi", "--diff", "e.json"])
        );
        assert_eq!(
            modernize(strings(&["--timeout", "5", "node", "audit"])).0,
            strings(&["audit", "--timeout", "5", "node", "audit"])
        );
    }

    #[test]
    fn a_misspelled_subcommand_is_said_not_run() {
        for (typed, meant) in [("prob", "probe"), ("audti", "audit"), ("dif", "diff")] {
            let error = modernize(strings(&[typed, "--", "x"])).unwrap_err();
            assert!(
                error.contains(&format!("did you mean `{meant}`")),
                "{error}"
            );
        }
        // A program's name, or a path, is the bare form's server.
        assert!(modernize(strings(&["node", "server.js"])).is_ok());
        assert!(modernize(strings(&["./prob"])).is_ok());
    }
}
