//! What a verification found: a [`Report`] of [`Violation`]s, each of a [`ViolationKind`], and
//! the lines that say what could not be checked.

use std::fmt;

use mcp_annotations_rules::Hint;

/// Which promise a tool broke.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ViolationKind {
    /// `readOnlyHint: true`, but the observation changed across a call.
    ReadOnly,
    /// `idempotentHint: true`, but a second call with the same arguments changed the
    /// observation the first one left.
    Idempotent,
    /// `destructiveHint: false`, but something in the observation was gone or overwritten
    /// after a call (see [`contains`](crate::contains)).
    Additive,
    /// Arguments the listed input schema takes were refused as arguments (a message naming
    /// an argument), not by the handler's own judgement.
    ValidArgumentsRefused,
    /// Arguments the listed input schema refuses (one rule broken) were not refused naming
    /// the argument.
    InvalidArgumentsAccepted,
    /// A result's structured content is not valid against the listed output schema, for a
    /// protocol version.
    OutputSchema,
    /// A resolvable tool's `tools/resolve` broke the extension's rules for arguments its
    /// input schema takes: it refused them, answered outside the listed hints, or changed the
    /// observation itself (a resolution makes no call and has no side effect).
    Resolution,
}

impl ViolationKind {
    /// The hint or promise, as a host reads it (`readOnlyHint: true`).
    #[must_use]
    pub const fn promise(self) -> &'static str {
        match self {
            ViolationKind::ReadOnly => "readOnlyHint: true",
            ViolationKind::Idempotent => "idempotentHint: true",
            ViolationKind::Additive => "destructiveHint: false",
            ViolationKind::ValidArgumentsRefused => "the input schema takes these arguments",
            ViolationKind::InvalidArgumentsAccepted => "the input schema refuses these arguments",
            ViolationKind::OutputSchema => "the output schema describes every result",
            ViolationKind::Resolution => {
                "tools/resolve answers valid arguments within the listing, changing nothing"
            }
        }
    }
}

impl ViolationKind {
    /// The hint whose claim this kind breaks (`ReadOnly`: [`Hint::ReadOnly`], `Additive`:
    /// [`Hint::Destructive`] claimed `false`), or `None` for a promise of the schemas or the
    /// resolution.
    ///
    /// ```
    /// use mcp_annotations::descriptor::Hint;
    /// use mcp_annotations_verify::ViolationKind;
    ///
    /// assert_eq!(ViolationKind::Additive.hint(), Some(Hint::Destructive));
    /// assert_eq!(ViolationKind::OutputSchema.hint(), None);
    /// ```
    #[must_use]
    pub const fn hint(self) -> Option<Hint> {
        match self {
            ViolationKind::ReadOnly => Some(Hint::ReadOnly),
            ViolationKind::Additive => Some(Hint::Destructive),
            ViolationKind::Idempotent => Some(Hint::Idempotent),
            ViolationKind::ValidArgumentsRefused
            | ViolationKind::InvalidArgumentsAccepted
            | ViolationKind::OutputSchema
            | ViolationKind::Resolution => None,
        }
    }

    /// The kind a broken claim of `hint` is reported as: `None` for open world, which no
    /// observation of state shows.
    ///
    /// ```
    /// use mcp_annotations::descriptor::Hint;
    /// use mcp_annotations_verify::ViolationKind;
    ///
    /// assert_eq!(ViolationKind::of(Hint::ReadOnly), Some(ViolationKind::ReadOnly));
    /// assert_eq!(ViolationKind::of(Hint::OpenWorld), None);
    /// ```
    #[must_use]
    pub const fn of(hint: Hint) -> Option<ViolationKind> {
        match hint {
            Hint::ReadOnly => Some(ViolationKind::ReadOnly),
            Hint::Destructive => Some(ViolationKind::Additive),
            Hint::Idempotent => Some(ViolationKind::Idempotent),
            Hint::OpenWorld => None,
        }
    }

    /// What was seen, for a broken hint's violation (`the call changed the observation`).
    pub(crate) const fn detail(self) -> &'static str {
        match self {
            ViolationKind::Idempotent => {
                "called twice with the same arguments, the second call changed the observation again"
            }
            ViolationKind::Additive => "something observed before the call is gone or overwritten",
            _ => "the call changed the observation",
        }
    }

    /// What the tool does, said of it (`is not read-only`).
    const fn said(self) -> &'static str {
        match self {
            ViolationKind::ReadOnly => "is not read-only",
            ViolationKind::Idempotent => "is not idempotent",
            ViolationKind::Additive => "destroys what was there",
            ViolationKind::ValidArgumentsRefused => "refuses arguments its input schema takes",
            ViolationKind::InvalidArgumentsAccepted => "accepts arguments its input schema refuses",
            ViolationKind::OutputSchema => "returns a result outside its output schema",
            ViolationKind::Resolution => "resolves its calls against the extension's rules",
        }
    }
}

impl fmt::Display for ViolationKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ViolationKind::ReadOnly => "read-only",
            ViolationKind::Idempotent => "idempotent",
            ViolationKind::Additive => "additive (not destructive)",
            ViolationKind::ValidArgumentsRefused => "valid arguments refused",
            ViolationKind::InvalidArgumentsAccepted => "invalid arguments accepted",
            ViolationKind::OutputSchema => "output schema",
            ViolationKind::Resolution => "resolution",
        })
    }
}

/// One broken promise, shrunk to the smallest case proptest found: the tool, what it
/// promised, the calls before it, its arguments, and what changed.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    pub(crate) tool: String,
    pub(crate) kind: ViolationKind,
    pub(crate) detail: String,
    pub(crate) sequence: Vec<(String, serde_json::Value)>,
    pub(crate) arguments: serde_json::Value,
    pub(crate) diff: String,
    /// The hints `tools/resolve` gave for this call, which were judged instead of the
    /// listed ones.
    pub(crate) resolution: Option<mcp_annotations::ToolAnnotations>,
}

impl Violation {
    /// The tool's name.
    #[must_use]
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// What it broke.
    #[must_use]
    pub const fn kind(&self) -> ViolationKind {
        self.kind
    }

    /// The call's arguments (for [`ViolationKind::InvalidArgumentsAccepted`], the broken
    /// ones).
    #[must_use]
    pub fn arguments(&self) -> &serde_json::Value {
        &self.arguments
    }

    /// The hints the tool's resolution (`tools/resolve`) gave for this very call, where the
    /// hint broken is one the resolution claimed beyond the listed hints: the violation is then
    /// the resolution's lie. `None` where the listing claims the hint too (its lie), for a tool
    /// that is not resolvable or whose resolver could not tell, and for the kinds that are not
    /// hints.
    #[must_use]
    pub fn resolution(&self) -> Option<&mcp_annotations::ToolAnnotations> {
        self.resolution.as_ref()
    }

    /// The calls made before it, on the same fresh state: each tool and its arguments.
    #[must_use]
    pub fn sequence(&self) -> &[(String, serde_json::Value)] {
        &self.sequence
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let resolved = match (&self.resolution, self.kind) {
            (
                Some(_),
                ViolationKind::ReadOnly | ViolationKind::Idempotent | ViolationKind::Additive,
            ) => ", as tools/resolve said of this call",
            _ => "",
        };
        writeln!(
            f,
            "`{}` {} ({}{resolved}): {}",
            self.tool,
            self.kind.said(),
            self.kind.promise(),
            self.detail
        )?;
        if self.sequence.is_empty() {
            writeln!(f, "    on a fresh state")?;
        } else {
            writeln!(f, "    after, on a fresh state:")?;
            for (tool, arguments) in &self.sequence {
                writeln!(f, "      {tool} {arguments}")?;
            }
        }
        writeln!(f, "    called with {}", self.arguments)?;
        if !self.diff.is_empty() {
            writeln!(f, "    the observation changed:")?;
            f.write_str(&self.diff)?;
        }
        Ok(())
    }
}

/// What [`Verify::run`](crate::Verify::run) found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    pub(crate) violations: Vec<Violation>,
    pub(crate) notes: Vec<String>,
    pub(crate) problems: Vec<String>,
    pub(crate) seed: u64,
    pub(crate) cases: u64,
    pub(crate) tools: usize,
    pub(crate) calls: Vec<(String, u64, u64)>,
}

impl Report {
    /// Whether every tool was checked and none broke a promise: no violation, and no
    /// [problem](Self::problems) that kept the run from checking (a tool never called or that
    /// never succeeded, an observation missing or failing, a state that could not be built).
    #[must_use]
    pub fn is_ok(&self) -> bool {
        self.violations.is_empty() && self.problems.is_empty()
    }

    /// Every broken promise, shrunk, at most one of each kind for each tool.
    #[must_use]
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    /// What kept the run from checking what it should, one line each: a schema no value
    /// could be generated for, a tool none of whose calls succeeded, an observation missing
    /// or failing, a state that could not be built, a handler that needs an async runtime.
    /// Any of them makes [`is_ok`](Self::is_ok) false.
    #[must_use]
    pub fn problems(&self) -> &[String] {
        &self.problems
    }

    /// What is worth knowing and changes no verdict, one line each: keywords the generator
    /// does not read (the validator still checks them), a handler that panicked on a call.
    #[must_use]
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The seed of the run: [`Verify::seed`](crate::Verify::seed) with it repeats
    /// the run exactly.
    #[must_use]
    pub const fn seed(&self) -> u64 {
        self.seed
    }

    /// How many cases ran, over every tool.
    #[must_use]
    pub const fn cases(&self) -> u64 {
        self.cases
    }

    /// For the tool `name`: how many calls were made, and how many did not fail. A tool
    /// none of whose calls succeeded was only ever refused: its hints were seen holding over
    /// failures alone, and is a [problem](Self::problems). Counted are the calls with valid
    /// arguments (the calls before, the call checked and its repeat), not those with broken
    /// ones.
    #[must_use]
    pub fn calls(&self, name: &str) -> Option<(u64, u64)> {
        self.calls
            .iter()
            .find(|(tool, ..)| tool == name)
            .map(|(_, calls, succeeded)| (*calls, *succeeded))
    }

    /// Panics with the whole report when a promise was broken or something kept the run from
    /// checking.
    ///
    /// # Panics
    ///
    /// When [`is_ok`](Self::is_ok) is false.
    #[track_caller]
    pub fn assert_ok(&self) {
        assert!(self.is_ok(), "{self}");
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "verified {} tools in {} cases (seed {}): {} violation{}, {} problem{}",
            self.tools,
            self.cases,
            self.seed,
            self.violations.len(),
            if self.violations.len() == 1 { "" } else { "s" },
            self.problems.len(),
            if self.problems.len() == 1 { "" } else { "s" }
        )?;
        for (tool, calls, succeeded) in &self.calls {
            writeln!(f, "  `{tool}`: {calls} calls, {succeeded} succeeded")?;
        }
        for violation in &self.violations {
            write!(f, "{violation}")?;
        }
        for problem in &self.problems {
            writeln!(f, "problem: {problem}")?;
        }
        for note in &self.notes {
            writeln!(f, "note: {note}")?;
        }
        Ok(())
    }
}
