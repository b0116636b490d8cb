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

/// Manifests read so far: path, modification time, the name found.
type Cache = Vec<(PathBuf, Option<SystemTime>, String)>;

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
    let modified = std::fs::metadata(&manifest).and_then(|m| m.modified()).ok();
    let mut cache = CACHE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, _, name)) = cache
        .iter()
        .find(|(path, time, _)| *path == manifest && *time == modified)
    {
        return name.clone();
    }
    let name = std::fs::read_to_string(&manifest)
        .ok()
        .and_then(|text| renamed(&text, &manifest))
        .unwrap_or_else(|| DEFAULT.to_owned());
    cache.retain(|(path, _, _)| *path != manifest);
    cache.push((manifest, modified, name.clone()));
    name
}

/// The key of a dependency on the runtime under another name, as an identifier; `None` (the
/// default name) unless the package depends on the runtime under exactly one other name and
/// never under its own, so that a guess never replaces a name that works.
fn renamed(text: &str, manifest: &Path) -> Option<String> {
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
            if let Some(root) = root.filter(|root| {
                root.lines()
                    .any(|line| strip_comment(line).trim() == "[workspace]")
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
        [key] => Some(identifier(key)),
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

/// The manifest's lines without comments, a value that spans lines (an array inside an
/// inline table) joined into one.
fn logical_lines(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut depth = 0i32;
    for line in text.lines() {
        let line = strip_comment(line);
        depth += nesting(line);
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(line);
        if depth <= 0 {
            out.push(std::mem::take(&mut current));
            depth = 0;
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// How many brackets and braces `line` opens and does not close, outside strings. A table
/// header (`[dependencies]`) opens and closes its own.
fn nesting(line: &str) -> i32 {
    let mut depth = 0;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '[' | '{') => depth += 1,
            (None, ']' | '}') => depth -= 1,
            _ => {}
        }
    }
    depth
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

/// The line before a `#` that is not inside a string.
fn strip_comment(line: &str) -> &str {
    let mut quote: Option<char> = None;
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '#') => return &line[..i],
            _ => {}
        }
    }
    line
}

/// A dependency key as Rust names the crate: `-` becomes `_`.
fn identifier(key: &str) -> String {
    key.replace('-', "_")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a package's manifest alone makes the runtime's name (no workspace involved).
    fn name(text: &str) -> Option<String> {
        renamed(text, Path::new("/nonexistent/Cargo.toml"))
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
            renamed(text, &member.join("Cargo.toml")).as_deref(),
            Some("hints")
        );
        // A package that is its own workspace's root.
        let root = "[package]\nname = \"x\"\n[workspace]\n[workspace.dependencies]\nhints = { package = \"mcp-annotations\" }\n[dependencies]\nhints.workspace = true\n";
        assert_eq!(
            renamed(root, &dir.join("elsewhere").join("Cargo.toml")).as_deref(),
            Some("hints")
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
