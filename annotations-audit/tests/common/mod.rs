//! What the audit's tests share: the binary under test and the fixture servers.

/// A fixture server (an example of this package), built by `cargo test` beside the test
/// binaries.
#[allow(dead_code)] // not every test binary starts a fixture server
pub fn example(name: &str) -> std::path::PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let deps = exe
        .parent()
        .expect("the test binary is in target/<profile>/deps");
    let dir = deps.parent().expect("target/<profile>");
    let binary = dir
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        binary.exists(),
        "the fixture server {} is missing: cargo test builds it",
        binary.display()
    );
    binary
}

/// The `annotations-audit` binary itself.
pub fn audit_binary() -> &'static str {
    env!("CARGO_BIN_EXE_annotations-audit")
}

/// A probe report's verdicts on read-only, idempotent and non-destructive, tool by tool, in
/// the order listed.
#[allow(dead_code)] // the probe's tests read verdicts, the others do not
pub fn verdicts(report: &serde_json::Value) -> Vec<(String, [String; 3])> {
    report["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| {
            let word = |hint: &str| tool["probe"][hint].as_str().unwrap().to_owned();
            (
                tool["name"].as_str().unwrap().to_owned(),
                [word("readOnly"), word("idempotent"), word("nonDestructive")],
            )
        })
        .collect()
}

/// A probe report's row of the tool `name` (the first of that name).
#[allow(dead_code)] // the probe's tests read rows, the others do not
pub fn tool<'r>(report: &'r serde_json::Value, name: &str) -> &'r serde_json::Value {
    report["tools"]
        .as_array()
        .and_then(|tools| tools.iter().find(|tool| tool["name"] == name))
        .unwrap_or_else(|| panic!("no {name}: {report}"))
}

/// What the `flaky_server` fixture is given in `dir`: a counter it keeps outside the sandbox,
/// in a folder left writable, and a file outside every writable place it tries to write.
#[allow(dead_code)] // the probe's tests run it, the others do not
pub struct Flaky {
    pub dir: std::path::PathBuf,
    pub counter: std::path::PathBuf,
    pub elsewhere: std::path::PathBuf,
}

#[allow(dead_code)]
impl Flaky {
    /// The counter (at 0) and the place elsewhere, made under a folder of `name`.
    pub fn new(name: &str) -> Flaky {
        let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
        let counters = dir.join("counters");
        std::fs::create_dir_all(&counters).unwrap();
        let counter = counters.join("counter");
        std::fs::write(&counter, "0").unwrap();
        Flaky {
            elsewhere: dir.join("elsewhere.txt"),
            counter,
            dir,
        }
    }

    /// The probe's options that give them to the server: the counter is state the flaky tool
    /// keeps outside the sandbox on purpose, so its folder is left writable.
    pub fn args(&self) -> Vec<String> {
        let counters = self.counter.parent().unwrap();
        vec![
            "--env".to_owned(),
            format!("FLAKY_COUNTER={}", self.counter.display()),
            "--env".to_owned(),
            format!("ELSEWHERE={}", self.elsewhere.display()),
            "--writable".to_owned(),
            counters.to_string_lossy().into_owned(),
        ]
    }
}

impl Drop for Flaky {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// `report` (an `--format json` report) checked against the schema the package ships for its
/// version (`schemas/report-v1.json`), as published (where a reader ignores keys it does not
/// know) and strictly: every key the report writes is one the schema describes.
#[allow(dead_code)] // the tests that read JSON reports check them, the others do not
pub fn valid_report(report: &serde_json::Value) {
    assert_eq!(report["reportVersion"], 1, "{report}");
    valid_against(report, "schemas/report-v1.json");
}

/// `document` checked against the package's schema at `schema` (a path in the package), as
/// published and strictly (every key written is one the schema describes).
#[allow(dead_code)]
pub fn valid_against(report: &serde_json::Value, schema: &str) {
    fn strict(schema: &mut serde_json::Value) {
        match schema {
            serde_json::Value::Object(object) => {
                if object.contains_key("properties") && !object.contains_key("additionalProperties")
                {
                    object.insert("additionalProperties".to_owned(), false.into());
                }
                object.values_mut().for_each(strict);
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(strict),
            _ => {}
        }
    }
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(schema);
    let mut schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    for _ in 0..2 {
        let validator = jsonschema::validator_for(&schema).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(report)
            .map(|error| format!("{error} at {}", error.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{errors:#?}\n{report:#}");
        strict(&mut schema);
    }
}

/// A folder of its own for one test (`annotations-audit-test-NAME-PID` in the temporary
/// folder), made empty, and removed when dropped.
#[allow(dead_code)] // the tests that run the audit in a folder of their own use it
pub struct Folder(pub std::path::PathBuf);

#[allow(dead_code)]
impl Folder {
    pub fn new(name: &str) -> Folder {
        let dir = std::env::temp_dir().join(format!(
            "annotations-audit-test-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Folder(dir)
    }

    /// Writes `text` to `name` in the folder; its path.
    pub fn write(&self, name: &str, text: &str) -> std::path::PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The audit binary with `args`, run in `dir` (where `.annotations-audit.toml` is looked for
/// and written).
#[allow(dead_code)]
pub fn run_in(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(audit_binary())
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}
