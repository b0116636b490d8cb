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

/// The key of a dependency on the runtime under another name, as an identifier.
fn renamed(text: &str, manifest: &Path) -> Option<String> {
    let scan = scan(text, DependencyTables::Package);
    if let Some(key) = scan.renamed {
        return Some(identifier(&key));
    }
    // `key.workspace = true`: the rename, if any, is the workspace's.
    if scan.inherited.is_empty() {
        return None;
    }
    let mut dir = manifest.parent()?.parent();
    while let Some(here) = dir {
        if let Ok(root) = std::fs::read_to_string(here.join("Cargo.toml")) {
            if root.lines().any(|line| line.trim() == "[workspace]") {
                let key = scan_workspace(&root)?;
                return scan.inherited.contains(&key).then(|| identifier(&key));
            }
        }
        dir = here.parent();
    }
    None
}

fn scan_workspace(text: &str) -> Option<String> {
    scan(text, DependencyTables::Workspace).renamed
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
    /// The key of a dependency whose `package` is the runtime.
    renamed: Option<String>,
    /// The keys that inherit from the workspace.
    inherited: Vec<String>,
}

fn scan(text: &str, tables: DependencyTables) -> Scan {
    let mut out = Scan::default();
    // Inside a table of dependencies; or inside one dependency's own table (its key).
    let mut in_table = false;
    let mut own: Option<String> = None;
    for line in text.lines() {
        let line = strip_comment(line).trim();
        if let Some(header) = line.strip_prefix('[') {
            let header = header.trim_start_matches('[').trim_end_matches(']');
            let parts = split_key(header);
            own = None;
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
                        [key] => own = Some(key.clone()),
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
        if let Some(dependency) = &own {
            // Inside `[dependencies.key]`.
            match key_parts.as_slice() {
                [field] if field == "package" && unquote(value) == Some(PACKAGE) => {
                    out.renamed = Some(dependency.clone());
                }
                [field] if field == "workspace" && value == "true" => {
                    out.inherited.push(dependency.clone());
                }
                _ => {}
            }
        } else if in_table {
            match key_parts.as_slice() {
                // `key = { package = "...", ... }`
                [dependency] => {
                    let fields = value.trim_start_matches('{').trim_end_matches('}');
                    for field in fields.split(',') {
                        let Some((name, field_value)) = field.split_once('=') else {
                            continue;
                        };
                        let (name, field_value) = (name.trim(), field_value.trim());
                        if name == "package" && unquote(field_value) == Some(PACKAGE) {
                            out.renamed = Some(dependency.clone());
                        }
                        if name == "workspace" && field_value == "true" {
                            out.inherited.push(dependency.clone());
                        }
                    }
                }
                // `key.package = "..."`
                [dependency, field] if field == "package" && unquote(value) == Some(PACKAGE) => {
                    out.renamed = Some(dependency.clone());
                }
                [dependency, field] if field == "workspace" && value == "true" => {
                    out.inherited.push(dependency.clone());
                }
                _ => {}
            }
        }
    }
    out
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

    fn package(text: &str) -> Option<String> {
        scan(text, DependencyTables::Package).renamed
    }

    #[test]
    fn finds_a_renamed_dependency_in_each_form() {
        assert_eq!(
            package(
                "[dependencies]\nannotations = { package = \"mcp-annotations\", version = \"0.1\" }\n"
            ),
            Some("annotations".into())
        );
        assert_eq!(
            package("[dev-dependencies]\nmy-hints.package = \"mcp-annotations\"\n"),
            Some("my-hints".into())
        );
        assert_eq!(
            package(
                "[dependencies.hints]\nversion = \"0.1\" # the runtime\npackage = 'mcp-annotations'\n"
            ),
            Some("hints".into())
        );
        assert_eq!(
            package("[target.'cfg(unix)'.dependencies]\nh = { package = \"mcp-annotations\" }\n"),
            Some("h".into())
        );
    }

    #[test]
    fn ignores_what_is_not_a_rename_of_the_runtime() {
        assert_eq!(package("[dependencies]\nmcp-annotations = \"0.1\"\n"), None);
        assert_eq!(
            package("[dependencies]\nx = { package = \"mcp-annotations-derive\" }\n"),
            None
        );
        assert_eq!(
            package("[package]\nname = \"x\"\n# annotations = { package = \"mcp-annotations\" }\n"),
            None
        );
        assert_eq!(
            package("[features]\nx = { package = \"mcp-annotations\" }\n"),
            None
        );
    }

    #[test]
    fn reads_inherited_keys_and_the_workspace_table() {
        let member = scan(
            "[dependencies]\nannotations = { workspace = true, features = [\"rmcp\"] }\n",
            DependencyTables::Package,
        );
        assert_eq!(member.inherited, ["annotations"]);
        assert_eq!(
            scan_workspace(
                "[workspace]\n[workspace.dependencies]\nannotations = { package = \"mcp-annotations\" }\n"
            ),
            Some("annotations".into())
        );
    }
}
