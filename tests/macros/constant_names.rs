//! The generated constants' names and the attributes they carry from the handler.
#![deny(non_upper_case_globals, non_snake_case)]

use annotations::tool;

#[tool(read_only)]
#[allow(non_snake_case)]
fn getURLForNote() {}

#[tool(read_only)]
#[allow(non_snake_case)]
fn parseJSON2HTML() {}

#[tool(read_only)]
#[allow(non_snake_case)]
fn HTTPServer() {}

#[tool(read_only, name = "list_created_notes")]
fn liste_des_notes_créées() {}

#[tool(read_only)]
#[cfg(not(test))]
fn compiled_out(missing: DoesNotExist) {}

#[tool(read_only)]
#[cfg(test)]
fn compiled_in() {}

/// Old.
#[tool(read_only)]
#[deprecated = "use compiled_in"]
fn old() {}

#[test]
fn acronyms_split_into_words() {
    getURLForNote();
    parseJSON2HTML();
    HTTPServer();
    assert_eq!(GET_URL_FOR_NOTE_TOOL.name(), "getURLForNote");
    assert_eq!(PARSE_JSON2_HTML_TOOL.name(), "parseJSON2HTML");
    assert_eq!(HTTP_SERVER_TOOL.name(), "HTTPServer");
}

#[test]
fn a_non_ascii_function_name_gives_a_constant_without_a_lint() {
    liste_des_notes_créées();
    assert_eq!(LISTE_DES_NOTES_CRÉÉES_TOOL.name(), "list_created_notes");
}

#[test]
fn cfg_and_deprecated_are_carried_to_the_constants() {
    compiled_in();
    // The constants of `compiled_out` are compiled out with it: had they not been, their
    // descriptor would name `DoesNotExist` and fail to build.
    assert_eq!(COMPILED_IN_TOOL.name(), "compiled_in");
    #[allow(deprecated)]
    {
        old();
        assert!(OLD_ANNOTATIONS.read_only());
    }
}
