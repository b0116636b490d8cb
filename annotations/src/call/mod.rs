//! Calling tools, in the order a call goes: `dispatch` finds the tool's call by name, the
//! `handler`'s call reads the `arguments` under the rules of the input schema (each value read
//! `exact`ly as its schema states), gives the
//! handler what it asks the server for (`context`), runs it with panics caught (`panic`), and
//! turns what it returns into a `result`, delivered through the call's `future`. A
//! `#[derive(Tool)]` struct is called through `struct_tool` instead of a handler.

pub(crate) mod arguments;
pub(crate) mod arity;
pub(crate) mod base64;
pub(crate) mod content;
pub(crate) mod context;
pub(crate) mod dispatch;
pub(crate) mod exact;
pub(crate) mod finite;
pub(crate) mod future;
pub(crate) mod handler;
pub(crate) mod panic;
pub(crate) mod result;
pub(crate) mod struct_tool;

pub use self::content::{
    Audio, Content, ContentAnnotations, ContentError, EmbeddedResource, Icon, IconTheme, Image,
    Meta, MimeType, Priority, ResourceLink, Role, TextContent,
};
pub use self::context::{Context, FromContext};
pub use self::dispatch::UnknownTool;
pub use self::future::CallFuture;
pub use self::result::{IntoToolResult, Json, Text, ToolResult};
pub use self::struct_tool::CallTool;
