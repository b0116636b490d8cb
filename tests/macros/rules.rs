//! The rules both crates apply: the macro checks them while compiling, the runtime crate when a
//! value is made or read, and a value one accepts must not be refused by the other. The tool
//! name, MIME, HTTP preset and pattern rules are written once, in `mcp-annotations-rules`;
//! what is held here is what each side makes of them (the macro's icon rule, compiled in as it
//! is, against the runtime's `MimeType`; the presets and the words of `task_support` and an
//! icon's `theme` through what the macro generates), and what a translated pattern means.

use mcp_annotations::{ToolAnnotations, content::MimeType, descriptor::is_valid_tool_name, tool};
use proptest::prelude::*;

#[path = "../../annotations-derive/src/leaf/icon_rule.rs"]
mod macro_icon;

use mcp_annotations_rules::pattern::translate;

/// The tool-name rule: 1 to 128 of `A-Z a-z 0-9 _ - .`, the same on both sides.
fn same_name_rule(name: &str) {
    assert_eq!(
        mcp_annotations_rules::name::tool_name_problem(name).is_none(),
        is_valid_tool_name(name),
        "{name:?}"
    );
}

#[test]
fn the_tool_name_rule_is_one_rule() {
    let long = "a".repeat(128);
    let longer = "a".repeat(129);
    for name in [
        "list_notes",
        "a",
        "A-Z.0_9",
        "",
        " ",
        "list notes",
        "list/notes",
        "é",
        "liste_é",
        "a\n",
        long.as_str(),
        longer.as_str(),
        "ünïcode",
        "tool:name",
    ] {
        same_name_rule(name);
    }
}

proptest! {
    #[test]
    fn any_name_is_judged_alike(name in "[ -~]{0,12}|[a-z_.-]{120,136}|\\PC{0,6}") {
        same_name_rule(&name);
    }

    /// What the macro accepts as an icon's MIME type, the runtime's `MimeType` reads (the
    /// generated `const` makes one), and for `image/` types without parameters the two agree.
    #[test]
    fn an_icon_mime_type_is_judged_alike(mime in "image/[ -~]{0,10}|[ -~]{0,16}") {
        let by_macro = macro_icon::mime_ok(&mime);
        let by_runtime = MimeType::parse(mime.as_str()).is_ok();
        if by_macro {
            prop_assert!(by_runtime && mime.starts_with("image/"), "{mime:?}");
        }
        if mime.starts_with("image/") && !mime.contains([';', ' ']) {
            prop_assert_eq!(by_macro, by_runtime, "{:?}", mime);
        }
    }
}

#[test]
fn icon_mime_types_at_the_edges() {
    for (mime, ok) in [
        ("image/png", true),
        ("image/svg+xml", true),
        ("image/vnd.microsoft.icon", true),
        ("image/", false),
        // A subtype starts with a letter or digit, as `MimeType` reads it.
        ("image/.png", false),
        ("image/-png", false),
        ("text/plain", false),
        ("image/png; q=1", false),
    ] {
        assert_eq!(macro_icon::mime_ok(mime), ok, "{mime}");
        if ok {
            assert!(MimeType::parse(mime).is_ok(), "{mime}");
        }
    }
    // The runtime holds sizes as written and states no rule for them: the macro's is its own.
    for (size, ok) in [
        ("48x48", true),
        ("any", true),
        ("048x48", false),
        ("48", false),
    ] {
        assert_eq!(macro_icon::size_ok(size), ok, "{size}");
    }
}

#[tool(http = "GET")]
fn http_get() {}
#[tool(http = "head")]
fn http_head() {}
#[tool(http = "Options")]
fn http_options() {}
#[tool(http = "POST")]
fn http_post() {}
#[tool(http = "PUT")]
fn http_put() {}
#[tool(http = "PATCH")]
fn http_patch() {}
#[tool(http = "DELETE")]
fn http_delete() {}

/// The HTTP presets: the macro's and the runtime crate's are each what RFC 9110 says.
#[test]
fn http_presets_match_the_runtime_mapping() {
    let generated = [
        ("GET", HTTP_GET_ANNOTATIONS),
        ("HEAD", HTTP_HEAD_ANNOTATIONS),
        ("OPTIONS", HTTP_OPTIONS_ANNOTATIONS),
        ("POST", HTTP_POST_ANNOTATIONS),
        ("PUT", HTTP_PUT_ANNOTATIONS),
        ("PATCH", HTTP_PATCH_ANNOTATIONS),
        ("DELETE", HTTP_DELETE_ANNOTATIONS),
    ];
    // What RFC 9110 says of each method, written out here, not read from the rules crate
    // both sides share: safe (9.2.1) is read-only; idempotent (9.2.2) as it lists them; PUT
    // replaces and DELETE removes what was there, PATCH changes it in place, POST adds; an
    // HTTP server is always another system (open world).
    let rfc = [
        ("GET", true, false, true),
        ("HEAD", true, false, true),
        ("OPTIONS", true, false, true),
        ("POST", false, false, false),
        ("PUT", false, true, true),
        ("PATCH", false, true, false),
        ("DELETE", false, true, true),
    ];
    for ((method, annotations), (rfc_method, read_only, destructive, idempotent)) in
        generated.into_iter().zip(rfc)
    {
        assert_eq!(method, rfc_method);
        let expected = ToolAnnotations {
            title: None,
            read_only_hint: Some(read_only),
            destructive_hint: Some(destructive),
            idempotent_hint: Some(idempotent),
            open_world_hint: Some(true),
        };
        assert_eq!(annotations, expected, "the macro's {method}");
        assert_eq!(
            ToolAnnotations::from_http_method(method),
            Some(expected),
            "the runtime's {method}"
        );
    }
    http_get();
    http_head();
    http_options();
    http_post();
    http_put();
    http_patch();
    http_delete();
}

/// Export in each way a tool may be run as a task.
#[tool(task_support = "forbidden")]
fn task_forbidden() {}
#[tool(task_support = "optional")]
fn task_optional() {}
#[tool(task_support = "required")]
fn task_required() {}

/// An icon for each theme.
#[tool(icons = [
    { src = "https://example.com/l.png", theme = "light" },
    { src = "https://example.com/d.png", theme = "dark" },
])]
fn themed() {}

/// The words of `task_support` and of an icon's `theme`: every word the macro takes becomes
/// the runtime value of that word, and the runtime has no word the macro refuses (its words
/// are the ones its `FromStr` lists).
#[test]
fn task_support_and_theme_words_are_one_list() {
    use mcp_annotations::{descriptor::IconTheme, descriptor::TaskSupport};

    let written = ["forbidden", "optional", "required"];
    let generated = [
        TASK_FORBIDDEN_TOOL.task_support,
        TASK_OPTIONAL_TOOL.task_support,
        TASK_REQUIRED_TOOL.task_support,
    ];
    for (word, support) in written.iter().zip(generated) {
        assert_eq!(
            support,
            Some(word.parse::<TaskSupport>().unwrap()),
            "{word}"
        );
    }
    assert_eq!("?".parse::<TaskSupport>().unwrap_err().expected(), written);

    let themes: Vec<Option<IconTheme>> =
        THEMED_TOOL.icons.iter().map(|icon| icon.theme()).collect();
    assert_eq!(themes, [Some(IconTheme::Light), Some(IconTheme::Dark)]);
    assert_eq!(
        "?".parse::<IconTheme>().unwrap_err().expected(),
        ["light", "dark"]
    );
    task_forbidden();
    task_optional();
    task_required();
    themed();
}

/// What the translation accepts, the `regex` crate compiles, and it matches as ECMA-262 does.
#[test]
fn a_translated_pattern_means_what_ecma_262_means() {
    let matches = |pattern: &str, text: &str| {
        let translated = translate(pattern).unwrap();
        regex::Regex::new(&translated)
            .unwrap_or_else(|error| panic!("{pattern} as {translated}: {error}"))
            .is_match(text)
    };
    for (pattern, text, expected) in [
        (r"^\d$", "3", true),
        (r"^\d$", "\u{663}", false),
        (r"^\w$", "é", false),
        (r"^\w$", "_", true),
        (r"^\W$", "é", true),
        (r"^.$", "\r", false),
        (r"^.$", "\u{2028}", false),
        (r"^.$", "é", true),
        (r"^\s$", "\u{FEFF}", true),
        (r"^\s$", "\u{3000}", true),
        (r"^\s$", "\u{85}", false),
        (r"^\S$", "\u{85}", true),
        (r"^[\s]$", "\u{A0}", true),
        (r"^[^\S]$", "\u{A0}", true),
        (r"^[^\D]$", "\u{663}", false),
        (r"^[]$", "", false),
        (r"^[^]$", "\n", true),
        (r"^[a\-z]$", "b", false),
        (r"^[a\-z]$", "-", true),
        (r"^[+--]$", ",", true),
        (r"^[[&&~]$", "&", true),
        (r"^[\b]$", "\u{8}", true),
        (r"^a{2}\{,3\}$", "aa{,3}", true),
        (r"^[\]\-]$", "-", true),
        (r"^\/\.$", "/.", true),
        (r"^\cJ$", "\n", true),
        ("^a#b c$", "a#b c", true),
    ] {
        assert_eq!(matches(pattern, text), expected, "{pattern} on {text:?}");
    }
    for refused in [
        r"(?=a)", r"(?i)a", r"\1", r"\p{L}", r"\A", r"\z", r"\Z", r"[z-a]", r"[\d-z]", r"\ud83d",
        r"a{,3}", r"x{", r"a}", r"[]a]", r"\é", r"\-",
    ] {
        assert!(translate(refused).is_err(), "{refused}");
    }
}

/// The macro's hints and the runtime's are one list (the rules crate's `Hint`): each key an
/// attribute writes names the runtime's field `{key}_hint`, the wire name in camel case.
#[test]
fn the_hints_are_one_list_on_both_sides() {
    use mcp_annotations::descriptor::Hint;
    for hint in Hint::ALL {
        let field = format!("{}_hint", hint.key());
        let camel: String = field
            .split('_')
            .enumerate()
            .map(|(i, word)| {
                if i == 0 {
                    word.to_owned()
                } else {
                    word[..1].to_uppercase() + &word[1..]
                }
            })
            .collect();
        assert_eq!(camel, hint.wire_name(), "{hint:?}");
        assert_eq!(Hint::from_key(hint.key()), Some(hint));
    }
    // The runtime's field of each is the one the macro writes.
    let stated = mcp_annotations::ToolAnnotations {
        read_only_hint: Some(true),
        destructive_hint: Some(false),
        idempotent_hint: Some(true),
        open_world_hint: Some(false),
        ..mcp_annotations::ToolAnnotations::new()
    };
    for hint in Hint::ALL {
        assert_eq!(stated.hint(hint), Some(hint.trusted_value()), "{hint:?}");
    }
}
