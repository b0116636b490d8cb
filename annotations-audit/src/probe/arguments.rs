//! What the probe's generated arguments may be replaced with: the sandbox's folders and files
//! (for a value whose name says it is a path), a git repository's refs (for one whose name says
//! it is a ref), the values the tool's failed calls named as wanted, and the values earlier
//! calls showed, each kept only while the arguments stay valid; and where each tool's
//! arguments come from ([`Cases`]).

use std::path::Path;

use mcp_annotations::Tool;
use proptest::strategy::{BoxedStrategy, Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use serde_json::Value;

use super::origins::{self, Origins};
use super::parts::runner_for;
use super::session::Session;

use mcp_annotations_verify::observe::formats::Format;
use mcp_annotations_verify::observe::tree::Tree;

/// The sandbox's paths, relative and absolute, and every string and number seen in earlier
/// arguments and results: what generated strings and numbers may be replaced with.
pub fn pool(sandbox: &Path, tree: &Tree, seen: &[Value]) -> Pool {
    let mut pool = Pool::default();
    for (path, entry) in tree {
        // A git repository's branches and tags, and the commits they name: what a tool that
        // takes a ref can be given (`main`, a commit id), where a random string names none.
        for kind in ["/refs/heads/", "/refs/tags/"] {
            if let Some((_, name)) = path.split_once(&format!(".git{kind}")) {
                pool.refs.push(Value::from(name));
                if let Some(id) = entry.contents.as_deref().map(String::from_utf8_lossy) {
                    pool.refs.push(Value::from(id.trim()));
                }
            }
        }
        // What a database or a document names: its tables and columns (and statements over
        // them, for a tool that takes SQL), its sheets; and the values it holds.
        match &entry.view {
            Some((Format::Sqlite, view)) => {
                for (table, contents) in view["tables"].as_object().into_iter().flatten() {
                    pool.named("table", table.as_str());
                    let quoted = format!("\"{}\"", table.replace('"', "\"\""));
                    for statement in [
                        format!("SELECT * FROM {quoted}"),
                        format!("SELECT count(*) FROM {quoted}"),
                        format!("INSERT INTO {quoted} DEFAULT VALUES"),
                        format!("DELETE FROM {quoted} WHERE 0"),
                    ] {
                        pool.named("sql", statement.as_str());
                        pool.named("query", statement.as_str());
                        pool.named("statement", statement.as_str());
                    }
                    for column in contents["columns"].as_array().into_iter().flatten() {
                        if let Some(column) = column.as_str() {
                            pool.named("column", column);
                            pool.named("field", column);
                        }
                    }
                    // A value of a column, for an argument named as the column is (`key`,
                    // `user_id`): the rows a tool is most likely asked about.
                    let rows = contents["rows"].as_object().into_iter().flatten();
                    for (_, row) in rows.take(16) {
                        for (column, value) in row.as_object().into_iter().flatten() {
                            if value.is_string() || value.is_number() {
                                pool.named(column.as_str(), value.clone());
                            }
                        }
                        mcp_annotations_verify::scalars(row, &mut pool.seen_here);
                    }
                }
            }
            Some((Format::Zip, view)) => {
                let workbook = &view["members"]["xl/workbook.xml"];
                for sheets in workbook["children"].as_array().into_iter().flatten() {
                    for sheet in sheets["children"].as_array().into_iter().flatten() {
                        if let Some(name) = sheet["attributes"]["name"].as_str() {
                            pool.named("sheet", name);
                        }
                    }
                }
            }
            Some((Format::Json, Value::Object(map))) => {
                for key in map.keys().take(64) {
                    pool.seen_here.push(Value::from(key.as_str()));
                }
            }
            _ => {}
        }
        // What a tool is meant to reach: not the insides of hidden folders (`.git`).
        if path.split('/').any(|part| part.starts_with('.')) {
            continue;
        }
        let absolute = sandbox.join(path).to_string_lossy().into_owned();
        // Paths a tool may be given: folders and regular files, not pipes or devices.
        let into = match entry.kind {
            "dir" => &mut pool.dirs,
            "file" => &mut pool.files,
            _ => continue,
        };
        into.push(Value::from(absolute));
        into.push(Value::from(path.clone()));
        // Its name alone, and without its extension: what a tool that takes a name (a note's,
        // a box's) stores under.
        let name = path.rsplit('/').next().unwrap_or(path);
        pool.seen_here.push(Value::from(name));
        if let Some((stem, _)) = name.rsplit_once('.').filter(|(stem, _)| !stem.is_empty()) {
            pool.seen_here.push(Value::from(stem));
        }
        // Inside a git work tree, also relative to it: what git's own commands take.
        let mut above = path.as_str();
        while let Some((parent, _)) = above.rsplit_once('/') {
            if tree.contains_key(&format!("{parent}/.git/HEAD")) {
                into.push(Value::from(&path[parent.len() + 1..]));
                break;
            }
            above = parent;
        }
    }
    pool.dirs
        .push(Value::from(sandbox.to_string_lossy().into_owned()));
    if !pool.refs.is_empty() {
        pool.refs.push(Value::from("HEAD"));
    }
    pool.seen = seen.to_vec();
    pool
}

/// What generated values may be replaced with: the sandbox's folders and files (absolute and
/// relative) and the values earlier calls showed.
#[derive(Default)]
pub struct Pool {
    dirs: Vec<Value>,
    files: Vec<Value>,
    /// A git repository's refs and the commits they name, and `HEAD`.
    refs: Vec<Value>,
    /// Values for an argument whose name holds the word (lowercase): `table`, `column`,
    /// `sheet`, `sql`, a column's name.
    names: Vec<(String, Value)>,
    /// The values earlier calls showed.
    seen: Vec<Value>,
    /// Values the sandbox holds (rows of a database, keys of a JSON store).
    seen_here: Vec<Value>,
    /// Values the tool's failed calls named as wanted, by the argument they are for.
    learned: Vec<(String, Value)>,
    /// What the answers of tools sharing a word of its name named (`list_boxes` for
    /// `open_box`): a chain's values, tried before the others seen.
    related: Vec<Value>,
}

impl Pool {
    fn named(&mut self, word: impl Into<String>, value: impl Into<Value>) {
        let (word, value) = (word.into().to_ascii_lowercase(), value.into());
        if !self.names.iter().any(|(w, v)| *w == word && *v == value) && self.names.len() < 1024 {
            self.names.push((word, value));
        }
    }

    /// The candidates for the value at `path` (a JSON pointer into the arguments), each with
    /// where it comes from: a git repository's refs for a value whose name says it is one
    /// (`ref`, `branch`, `revision`, `commit`), paths of the sandbox for a value whose name
    /// says it is one (`path`, `file`, `dir`, `repo`), the values seen for any other.
    fn for_leaf(&self, path: &str, current: &Value) -> Vec<(&Value, &'static str)> {
        let written = path
            .rsplit('/')
            .find(|part| part.parse::<usize>().is_err())
            .unwrap_or("");
        // What the tool's own answers said this argument wants comes first.
        let learned: Vec<&Value> = self
            .learned
            .iter()
            .filter(|(argument, value)| {
                argument.eq_ignore_ascii_case(written) && value.is_string() == current.is_string()
            })
            .map(|(_, value)| value)
            .collect();
        if !learned.is_empty() {
            return marked(learned, origins::ERROR);
        }
        let name = written.to_ascii_lowercase();
        let is = |words: &[&str]| words.iter().any(|word| name.contains(word));
        // A value that says which kind of a thing (`branch_type`, `diff_mode`) names none, and
        // a new name (`new_name`, `newTitle`) is none that exists already.
        if is(&["type", "kind", "mode", "format", "new"]) {
            return Vec::new();
        }
        let named: Vec<&Value> = self
            .names
            .iter()
            .filter(|(word, value)| {
                name.contains(word.as_str())
                    && value.is_string() == current.is_string()
                    && value.is_number() == current.is_number()
            })
            .map(|(_, value)| value)
            .collect();
        if !named.is_empty() {
            return marked(named, origins::STATE);
        }
        // One of a well-known format its name says (`source_timezone`, `due_date`) was
        // generated as one, which no path or value seen elsewhere is.
        if mcp_annotations_verify::format_named(written).is_some() {
            return Vec::new();
        }
        let related: Vec<&Value> = self
            .related
            .iter()
            .filter(|value| {
                value.is_string() == current.is_string() && value.is_number() == current.is_number()
            })
            // A name or an id, not a sentence an answer said.
            .filter(|value| {
                value
                    .as_str()
                    .is_none_or(|text| text.len() <= 64 && !text.contains(char::is_whitespace))
            })
            .collect();
        let path_named = is(&[
            "path",
            "file",
            "dir",
            "folder",
            "source",
            "destination",
            "target",
            "repo",
            "root",
        ]);
        if !related.is_empty() && !path_named {
            return marked(related, origins::EARLIER_CALL);
        }
        let paths: Vec<&Value> = if !current.is_string() {
            Vec::new()
        } else if is(&["ref", "branch", "revision", "commit", "sha", "tag"]) {
            self.refs.iter().collect()
        } else if is(&["dir", "repo", "folder", "root"]) {
            self.dirs.iter().collect()
        } else if is(&["target"]) {
            // A path or a ref (what to diff against).
            self.files
                .iter()
                .chain(&self.dirs)
                .chain(&self.refs)
                .collect()
        } else if is(&["file", "path", "source", "destination"]) {
            self.files.iter().chain(&self.dirs).collect()
        } else {
            Vec::new()
        };
        if !paths.is_empty() {
            return marked(paths, origins::STATE);
        }
        let held = self.seen_here.iter().chain(&self.files);
        (self.seen.iter().map(|value| (value, origins::EARLIER_CALL)))
            .chain(held.map(|value| (value, origins::STATE)))
            .filter(|(value, _)| {
                value.is_string() == current.is_string() && value.is_number() == current.is_number()
            })
            .collect()
    }
}

/// Each of `values`, marked as coming from `origin`.
fn marked<'p>(values: Vec<&'p Value>, origin: &'static str) -> Vec<(&'p Value, &'static str)> {
    values.into_iter().map(|value| (value, origin)).collect()
}

/// `arguments` with some strings and numbers replaced from `pool` (as `choices` say), each
/// kept only while the arguments stay valid to `validator`; each value replaced marked in
/// `origins` with where its replacement came from.
pub fn reuse(
    arguments: &Value,
    choices: &[u8],
    pool: &Pool,
    validator: &jsonschema::Validator,
    origins: &mut Origins,
) -> Value {
    let mut arguments = arguments.clone();
    let paths = mcp_annotations_verify::scalar_paths(&arguments);
    for (leaf, path) in paths.into_iter().enumerate() {
        let Some(current) = arguments.pointer(&path).cloned() else {
            continue;
        };
        let like = pool.for_leaf(&path, &current);
        if like.is_empty() {
            continue;
        }
        // A path-like value (or a ref, or a name the sandbox holds) is taken from the sandbox unless the choice says keep
        // (1 in 3); any other value 1 time in 3.
        let choice = choices.get(leaf).copied().unwrap_or(0);
        let path_like = current.is_string()
            && like.first().is_some_and(|(value, _)| {
                value.as_str().is_some_and(|text| {
                    pool.dirs
                        .iter()
                        .chain(&pool.files)
                        .chain(&pool.refs)
                        .chain(pool.names.iter().map(|(_, value)| value))
                        .chain(pool.learned.iter().map(|(_, value)| value))
                        .chain(&pool.related)
                        .any(|p| p.as_str() == Some(text))
                })
            });
        let taken = if path_like {
            choice % 3 != 2
        } else {
            choice % 3 == 0 && !choices.is_empty()
        };
        if !taken {
            continue;
        }
        let (replacement, origin) = like[usize::from(choice) % like.len()];
        if let Some(slot) = arguments.pointer_mut(&path) {
            *slot = replacement.clone();
        }
        let valid = validator.is_valid(&arguments);
        match arguments.pointer_mut(&path) {
            Some(slot) if !valid => *slot = current,
            Some(_) => {
                origins.insert(path, origin);
            }
            None => {}
        }
    }
    arguments
}

/// Where a tool's arguments come from: the user's cases, as written, then cases generated from
/// its input schema, the first quarter of them (one at least) from the values the schema
/// suggests (its examples, its default, literals quoted in a description: what a server most
/// likely understands, where random values rarely are), each value then maybe replaced from
/// the sandbox and from what earlier calls showed.
pub(super) struct Cases<'a> {
    /// The user's cases, each with where it was written (the settings file, the cases file).
    written: &'a [(Value, &'static str)],
    /// The tool's input schema, which each generated value is traced back to.
    schema: Value,
    /// The tool's name: which other tools' answers feed it first.
    tool: String,
    /// The schema's strategy, and the one drawing from what it suggests, each with the
    /// choices of which values to replace.
    strategies: Option<(Case, Case)>,
    /// Each tool its own runner, seeded by the seed and its name: a tool whose values are
    /// hard to generate starves no other, and its cases do not depend on the tools before it.
    runner: TestRunner,
    validator: &'a jsonschema::Validator,
    suggested: u32,
    pub(super) total: u32,
}

/// A strategy for arguments, and for the choices of which of their values to replace.
type Case = BoxedStrategy<(Value, Vec<u8>)>;

impl<'a> Cases<'a> {
    pub(super) fn new(
        session: &Session<'_>,
        tool: &Tool,
        written: &'a [(Value, &'static str)],
        generated: Option<BoxedStrategy<Value>>,
        validator: &'a jsonschema::Validator,
    ) -> Self {
        let options = session.options;
        // A tool that claims nothing the probe judges is called only to feed the others'
        // arguments (what it lists, creates, names): a quarter of the cases.
        let budget = if super::judges_a_claim(tool) {
            options.cases
        } else {
            options.cases.div_ceil(4)
        };
        let choices = || proptest::collection::vec(proptest::prelude::any::<u8>(), 0..12);
        let strategies = generated.map(|strategy| {
            let schema = tool.input_schema.to_value();
            let suggested = mcp_annotations_verify::suggested_arguments(&schema)
                .unwrap_or_else(|_| strategy.clone());
            (
                (strategy, choices()).boxed(),
                (suggested, choices()).boxed(),
            )
        });
        let written_count = u32::try_from(written.len()).unwrap_or(u32::MAX);
        let total = written_count + if strategies.is_some() { budget } else { 0 };
        Cases {
            written,
            schema: tool.input_schema.to_value(),
            tool: tool.name().to_owned(),
            strategies,
            runner: runner_for(options.seed, tool.name()),
            validator,
            suggested: budget.div_ceil(4),
            total,
        }
    }

    /// The arguments of case `index`, drawn against the sandbox as `before` shows it, with
    /// where each value came from; `Err` with why where no more can be generated, `Ok(None)`
    /// where there is no such case. `{sandbox}` in a written case is the sandbox's path.
    pub(super) fn arguments(
        &mut self,
        index: u32,
        session: &Session<'_>,
        before: &Tree,
        learned: &[(String, Value)],
    ) -> Result<Option<(Value, Origins)>, String> {
        if let Some((given, origin)) = self.written.get(index as usize) {
            let mut given = given.clone();
            let sandbox = session.sandbox.dir.to_string_lossy();
            super::parts::rebase(&mut given, "{sandbox}", &sandbox);
            let origins = origins::all(&given, origin);
            return Ok(Some((given, origins)));
        }
        let Some((random, suggested)) = &self.strategies else {
            return Ok(None);
        };
        let generated_index = index - u32::try_from(self.written.len()).unwrap_or(u32::MAX);
        let case = if generated_index < self.suggested {
            suggested
        } else {
            random
        };
        let value = case
            .new_tree(&mut self.runner)
            .map_err(|reason| reason.to_string())?;
        let (arguments, choices) = value.current();
        let mut pool = pool(&session.sandbox.dir, before, &session.seen);
        pool.learned = learned.to_vec();
        pool.related = session.related(&self.tool);
        let mut origins = origins::generated(&self.schema, &arguments);
        let arguments = reuse(&arguments, &choices, &pool, self.validator, &mut origins);
        Ok(Some((arguments, origins)))
    }
}
