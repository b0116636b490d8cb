//! The descriptor's inputs checked, as `model/` reads them: the tool's name against the
//! protocol's rule, each parameter (or field) with a plain name and one fixed type before it is
//! read, its `#[schema(...)]` against its type before it is applied, no two inputs of one name,
//! and on a struct's field the keys serde decides. Each check reports what it finds and
//! changes nothing: the reading and the applying are `model/descriptor.rs`'s.

use proc_macro2::{Ident, TokenStream, TokenTree};
use syn::Error;

use crate::check::schema::{fixed_length, schema_attr};
use crate::leaf::errors::Errors;
use crate::model::descriptor::{Property, ReadInput, Source};
use crate::model::params::Param;
use crate::model::schema_attr::SchemaAttr;
use crate::model::tool_attr::Args;

/// The tool's name, when no `name = "..."` gives it, is the function's (or struct's): an error
/// if that is not a valid tool name.
pub(crate) fn tool_name(args: &Args, source: &Source<'_>, errors: &mut Errors) {
    if args.name.is_some() {
        return;
    }
    let name = &source.default_name;
    if let Some(problem) = mcp_annotations_rules::name::tool_name_problem(name) {
        errors.push(Error::new(
            source.ident.span(),
            format!(
                "`{name}` is not a valid tool name: {problem}; name the tool with \
                 #[tool(name = \"...\")]"
            ),
        ));
    }
}

/// The name of the parameter (or field) `param` if it is an input the model can be read for:
/// one the model supplies, with a plain name and a fixed type. `None` for a `#[context]`
/// parameter (an error if it has a `#[schema(...)]`) and for one whose error is reported.
pub(crate) fn readable<'a>(
    param: &'a Param,
    generics: &[String],
    errors: &mut Errors,
) -> Option<&'a Ident> {
    if param.context {
        if let Some(attr) = param.schema.first() {
            errors.push(Error::new_spanned(
                attr,
                "#[schema(...)] on a #[context] parameter: the server supplies it, so it \
                 has no schema to shape",
            ));
        }
        return None;
    }
    let Some(ident) = &param.name else {
        errors.push(Error::new_spanned(
            &param.pattern,
            "a #[tool] parameter needs a plain name, which the model passes its argument \
             by; mark it #[context] if the server supplies it instead",
        ));
        return None;
    };
    if let Some(error) = not_fixed(&param.ty, generics) {
        errors.push(error);
        return None;
    }
    Some(ident)
}

/// The `#[schema(...)]` of the input `read` from `param` against its type, before it is
/// applied: on a struct's field, the keys serde decides; the length keys against a type of
/// fixed length; each key against what the type's values are.
pub(crate) fn input(read: &ReadInput, param: &Param, errors: &mut Errors) {
    let attr = &read.attr;
    if param.field {
        serde_decides(attr, errors);
    }
    if !attr.is_empty() {
        fixed_length(attr, &read.property.schema, &param.ty, errors);
        schema_attr(
            attr,
            &read.property.schema.kind(),
            read.option,
            &param.ty,
            errors,
        );
    }
}

/// Two inputs of one name would be one property of the schema, the model's argument going to
/// either: the later one is an error that names the earlier.
pub(crate) fn name_taken(properties: &[Property], property: &Property) -> Option<Error> {
    let earlier = properties
        .iter()
        .find(|earlier| earlier.name == property.name)?;
    Some(Error::new(
        property.span,
        format!(
            "two parameters are both `{}` to the model (the other is parameter {}); \
             give one another name with #[schema(rename = \"...\")]",
            property.name,
            earlier.param + 1
        ),
    ))
}

/// serde names a field and fills it in: the `#[schema]` keys that would say otherwise
/// (`rename`, `default`) are serde's, and the schema would list what serde does not read.
/// (`nullable = false` and `required` narrow what serde reads, and the call checks them.)
fn serde_decides(attr: &SchemaAttr, errors: &mut Errors) {
    let serde_keys = [
        attr.rename.as_ref().map(|r| (r.span(), "#[serde(rename)]")),
        attr.default
            .as_ref()
            .map(|d| (d.key.span(), "#[serde(default)]")),
    ];
    for (span, instead) in serde_keys.into_iter().flatten() {
        errors.push(Error::new(
            span,
            format!("on a struct's field, serde decides this: write {instead} instead"),
        ));
    }
}

/// An error if the type is not one fixed type: a generic parameter of the handler or
/// `impl Trait` has no single schema for the model.
fn not_fixed(ty: &TokenStream, generics: &[String]) -> Option<Error> {
    for token in ty.clone() {
        match token {
            TokenTree::Group(group) => {
                if let Some(error) = not_fixed(&group.stream(), generics) {
                    return Some(error);
                }
            }
            TokenTree::Ident(word) if word == "impl" => {
                return Some(Error::new(
                    word.span(),
                    "a #[tool] parameter cannot be `impl Trait`: its JSON Schema must be fixed; \
                     take a concrete type, or mark the parameter #[context] if the server \
                     supplies it",
                ));
            }
            TokenTree::Ident(word) if generics.iter().any(|name| word == name) => {
                return Some(Error::new(
                    word.span(),
                    format!(
                        "a #[tool] parameter's type cannot use the handler's generic parameter \
                         `{word}`: its JSON Schema must be fixed; take a concrete type, or mark \
                         the parameter #[context] if the server supplies it"
                    ),
                ));
            }
            _ => {}
        }
    }
    None
}
