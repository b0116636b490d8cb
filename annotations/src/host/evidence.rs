//! What a probe saw a server's tools do, as a host acts on it: the evidence file
//! `annotations-audit probe --evidence FILE` writes, read back ([`Evidence`]), and the trust it
//! gives each listed tool ([`Evidence::trust`]).
//!
//! A host that does not trust a server reads every hint as unset. Evidence narrows that, claim
//! by claim: a claim the probe verified, on a tool whose descriptor is the one probed (the same
//! [digest](Evidence::digest) of its canonical JSON), is acted on; a tool whose descriptor
//! changed since, or a claim not verified, falls back to the untrusted reading. A claim the
//! probe saw broken is never acted on, even from a trusted server.

use std::fmt;
use std::str::FromStr;

use serde_json::{Map, Value, json};

use crate::hints::{ByHint, Hint};
use crate::host::Trust;

/// The version of the evidence format this crate reads and writes (`evidenceVersion`): within
/// one version a file only gains keys.
pub const EVIDENCE_VERSION: u64 = 1;

/// What a probe concluded of one claimed hint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Verdict {
    /// A call that succeeded, fully observed, kept the claim, and none broke it.
    Verified,
    /// Broken in every run the probe made to reproduce it.
    Violated,
    /// Broken in some runs and not in others.
    Nondeterministic,
    /// Claimed, but no call judged it.
    Unexercised,
}

impl Verdict {
    /// The verdict as the file writes it: `"verified"`, `"violated"`, `"nondeterministic"`,
    /// `"unexercised"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Verdict::Verified => "verified",
            Verdict::Violated => "violated",
            Verdict::Nondeterministic => "nondeterministic",
            Verdict::Unexercised => "unexercised",
        }
    }

    /// The verdict a word names, as [`as_str`](Self::as_str) writes it.
    #[must_use]
    pub fn from_word(word: &str) -> Option<Verdict> {
        [
            Verdict::Verified,
            Verdict::Violated,
            Verdict::Nondeterministic,
            Verdict::Unexercised,
        ]
        .into_iter()
        .find(|verdict| verdict.as_str() == word)
    }

    /// Whether a run saw the claim broken.
    #[must_use]
    pub const fn broken(self) -> bool {
        matches!(self, Verdict::Violated | Verdict::Nondeterministic)
    }
}

/// One claim's verdict, and what it rests on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    verdict: Verdict,
    calls: u32,
    why: Option<String>,
}

impl Claim {
    /// `verdict`, resting on `calls` calls that succeeded.
    #[must_use]
    pub fn new(verdict: Verdict, calls: u32) -> Claim {
        Claim {
            verdict,
            calls,
            why: None,
        }
    }

    /// The same, with why it was not judged (or what broke it), in words.
    #[must_use]
    pub fn with_why(mut self, why: impl Into<String>) -> Claim {
        self.why = Some(why.into());
        self
    }

    /// The verdict.
    #[must_use]
    pub fn verdict(&self) -> Verdict {
        self.verdict
    }

    /// How many of the tool's calls succeeded and were judged.
    #[must_use]
    pub fn calls(&self) -> u32 {
        self.calls
    }

    /// Why the claim was not judged, or what broke it, in words.
    #[must_use]
    pub fn why(&self) -> Option<&str> {
        self.why.as_deref()
    }
}

/// What a probe saw of one listed tool: its name, the digest of its descriptor as it was
/// listed, and a verdict for each hint it claimed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolEvidence {
    name: String,
    digest: String,
    claims: ByHint<Option<Claim>>,
}

impl ToolEvidence {
    /// The tool `listed` (its descriptor as its server listed it), no claim judged yet.
    #[must_use]
    pub fn new(listed: &Value) -> ToolEvidence {
        ToolEvidence {
            name: listed
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            digest: Evidence::digest(listed),
            claims: ByHint::default(),
        }
    }

    /// The tool `name` whose descriptor had `digest` ([`Evidence::digest`]), no claim judged
    /// yet: for a writer that keeps digests rather than descriptors.
    #[must_use]
    pub fn named(name: impl Into<String>, digest: impl Into<String>) -> ToolEvidence {
        ToolEvidence {
            name: name.into(),
            digest: digest.into(),
            claims: ByHint::default(),
        }
    }

    /// The same, with `claim` the verdict on `hint`'s claim.
    #[must_use]
    pub fn with_claim(mut self, hint: Hint, claim: Claim) -> ToolEvidence {
        self.claims[hint] = Some(claim);
        self
    }

    /// The tool's name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The digest of its descriptor as probed ([`Evidence::digest`]).
    #[must_use]
    pub fn digest(&self) -> &str {
        &self.digest
    }

    /// The verdict on `hint`'s claim, where the tool claimed it.
    #[must_use]
    pub fn claim(&self, hint: Hint) -> Option<&Claim> {
        self.claims[hint].as_ref()
    }

    /// The claims the probe verified.
    #[must_use]
    pub fn verified(&self) -> ByHint<bool> {
        ByHint::from_fn(|hint| {
            self.claim(hint)
                .is_some_and(|claim| claim.verdict == Verdict::Verified)
        })
    }

    /// The claims a run saw broken.
    #[must_use]
    pub fn broken(&self) -> ByHint<bool> {
        ByHint::from_fn(|hint| self.claim(hint).is_some_and(|claim| claim.verdict.broken()))
    }
}

/// A probe's evidence on a server's tools, as `annotations-audit probe --evidence FILE` writes
/// it: read it with [`Evidence::from_json`] (or `str::parse`), and give each listed tool the
/// trust it earns with [`Evidence::trust`].
///
/// An approval policy that auto-approves only tools verified read-only, on a server the host
/// does not trust:
///
/// ```
/// use mcp_annotations::ToolAnnotations;
/// use mcp_annotations::descriptor::Hint;
/// use mcp_annotations::host::{Claim, Evidence, ToolEvidence, Trust, Verdict};
/// use serde_json::json;
///
/// let listed = json!({
///     "name": "list_notes",
///     "inputSchema": {"type": "object"},
///     "annotations": {"readOnlyHint": true, "openWorldHint": false}
/// });
/// // What the probe wrote (here built in place; a host reads the file).
/// let evidence = Evidence::new("annotations-audit 0.1.0", "landlock").with_tool(
///     ToolEvidence::new(&listed).with_claim(Hint::ReadOnly, Claim::new(Verdict::Verified, 12)),
/// );
/// let text = evidence.to_json().to_string();
/// let evidence: Evidence = text.parse()?;
///
/// let annotations: ToolAnnotations = serde_json::from_value(listed["annotations"].clone())?;
/// let trust = evidence.trust(&listed, Trust::Untrusted);
/// assert!(!annotations.for_host(trust).needs_approval()); // verified read-only
/// assert!(annotations.for_host(trust).effective(Hint::OpenWorld)); // not verified
///
/// // The server changes the tool: the evidence is not for it any more.
/// let mut changed = listed.clone();
/// changed["description"] = json!("Lists notes, and tidies them");
/// assert_eq!(evidence.trust(&changed, Trust::Untrusted), Trust::Untrusted);
/// assert!(annotations.for_host(evidence.trust(&changed, Trust::Untrusted)).needs_approval());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evidence {
    probe: String,
    confinement: String,
    tools: Vec<ToolEvidence>,
}

impl Evidence {
    /// Evidence made by `probe` (its name and version) with the server confined as
    /// `confinement` says, no tool yet.
    #[must_use]
    pub fn new(probe: impl Into<String>, confinement: impl Into<String>) -> Evidence {
        Evidence {
            probe: probe.into(),
            confinement: confinement.into(),
            tools: Vec::new(),
        }
    }

    /// The same, with `tool` added.
    #[must_use]
    pub fn with_tool(mut self, tool: ToolEvidence) -> Evidence {
        self.tools.push(tool);
        self
    }

    /// What made the evidence: the probe's name and version.
    #[must_use]
    pub fn probe(&self) -> &str {
        &self.probe
    }

    /// How the server was confined while it was probed, in words.
    #[must_use]
    pub fn confinement(&self) -> &str {
        &self.confinement
    }

    /// Each tool probed, in the order its server listed them.
    #[must_use]
    pub fn tools(&self) -> &[ToolEvidence] {
        &self.tools
    }

    /// The digest of a listed tool's descriptor: `sha256:` and the hex SHA-256 of its canonical
    /// JSON (object keys sorted by their UTF-16 code units, no whitespace, strings escaped and
    /// numbers written as `serde_json` writes them), so that neither key order nor spacing
    /// changes it and any change of a name, description, schema or hint does.
    ///
    /// ```
    /// use mcp_annotations::host::Evidence;
    /// use serde_json::json;
    ///
    /// let a = json!({"name": "x", "annotations": {"readOnlyHint": true}});
    /// let b: serde_json::Value =
    ///     serde_json::from_str(r#"{ "annotations": {"readOnlyHint": true}, "name": "x" }"#)?;
    /// assert_eq!(Evidence::digest(&a), Evidence::digest(&b));
    /// assert!(Evidence::digest(&a).starts_with("sha256:"));
    /// assert_ne!(Evidence::digest(&a), Evidence::digest(&json!({"name": "x"})));
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    #[must_use]
    pub fn digest(listed: &Value) -> String {
        use sha2::Digest;
        let mut text = String::new();
        canonical(listed, &mut text);
        let hash = sha2::Sha256::digest(text.as_bytes());
        let mut digest = String::with_capacity(7 + 64);
        digest.push_str("sha256:");
        for byte in hash.iter() {
            digest.push_str(&format!("{byte:02x}"));
        }
        digest
    }

    /// The evidence on `listed` (a tool as its server lists it now): the tool of its name
    /// whose descriptor had the same digest. `None` when the probe saw no such tool, or the
    /// descriptor changed since.
    #[must_use]
    pub fn tool(&self, listed: &Value) -> Option<&ToolEvidence> {
        let name = listed.get("name").and_then(Value::as_str)?;
        let digest = Evidence::digest(listed);
        self.tools
            .iter()
            .find(|tool| tool.name == name && tool.digest == digest)
    }

    /// The trust a host gives `listed` (a tool as its server lists it now), where it gives its
    /// server `trust`: each claim the probe verified is acted on as well, and a claim a run saw
    /// broken is not acted on at all. A tool the evidence has nothing on (another name, a
    /// descriptor changed since) keeps `trust`.
    ///
    /// ```
    /// use mcp_annotations::descriptor::Hint;
    /// use mcp_annotations::host::{Claim, Evidence, ToolEvidence, Trust, Verdict};
    /// use serde_json::json;
    ///
    /// let listed = json!({"name": "save", "annotations": {"idempotentHint": true}});
    /// let evidence = Evidence::new("annotations-audit 0.1.0", "landlock").with_tool(
    ///     ToolEvidence::new(&listed).with_claim(Hint::Idempotent, Claim::new(Verdict::Violated, 4)),
    /// );
    /// // Broken, so not acted on even where the server is trusted.
    /// let trust = evidence.trust(&listed, Trust::Trusted);
    /// assert!(!trust.acts_on(Hint::Idempotent) && trust.acts_on(Hint::ReadOnly));
    /// ```
    #[must_use]
    pub fn trust(&self, listed: &Value, trust: Trust) -> Trust {
        let Some(tool) = self.tool(listed) else {
            return trust;
        };
        let (verified, broken) = (tool.verified(), tool.broken());
        let mut acted =
            ByHint::from_fn(|hint| (trust.acts_on(hint) || verified[hint]) && !broken[hint]);
        // A read-only claim settles the hints it implies: acted on, it would act on one a run
        // saw broken.
        if tool.claim(Hint::ReadOnly).is_some()
            && Hint::ALL
                .into_iter()
                .any(|hint| hint.implied_by_read_only() && broken[hint])
        {
            acted[Hint::ReadOnly] = false;
        }
        if Hint::ALL.into_iter().all(|hint| acted[hint]) {
            Trust::Trusted
        } else if Hint::ALL.into_iter().all(|hint| !acted[hint]) {
            Trust::Untrusted
        } else {
            Trust::Hints(acted)
        }
    }

    /// Reads an evidence file's text.
    ///
    /// # Errors
    ///
    /// The text is not JSON, is evidence of another version, or lacks or mistypes a key;
    /// the error names where.
    pub fn from_json(text: &str) -> Result<Evidence, EvidenceError> {
        let value: Value = serde_json::from_str(text)
            .map_err(|error| EvidenceError(format!("not JSON: {error}")))?;
        Evidence::from_value(&value)
    }

    /// Reads evidence from its JSON value.
    ///
    /// # Errors
    ///
    /// As [`from_json`](Self::from_json), past the parsing.
    pub fn from_value(value: &Value) -> Result<Evidence, EvidenceError> {
        let fail = |what: String| Err(EvidenceError(what));
        match value.get("evidenceVersion").and_then(Value::as_u64) {
            Some(EVIDENCE_VERSION) => {}
            Some(other) => {
                return fail(format!(
                    "evidenceVersion {other}: this reader knows version {EVIDENCE_VERSION}"
                ));
            }
            None => return fail("no evidenceVersion: not an evidence file".to_owned()),
        }
        let text = |value: &Value, key: &str, at: &str| -> Result<String, EvidenceError> {
            value
                .get(key)
                .and_then(Value::as_str)
                .map(str::to_owned)
                .ok_or_else(|| EvidenceError(format!("{at}{key}: not a string")))
        };
        let mut evidence =
            Evidence::new(text(value, "probe", "")?, text(value, "confinement", "")?);
        let Some(tools) = value.get("tools").and_then(Value::as_array) else {
            return fail("tools: not an array".to_owned());
        };
        for (index, tool) in tools.iter().enumerate() {
            let at = format!("tools[{index}].");
            let mut read = ToolEvidence {
                name: text(tool, "name", &at)?,
                digest: text(tool, "digest", &at)?,
                claims: ByHint::default(),
            };
            let Some(claims) = tool.get("claims").and_then(Value::as_object) else {
                return fail(format!("{at}claims: not an object"));
            };
            for (key, claim) in claims {
                let at = format!("{at}claims.{key}");
                let Some(hint) = Hint::ALL.into_iter().find(|hint| hint.claim() == key) else {
                    return fail(format!("{at}: no claim of that name"));
                };
                let word = claim
                    .get("verdict")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let Some(verdict) = Verdict::from_word(word) else {
                    return fail(format!("{at}.verdict: {word:?} is no verdict"));
                };
                let calls = claim
                    .get("calls")
                    .and_then(Value::as_u64)
                    .and_then(|calls| u32::try_from(calls).ok());
                let Some(calls) = calls else {
                    return fail(format!("{at}.calls: not a count"));
                };
                let mut read_claim = Claim::new(verdict, calls);
                if let Some(why) = claim.get("why").and_then(Value::as_str) {
                    read_claim = read_claim.with_why(why);
                }
                read.claims[hint] = Some(read_claim);
            }
            evidence.tools.push(read);
        }
        Ok(evidence)
    }

    /// The evidence as its file holds it (`evidenceVersion` first).
    #[must_use]
    pub fn to_json(&self) -> Value {
        let tools: Vec<Value> = self
            .tools
            .iter()
            .map(|tool| {
                let mut claims = Map::new();
                for hint in Hint::ALL {
                    if let Some(claim) = tool.claim(hint) {
                        let mut written = json!({
                            "verdict": claim.verdict.as_str(),
                            "calls": claim.calls,
                        });
                        if let Some(why) = &claim.why {
                            written["why"] = Value::from(why.as_str());
                        }
                        claims.insert(hint.claim().to_owned(), written);
                    }
                }
                json!({"name": tool.name, "digest": tool.digest, "claims": claims})
            })
            .collect();
        json!({
            "evidenceVersion": EVIDENCE_VERSION,
            "probe": self.probe,
            "confinement": self.confinement,
            "tools": tools,
        })
    }
}

impl FromStr for Evidence {
    type Err = EvidenceError;

    fn from_str(text: &str) -> Result<Evidence, EvidenceError> {
        Evidence::from_json(text)
    }
}

/// Why an evidence file cannot be read: what is wrong, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvidenceError(String);

impl fmt::Display for EvidenceError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "evidence: {}", self.0)
    }
}

impl std::error::Error for EvidenceError {}

/// `value` as canonical JSON onto `out`: keys sorted by UTF-16 code units, no whitespace.
fn canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(object) => {
            let mut keys: Vec<&String> = object.keys().collect();
            keys.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
            out.push('{');
            for (at, key) in keys.into_iter().enumerate() {
                if at > 0 {
                    out.push(',');
                }
                out.push_str(&Value::from(key.as_str()).to_string());
                out.push(':');
                canonical(&object[key], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (at, item) in items.iter().enumerate() {
                if at > 0 {
                    out.push(',');
                }
                canonical(item, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}
