//! The proc-macro crate's files are its stages, and no two of them import each other,
//! directly or around a circle (as the README's layout says): writing the output reads the
//! input's model, never the other way.

use std::collections::{BTreeMap, BTreeSet};

/// Each file of `annotations-derive/src/` and the files of the crate it names (`crate::x`).
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("annotations-derive/src");
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|ext| ext == "rs") {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            files.insert(name, std::fs::read_to_string(&path).unwrap());
        }
    }
    let names: BTreeSet<String> = files.keys().cloned().collect();
    files
        .iter()
        .map(|(name, text)| {
            let named = text
                .split("crate::")
                .skip(1)
                .map(|rest| {
                    rest.chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect::<String>()
                })
                .filter(|other| other != name && names.contains(other))
                .collect();
            (name.clone(), named)
        })
        .collect()
}

#[test]
fn the_macros_files_import_no_circle() {
    let graph = imports();
    assert!(graph.len() > 20, "the files were read: {graph:?}");
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
