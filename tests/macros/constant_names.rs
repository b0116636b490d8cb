//! The generated constants' names and the attributes they carry from the handler.
#![deny(non_upper_case_globals, non_snake_case)]

use mcp_annotations::tool;

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

/// A crate that forbids lower-case globals can still use `#[tool]` and `tools!`: what they write
/// beside a handler (its call, what the call reads) is named in upper case.
mod forbidding {
    #![forbid(non_upper_case_globals)]

    use mcp_annotations::{Context, Listing, tool, tools};

    pub struct Counter;

    impl Counter {
        /// Adds one.
        #[tool(read_only, open_world = false)]
        pub fn next(&self, after: u64) -> u64 {
            after + 1
        }
    }

    /// Doubles.
    #[tool(read_only, open_world = false)]
    pub fn double(value: u64) -> u64 {
        value * 2
    }

    static TOOLS: Listing<Counter> = tools![Counter::next, double];

    #[test]
    fn tools_of_a_crate_that_forbids_lower_case_globals_are_called() {
        let call = |name: &str, arguments: serde_json::Value| {
            let arguments = arguments.as_object().cloned();
            let call = TOOLS.call(&Counter, name, arguments, Context::none());
            crate::tool_pass::block_on(call.expect("listed")).text_content()
        };
        assert_eq!(call("next", serde_json::json!({"after": 41})), "42");
        assert_eq!(call("double", serde_json::json!({"value": 21})), "42");
    }
}
