//! The host's reading of hints: what a host may act on, given whether it trusts the server.

use crate::hints::{Hint, ToolAnnotations};

/// Whether a host trusts the server that sent some annotations.
///
/// The protocol requires clients to treat tool annotations as untrusted unless they come from a
/// trusted server: a malicious server could call a tool that deletes everything "read-only".
/// There is no default: a host must say which it is, server by server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Trust {
    /// The host trusts the server's hints and may act on them.
    Trusted,
    /// The host does not trust the server: every hint reads as unset, so each takes the
    /// protocol's pessimistic default. The title is still shown.
    Untrusted,
}

/// The annotations of one tool as a host may act on them, from
/// [`ToolAnnotations::for_host`].
///
/// Every accessor and decision here honours the [`Trust`] given: under
/// [`Trust::Untrusted`] the tool reads as not read-only, destructive, not idempotent and open
/// world, whatever its server claimed, so no decision is looser than for a tool with no
/// annotations at all. A trusted server's hints are read with the protocol's precedence: a
/// tool stated read-only is read-only whatever `destructiveHint` and `idempotentHint` say
/// beside it (mcp-go and the Java SDKs send both with every read-only tool), as
/// [`ToolAnnotations::read_only`] says.
///
/// ```
/// use mcp_annotations::{ToolAnnotations, host::Trust};
///
/// let claimed = ToolAnnotations::LOOKUP.with_title("List notes");
///
/// let trusted = claimed.for_host(Trust::Trusted);
/// assert!(!trusted.needs_approval());
/// assert!(trusted.may_run_in_parallel());
///
/// let untrusted = claimed.for_host(Trust::Untrusted);
/// assert!(untrusted.needs_approval());
/// assert!(!untrusted.allowed_in_plan_mode());
/// assert_eq!(untrusted.title(), Some("List notes"));
/// assert_eq!(untrusted.actionable(), ToolAnnotations::new().with_title("List notes"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostView<'a> {
    annotations: &'a ToolAnnotations,
    trust: Trust,
}

/// What an untrusted server's hints read as: nothing stated.
static NOTHING_STATED: ToolAnnotations = ToolAnnotations::new();

impl ToolAnnotations {
    /// These annotations as a host may act on them, given whether it trusts their server.
    #[must_use]
    pub const fn for_host(&self, trust: Trust) -> HostView<'_> {
        HostView {
            annotations: self,
            trust,
        }
    }
}

impl<'a> HostView<'a> {
    /// The trust this view was made with.
    #[must_use]
    pub const fn trust(&self) -> Trust {
        self.trust
    }

    /// The annotations as received, whatever the trust. Do not base decisions on them.
    #[must_use]
    pub const fn claimed(&self) -> &'a ToolAnnotations {
        self.annotations
    }

    /// The annotations the host may act on: as received from a trusted server; from an
    /// untrusted one, the title alone (every hint unset).
    #[must_use]
    pub fn actionable(&self) -> ToolAnnotations {
        ToolAnnotations {
            title: self.annotations.title.clone(),
            ..*self.hints()
        }
    }

    /// The annotations whose hints may be acted on (their title is not looked at).
    const fn hints(&self) -> &'a ToolAnnotations {
        match self.trust {
            Trust::Trusted => self.annotations,
            Trust::Untrusted => &NOTHING_STATED,
        }
    }

    /// The display title. Shown whatever the trust: it is a label, not a claim a host acts on.
    #[must_use]
    pub fn title(&self) -> Option<&'a str> {
        self.annotations.title()
    }

    /// [`ToolAnnotations::read_only`] of the hints the host may act on.
    #[must_use]
    pub const fn read_only(&self) -> bool {
        self.hints().read_only()
    }

    /// [`ToolAnnotations::effective`] of the hints the host may act on: any hint as the host
    /// reads it.
    ///
    /// ```
    /// use mcp_annotations::{ToolAnnotations, descriptor::Hint, host::Trust};
    ///
    /// let claimed = ToolAnnotations::LOOKUP;
    /// assert!(!claimed.for_host(Trust::Trusted).effective(Hint::OpenWorld));
    /// // Untrusted, every hint is its protocol default.
    /// let untrusted = claimed.for_host(Trust::Untrusted);
    /// assert!(Hint::ALL.into_iter().all(|hint| untrusted.effective(hint) == hint.default_value()));
    /// ```
    #[must_use]
    pub const fn effective(&self, hint: Hint) -> bool {
        self.hints().effective(hint)
    }

    /// Whether the host should ask the user before calling the tool.
    ///
    /// Rule: every call that is not read-only needs approval. A tool that changes nothing can
    /// run without asking; anything else, including a write the server calls non-destructive,
    /// is the user's decision.
    #[must_use]
    pub const fn needs_approval(&self) -> bool {
        !self.read_only()
    }

    /// Whether the host may run this call side by side with others.
    ///
    /// Rule: only read-only calls. Two calls that change things may race on the same data,
    /// and their order can matter even when each is idempotent.
    #[must_use]
    pub const fn may_run_in_parallel(&self) -> bool {
        self.read_only()
    }

    /// Whether the tool may be called in a plan (read-only) mode, where the model explores
    /// and proposes but must not change anything.
    ///
    /// Rule: only read-only tools. Open-world reads (a web search) are allowed: they change
    /// nothing.
    #[must_use]
    pub const fn allowed_in_plan_mode(&self) -> bool {
        self.read_only()
    }
}
