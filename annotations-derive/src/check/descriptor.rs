//! The descriptor's inputs checked, as `model/` reads them: the tool's name against the
//! protocol's rule, each parameter (or field) with a plain name and one fixed type before it is
//! read, its `#[schema(...)]` against its type before it is applied, no two inputs of one name,
//! and on a struct's field the keys serde decides. What passes is the checked model the code
//! generation writes from.

use proc_macro2::{TokenStream, TokenTree};
use syn::Error;

use crate::check::schema::{fixed_length, schema_attr};
use crate::leaf::case::Case;
use crate::leaf::errors::Errors;
use crate::model::descriptor::{CheckValue, Descriptor, Property, Source, apply};
use crate::model::params::Param;
use crate::model::schema_attr::SchemaAttr;
use crate::model::tool_attr::Args;

/// The checked descriptor of `source` under `args`: read by the model, each error found on the
/// way pushed to `errors`, each input that passes its checks in `properties`.
pub(crate) fn checked(args: &Args, source: &Source<'_>, errors: &mut Errors) -> Descriptor {
    if args.name.is_none() {
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
    let mut properties: Vec<Property> = Vec::new();
    for (index, param) in source.params.iter().enumerate() {
        let rename_all = args.rename_all.map(|(case, _)| case);
        let Some(property) = checked_input(index, param, rename_all, source.generics, errors)
        else {
            continue;
        };
        if let Some(error) = name_taken(&properties, &property) {
            errors.push(error);
        }
        properties.push(property);
    }
    let mut descriptor = Descriptor::read(args, source, errors);
    descriptor.properties = properties;
    descriptor
}

/// The checked input of one parameter (or field) at `index`: read by the model once it is one
/// the model supplies, with a plain name and a fixed type; its `#[schema(...)]` keys checked
/// against its type, then applied. `None` for a parameter the model does not supply, or one
/// whose error is reported.
pub(crate) fn checked_input(
    index: usize,
    param: &Param,
    rename_all: Option<Case>,
    generics: &[String],
    errors: &mut Errors,
) -> Option<Property> {
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
    let (mut property, attr, option) = Property::read(index, param, ident, rename_all, errors);
    if param.field {
        serde_decides(&attr, errors);
    }
    if !attr.is_empty() {
        fixed_length(&attr, &property.schema, &param.ty, errors);
        schema_attr(&attr, &property.schema.kind(), option, &param.ty, errors);
        // A struct's field is read by serde, which reads an `Option` from `null` and from
        // nothing alike: the call's checks refuse what the schema does not list.
        let field_checks = [
            (attr.nullable.is_some() && option, "NotNull"),
            (attr.required.is_some() && option, "Required"),
        ];
        apply(&mut property, attr, &param.ty);
        if param.field {
            for (given, check) in field_checks {
                if given {
                    property.checks.push((check, CheckValue::Unit));
                }
            }
        }
    }
    Some(property)
}

/// Two inputs of one name would be one property of the schema, the model's argument going to
/// either: the later one is an error that names the earlier.
fn name_taken(properties: &[Property], property: &Property) -> Option<Error> {
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
