//! rmcp's request context as a `#[context]` parameter.

/// A `#[context]` parameter of this type receives the request context of the rmcp call it
/// answers (progress, logging, cancellation, the peer). Only a listing served through rmcp
/// (its [`ToolRouter`](rmcp::handler::server::router::tool::ToolRouter), made from the
/// listing) has one; any other call fails with a message saying so.
impl<'a, S: ?Sized> crate::call::FromContext<'a, S>
    for rmcp::service::RequestContext<rmcp::RoleServer>
{
    fn from_context(_: &'a S, context: &crate::call::Context<'a>) -> Result<Self, String> {
        context
            .request::<rmcp::service::RequestContext<rmcp::RoleServer>>()
            .cloned()
            .ok_or_else(|| {
                "this tool needs the rmcp request context, which this call does not have".to_owned()
            })
    }
}
