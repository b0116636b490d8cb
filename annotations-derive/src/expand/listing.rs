//! `tools![...]`: a static listing of tools from handler paths and `#[derive(Tool)]` types.

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned};
use syn::Error;

use crate::expand::krate::Krate;
use crate::expand::names::{call_name, read_name, resolve_name, upper_snake};
use crate::leaf::errors::Errors;
use crate::leaf::tokens::{respan, split_top_level};
use crate::model::crate_path::crate_path;
use crate::model::entry::Value;
use crate::model::grouping;

pub(crate) fn expand_tools(input: TokenStream) -> TokenStream {
    let mut errors = Errors::new();
    let mut given = None;
    let mut ready = None;
    let mut toolsets = None;

    // Options first, each ended by `;`: `ready = directory;`, `crate = path;`.
    let mut pieces: Vec<Vec<TokenTree>> = vec![Vec::new()];
    for token in input {
        match &token {
            TokenTree::Punct(p) if p.as_char() == ';' => pieces.push(Vec::new()),
            _ => pieces.last_mut().expect("never empty").push(token),
        }
    }
    let entries = pieces.pop().unwrap_or_default();
    for option in pieces {
        read_option(&option, &mut given, &mut ready, &mut toolsets, &mut errors);
    }
    let place = Krate::new(given);
    let krate = place.path();

    let mut tools = Vec::new();
    let mut calls = Vec::new();
    let mut spans = Vec::new();
    for (entry, _) in split_top_level(entries.into_iter().collect()) {
        // An option among the tools (`tools![toolset = "x", a]`): it ends with `;`.
        if let [TokenTree::Ident(key), TokenTree::Punct(eq), ..] = entry.as_slice()
            && eq.as_char() == '='
            && OPTIONS.iter().any(|option| key == option)
        {
            errors.push(Error::new(
                key.span(),
                format!(
                    "`{key} = ...` is an option of tools![...], written before the tools and \
                         ended by `;`, not `,`: `tools![{key} = ...; list_notes, delete_note]`"
                ),
            ));
            continue;
        }
        match entry_const(&entry, &krate) {
            Ok((tool, call)) => {
                // The listing's toolset, for the tools that name none of their own.
                tools.push(match &toolsets {
                    Some(names) => {
                        let names: &Vec<syn::LitStr> = names;
                        quote!(#krate::__private::Tool::or_toolsets(#tool, &[#(#names),*]))
                    }
                    None => tool,
                });
                calls.push(call);
                spans.push(entry.last().map_or_else(Span::call_site, TokenTree::span));
            }
            Err(error) => errors.push(error),
        }
    }
    if let Err(errors) = errors.check() {
        // An empty listing of any state type, so that the mistake is the only error.
        let empty = place.wrap(quote!(#krate::__private::Listing::from_parts(&[], &[], &[])));
        return quote!({ #errors #empty });
    }
    let count = tools.len();
    // The name index, which the duplicate-name check builds: a power of two of slots, at least
    // twice the tools.
    let slots = (2 * count).next_power_of_two().max(2);
    // One assertion a tool, spanned at its entry: a tool that is not ready is an error there.
    let ready = ready.map(|(level, span)| {
        let level = format_ident!("{}", level, span = span);
        let checks = spans.iter().enumerate().map(|(index, span)| {
            // The path to the crate, and so the whole call, spanned at the entry: rustc points
            // a failed constant at the call when all of it comes from one place.
            let krate = respan(krate.clone(), *span);
            quote_spanned! {*span=>
                const _: () = {
                    let problem = #krate::__private::ready_problem(
                        &__ANNOTATIONS_TOOLS[#index],
                        #krate::__private::Readiness::#level,
                    );
                    if !problem.is_empty() {
                        ::core::panic!("{}", problem.text());
                    }
                };
            }
        });
        quote!(#(#checks)*)
    });
    // One assertion a tool, spanned at its entry: a tool whose name an earlier one has is an
    // error there, at the second of the two.
    let unique = spans.iter().enumerate().map(|(index, span)| {
        let krate = respan(krate.clone(), *span);
        quote_spanned! {*span=>
            const _: () = {
                let earlier = __ANNOTATIONS_NAMES.duplicates[#index] as usize;
                if earlier != 0 {
                    let problem =
                        #krate::__private::duplicate_name(__ANNOTATIONS_TOOLS, earlier - 1, #index);
                    ::core::panic!("{}", problem.text());
                }
            };
        }
    });
    place.wrap(quote! {
        {
            const __ANNOTATIONS_TOOLS: &[#krate::__private::Tool; #count] = &[#(#tools),*];
            const __ANNOTATIONS_NAMES: #krate::__private::NameIndex<#count, #slots> =
                #krate::__private::name_index::<#count, #slots>(__ANNOTATIONS_TOOLS);
            #(#unique)*
            #ready
            #krate::__private::Listing::from_parts(
                __ANNOTATIONS_TOOLS,
                const { &[#(#calls),*] },
                &__ANNOTATIONS_NAMES.slots,
            )
        }
    })
}

/// The options `tools![...]` reads before its tools.
const OPTIONS: [&str; 3] = ["ready", "crate", "toolset"];

/// `ready = directory` / `ready = strict`, `crate = path`, `toolset = "name"`.
fn read_option(
    option: &[TokenTree],
    krate: &mut Option<TokenStream>,
    ready: &mut Option<(&'static str, Span)>,
    toolsets: &mut Option<Vec<syn::LitStr>>,
    errors: &mut Errors,
) {
    let usage = "expected `ready = directory;`, `ready = strict;`, `toolset = \"name\";` or \
                 `crate = path;` before the tools";
    let (key, value) = match option {
        [TokenTree::Ident(key), TokenTree::Punct(eq), value @ ..]
            if eq.as_char() == '=' && !value.is_empty() =>
        {
            (key, value)
        }
        [first, ..] => {
            errors.push(Error::new(first.span(), usage));
            return;
        }
        [] => {
            errors.push(Error::new(Span::call_site(), usage));
            return;
        }
    };
    match key.to_string().as_str() {
        "ready" => {
            let level = match value {
                [TokenTree::Ident(level)] if level == "directory" => {
                    Some(("Directory", level.span()))
                }
                [TokenTree::Ident(level)] if level == "strict" => Some(("Strict", level.span())),
                _ => None,
            };
            match level {
                Some(_) if ready.is_some() => {
                    errors.push(Error::new(key.span(), "duplicate `ready` in tools![...]"))
                }
                Some(level) => *ready = Some(level),
                None => errors.push(Error::new(
                    value[0].span(),
                    "expected `directory` (a title, and read_only or destructive stated) or \
                     `strict` (a title, and read_only, destructive and open_world stated)",
                )),
            }
        }
        "crate" => match crate_path(value.iter().cloned().collect()) {
            Ok(_) if krate.is_some() => {
                errors.push(Error::new(key.span(), "duplicate `crate` in tools![...]"))
            }
            Ok(path) => *krate = Some(path),
            Err(error) => errors.push(error),
        },
        "toolset" if toolsets.is_some() => {
            errors.push(Error::new(key.span(), "duplicate `toolset` in tools![...]"));
        }
        "toolset" => {
            let value = Value::Given(value.to_vec());
            *toolsets = Some(grouping::names(
                key,
                value,
                true,
                grouping::toolset_problem,
                errors,
            ));
        }
        _ => errors.push(Error::new(key.span(), usage)),
    }
}

/// The descriptor constant an entry names and its call: `list_notes` -> `LIST_NOTES_TOOL`
/// and `__ANNOTATIONS_CALL_LIST_NOTES` with `__ANNOTATIONS_READ_LIST_NOTES`,
/// `Server::delete_note` -> `Server::DELETE_NOTE_TOOL` and `Server::__ANNOTATIONS_CALL_DELETE_NOTE`
/// with `Server::__ANNOTATIONS_READ_DELETE_NOTE`, a type `SearchDocs` ->
/// `<SearchDocs as StaticTool>::TOOL` and its `CallTool` implementation.
fn entry_const(
    entry: &[TokenTree],
    krate: &TokenStream,
) -> Result<(TokenStream, TokenStream), Error> {
    let tokens: Vec<TokenTree> = entry
        .iter()
        .flat_map(|token| match token {
            TokenTree::Group(g) if g.delimiter() == proc_macro2::Delimiter::None => {
                g.stream().into_iter().collect()
            }
            other => vec![other.clone()],
        })
        .collect();
    let Some(last) = tokens.last() else {
        return Err(Error::new(
            Span::call_site(),
            "expected a tool: a handler's path or a #[derive(Tool)] type",
        ));
    };
    match last {
        TokenTree::Ident(name) => {
            let starts_upper = name
                .to_string()
                .trim_start_matches("r#")
                .starts_with(|c: char| c.is_uppercase());
            if starts_upper {
                let path: TokenStream = tokens.iter().cloned().collect();
                Ok(type_entry(&path, krate))
            } else {
                let constant = format_ident!("{}_TOOL", upper_snake(name), span = name.span());
                let call = call_name(name);
                let read = read_name(name);
                let resolve = resolve_name(name);
                let prefix: TokenStream = tokens[..tokens.len() - 1].iter().cloned().collect();
                let path: TokenStream = tokens.iter().cloned().collect();
                let span = name.span();
                Ok((
                    quote!(#prefix #constant),
                    quote_spanned!(span=> &#krate::__private::bind(#prefix #call, #path, &#prefix #read, #prefix #resolve)),
                ))
            }
        }
        // `Generic<T>`: a type.
        TokenTree::Punct(p) if p.as_char() == '>' => {
            let path: TokenStream = tokens.iter().cloned().collect();
            Ok(type_entry(&path, krate))
        }
        other => Err(Error::new(
            other.span(),
            "expected a tool: a handler's path (`list_notes`, `Server::delete_note`) or a \
             #[derive(Tool)] type",
        )),
    }
}

/// A `#[derive(Tool)]` type's descriptor and call (through its `CallTool` implementation).
fn type_entry(path: &TokenStream, krate: &TokenStream) -> (TokenStream, TokenStream) {
    let span = path
        .clone()
        .into_iter()
        .last()
        .map_or_else(Span::call_site, |t| t.span());
    (
        quote!(<#path as #krate::__private::StaticTool>::TOOL),
        quote_spanned!(span=> &#krate::__private::struct_call::<#path>()),
    )
}
