//! The name the package being compiled knows the runtime by: `mcp_annotations`, or the key of
//! a renamed dependency (`annotations = { package = "mcp-annotations", ... }`), read from the
//! package's `Cargo.toml` (and, for `key.workspace = true`, its workspace's) so that a renamed
//! dependency needs no `crate = path`.
//!
//! The read is a scan of the manifest's dependency tables, not a TOML parser: it looks only for
//! a `package = "mcp-annotations"` under a dependency key, which TOML writes on one line (an
//! inline table) or under the key's own table header. It runs once per manifest in a process,
//! however many items the macro expands (a cache keyed by the manifest and its modification
//! time, since one process, such as an editor's macro server, may expand many packages).

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

/// The runtime's package name.
const PACKAGE: &str = "mcp-annotations";

/// The runtime's library name, what a dependency that is not renamed is known by.
pub(crate) const DEFAULT: &str = "mcp_annotations";

/// Manifests read so far: the files each read took (the package's manifest first, then its
/// workspace's if it was read) with their modification times, and the name found.
type Cache = Vec<(Vec<(PathBuf, Option<SystemTime>)>, String)>;

static CACHE: Mutex<Cache> = Mutex::new(Vec::new());

/// The name generated code calls the runtime by in the package being compiled.
pub(crate) fn runtime_name() -> String {
    let Some(dir) = std::env::var_os("CARGO_MANIFEST_DIR") else {
        return DEFAULT.to_owned();
    };
    // The runtime's own doc tests and examples know it by its own name.
    if std::env::var("CARGO_PKG_NAME").as_deref() == Ok(PACKAGE) {
        return DEFAULT.to_owned();
    }
    let manifest = Path::new(&dir).join("Cargo.toml");
    let mut cache = CACHE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, name)) = cache.iter().find(|(files, _)| {
        files.first().is_some_and(|(path, _)| *path == manifest)
            && files.iter().all(|(path, time)| modified(path) == *time)
    }) {
        return name.clone();
    }
    let mut files = vec![(manifest.clone(), modified(&manifest))];
    let name = std::fs::read_to_string(&manifest)
        .ok()
        .and_then(|text| renamed(&text, &manifest, &mut files))
        .unwrap_or_else(|| DEFAULT.to_owned());
    cache.retain(|(cached, _)| cached.first().is_none_or(|(path, _)| *path != manifest));
    cache.push((files, name.clone()));
    name
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// The key of a dependency on the runtime under another name, as an identifier; `None` (the
/// default name) unless the package depends on the runtime under exactly one other name and
/// never under its own, so that a guess never replaces a name that works.
fn renamed(
    text: &str,
    manifest: &Path,
    files: &mut Vec<(PathBuf, Option<SystemTime>)>,
) -> Option<String> {
    let package = scan(text, DependencyTables::Package);
    if package.plain {
        return None;
    }
    let mut keys = package.renamed.clone();
    // `key.workspace = true`: the rename, if any, is the workspace's. The workspace's manifest
    // is the nearest one, the package's own included, that has a `[workspace]` table.
    if !package.inherited.is_empty() {
        let mut dir = manifest.parent();
        while let Some(here) = dir {
            let path = here.join("Cargo.toml");
            let root = if path == manifest {
                Some(text.to_owned())
            } else {
                std::fs::read_to_string(&path).ok()
            };
            if path != manifest && root.is_some() {
                files.push((path.clone(), modified(&path)));
            }
            if let Some(root) = root.filter(|root| {
                logical_lines(root)
                    .iter()
                    .any(|line| line.trim() == "[workspace]")
            }) {
                let workspace = scan(&root, DependencyTables::Workspace);
                for key in &package.inherited {
                    if workspace.plain_keys.contains(key) {
                        return None;
                    }
                    if workspace.renamed.contains(key) {
                        keys.push(key.clone());
                    }
                }
                break;
            }
            dir = here.parent();
        }
    }
    keys.sort();
    keys.dedup();
    match keys.as_slice() {
        [key] => identifier(key),
        _ => None,
    }
}

/// Which tables hold dependencies.
#[derive(Clone, Copy)]
enum DependencyTables {
    /// A package's: `[dependencies]`, `[dev-dependencies]`, `[build-dependencies]`, and each
    /// of these under `[target.'cfg(...)']`.
    Package,
    /// A workspace's `[workspace.dependencies]`.
    Workspace,
}

/// What a manifest's dependency tables say of the runtime.
#[derive(Default)]
struct Scan {
    /// The keys of dependencies whose `package` is the runtime.
    renamed: Vec<String>,
    /// Whether a dependency is the runtime under its own name (`mcp-annotations = ...`).
    plain: bool,
    /// The keys that name the runtime by its own name, with no `package` of another (in a
    /// workspace's table, where a member inherits them).
    plain_keys: Vec<String>,
    /// The keys that inherit from the workspace.
    inherited: Vec<String>,
}

/// One dependency as a manifest states it: its key, and its fields.
struct Entry {
    key: String,
    package: Option<String>,
    inherits: bool,
}

fn scan(text: &str, tables: DependencyTables) -> Scan {
    let mut out = Scan::default();
    let mut record = |entry: Entry| match entry.package.as_deref() {
        Some(PACKAGE) => out.renamed.push(entry.key),
        // The runtime's own name taken by another package (a fork): `::mcp_annotations` is
        // that package, and it works.
        Some(_) if entry.key == PACKAGE || entry.key == DEFAULT => {
            out.plain = true;
            out.plain_keys.push(entry.key);
        }
        Some(_) => {}
        None if entry.inherits => out.inherited.push(entry.key),
        None if entry.key == PACKAGE || entry.key == DEFAULT => {
            out.plain = true;
            out.plain_keys.push(entry.key);
        }
        None => {}
    };
    // Inside a table of dependencies; or inside one dependency's own table (its entry so far).
    let mut in_table = false;
    let mut own: Option<Entry> = None;
    for line in logical_lines(text) {
        let line = line.trim();
        if let Some(header) = line.strip_prefix('[') {
            if let Some(entry) = own.take() {
                record(entry);
            }
            let header = header.trim_start_matches('[').trim_end_matches(']');
            let parts = split_key(header);
            in_table = false;
            if let Some(table) = parts
                .iter()
                .position(|part| is_dependency_table(part, tables))
            {
                let prefix_ok = match tables {
                    DependencyTables::Package => table == 0 || (table == 2 && parts[0] == "target"),
                    DependencyTables::Workspace => table == 1 && parts[0] == "workspace",
                };
                if prefix_ok {
                    match &parts[table + 1..] {
                        [] => in_table = true,
                        [key] => {
                            own = Some(Entry {
                                key: key.clone(),
                                package: None,
                                inherits: false,
                            });
                        }
                        _ => {}
                    }
                }
            }
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let key_parts = split_key(key.trim());
        let value = value.trim();
        if let Some(entry) = &mut own {
            // Inside `[dependencies.key]`.
            if let [field] = key_parts.as_slice() {
                field_of(entry, field, value);
            }
        } else if in_table {
            match key_parts.as_slice() {
                // `key = "1.0"` or `key = { package = "...", ... }`
                [dependency] => {
                    let mut entry = Entry {
                        key: dependency.clone(),
                        package: None,
                        inherits: false,
                    };
                    if let Some(fields) = value.strip_prefix('{') {
                        for field in split_top_level(fields.trim_end_matches('}')) {
                            if let Some((name, field_value)) = field.split_once('=') {
                                let name = split_key(name.trim());
                                if let [name] = name.as_slice() {
                                    field_of(&mut entry, name, field_value.trim());
                                }
                            }
                        }
                    }
                    record(entry);
                }
                // `key.package = "..."`, `key.version = "..."`
                [dependency, field] => {
                    let mut entry = Entry {
                        key: dependency.clone(),
                        package: None,
                        inherits: false,
                    };
                    field_of(&mut entry, field, value);
                    record(entry);
                }
                _ => {}
            }
        }
    }
    if let Some(entry) = own.take() {
        record(entry);
    }
    out
}

/// One field of a dependency, as it bears on what the dependency is.
fn field_of(entry: &mut Entry, field: &str, value: &str) {
    match field {
        "package" => entry.package = unquote(value).map(str::to_owned),
        "workspace" => entry.inherits = value == "true",
        _ => {}
    }
}

fn is_dependency_table(part: &str, tables: DependencyTables) -> bool {
    match tables {
        DependencyTables::Package => matches!(
            part,
            "dependencies"
                | "dev-dependencies"
                | "build-dependencies"
                | "dev_dependencies"
                | "build_dependencies"
        ),
        DependencyTables::Workspace => part == "dependencies",
    }
}

/// The manifest's logical lines: comments removed, and a value that spans lines (an array
/// inside an inline table, a multi-line string) joined into the line of its key, so that
/// nothing inside a string is read as a table header or a key.
fn logical_lines(text: &str) -> Vec<String> {
    #[derive(PartialEq)]
    enum In {
        Code,
        Basic,
        Literal,
        MultiBasic,
        MultiLiteral,
    }
    let chars: Vec<char> = text.chars().collect();
    let triple =
        |i: usize, quote: char| chars.len() >= i + 3 && chars[i..i + 3].iter().all(|c| *c == quote);
    let mut out = Vec::new();
    let mut current = String::new();
    let mut depth = 0i32;
    let mut state = In::Code;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let mut width = 1;
        match state {
            In::Code => match c {
                '#' => {
                    while i < chars.len() && chars[i] != '\n' {
                        i += 1;
                    }
                    continue;
                }
                '"' | '\'' => {
                    let multi = triple(i, c);
                    state = match (c, multi) {
                        ('"', true) => In::MultiBasic,
                        ('"', false) => In::Basic,
                        (_, true) => In::MultiLiteral,
                        (_, false) => In::Literal,
                    };
                    if multi {
                        width = 3;
                    }
                }
                '[' | '{' => depth += 1,
                ']' | '}' => depth -= 1,
                '\n' => {
                    if depth <= 0 {
                        out.push(std::mem::take(&mut current));
                        depth = 0;
                    } else {
                        current.push(' ');
                    }
                    i += 1;
                    continue;
                }
                _ => {}
            },
            // An escape in a basic string: the escaped character is not a quote.
            In::Basic | In::MultiBasic if c == '\\' => width = 2,
            In::Basic if c == '"' => state = In::Code,
            In::Literal if c == '\'' => state = In::Code,
            // A single-line string does not span lines: a newline ends it.
            In::Basic | In::Literal if c == '\n' => {
                state = In::Code;
                continue;
            }
            In::MultiBasic if triple(i, '"') => {
                state = In::Code;
                width = 3;
            }
            In::MultiLiteral if triple(i, '\'') => {
                state = In::Code;
                width = 3;
            }
            In::MultiBasic | In::MultiLiteral if c == '\n' => {
                current.push(' ');
                i += 1;
                continue;
            }
            _ => {}
        }
        let end = (i + width).min(chars.len());
        current.extend(&chars[i..end]);
        i = end;
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// The fields of an inline table's body, split at the commas outside strings, arrays and
/// tables.
fn split_top_level(body: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut quote: Option<char> = None;
    let mut start = 0;
    for (i, c) in body.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '[' | '{') => depth += 1,
            (None, ']' | '}') => depth -= 1,
            (None, ',') if depth == 0 => {
                out.push(&body[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&body[start..]);
    out
}

/// A dotted TOML key's parts, unquoted: `target.'cfg(unix)'.dependencies` is three.
fn split_key(key: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut quote: Option<char> = None;
    for c in key.chars() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '.') => parts.push(std::mem::take(&mut current).trim().to_owned()),
            _ => current.push(c),
        }
    }
    parts.push(current.trim().to_owned());
    parts
}

fn unquote(value: &str) -> Option<&str> {
    let value = value.trim();
    value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .or_else(|| value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
}

/// A dependency key as Rust names the crate (`-` becomes `_`), if it is one: what cargo
/// checks, the macro cannot assume (an editor's macro server reads a manifest mid-edit).
fn identifier(key: &str) -> Option<String> {
    const KEYWORDS: [&str; 52] = [
        "_", "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum",
        "extern", "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move",
        "mut", "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait",
        "true", "type", "unsafe", "use", "where", "while", "abstract", "become", "box", "do",
        "final", "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "gen",
    ];
    let name = key.replace('-', "_");
    let mut chars = name.chars();
    let first = chars.next()?;
    ((first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !KEYWORDS.contains(&name.as_str()))
    .then_some(name)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::leaf::manifest::renamed;

    /// What a package's manifest alone makes the runtime's name (no workspace involved).
    fn name(text: &str) -> Option<String> {
        renamed(text, Path::new("/nonexistent/Cargo.toml"), &mut Vec::new())
    }

    #[test]
    fn finds_a_renamed_dependency_in_each_form() {
        for manifest in [
            "[dependencies]\nannotations = { package = \"mcp-annotations\", version = \"0.1\" }\n",
            "[dependencies]\nannotations.package = \"mcp-annotations\"\nannotations.version = \"0.1\"\n",
            "[dependencies.annotations]\nversion = \"0.1\" # the runtime\npackage = 'mcp-annotations'\n",
            "[target.'cfg(unix)'.dependencies]\nannotations = { package = \"mcp-annotations\" }\n",
            "[dependencies]\nannotations = { \"package\" = \"mcp-annotations\" }\n",
            "[dependencies]\nannotations = { version = \"0.1\", features = [\n  \"rmcp\",\n], package = \"mcp-annotations\" }\n",
            "[dependencies]\nannotations = { package = \"mcp-annotations\" }\n[dev-dependencies]\nannotations = { package = \"mcp-annotations\", features = [\"rmcp\"] }\n",
        ] {
            assert_eq!(name(manifest).as_deref(), Some("annotations"), "{manifest}");
        }
        assert_eq!(
            name("[dependencies]\nmy-hints = { package = \"mcp-annotations\" }\n").as_deref(),
            Some("my_hints")
        );
    }

    #[test]
    fn the_default_stays_unless_the_rename_is_the_only_way_in() {
        for manifest in [
            // Not renamed.
            "[dependencies]\nmcp-annotations = \"0.1\"\n",
            "[dependencies]\nmcp-annotations = { version = \"0.1\", features = [\"rmcp\"] }\n",
            // Another package renamed.
            "[dependencies]\nx = { package = \"mcp-annotations-derive\" }\n",
            // A comment, and a table that holds no dependencies.
            "[package]\nname = \"x\"\n# annotations = { package = \"mcp-annotations\" }\n",
            "[features]\nx = { package = \"mcp-annotations\" }\n",
            // The runtime under its own name beside a rename (another version, a fork for
            // tests, another target): the name that works stays.
            "[dependencies]\nmcp-annotations = \"0.2\"\nold = { package = \"mcp-annotations\", version = \"0.1\" }\n",
            "[dependencies]\nmcp-annotations = \"0.1\"\n[dev-dependencies]\nnext = { package = \"mcp-annotations\", git = \"https://example.com/x\" }\n",
            "[target.'cfg(unix)'.dependencies]\nmcp-annotations = \"0.1\"\n[target.'cfg(windows)'.dependencies]\nh = { package = \"mcp-annotations\" }\n",
            // The runtime's own name taken by a fork, a rename of the runtime for tests.
            "[dependencies]\nmcp-annotations = { package = \"mcp-annotations-fork\", version = \"0.1\" }\n[dev-dependencies]\nupstream = { package = \"mcp-annotations\" }\n",
            // What is inside a string is neither a table nor a key.
            "[package]\ndescription = \"\"\"\n[dependencies]\nhints = { package = \"mcp-annotations\" }\n\"\"\"\n",
            "[package]\ndescription = \"a \\\" [dependencies\"\n[dependencies]\nmcp-annotations = \"0.1\"\nx = { package = \"mcp-annotations\" }\n",
            // A key that is no Rust name (a manifest mid-edit): nothing to name the crate by.
            "[dependencies]\n\"my hints\" = { package = \"mcp-annotations\" }\n",
            "[dependencies]\ntype = { package = \"mcp-annotations\" }\n",
            // Two renames: no guess.
            "[dependencies]\na = { package = \"mcp-annotations\" }\n[dev-dependencies]\nb = { package = \"mcp-annotations\" }\n",
        ] {
            assert_eq!(name(manifest), None, "{manifest}");
        }
    }

    #[test]
    fn an_inherited_key_takes_the_workspace_rename() {
        let dir = std::env::temp_dir().join(format!("annotations-manifest-{}", std::process::id()));
        let member = dir.join("member");
        std::fs::create_dir_all(&member).unwrap();
        std::fs::write(
            dir.join("Cargo.toml"),
            "[workspace] # the root\nmembers = [\"member\"]\n[workspace.dependencies]\nhints = { package = \"mcp-annotations\", version = \"0.1\" }\n",
        )
        .unwrap();
        let text = "[dependencies]\nhints = { workspace = true, features = [\"rmcp\"] }\n";
        assert_eq!(
            renamed(text, &member.join("Cargo.toml"), &mut Vec::new()).as_deref(),
            Some("hints")
        );
        // A package that is its own workspace's root.
        let root = "[package]\nname = \"x\"\n[workspace]\n[workspace.dependencies]\nhints = { package = \"mcp-annotations\" }\n[dependencies]\nhints.workspace = true\n";
        assert_eq!(
            renamed(
                root,
                &dir.join("elsewhere").join("Cargo.toml"),
                &mut Vec::new()
            )
            .as_deref(),
            Some("hints")
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
