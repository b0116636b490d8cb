//! The layout the README's table states, held. The runtime crate's folders stand on each other
//! from the floor up (`protocol/` first), each importing only folders below it, by module path.
//! The proc-macro crate's folders are its stages: `model/` reads
//! the input, `check/` applies the rules, `expand/` writes the output, and `leaf/` holds what
//! all of them use. Imports point one way: the leaves import nothing of the crate, the reading
//! and the checks never import the code generation (nor the reading the checks), and no files
//! import each other, directly or around a circle. The checks make nothing of the model: they
//! call none of its readers or appliers.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The folder of the leaves, which import nothing of the crate.
const LEAVES: &str = "leaf";
/// The folders that read the input and check it: the code generation reads them, never the
/// other way.
const BEFORE_EXPANSION: [&str; 2] = ["model", "check"];
/// The folder of the code generation.
const EXPANSION: &str = "expand";

/// Every `.rs` file below `dir`, by its module path inside the crate (`model::entry` for
/// `model/entry.rs`, `model` for `model/mod.rs`, the empty path for `lib.rs`), with its text.
fn modules(dir: &Path, prefix: &[String], out: &mut BTreeMap<String, String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            let mut inner = prefix.to_vec();
            inner.push(stem);
            modules(&path, &inner, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            let mut module = prefix.to_vec();
            if stem != "mod" && stem != "lib" {
                module.push(stem);
            }
            out.insert(module.join("::"), std::fs::read_to_string(&path).unwrap());
        }
    }
}

/// The paths a use tree names, read from `text` just after its `crate::` (or resolved
/// `super::`): `a::b` is one, `{a, b::{self, c}}` is `a`, `b` and `b::c`.
fn use_tree(text: &str) -> Vec<Vec<String>> {
    let mut segments = Vec::new();
    let mut rest = text.trim_start();
    loop {
        if let Some(inner) = rest.strip_prefix('{') {
            let mut paths = Vec::new();
            for tree in group_items(inner) {
                for path in use_tree(tree) {
                    let mut full = segments.clone();
                    full.extend(path.into_iter().filter(|segment| segment != "self"));
                    paths.push(full);
                }
            }
            return paths;
        }
        let word: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if word.is_empty() {
            break;
        }
        rest = &rest[word.len()..];
        segments.push(word);
        match rest.trim_start().strip_prefix("::") {
            Some(after) => rest = after.trim_start(),
            None => break,
        }
    }
    vec![segments]
}

/// The comma-separated items of a `{...}` group whose text starts just after its `{`.
fn group_items(text: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                items.push(&text[start..i]);
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items
}

/// Where a path written in `text` starts with `word` (`crate`, `super`) followed by `::`, not as
/// the end of a longer identifier (`$crate`, `pub(crate)`, `my_crate`): what follows the `::`.
fn after_word<'a>(text: &'a str, word: &str) -> Vec<&'a str> {
    let needle = format!("{word}::");
    text.match_indices(&needle)
        .filter(|(at, _)| {
            let before = text[..*at].chars().next_back();
            !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
        })
        .map(|(at, _)| &text[at + needle.len()..])
        .collect()
}

/// Each file's module and the other files it imports: every `crate::...` path (use trees
/// included) and every `super::...` path, resolved relative to the file's module, taken to the
/// longest module path it starts with.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("annotations-derive/src");
    let mut files = BTreeMap::new();
    modules(&dir, &[], &mut files);
    let resolve = |path: &[String]| -> Option<String> {
        (1..=path.len())
            .rev()
            .map(|len| path[..len].join("::"))
            .find(|module| files.contains_key(module))
    };
    files
        .iter()
        .map(|(module, text)| {
            let own: Vec<String> = module
                .split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect();
            let mut paths: Vec<Vec<String>> = after_word(text, "crate")
                .into_iter()
                .flat_map(use_tree)
                .collect();
            for rest in after_word(text, "super") {
                // `super::super::x`: one module up for each `super`.
                let mut base = own[..own.len().saturating_sub(1)].to_vec();
                let mut rest = rest;
                while let Some(after) = rest.strip_prefix("super::") {
                    base.pop();
                    rest = after;
                }
                for path in use_tree(rest) {
                    let mut full = base.clone();
                    full.extend(path);
                    paths.push(full);
                }
            }
            let imported = paths
                .iter()
                .filter_map(|path| resolve(path))
                .filter(|other| other != module && !other.is_empty())
                .collect();
            (module.clone(), imported)
        })
        .collect()
}

/// Whether `module` is in the folder `folder`.
fn in_folder(module: &str, folder: &str) -> bool {
    module == folder || module.starts_with(&format!("{folder}::"))
}

#[test]
fn the_macros_files_are_read_as_stages() {
    let graph = imports();
    assert!(graph.len() > 30, "the files were read: {graph:?}");
    for folder in [LEAVES, EXPANSION].iter().chain(&BEFORE_EXPANSION) {
        assert!(
            graph.keys().filter(|m| in_folder(m, folder)).count() > 2,
            "the folder {folder}/ holds the stage's files: {:?}",
            graph.keys()
        );
    }
    // The imports are read: the model's readers use the key-entry reader, the code generation
    // the model, through plain paths and use groups alike.
    assert!(
        graph["model::tool_attr"].contains("model::entry"),
        "{graph:?}"
    );
    assert!(
        graph["expand::tool"].contains("model::handler"),
        "{graph:?}"
    );
    assert!(
        graph["model::serde_attr"].contains("leaf::case"),
        "{graph:?}"
    );
    assert!(
        graph["model::icons"].contains("leaf::icon_rule"),
        "{graph:?}"
    );
}

#[test]
fn the_import_reader_reads_groups_and_paths() {
    let paths = use_tree("model::{entry::{self, Entry}, tool_attr}, other");
    assert_eq!(
        paths,
        [
            vec!["model", "entry"],
            vec!["model", "entry", "Entry"],
            vec!["model", "tool_attr"],
        ]
    );
    assert_eq!(
        use_tree("leaf::tokens::punct as is_punct;"),
        [vec!["leaf", "tokens", "punct"]]
    );
    let text = "use crate::a; pub(crate) fn f() {} $crate::b; my_crate::c; super::d";
    assert_eq!(after_word(text, "crate").len(), 1);
    assert_eq!(after_word(text, "super"), ["d"]);
}

#[test]
fn the_leaves_import_nothing_of_the_crate() {
    for (module, imported) in imports() {
        if in_folder(&module, LEAVES) {
            assert!(
                imported.is_empty(),
                "{module} is a leaf, yet it imports {imported:?}"
            );
        }
    }
}

#[test]
fn reading_and_checking_never_import_the_code_generation() {
    for (module, imported) in imports() {
        if BEFORE_EXPANSION
            .iter()
            .any(|folder| in_folder(&module, folder))
        {
            let expansion: Vec<&String> = imported
                .iter()
                .filter(|other| in_folder(other, EXPANSION))
                .collect();
            assert!(
                expansion.is_empty(),
                "{module} reads or checks the input, yet it imports the code generation: \
                 {expansion:?}"
            );
        }
    }
}

#[test]
fn the_model_never_imports_the_checks() {
    for (module, imported) in imports() {
        if in_folder(&module, BEFORE_EXPANSION[0]) {
            let checks: Vec<&String> = imported
                .iter()
                .filter(|other| in_folder(other, BEFORE_EXPANSION[1]))
                .collect();
            assert!(
                checks.is_empty(),
                "{module} reads the input, yet it imports the checks: {checks:?}"
            );
        }
    }
}

/// The names of the model's readers (a function of `model/` named `read...` or `parse...`)
/// and of its appliers (`apply...`): what makes or changes the model.
fn model_makers(files: &BTreeMap<String, String>) -> BTreeSet<String> {
    let mut makers = BTreeSet::new();
    for (module, text) in files {
        if !in_folder(module, BEFORE_EXPANSION[0]) {
            continue;
        }
        for line in text.lines() {
            let Some(rest) = line.trim_start().strip_prefix("pub(crate) fn ") else {
                continue;
            };
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if ["read", "parse", "apply"]
                .iter()
                .any(|verb| name.starts_with(verb))
            {
                makers.insert(name);
            }
        }
    }
    makers
}

/// The checks report what they find and make nothing: no file of `check/` calls a reader or
/// an applier of the model. The front ends read the input with `model/`, check it with
/// `check/`, then apply what passed.
#[test]
fn the_checks_read_and_apply_nothing() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("annotations-derive/src");
    let mut files = BTreeMap::new();
    modules(&dir, &[], &mut files);
    let makers = model_makers(&files);
    // The names were read: the descriptor's applier and the fields' reader are among them.
    assert!(
        makers.contains("apply") && makers.contains("read_fields"),
        "{makers:?}"
    );
    for (module, text) in &files {
        if !in_folder(module, BEFORE_EXPANSION[1]) {
            continue;
        }
        for (i, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            for maker in &makers {
                let call = format!("{maker}(");
                let called = line.match_indices(&call).any(|(at, _)| {
                    !line[..at]
                        .chars()
                        .next_back()
                        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                });
                assert!(
                    !called,
                    "{module}:{}: a check calls the model's `{maker}`: read and apply in the \
                     front end, and check what was read",
                    i + 1
                );
            }
        }
    }
}

#[test]
fn the_macros_files_import_no_circle() {
    let graph = imports();
    // Depth-first search for a path back to the start, from every file.
    for start in graph.keys() {
        let mut stack = vec![vec![start.clone()]];
        while let Some(path) = stack.pop() {
            for next in &graph[path.last().unwrap()] {
                assert!(next != start, "a circle of imports: {path:?} -> {next}");
                if !path.contains(next) {
                    let mut longer = path.clone();
                    longer.push(next.clone());
                    stack.push(longer);
                }
            }
        }
    }
}

/// The runtime crate's folders, from the floor up: each may import only folders before it.
const RUNTIME_FLOORS: [&str; 12] = [
    "protocol",
    "hints",
    "schema",
    "tool",
    "host",
    "resolution",
    "content",
    "result",
    "call",
    "listing",
    "rmcp",
    "private",
];

/// Every `.rs` file under `dir`, with its path from `dir` (`diff/mod.rs`).
fn rust_files(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let name = path
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                found.push((name, path));
            }
        }
    }
    found.sort();
    found
}

/// Each folder of `annotations/src/` and the folders its code names, each with the file that
/// names it: every `crate::...` path, read by the same use-tree reader as the macro crate's
/// (comments and doc links are not imports; `$crate` is the crate a macro expands in).
fn runtime_imports() -> BTreeMap<String, BTreeSet<(String, String)>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("annotations/src");
    let mut found: BTreeMap<String, BTreeSet<(String, String)>> = BTreeMap::new();
    for folder in RUNTIME_FLOORS {
        let named = found.entry(folder.to_owned()).or_default();
        for (file, path) in rust_files(&root.join(folder)) {
            let text = std::fs::read_to_string(&path).unwrap();
            // `super::super::` would leave the folder without naming it; every import that
            // leaves a folder names it from the crate root.
            assert!(
                !text.contains("super::super::"),
                "annotations/src/{folder}/{file}: name another folder by `crate::` instead"
            );
            let code: String = text
                .lines()
                .filter(|line| !line.trim_start().starts_with("//"))
                .collect::<Vec<_>>()
                .join("\n");
            for path in after_word(&code, "crate").into_iter().flat_map(use_tree) {
                if let Some(first) = path.into_iter().next() {
                    named.insert((first, file.clone()));
                }
            }
        }
    }
    found
}

#[test]
fn the_runtime_folders_import_only_the_floors_below() {
    let found = runtime_imports();
    // The imports are read: each of these is there today, by a plain path or in a group.
    for (folder, below) in [
        ("content", "protocol"),
        ("result", "content"),
        ("tool", "schema"),
        ("host", "tool"),
        ("call", "tool"),
        ("listing", "host"),
        ("listing", "call"),
        ("private", "listing"),
    ] {
        assert!(
            found[folder].iter().any(|(other, _)| other == below),
            "{folder}/ imports {below}/, yet the reader found {:?}",
            found[folder]
        );
    }
    for (floor, folder) in RUNTIME_FLOORS.iter().enumerate() {
        for (other, file) in &found[*folder] {
            if other == folder {
                continue;
            }
            let at = format!("annotations/src/{folder}/{file} names `crate::{other}`");
            assert!(
                RUNTIME_FLOORS.contains(&other.as_str()),
                "{at}, through the crate root: name it by its module path instead"
            );
            assert!(
                RUNTIME_FLOORS[..floor].contains(&other.as_str()),
                "{at}, a folder above {folder}/, which may import only {:?}",
                &RUNTIME_FLOORS[..floor]
            );
        }
    }
}

/// Where each of the runtime's concerns lives: a file or folder named for one of them sits in
/// its floor.
#[test]
fn each_concern_has_its_floor() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("annotations/src");
    let homes = [
        ("document", "schema"),
        ("builder", "schema"),
        ("defs", "schema"),
        ("variants", "schema"),
        ("constraints", "schema"),
        ("findings", "host"),
        ("readiness", "host"),
        ("trust", "host"),
        ("diff", "host"),
    ];
    let mut seen = BTreeSet::new();
    for (file, _) in rust_files(&root) {
        for (concern, floor) in homes {
            if file
                .split('/')
                .any(|part| part.trim_end_matches(".rs") == concern)
            {
                seen.insert(concern);
                assert!(
                    file.starts_with(&format!("{floor}/")),
                    "annotations/src/{file} is about {concern}, whose floor is {floor}/"
                );
            }
        }
    }
    // The names were read: each concern is a file or folder of its floor today.
    assert_eq!(seen.len(), homes.len(), "{seen:?}");
    // `tool/` keeps the descriptor alone.
    let tool: Vec<String> = rust_files(&root.join("tool"))
        .into_iter()
        .map(|(f, _)| f)
        .collect();
    assert_eq!(
        tool,
        ["grouping.rs", "listed.rs", "mod.rs", "name.rs", "wire.rs"]
    );
}

/// The source folders of the five published packages.
const PUBLISHED: [&str; 5] = [
    "annotations/src",
    "annotations-derive/src",
    "annotations-rules/src",
    "annotations-verify/src",
    "annotations-audit/src",
];

/// The hints are one list (`mcp_annotations_rules::Hint`) and their rules are written once
/// over it, so a hint is named in code (comments and docs aside) only where it must be: the
/// list and its relations, the HTTP presets, the struct field with its builder and accessor,
/// rmcp's field, and the rule that judges it with verify's report of it. Idempotence is the
/// measure: the other three hints also name features of their own (read-only mode, the
/// network record, what a call loses), while idempotence is only ever a hint.
#[test]
fn at_most_eight_files_name_a_single_hint() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut naming = Vec::new();
    for src in PUBLISHED {
        for (name, path) in rust_files(&root.join(src)) {
            let text = std::fs::read_to_string(&path).unwrap();
            let named = text.lines().any(|line| {
                let code = line.trim_start();
                !code.starts_with("//") && code.to_ascii_lowercase().contains("idempotent")
            });
            if named {
                naming.push(format!("{src}/{name}"));
            }
        }
    }
    assert!(
        naming.len() <= 8,
        "{} files name idempotence in code: {naming:#?}",
        naming.len()
    );
    assert!(
        naming.contains(&"annotations-rules/src/hint.rs".to_owned()),
        "the list was read: {naming:?}"
    );
}

#[test]
fn no_file_but_the_crate_roots_is_over_600_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut stack: Vec<PathBuf> = PUBLISHED.iter().map(|src| root.join(src)).collect();
    let mut read = 0;
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                read += 1;
                let lines = std::fs::read_to_string(&path).unwrap().lines().count();
                assert!(
                    path.ends_with("src/lib.rs") || lines <= 600,
                    "{} has {lines} lines",
                    path.display()
                );
            }
        }
    }
    assert!(read > 40, "the files were read: {read}");
}

#[test]
fn the_private_module_is_glue_only() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("annotations/src/private");
    let lines: usize = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            std::fs::read_to_string(entry.unwrap().path())
                .unwrap()
                .lines()
                .count()
        })
        .sum();
    assert!(lines <= 300, "`__private` has {lines} lines");
}

/// The names `pub use` brings to the runtime's root, read from `lib.rs` (the bodies of inline
/// modules left out): each name once per `use`, so a type and its derive macro are two.
fn root_items() -> Vec<String> {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("annotations/src/lib.rs"),
    )
    .unwrap();
    let code: Vec<&str> = text
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect();
    let mut items = Vec::new();
    let mut depth = 0usize;
    let mut statement = String::new();
    for line in code {
        if depth == 0 && (line.starts_with("pub use ") || !statement.is_empty()) {
            statement.push_str(line);
            if line.trim_end().ends_with(';') {
                let list = statement
                    .trim_start_matches("pub use ")
                    .trim_end_matches(';')
                    .to_owned();
                let names = match list.split_once('{') {
                    Some((_, inner)) => inner.trim_end_matches('}').to_owned(),
                    None => list.rsplit("::").next().unwrap().to_owned(),
                };
                items.extend(
                    names
                        .split(',')
                        .map(|name| name.trim().rsplit("::").next().unwrap().to_owned())
                        .filter(|name| !name.is_empty()),
                );
                statement.clear();
            }
            continue;
        }
        depth += line.matches('{').count();
        depth -= line.matches('}').count().min(depth);
    }
    items
}

#[test]
fn the_runtime_root_holds_what_an_author_writes_every_day() {
    let items = root_items();
    assert!(items.contains(&"ToolAnnotations".to_owned()), "{items:?}");
    assert!(items.contains(&"tools".to_owned()), "{items:?}");
    assert!(
        items.len() <= 15,
        "the root re-exports {} items (at most 15; put the rest in a module by job): {items:?}",
        items.len()
    );
}

/// Every version decision is a named `const fn` of `ProtocolVersion` (an exhaustive `match` in
/// `protocol/version.rs`): no other code of the runtime names a version to compare with, so a
/// new version is a compile error at each decision. The one exception says which form a
/// conversion with no session writes (`rmcp::UNSESSIONED_FORM`).
#[test]
fn version_decisions_are_named_in_one_place() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("annotations/src");
    let mut stack = vec![root.clone()];
    let mut named = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.ends_with("protocol/version.rs")
                || path.extension().is_none_or(|ext| ext != "rs")
            {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for (i, line) in text.lines().enumerate() {
                let code = line.trim_start();
                if code.starts_with("//") {
                    continue;
                }
                if code.contains("ProtocolVersion::V20") {
                    named.push(format!("{}:{}: {code}", path.display(), i + 1));
                }
            }
        }
    }
    assert_eq!(
        named.len(),
        1,
        "versions named outside protocol/version.rs: {named:#?}"
    );
    assert!(named[0].contains("rmcp/mod.rs"), "{named:#?}");
}

/// `Listing`'s methods for rmcp have one home, `rmcp/listing.rs`; the server types alone are in
/// `rmcp/server.rs`, and no other file of the bridge adds to `Listing`.
#[test]
fn the_listings_rmcp_methods_have_one_home() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("annotations/src/rmcp");
    let mut homes = BTreeSet::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let adds = text.lines().any(|line| {
            let line = line.trim_start();
            // An inherent `impl` of `Listing` (a trait `impl` for it names the trait first).
            line.starts_with("impl")
                && (line.ends_with("> Listing<S> {")
                    || line.ends_with(" crate::listing::Listing<S> {"))
        });
        if adds {
            homes.insert(path.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    assert_eq!(homes, BTreeSet::from(["listing.rs".to_owned()]));
}

/// The audit's modules by layer, from the top down (`main.rs`, above them all, parses,
/// dispatches and writes): the jobs, what they reach servers through and write reports with,
/// and the command line's types and the progress a terminal sees. Each may import only the
/// layers below its own, never a module beside it.
const AUDIT_LAYERS: [&[&str]; 4] = [
    // What a probe found, written as the settings file the next probe starts from.
    &["init"],
    &["audit", "probe", "diff"],
    &["server", "report"],
    &["cli", "progress"],
];

/// `verify`'s modules by layer, from the top down (`lib.rs`, above them all, is the facade):
/// the run, what it is built from, what it uses (generation, judgement, the report), the
/// observation, and the JSON comparison every judgement stands on.
const VERIFY_LAYERS: [&[&str]; 5] = [
    &["run"],
    &["builder", "snapshots"],
    &["generate", "judge", "report"],
    &["observe"],
    &["compare"],
];

/// Each module of the crate at `src` (a file `name.rs` or a folder `name/`) named in `layers`,
/// and the modules its code names by `crate::`, each with the file that names it.
fn layer_imports(src: &str, layers: &[&[&str]]) -> BTreeMap<String, BTreeSet<(String, String)>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(src);
    let mut found: BTreeMap<String, BTreeSet<(String, String)>> = BTreeMap::new();
    for module in layers.iter().flat_map(|layer| layer.iter()) {
        let named = found.entry((*module).to_owned()).or_default();
        let file = root.join(format!("{module}.rs"));
        let files = if file.exists() {
            vec![(format!("{module}.rs"), file)]
        } else {
            rust_files(&root.join(module))
                .into_iter()
                .map(|(name, path)| (format!("{module}/{name}"), path))
                .collect()
        };
        assert!(!files.is_empty(), "{src} has no {module}");
        for (name, path) in files {
            let text = std::fs::read_to_string(&path).unwrap();
            // A file's unit tests (below `#[cfg(test)]`) reach the file by `super::`.
            let text = text.split("#[cfg(test)]").next().unwrap_or_default();
            // A module leaves its folder by `crate::`, never by `super::super::`; a file at the
            // crate's root names another module by `crate::` too.
            let leaves = if name.contains('/') {
                "super::super::"
            } else {
                "super::"
            };
            assert!(
                !text.contains(leaves),
                "{src}/{name}: name another module by `crate::` instead"
            );
            let code: String = text
                .lines()
                .filter(|line| !line.trim_start().starts_with("//"))
                .collect::<Vec<_>>()
                .join("\n");
            for path in after_word(&code, "crate").into_iter().flat_map(use_tree) {
                if let Some(first) = path.into_iter().next() {
                    named.insert((first, name.clone()));
                }
            }
        }
    }
    found
}

/// That each module of `layers` in the crate at `src` names by `crate::` only the modules of
/// the layers below its own (itself aside): never one beside it or above, never the crate
/// root's re-exports. `read` holds imports that are there today, each a module and one it
/// names: found, they show the reader read the imports.
fn assert_layered(src: &str, layers: &[&[&str]], read: &[(&str, &str)]) {
    let found = layer_imports(src, layers);
    for (module, below) in read {
        assert!(
            found[*module].iter().any(|(other, _)| other == below),
            "{module} imports {below}, yet the reader found {:?}",
            found[*module]
        );
    }
    for (depth, layer) in layers.iter().enumerate() {
        let below: Vec<&str> = layers[depth + 1..].concat();
        for module in *layer {
            for (other, file) in &found[*module] {
                if other == module {
                    continue;
                }
                assert!(
                    below.contains(&other.as_str()),
                    "{src}/{file} names `crate::{other}`: {module} may import only {below:?}"
                );
            }
        }
    }
}

#[test]
fn the_audit_modules_import_only_the_layers_below() {
    assert_layered(
        "annotations-audit/src",
        &AUDIT_LAYERS,
        &[
            ("probe", "server"),
            ("probe", "report"),
            ("audit", "report"),
            ("diff", "server"),
            ("report", "cli"),
            ("server", "progress"),
        ],
    );
}

#[test]
fn the_verify_modules_import_only_the_layers_below() {
    assert_layered(
        "annotations-verify/src",
        &VERIFY_LAYERS,
        &[
            ("run", "builder"),
            ("run", "judge"),
            ("builder", "observe"),
            ("judge", "observe"),
            ("judge", "compare"),
        ],
    );
}

/// `verify`'s root is a facade: every module it declares is in a layer, and it holds no
/// function of its own.
#[test]
fn the_verify_root_is_a_facade() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("annotations-verify/src/lib.rs");
    let text = std::fs::read_to_string(root).unwrap();
    let code: Vec<&str> = text
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect();
    let layered: Vec<&str> = VERIFY_LAYERS.concat();
    let mut declared = 0;
    for line in &code {
        let line = line.trim();
        assert!(
            !line.contains("fn ") && !line.starts_with("struct") && !line.starts_with("impl"),
            "annotations-verify/src/lib.rs holds code: {line}"
        );
        if let Some(name) = line
            .strip_prefix("pub mod ")
            .or_else(|| line.strip_prefix("mod "))
            .and_then(|rest| rest.strip_suffix(';'))
        {
            declared += 1;
            assert!(layered.contains(&name), "the module {name} is in no layer");
        }
    }
    assert_eq!(declared, layered.len(), "every layered module is declared");
}

#[test]
fn the_audit_command_line_module_holds_the_command_line_alone() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("annotations-audit/src/cli");
    let files: Vec<String> = rust_files(&root)
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    // The exit statuses are the command line's too: what a script reads of it; so is the
    // settings file's probe part, which stands in for the probe's flags.
    assert_eq!(
        files,
        [
            "args.rs",
            "legacy.rs",
            "mod.rs",
            "settings.rs",
            "status.rs",
            "values.rs"
        ]
    );
}

/// One module-file style in the published crates: a module with submodules is a folder with its
/// `mod.rs`, never a `foo.rs` beside a `foo/`.
#[test]
fn a_module_with_submodules_is_a_folder_with_its_mod_rs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut folders = 0;
    for crate_src in PUBLISHED {
        let mut stack = vec![root.join(crate_src)];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if !path.is_dir() {
                    continue;
                }
                folders += 1;
                assert!(
                    path.join("mod.rs").is_file(),
                    "{} has no mod.rs",
                    path.display()
                );
                assert!(
                    !path.with_extension("rs").exists(),
                    "{} stands beside {}: move it into the folder as its mod.rs",
                    path.with_extension("rs").display(),
                    path.display()
                );
                stack.push(path);
            }
        }
    }
    assert!(folders > 15, "the folders were read: {folders}");
}

/// Where a function that starts at `lines[start]` ends: the first later line that closes a brace
/// at the indentation the function starts at (rustfmt's layout), if any.
fn function_end(lines: &[&str], start: usize) -> Option<usize> {
    let indent = lines[start].len() - lines[start].trim_start().len();
    let closing = format!("{}}}", " ".repeat(indent));
    (start + 1..lines.len()).find(|&at| lines[at].trim_end() == closing)
}

/// No function of the five packages is over 150 lines: a longer one does several things,
/// each of which deserves a name.
#[test]
fn no_function_is_over_150_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut read = 0;
    for crate_src in PUBLISHED {
        for (name, path) in rust_files(&root.join(crate_src)) {
            let text = std::fs::read_to_string(&path).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            for (at, line) in lines.iter().enumerate() {
                let code = line.trim_start();
                let signature = ["pub ", "pub(crate) ", "pub(super) ", "const ", "async "]
                    .iter()
                    .fold(code, |rest, prefix| {
                        rest.strip_prefix(prefix).unwrap_or(rest)
                    });
                if !signature.starts_with("fn ") || code.ends_with(';') {
                    continue;
                }
                read += 1;
                if let Some(end) = function_end(&lines, at) {
                    assert!(
                        end - at <= 150,
                        "{crate_src}/{name}:{}: a function of {} lines",
                        at + 1,
                        end - at
                    );
                }
            }
        }
    }
    assert!(read > 500, "the functions were read: {read}");
}
