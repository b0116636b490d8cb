//! The host's reading of hints: what a host may act on, given whether it trusts the server.

use crate::hints::{ByHint, Hint, ToolAnnotations};

/// Whether a host trusts the server that sent some annotations.
///
/// The protocol requires clients to treat tool annotations as untrusted unless they come from a
/// trusted server: a malicious server could call a tool that deletes everything "read-only".
/// There is no default: a host must say which it is, server by server, or tool by tool with
/// [`Evidence`](super::Evidence) of what a probe saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Trust {
    /// The host trusts the server's hints and may act on them.
    Trusted,
    /// The host does not trust the server: every hint reads as unset, so each takes the
    /// protocol's pessimistic default. The title is still shown.
    Untrusted,
    /// The host acts on the hints marked `true` as the server's claims make them (a hint that
    /// `readOnlyHint: true` settles included), and reads the others as unset (their
    /// pessimistic defaults): what [`Evidence::trust`](super::Evidence::trust) gives for a
    /// tool whose claims a probe verified.
    ///
    /// ```
    /// use mcp_annotations::ToolAnnotations;
    /// use mcp_annotations::descriptor::{ByHint, Hint};
    /// use mcp_annotations::host::Trust;
    ///
    /// let claimed = ToolAnnotations::LOOKUP; // read-only, closed world
    /// let only_read_only = Trust::Hints(ByHint::splat(false).with(Hint::ReadOnly, true));
    /// let view = claimed.for_host(only_read_only);
    /// assert!(!view.needs_approval());
    /// assert!(view.effective(Hint::OpenWorld)); // not acted on: its default
    /// ```
    Hints(ByHint<bool>),
}

impl Trust {
    /// Whether the host acts on `hint` as stated.
    #[must_use]
    pub const fn acts_on(self, hint: Hint) -> bool {
        match self {
            Trust::Trusted => true,
            Trust::Untrusted => false,
            Trust::Hints(acted) => acted.get(hint),
        }
    }
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
    /// untrusted one, the title alone (every hint unset); under [`Trust::Hints`], each hint it
    /// names as the claims make it (set, where the claims settle it, though it was not
    /// stated) and the others unset.
    #[must_use]
    pub fn actionable(&self) -> ToolAnnotations {
        ToolAnnotations {
            title: self.annotations.title.clone(),
            ..ToolAnnotations::from_stated(self.acted())
        }
    }

    /// The hints the host acts on, the others unset: as stated from a trusted server; under
    /// [`Trust::Hints`], each hint acted on as the claims make it (a `nonDestructive` claim
    /// that `readOnlyHint: true` made is acted on though `readOnlyHint` is not).
    const fn acted(&self) -> ByHint<Option<bool>> {
        let acts = match self.trust {
            Trust::Trusted => return self.annotations.stated(),
            Trust::Untrusted => return ByHint::splat(None),
            Trust::Hints(acts) => acts,
        };
        let claimed = self.annotations.stated().effective();
        let mut acted = ByHint::splat(None);
        let mut at = 0;
        while at < Hint::ALL.len() {
            let hint = Hint::ALL[at];
            if acts.get(hint) {
                acted = acted.with(hint, Some(claimed.get(hint)));
            }
            at += 1;
        }
        acted
    }

    /// The display title. Shown whatever the trust: it is a label, not a claim a host acts on.
    #[must_use]
    pub fn title(&self) -> Option<&'a str> {
        self.annotations.title()
    }

    /// [`ToolAnnotations::read_only`] of the hints the host may act on.
    #[must_use]
    pub const fn read_only(&self) -> bool {
        self.effective(Hint::ReadOnly)
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
        self.acted().effective().get(hint)
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
