//! A `#[context]` parameter of the user's own type: `FromContext` implemented for it, reading
//! the request a server put in the call's `Context` (`Context::with_request`, read back with
//! `request::<T>()`), and the call failing with its message when the request is not there.

use mcp_annotations::call::FromContext;
use mcp_annotations::{Context, Listing, ToolResult, tool, tools};
use serde_json::json;

/// What a server knows of the request it answers: who made it.
pub struct Authenticated {
    pub user: String,
}

/// The caller, as a tool asks for it.
pub struct Caller(String);

impl<'a, S: ?Sized> FromContext<'a, S> for Caller {
    fn from_context(_: &'a S, context: &Context<'a>) -> Result<Self, String> {
        context
            .request::<Authenticated>()
            .map(|request| Caller(request.user.clone()))
            .ok_or_else(|| "no authenticated caller for this request".to_owned())
    }
}

/// Say who is calling.
#[tool(read_only, open_world = false)]
fn whoami(#[context] caller: Caller, greeting: String) -> String {
    format!("{greeting}, {}", caller.0)
}

static TOOLS: Listing = tools![whoami];

fn call(context: Context<'_>) -> ToolResult {
    TOOLS
        .call(
            &(),
            "whoami",
            json!({"greeting": "hello"}).as_object().cloned(),
            context,
        )
        .unwrap()
        .into_ready()
        .expect("a synchronous handler's call has finished")
}

#[test]
fn a_users_context_type_reads_the_request_the_server_gave() {
    let request = Authenticated {
        user: "ada".to_owned(),
    };
    let answered = call(Context::with_request(&request));
    assert!(!answered.is_error, "{answered:?}");
    assert_eq!(answered.text_content(), "hello, ada");
    // The context holds a request of another type: not this one.
    let other = 7u32;
    assert!(
        Context::with_request(&other)
            .request::<Authenticated>()
            .is_none()
    );
    assert_eq!(Context::with_request(&other).request::<u32>(), Some(&7));
    // No request: the call fails with the type's own message, as a failed result.
    let refused = call(Context::none());
    assert!(refused.is_error);
    assert!(
        refused
            .text_content()
            .contains("no authenticated caller for this request"),
        "{}",
        refused.text_content()
    );
}
