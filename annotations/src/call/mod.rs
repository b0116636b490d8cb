//! Calling a tool: how each parameter is read from the arguments, what a handler may ask the
//! server for ([`Context`], [`FromContext`]), and a `#[derive(Tool)]` struct's call
//! ([`CallTool`]).
//!
#![doc = include_str!("../../docs/call.md")]

// For contributors: Calling one tool, in the order a call goes: the `handler`'s call reads the `arguments`
// under the rules of the input schema (each value read `exact`ly as its schema states, for
// handlers of every `arity`), gives the handler what it asks the server for (`context`), runs
// it with panics caught (`panic`), and delivers its result through the call's `future`. A
// `#[derive(Tool)]` struct is called through `struct_tool` instead of a handler. Finding the
// tool by name is the listing's ([`crate::listing`]); what a call gives back is
// [`crate::result`]'s.

pub(crate) mod arguments;
pub(crate) mod arity;
pub(crate) mod context;
pub(crate) mod exact;
pub(crate) mod future;
pub(crate) mod handler;
pub(crate) mod panic;
pub(crate) mod place;
pub(crate) mod struct_tool;

pub use self::arguments::MAX_ARGUMENT_DEPTH;
pub use self::context::{Context, FromContext};
pub use self::future::CallFuture;
pub use self::struct_tool::CallTool;
