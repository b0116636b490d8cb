//! `#[tool(resolve = path)]` and `#[tool(resolve_by = param)]` against the handler: the
//! parameter `resolve_by` names is one the model supplies. (The hints the author states beside
//! it become a check, evaluated while compiling, that they bound every variant: see
//! `expand/annotations.rs`.)

use proc_macro2::TokenStream;
use syn::Error;

use crate::leaf::errors::Errors;
use crate::leaf::tokens::unraw;
use crate::model::handler::Handler;
use crate::model::params::Param;
use crate::model::tool_attr::{Args, Resolution};

/// How a handler's calls are resolved, checked against its parameters.
pub(crate) enum Plan<'a> {
    /// `resolve = path`.
    Function(&'a TokenStream),
    /// `resolve_by = param`: the parameter at `index` (among all the handler's).
    Variant { index: usize, param: &'a Param },
}

/// The plan `args` states for `handler`, or `None` (none stated, or an error pushed).
pub(crate) fn plan<'a>(
    args: &'a Args,
    handler: &'a Handler,
    errors: &mut Errors,
) -> Option<Plan<'a>> {
    match args.resolution.as_ref()? {
        Resolution::Function { path, .. } => Some(Plan::Function(path)),
        Resolution::Variant { param, .. } => {
            let wanted = unraw(param);
            let found = handler.params.iter().enumerate().find(|(_, candidate)| {
                candidate
                    .name
                    .as_ref()
                    .is_some_and(|name| unraw(name) == wanted)
            });
            match found {
                Some((_, found)) if found.context => {
                    errors.push(Error::new(
                        param.span(),
                        format!(
                            "#[tool(resolve_by = {wanted})] names a #[context] parameter, which \
                             the server supplies: name a parameter the model sends, whose \
                             variant decides the call's hints"
                        ),
                    ));
                    None
                }
                Some((index, found)) => Some(Plan::Variant {
                    index,
                    param: found,
                }),
                None => {
                    let names: Vec<String> = handler
                        .params
                        .iter()
                        .filter(|param| !param.context)
                        .filter_map(|param| {
                            param.name.as_ref().map(|name| format!("`{}`", unraw(name)))
                        })
                        .collect();
                    let known = if names.is_empty() {
                        "it takes none from the model".to_owned()
                    } else {
                        format!("its parameters are {}", names.join(", "))
                    };
                    errors.push(Error::new(
                        param.span(),
                        format!(
                            "#[tool(resolve_by = {wanted})] names no parameter of `{}`: {known}",
                            unraw(&handler.name)
                        ),
                    ));
                    None
                }
            }
        }
    }
}
