//! The parameters of a handler as its call passes them: each one `#[context]` or read from
//! the model, matched to the descriptor's inputs by position, with what the call needs of each
//! read one (its spec, its type, its default).

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use crate::expand::call_types::{Pass, owned_type};
use crate::expand::descriptor::check_tokens;
use crate::leaf::tokens::expr_span;
use crate::model::descriptor::{DefaultRead, Descriptor, Property};
use crate::model::handler::Handler;
use crate::model::params::Param;

/// One parameter of the handler, as its call passes it: the one model of the parameters that
/// the call is written from, matched to the descriptor's inputs by position.
pub(super) enum CallParam<'a> {
    /// `#[context]`: supplied by the server.
    Context { ty: &'a TokenStream, span: Span },
    /// Supplied by the model, read under the schema the descriptor wrote for it.
    Model {
        read: Box<ModelParam>,
        /// The parameter's name.
        span: Span,
        /// The parameter's type.
        ty_span: Span,
    },
}

impl<'a> CallParam<'a> {
    /// Every parameter of the handler, or `None` if one the model supplies has no input in the
    /// descriptor (which has reported why).
    pub(super) fn read(
        handler: &'a Handler,
        descriptor: &Descriptor,
        krate: &TokenStream,
    ) -> Option<Vec<Self>> {
        handler
            .params
            .iter()
            .enumerate()
            .map(|(index, param)| {
                let span = param
                    .name
                    .as_ref()
                    .map_or_else(Span::call_site, Ident::span);
                if param.context {
                    return Some(CallParam::Context {
                        ty: &param.ty,
                        span,
                    });
                }
                let read = ModelParam::new(param, descriptor.input(index)?, krate);
                Some(CallParam::Model {
                    read: Box::new(read),
                    span,
                    ty_span: expr_span(&param.ty),
                })
            })
            .collect()
    }
}

/// How a call reads one parameter the model supplies.
pub(super) struct ModelParam {
    pub(super) key: String,
    /// `Option<&str>`: what its schema says, for messages.
    pub(super) expected: TokenStream,
    pub(super) required: bool,
    /// Whether an explicit `null` is read.
    pub(super) null: bool,
    /// Where it holds sets (`__private::Unique`).
    pub(super) unique: TokenStream,
    /// Its `#[schema(...)]` constraints, as `__private::Check`s.
    pub(super) checks: Vec<TokenStream>,
    /// The type read: `Option<T>` for a parameter with a default, which fills in a missing one.
    pub(super) owned: TokenStream,
    /// `#[schema(default = EXPR)]` when the call evaluates it.
    pub(super) default: Option<TokenStream>,
    /// `#[schema(default = literal)]` when the reader reads it, as JSON.
    pub(super) default_json: Option<String>,
    /// rustc's check of that literal against the parameter's type.
    pub(super) default_check: Option<TokenStream>,
    /// The owned type itself, which the default converts into.
    pub(super) default_ty: TokenStream,
    pub(super) pass: Pass,
}

impl ModelParam {
    /// The parameter, with the input the descriptor read for it.
    fn new(param: &Param, input: &Property, krate: &TokenStream) -> Self {
        let schema = &input.schema;
        let expected = match schema.describe() {
            Some(text) => quote!(::core::option::Option::Some(#text)),
            None => quote!(::core::option::Option::None),
        };
        let (owned, pass) = owned_type(param);
        let checks = check_tokens(&input.checks, krate);
        let (default, default_json) = match &input.default {
            Some(DefaultRead::Expr(expr)) => (Some(expr.clone()), None),
            Some(DefaultRead::Json(json, _)) => (None, Some(json.clone())),
            None => (None, None),
        };
        // A literal default the reader reads as JSON is still checked by rustc against the
        // parameter's type, in a closure that never runs.
        let default_check = match &input.default {
            Some(DefaultRead::Json(_, Some((expr, scalar)))) => {
                let value = if *scalar {
                    quote!(#expr)
                } else {
                    quote!(::core::convert::Into::into(#expr))
                };
                Some(quote!(let _ = || -> #owned { #value };))
            }
            _ => None,
        };
        let read = match &default {
            Some(_) => quote!(::core::option::Option<#owned>),
            None => owned.clone(),
        };
        ModelParam {
            key: input.name.clone(),
            expected,
            required: !input.optional,
            null: input.null,
            unique: schema
                .unique(krate)
                .unwrap_or_else(|| quote!(#krate::__private::Unique::None)),
            checks,
            owned: read,
            default,
            default_json,
            default_check,
            default_ty: owned,
            pass,
        }
    }
}
