//! Code generation: the handler, unchanged, and its annotations constant beside it.

use proc_macro2::{Delimiter, Group, Ident, TokenStream, TokenTree};
use quote::{format_ident, quote};
use syn::LitStr;

use crate::ast::Handler;
use crate::attr::{self, Args};
use crate::errors::Errors;
use crate::valid::{self, Value};

pub(crate) fn expand_tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    let args = attr::parse(attr, &mut errors);
    let handler = match Handler::parse(item.clone()) {
        Ok(handler) => handler,
        Err(error) => {
            errors.push(error);
            let errors = errors.to_compile_errors();
            return quote!(#item #errors);
        }
    };
    let checked = valid::check(&args, &handler, &mut errors);
    if !errors.is_empty() {
        // The handler and a placeholder constant, so that one mistake is one error and code
        // that uses the constant does not fail with "cannot find" as well.
        let placeholder = annotations_const(&args, &handler, None, [None; 4]);
        let errors = errors.to_compile_errors();
        return quote!(#item #placeholder #errors);
    }
    let constant = annotations_const(&args, &handler, args.title.as_ref(), checked.fields);
    if checked.assertions.is_empty() {
        return quote!(#item #constant);
    }
    let function = with_checks_in_body(handler.tokens, &checked.assertions);
    quote!(#function #constant)
}

fn annotations_const(
    args: &Args,
    handler: &Handler,
    title: Option<&LitStr>,
    fields: [Option<Value<'_>>; 4],
) -> TokenStream {
    let krate = args.krate.clone().unwrap_or_else(|| quote!(::annotations));
    let vis = &handler.vis;
    let name = const_name(&handler.name);
    let doc = format!(
        " The MCP tool annotations of `{}`, stated with `#[tool]`.",
        unraw(&handler.name)
    );
    let title = match title {
        Some(title) => {
            quote!(::core::option::Option::Some(#krate::__private::Cow::Borrowed(#title)))
        }
        None => quote!(::core::option::Option::None),
    };
    let [read_only, destructive, idempotent, open_world] = fields.map(|field| match field {
        None => quote!(::core::option::Option::None),
        Some(Value::Known(value)) => quote!(::core::option::Option::Some(#value)),
        Some(Value::Expr(expr)) => quote!(::core::option::Option::Some(#expr)),
    });
    quote! {
        #[doc = #doc]
        #vis const #name: #krate::ToolAnnotations = #krate::ToolAnnotations {
            title: #title,
            read_only_hint: #read_only,
            destructive_hint: #destructive,
            idempotent_hint: #idempotent,
            open_world_hint: #open_world,
        };
    }
}

/// `list_notes` -> `LIST_NOTES_ANNOTATIONS`, `listNotes` -> `LIST_NOTES_ANNOTATIONS`.
fn const_name(function: &Ident) -> Ident {
    let mut upper = String::new();
    let mut previous_lower = false;
    for c in unraw(function).chars() {
        if c.is_uppercase() && previous_lower {
            upper.push('_');
        }
        previous_lower = c.is_lowercase() || c.is_ascii_digit();
        upper.extend(c.to_uppercase());
    }
    format_ident!("{}_ANNOTATIONS", upper, span = function.span())
}

fn unraw(ident: &Ident) -> String {
    let name = ident.to_string();
    name.strip_prefix("r#").map(str::to_owned).unwrap_or(name)
}

/// The handler with `const _: () = { ... };` holding the assertions as the first item of its
/// body. Only for hints given as `const` expressions. The constant beside a method is an
/// associated one, which the compiler evaluates only where it is used, and an impl block has no
/// room for an unnamed constant; an item nested in the body is a free constant, which the
/// compiler always evaluates (`cargo check` included), so the check cannot be skipped. Being an
/// item, it cannot name `Self` or the function's generic parameters.
fn with_checks_in_body(mut tokens: Vec<TokenTree>, assertions: &[TokenStream]) -> TokenStream {
    if let Some(TokenTree::Group(body)) = tokens.last_mut() {
        let mut statements: Vec<TokenTree> = body.stream().into_iter().collect();
        // Inner attributes (`#![...]`) must stay first.
        let mut after_inner_attributes = 0;
        while matches!(statements.get(after_inner_attributes), Some(TokenTree::Punct(p)) if p.as_char() == '#')
            && matches!(statements.get(after_inner_attributes + 1), Some(TokenTree::Punct(p)) if p.as_char() == '!')
        {
            after_inner_attributes += 3;
        }
        let check = quote!(const _: () = { #(#assertions)* };);
        let at = after_inner_attributes.min(statements.len());
        statements.splice(at..at, check);
        let mut new_body = Group::new(Delimiter::Brace, statements.into_iter().collect());
        new_body.set_span(body.span());
        *body = new_body;
    }
    tokens.into_iter().collect()
}
