//! The meaning of `ToolAnnotations`: builders, accessors, `check`, `explicit`, presets and the
//! HTTP mapping.

use std::borrow::Cow;

use annotations_tests::{all_combinations, all_hint_combinations};
use mcp_annotations::ToolAnnotations;
use mcp_annotations::descriptor::{ConflictError, Hint};

#[test]
fn the_issue_example_holds() -> Result<(), serde_json::Error> {
    const READ: ToolAnnotations = ToolAnnotations::new()
        .with_title("List notes")
        .with_read_only(true)
        .with_open_world(false);
    assert!(READ.read_only() && !READ.destructive() && READ.idempotent() && !READ.open_world());
    let unknown = ToolAnnotations::default();
    assert!(
        unknown.is_empty()
            && !unknown.read_only()
            && unknown.destructive()
            && !unknown.idempotent()
            && unknown.open_world()
    );
    let mcp: ToolAnnotations = serde_json::from_value(serde_json::json!({"readOnlyHint": true}))?;
    assert!(mcp.read_only());
    const LIT: ToolAnnotations = ToolAnnotations {
        title: None,
        read_only_hint: Some(true),
        destructive_hint: None,
        idempotent_hint: None,
        open_world_hint: Some(false),
    };
    const _: () = assert!(LIT.read_only() && LIT.check().is_ok());
    Ok(())
}

/// Each builder, alone, on an empty value and on a full one, sets its own field to what it
/// was given and leaves every other field as it was: a builder that also wrote another field
/// fails here.
#[test]
fn builders_set_exactly_their_field() {
    type Builder = fn(ToolAnnotations, bool) -> ToolAnnotations;
    type Field = fn(&ToolAnnotations) -> Option<bool>;
    let hints: [(&str, Builder, Field); 4] = [
        (
            "readOnlyHint",
            |a, v| a.with_read_only(v),
            |a| a.read_only_hint,
        ),
        (
            "destructiveHint",
            |a, v| a.with_destructive(v),
            |a| a.destructive_hint,
        ),
        (
            "idempotentHint",
            |a, v| a.with_idempotent(v),
            |a| a.idempotent_hint,
        ),
        (
            "openWorldHint",
            |a, v| a.with_open_world(v),
            |a| a.open_world_hint,
        ),
    ];
    let full = ToolAnnotations {
        title: Some(Cow::Borrowed("Full")),
        read_only_hint: Some(true),
        destructive_hint: Some(true),
        idempotent_hint: Some(true),
        open_world_hint: Some(true),
    };
    for start in [ToolAnnotations::new(), full] {
        for value in [false, true] {
            for (name, build, field) in hints {
                let built = build(start.clone(), value);
                assert_eq!(field(&built), Some(value), "{name} on {start:?}");
                assert_eq!(built.title, start.title, "{name} wrote the title");
                for (other, _, other_field) in hints.iter().filter(|(o, ..)| *o != name) {
                    assert_eq!(
                        other_field(&built),
                        other_field(&start),
                        "{name} wrote {other}"
                    );
                }
            }
        }
        let titled = start.clone().with_title("T");
        assert_eq!(titled.title.as_deref(), Some("T"));
        for (name, _, field) in hints {
            assert_eq!(field(&titled), field(&start), "the title wrote {name}");
        }
    }
    assert_eq!(ToolAnnotations::new(), ToolAnnotations::default());
    assert_eq!(
        serde_json::to_value(ToolAnnotations::new()).unwrap(),
        serde_json::json!({})
    );
}

/// The accessors, computed independently from the protocol's rules for every combination:
/// `destructiveHint` and `idempotentHint` count only when the tool is not read-only.
#[test]
fn accessors_apply_defaults_and_read_only_implications() {
    for a in all_combinations() {
        let read_only = a.read_only_hint == Some(true);
        assert_eq!(a.read_only(), read_only, "{a:?}");
        assert_eq!(
            a.destructive(),
            !read_only && a.destructive_hint != Some(false),
            "{a:?}"
        );
        assert_eq!(
            a.idempotent(),
            read_only || a.idempotent_hint == Some(true),
            "{a:?}"
        );
        assert_eq!(a.open_world(), a.open_world_hint != Some(false), "{a:?}");
        let stated_nothing = a.title.is_none()
            && [
                a.read_only_hint,
                a.destructive_hint,
                a.idempotent_hint,
                a.open_world_hint,
            ]
            .iter()
            .all(Option::is_none);
        assert_eq!(a.is_empty(), stated_nothing, "{a:?}");
    }
}

#[test]
fn check_fails_on_exactly_the_two_conflict_shapes() {
    let mut failures = 0;
    for a in all_combinations() {
        let expected = match (a.read_only_hint, a.destructive_hint, a.idempotent_hint) {
            (Some(true), Some(true), _) => Err(Hint::Destructive),
            (Some(true), _, Some(false)) => Err(Hint::Idempotent),
            _ => Ok(()),
        };
        assert_eq!(a.check().map_err(ConflictError::hint), expected, "{a:?}");
        failures += usize::from(expected.is_err());
    }
    // read-only true with destructive true (3 x 3 others) plus idempotent false and destructive
    // not true (2 x 3), each with and without a title.
    assert_eq!(failures, (9 + 6) * 2);
}

#[test]
fn redundant_read_only_statements_are_consistent() {
    let redundant = ToolAnnotations::new()
        .with_read_only(true)
        .with_destructive(false)
        .with_idempotent(true);
    assert_eq!(redundant.check(), Ok(()));
}

#[test]
fn conflicts_are_errors_that_explain_themselves() {
    let conflict = ToolAnnotations::new()
        .with_read_only(true)
        .with_destructive(true)
        .check()
        .unwrap_err();
    let err: Box<dyn std::error::Error> = Box::new(conflict);
    assert_eq!(
        err.to_string(),
        "a read-only tool is non-destructive, not as stated (readOnlyHint: true, destructiveHint: true)"
    );
}

#[test]
fn explicit_states_every_hint_at_its_effective_value() {
    for a in all_combinations() {
        let e = a.explicit();
        assert!(e.is_explicit(), "{a:?}");
        assert_eq!(e.title, a.title);
        // Stating the effective values changes no decision.
        assert_eq!(
            (
                e.read_only(),
                e.destructive(),
                e.idempotent(),
                e.open_world()
            ),
            (
                a.read_only(),
                a.destructive(),
                a.idempotent(),
                a.open_world()
            ),
            "{a:?}"
        );
        assert_eq!(e.explicit(), e);
        assert_eq!(
            e.explicit_hints(),
            ToolAnnotations {
                title: None,
                ..e.clone()
            }
        );
        assert_eq!(e.read_only_hint, Some(a.read_only()));
        assert_eq!(e.destructive_hint, Some(a.destructive()));
        assert_eq!(e.idempotent_hint, Some(a.idempotent()));
        assert_eq!(e.open_world_hint, Some(a.open_world()));
        // What the hints mean, written out, is consistent.
        assert_eq!(e.check(), Ok(()), "{a:?} became {e:?}");
    }
    let read_only = ToolAnnotations::new().with_read_only(true).explicit();
    assert_eq!(read_only.destructive_hint, Some(false));
    assert_eq!(read_only.idempotent_hint, Some(true));
}

#[test]
fn presets_state_all_four_hints_and_are_consistent() {
    let presets = [
        (
            "LOOKUP",
            ToolAnnotations::LOOKUP,
            (true, false, true, false),
        ),
        (
            "ADDITIVE_WRITE",
            ToolAnnotations::ADDITIVE_WRITE,
            (false, false, false, false),
        ),
        (
            "DESTRUCTIVE_WRITE",
            ToolAnnotations::DESTRUCTIVE_WRITE,
            (false, true, false, false),
        ),
        (
            "EXTERNAL_LOOKUP",
            ToolAnnotations::EXTERNAL_LOOKUP,
            (true, false, true, true),
        ),
        (
            "EXTERNAL_CALL",
            ToolAnnotations::EXTERNAL_CALL,
            (false, true, false, true),
        ),
    ];
    for (name, preset, (read_only, destructive, idempotent, open_world)) in presets {
        assert!(preset.is_explicit() && preset.title.is_none(), "{name}");
        assert_eq!(preset.check(), Ok(()), "{name}");
        assert_eq!(
            preset.explicit(),
            preset,
            "{name} states its effective values"
        );
        assert_eq!(
            (
                preset.read_only(),
                preset.destructive(),
                preset.idempotent(),
                preset.open_world()
            ),
            (read_only, destructive, idempotent, open_world),
            "{name}"
        );
    }
    // The open-world flavour of the pessimistic defaults is exactly them, stated.
    assert_eq!(
        ToolAnnotations::EXTERNAL_CALL,
        ToolAnnotations::new().explicit()
    );
}

#[test]
fn http_methods_map_to_rfc_9110_semantics_in_any_case() {
    let table = [
        ("GET", (true, false, true)),
        ("HEAD", (true, false, true)),
        ("OPTIONS", (true, false, true)),
        ("POST", (false, false, false)),
        ("PUT", (false, true, true)),
        ("PATCH", (false, true, false)),
        ("DELETE", (false, true, true)),
    ];
    for (method, (read_only, destructive, idempotent)) in table {
        let lower = method.to_ascii_lowercase();
        let mixed: String = method
            .chars()
            .enumerate()
            .map(|(i, c)| {
                if i % 2 == 0 {
                    c
                } else {
                    c.to_ascii_lowercase()
                }
            })
            .collect();
        for spelling in [method, &lower, &mixed] {
            let a = ToolAnnotations::from_http_method(spelling)
                .unwrap_or_else(|| panic!("{spelling} is an HTTP method"));
            assert!(a.is_explicit() && a.title.is_none(), "{spelling}");
            assert_eq!(a.check(), Ok(()), "{spelling}");
            assert_eq!(
                (
                    a.read_only(),
                    a.destructive(),
                    a.idempotent(),
                    a.open_world()
                ),
                (read_only, destructive, idempotent, true),
                "{spelling}"
            );
        }
    }
    for not_a_method in [
        "",
        "FETCH",
        "GETS",
        "GE",
        "CONNECT",
        "TRACE",
        " GET",
        "GET ",
        "ＧＥＴ",
    ] {
        assert_eq!(
            ToolAnnotations::from_http_method(not_a_method),
            None,
            "{not_a_method:?}"
        );
    }
}

#[test]
fn http_mapping_works_in_const() {
    const GET: Option<ToolAnnotations> = ToolAnnotations::from_http_method("get");
    assert_eq!(GET, Some(ToolAnnotations::EXTERNAL_LOOKUP));
}

#[test]
fn titles_can_be_owned_or_borrowed_and_replaced() {
    let owned = ToolAnnotations::new().with_owned_title(String::from("first"));
    assert_eq!(owned.title(), Some("first"));
    let mut replaced = owned.with_owned_title("second");
    assert_eq!(replaced.title(), Some("second"));
    replaced.set_title(format!("third {}", 3));
    assert_eq!(replaced.title(), Some("third 3"));
    // A borrowed title may be replaced by the const builder.
    let twice = ToolAnnotations::new().with_title("a").with_title("b");
    assert_eq!(twice.title(), Some("b"));
}

#[test]
fn the_const_title_builder_never_panics_on_an_owned_title() {
    // What a host reads from the wire owns its title; the const builder replaces it (leaking
    // it, as a `const fn` cannot free it) rather than panicking.
    let owned = ToolAnnotations::new().with_owned_title(String::from("owned"));
    let result = std::panic::catch_unwind(|| owned.with_title("static"));
    assert_eq!(result.expect("no panic").title(), Some("static"));
}

/// The 81 combinations of unset, true and false are 81 different things on the wire and to a
/// host: each writes its own JSON, which reads back as itself, and no hint is lost.
#[test]
fn every_hint_combination_is_its_own_wire_form() {
    let all = all_hint_combinations();
    let texts: std::collections::HashSet<String> = all
        .iter()
        .map(|hints| serde_json::to_string(hints).unwrap())
        .collect();
    assert_eq!(texts.len(), 81);
    for hints in &all {
        let text = serde_json::to_string(hints).unwrap();
        let read: ToolAnnotations = serde_json::from_str(&text).unwrap();
        assert_eq!(&read, hints, "{text}");
        let stated = [
            hints.read_only_hint,
            hints.destructive_hint,
            hints.idempotent_hint,
            hints.open_world_hint,
        ];
        assert_eq!(
            text.matches("Hint").count(),
            stated.iter().filter(|hint| hint.is_some()).count(),
            "{text}"
        );
    }
}
