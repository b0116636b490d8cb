//! The settings file's part for the probe (`.annotations-audit.toml` in the working folder, or
//! the file `--config` names), as `annotations-audit init` writes it: `[probe]` (the server's
//! command, what fills and prepares its sandbox, the places classed volatile or append-only)
//! and a `[[tool]]` entry per tool with the arguments it is called with first. A file that
//! still holds a `TODO` comment is refused: it is a file `init` could not finish, and a probe run on
//! it would be judged on less than its author meant. (`[[ignore]]` entries are read by
//! `crate::report::ignore`.)

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use mcp_annotations_verify::judge::classes::Place;
use serde::Deserialize;
use serde_json::Value;

use super::args::Settings;

/// The settings file read when `--config` names none, where the working folder has one.
pub const DEFAULT_FILE: &str = ".annotations-audit.toml";

/// The comment `init` writes where a tool's arguments are wanted: a line that starts with it
/// (spaces aside) stops the probe.
pub const TODO: &str = "# TODO:";

/// The settings file as the probe reads it; its `[[ignore]]` entries are
/// `crate::report::ignore`'s.
#[derive(Deserialize)]
struct File {
    #[serde(default)]
    probe: Option<Written>,
    #[serde(default)]
    tool: Vec<WrittenTool>,
}

/// `[probe]` as written.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Written {
    #[serde(default)]
    command: Vec<String>,
    seed_dir: Option<PathBuf>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    #[serde(default)]
    setup: Vec<String>,
    #[serde(default)]
    volatile: Vec<String>,
    #[serde(default)]
    append_only: Vec<String>,
    http: Option<String>,
    #[serde(default)]
    allow_open_world: bool,
}

/// A `[[tool]]` entry as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WrittenTool {
    name: String,
    #[serde(default)]
    cases: Vec<toml::Table>,
}

/// What the settings file tells a probe; empty where there is no file.
#[derive(Debug, Default)]
pub struct ForProbe {
    /// The server's command (`[probe] command`), used where the command line gives none.
    pub command: Vec<String>,
    /// `seed-dir`, used where the command line gives no `--seed-dir`.
    pub seed_dir: Option<PathBuf>,
    /// `env`, before the command line's `--env` values.
    pub env: Vec<(String, String)>,
    /// `setup`, before the command line's `--setup` commands.
    pub setup: Vec<String>,
    /// `volatile`, beside the command line's.
    pub volatile: Vec<Place>,
    /// `append-only`, beside the command line's.
    pub append_only: Vec<Place>,
    /// Each `[[tool]]` entry's cases, by tool name, as JSON argument objects.
    pub cases: serde_json::Map<String, Value>,
    /// `http`: where the server the command starts serves Streamable HTTP (`{port}` its port),
    /// used where the command line gives no `--http`.
    pub http: Option<String>,
    /// `allow-open-world = true`: as `--allow-open-world`.
    pub allow_open_world: bool,
}

/// The settings file `settings` names: `--config FILE`, else `.annotations-audit.toml` where
/// the working folder has one.
pub fn path(settings: &Settings) -> Option<PathBuf> {
    match &settings.config {
        Some(path) => Some(path.clone()),
        None => Some(PathBuf::from(DEFAULT_FILE)).filter(|path| path.is_file()),
    }
}

/// The probe's part of the settings file `settings` names (`--config FILE`, or
/// `.annotations-audit.toml` where the working folder has one).
///
/// # Errors
///
/// The file cannot be read, is not TOML, has a key or a place the probe does not know, or
/// still holds a `TODO` (named by its line).
pub fn for_probe(settings: &Settings) -> Result<ForProbe, String> {
    let Some(path) = path(settings) else {
        return Ok(ForProbe::default());
    };
    let text = std::fs::read_to_string(&path)
        .map_err(|error| format!("cannot read the settings file {}: {error}", path.display()))?;
    read(&text, &path)
}

/// The probe's part of the settings file `path`, whose text is `text`.
fn read(text: &str, path: &Path) -> Result<ForProbe, String> {
    let shown = path.display();
    if let Some((at, line)) = text
        .lines()
        .enumerate()
        .find(|(_, line)| line.trim_start().starts_with(TODO))
    {
        return Err(format!(
            "the settings file {shown} still has a TODO on line {}: {}\n(write what it asks \
             for and remove the TODO, or remove the entry)",
            at + 1,
            line.trim()
        ));
    }
    let file: File =
        toml::from_str(text).map_err(|error| format!("the settings file {shown}: {error}"))?;
    let written = file.probe.unwrap_or_default();
    let places = |key: &str, places: Vec<String>| -> Result<Vec<Place>, String> {
        places
            .iter()
            .map(|place| {
                Place::parse(place).map_err(|why| format!("{shown}: [probe] {key}: {why}"))
            })
            .collect()
    };
    let mut cases = serde_json::Map::new();
    for entry in file.tool {
        let listed = cases
            .entry(entry.name.clone())
            .or_insert_with(|| Value::Array(Vec::new()));
        for case in entry.cases {
            let case = json_of(&toml::Value::Table(case))
                .map_err(|error| format!("{shown}: [[tool]] `{}`: a case: {error}", entry.name))?;
            if let Value::Array(listed) = listed {
                listed.push(case);
            }
        }
    }
    Ok(ForProbe {
        command: written.command,
        seed_dir: written.seed_dir,
        env: written.env.into_iter().collect(),
        setup: written.setup,
        volatile: places("volatile", written.volatile)?,
        append_only: places("append-only", written.append_only)?,
        cases,
        http: written.http,
        allow_open_world: written.allow_open_world,
    })
}

/// A TOML value as the JSON a tool is sent: a date-time as the text TOML writes it, a number
/// that is not finite refused (JSON has none).
fn json_of(value: &toml::Value) -> Result<Value, String> {
    Ok(match value {
        toml::Value::String(text) => Value::from(text.as_str()),
        toml::Value::Integer(number) => Value::from(*number),
        toml::Value::Float(number) => serde_json::Number::from_f64(*number)
            .map(Value::Number)
            .ok_or_else(|| format!("{number} is no number JSON can send"))?,
        toml::Value::Boolean(flag) => Value::from(*flag),
        toml::Value::Datetime(at) => Value::from(at.to_string()),
        toml::Value::Array(items) => {
            Value::Array(items.iter().map(json_of).collect::<Result<_, _>>()?)
        }
        toml::Value::Table(table) => Value::Object(
            table
                .iter()
                .map(|(key, value)| Ok((key.clone(), json_of(value)?)))
                .collect::<Result<_, String>>()?,
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_probe_reads_what_init_writes_and_refuses_a_todo() {
        let text = r#"
[probe]
command = ["node", "server.js", "{sandbox}"]
seed-dir = "seed"
env = { STORE = "{sandbox}/store.db" }
setup = ["touch ready"]
volatile = ["store.db#/tables/boots/rows/*/at"]
append-only = ["store.db#/tables/audit"]

[[tool]]
name = "get_item"
cases = [{ key = "a" }, { key = "b", limit = 2 }]

[[tool]]
name = "list_items"

[[ignore]]
tool = "get_item"
hint = "readOnly"
reason = "its access log"
"#;
        let read = read(text, Path::new("s.toml")).unwrap();
        assert_eq!(read.command, ["node", "server.js", "{sandbox}"]);
        assert_eq!(read.seed_dir.as_deref(), Some(Path::new("seed")));
        assert_eq!(
            read.env,
            [("STORE".to_owned(), "{sandbox}/store.db".to_owned())]
        );
        assert_eq!(read.setup, ["touch ready"]);
        assert_eq!(read.volatile.len(), 1);
        assert_eq!(read.append_only.len(), 1);
        assert_eq!(
            Value::Object(read.cases),
            serde_json::json!({
                "get_item": [{"key": "a"}, {"key": "b", "limit": 2}],
                "list_items": []
            })
        );
        let todo = format!("{text}\n[[tool]]\nname = \"x\"\n# TODO: no call succeeded\n");
        let refused = super::read(&todo, Path::new("s.toml")).unwrap_err();
        assert!(refused.contains("still has a TODO on line 24"), "{refused}");
        // A TODO of the author's own, anywhere but at the start of a comment, stops nothing.
        let own = format!("{text}\n# keep: TODO drop this once upstream fixes it\n");
        assert!(super::read(&own, Path::new("s.toml")).is_ok());
        // A date-time is sent as text; a value JSON cannot hold is refused.
        let dated = "[[tool]]\nname = \"t\"\ncases = [{ at = 2024-01-01T00:00:00Z }]\n";
        let read_dated = super::read(dated, Path::new("s.toml")).unwrap();
        assert_eq!(
            read_dated.cases["t"],
            serde_json::json!([{"at": "2024-01-01T00:00:00Z"}])
        );
        let endless = "[[tool]]\nname = \"t\"\ncases = [{ n = inf }]\n";
        assert!(super::read(endless, Path::new("s.toml")).is_err());
        let unknown = super::read("[probe]\ncomand = []\n", Path::new("s.toml")).unwrap_err();
        assert!(unknown.contains("unknown field `comand`"), "{unknown}");
        let place = super::read("[probe]\nvolatile = [\"\"]\n", Path::new("s.toml"));
        assert!(place.unwrap_err().contains("[probe] volatile"));
    }
}
