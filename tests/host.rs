//! What hosts may act on: trust, and the decisions made from hints.

use annotations::{ToolAnnotations, Trust};
use annotations_tests::all_combinations;

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
        assert!(!view.read_only() && view.destructive() && !view.idempotent() && view.open_world());
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
                view.destructive(),
                view.idempotent(),
                view.open_world()
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

/// Hints that contradict each other are never read the permissive way, even from a trusted
/// server: every decision is the pessimistic one, and `explicit` keeps the contradiction.
#[test]
fn contradictory_hints_are_treated_as_unstated() {
    for claimed in [
        ToolAnnotations::new()
            .with_read_only(true)
            .with_destructive(true),
        ToolAnnotations::new()
            .with_read_only(true)
            .with_idempotent(false),
    ] {
        let view = claimed.for_host(Trust::Trusted);
        assert!(view.needs_approval(), "{claimed:?}");
        assert!(!view.may_run_in_parallel(), "{claimed:?}");
        assert!(!view.allowed_in_plan_mode(), "{claimed:?}");
        assert!(view.destructive() && !view.idempotent());
        assert!(
            claimed.explicit().check().is_err(),
            "the contradiction stays visible"
        );
    }
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
