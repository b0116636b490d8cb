//! What hosts may act on: trust, and the decisions made from hints.

use annotations_tests::all_combinations;
use mcp_annotations::descriptor::Hint;
use mcp_annotations::{ToolAnnotations, host::Trust};

/// The decisions a host makes, most permissive = `true`.
fn decisions(a: &ToolAnnotations, trust: Trust) -> [bool; 3] {
    let view = a.for_host(trust);
    [
        !view.needs_approval(),
        view.may_run_in_parallel(),
        view.allowed_in_plan_mode(),
    ]
}

#[test]
fn untrusted_hints_are_never_looser_than_no_annotations() {
    let baseline = decisions(&ToolAnnotations::new(), Trust::Trusted);
    for a in all_combinations() {
        let untrusted = decisions(&a, Trust::Untrusted);
        for (decision, (got, empty)) in untrusted.iter().zip(baseline).enumerate() {
            assert!(
                !got || empty,
                "decision {decision} is looser than for no annotations: {a:?}"
            );
        }
        let view = a.for_host(Trust::Untrusted);
        assert!(
            !view.read_only()
                && view.effective(Hint::Destructive)
                && !view.effective(Hint::Idempotent)
                && view.effective(Hint::OpenWorld)
        );
    }
}

#[test]
fn untrusted_keeps_the_title_and_drops_every_hint() {
    for a in all_combinations() {
        let view = a.for_host(Trust::Untrusted);
        assert_eq!(
            view.actionable(),
            ToolAnnotations {
                title: a.title.clone(),
                ..ToolAnnotations::new()
            }
        );
        assert_eq!(view.title(), a.title());
        assert_eq!(view.claimed(), &a);
        assert_eq!(view.trust(), Trust::Untrusted);
    }
}

#[test]
fn trusted_hints_are_acted_on_as_stated() {
    for a in all_combinations() {
        let view = a.for_host(Trust::Trusted);
        assert_eq!(view.actionable(), a);
        assert_eq!(
            (
                view.read_only(),
                view.effective(Hint::Destructive),
                view.effective(Hint::Idempotent),
                view.effective(Hint::OpenWorld)
            ),
            (
                a.read_only(),
                a.destructive(),
                a.idempotent(),
                a.open_world()
            )
        );
    }
}

#[test]
fn decisions_follow_their_documented_rules() {
    for a in all_combinations() {
        let view = a.for_host(Trust::Trusted);
        assert_eq!(view.needs_approval(), !a.read_only(), "{a:?}");
        assert_eq!(view.may_run_in_parallel(), a.read_only(), "{a:?}");
        assert_eq!(view.allowed_in_plan_mode(), a.read_only(), "{a:?}");
    }
    // A non-destructive write still needs the user's approval.
    assert!(
        ToolAnnotations::ADDITIVE_WRITE
            .for_host(Trust::Trusted)
            .needs_approval()
    );
    // An outside read-only call is fine in plan mode.
    assert!(
        ToolAnnotations::EXTERNAL_LOOKUP
            .for_host(Trust::Trusted)
            .allowed_in_plan_mode()
    );
}

/// What SDKs that seed every hint send for a read-only tool, as the wire has it: mcp-go's
/// `NewTool` defaults (all four hints, `destructiveHint: true`) and the Java SDKs' annotation
/// defaults (`destructiveHint: false, idempotentHint: false`).
const SEEDED_READ_ONLY: [&str; 3] = [
    r#"{"readOnlyHint": true, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true}"#,
    r#"{"title": "Get user", "readOnlyHint": true, "destructiveHint": false, "idempotentHint": false, "openWorldHint": false}"#,
    r#"{"readOnlyHint": true, "destructiveHint": true}"#,
];

/// The protocol's precedence: `destructiveHint` and `idempotentHint` mean something only
/// when `readOnlyHint` is false, so a tool stated read-only is read-only, whatever an SDK
/// seeded beside it. A trusted server's tool runs without approval, in parallel, in plan mode;
/// an untrusted server's gets the pessimistic defaults all the same. `explicit` writes what
/// the hints mean, which passes `check`; `check` still tells the author the seeded hint is
/// one to remove.
#[test]
fn read_only_tools_from_sdks_that_seed_every_hint_are_read_only() {
    for text in SEEDED_READ_ONLY {
        let claimed: ToolAnnotations = serde_json::from_str(text).unwrap();
        assert!(
            claimed.read_only() && !claimed.destructive() && claimed.idempotent(),
            "{text}"
        );
        let trusted = claimed.for_host(Trust::Trusted);
        assert!(!trusted.needs_approval(), "{text}");
        assert!(trusted.may_run_in_parallel(), "{text}");
        assert!(trusted.allowed_in_plan_mode(), "{text}");
        assert!(
            !trusted.effective(Hint::Destructive) && trusted.effective(Hint::Idempotent),
            "{text}"
        );
        let untrusted = claimed.for_host(Trust::Untrusted);
        assert!(untrusted.needs_approval(), "{text}");
        assert!(!untrusted.may_run_in_parallel(), "{text}");
        assert!(!untrusted.allowed_in_plan_mode(), "{text}");
        assert!(
            untrusted.effective(Hint::Destructive) && !untrusted.effective(Hint::Idempotent),
            "{text}"
        );
        let explicit = claimed.explicit();
        assert_eq!(explicit.check(), Ok(()), "{text}");
        assert_eq!(
            (
                explicit.read_only_hint,
                explicit.destructive_hint,
                explicit.idempotent_hint
            ),
            (Some(true), Some(false), Some(true)),
            "{text}"
        );
        assert_eq!(
            explicit.open_world_hint,
            Some(claimed.open_world()),
            "{text}"
        );
    }
    // The author's lint still fires on what is seeded against the tool's nature.
    let mcp_go: ToolAnnotations = serde_json::from_str(SEEDED_READ_ONLY[0]).unwrap();
    assert_eq!(
        mcp_go.check().map_err(|conflict| conflict.hint()),
        Err(Hint::Destructive)
    );
    let java: ToolAnnotations = serde_json::from_str(SEEDED_READ_ONLY[1]).unwrap();
    assert_eq!(
        java.check().map_err(|conflict| conflict.hint()),
        Err(Hint::Idempotent)
    );
}

/// A tool that is not read-only is read by its other hints, as stated.
#[test]
fn a_write_reads_its_other_hints_as_stated() {
    let write: ToolAnnotations = serde_json::from_str(
        r#"{"readOnlyHint": false, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}"#,
    )
    .unwrap();
    let view = write.for_host(Trust::Trusted);
    assert!(view.needs_approval() && !view.may_run_in_parallel() && !view.allowed_in_plan_mode());
    assert!(
        !view.effective(Hint::Destructive)
            && view.effective(Hint::Idempotent)
            && !view.effective(Hint::OpenWorld)
    );
}

/// Annotations read from the wire own their title; every builder works on them.
#[test]
fn builders_never_panic_on_annotations_read_from_the_wire() {
    let received: ToolAnnotations =
        serde_json::from_str(r#"{"title": "From the wire", "readOnlyHint": true}"#).unwrap();
    let retitled = received.clone().with_title("Renamed");
    assert_eq!(retitled.title(), Some("Renamed"));
    assert_eq!(received.with_owned_title("Owned").title(), Some("Owned"));
}
