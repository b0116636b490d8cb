//! The fields of a derive's struct (or an enum's struct variant) checked as serde reads them:
//! what `#[derive(Tool)]` refuses (a `transparent` struct, an alias, `flatten`), and for
//! `#[derive(ToolSchema)]` what it does not read yet on a variant's field, `flatten` beside
//! `deny_unknown_fields` or on an `Option`; each field then the input the descriptor's reader
//! makes of it.

use proc_macro2::TokenStream;
use syn::{Error, LitStr};

use crate::check::descriptor::checked_input;
use crate::leaf::errors::Errors;
use crate::model::body::field_params;
use crate::model::descriptor::Property;
use crate::model::params::Param;
use crate::model::schema::Ty;
use crate::model::serde_attr;

/// The named fields as parameters, named and required as serde reads them: doc comments
/// give descriptions, `#[cfg]` is kept, a field serde skips is not an input. A field's alias
/// or `flatten` is refused: a tool's schema lists one name for each input.
pub(crate) fn tool_fields(
    stream: TokenStream,
    container: &serde_attr::Container,
    errors: &mut Errors,
) -> Vec<Param> {
    if let Some(span) = container.transparent {
        errors.push(Error::new(
            span,
            "#[serde(transparent)] on a #[derive(Tool)] struct: a tool's arguments are an \
             object of named inputs, not one value",
        ));
    }
    let mut params = Vec::new();
    for (param, serde) in field_params(stream, container, "#[derive(Tool)]", errors) {
        if let Some(alias) = serde.aliases.first() {
            errors.push(Error::new(
                alias.span(),
                "#[serde(alias)] on a #[derive(Tool)] field: the tool's schema lists one name \
                 for each input, and refuses any other; leave the alias out",
            ));
        }
        if let Some(span) = serde.flatten {
            errors.push(Error::new(
                span,
                "#[serde(flatten)] on a #[derive(Tool)] field: list each input as a field of \
                 the tool's struct",
            ));
        }
        params.push(param);
    }
    params
}

/// One field as serde reads it: the input the descriptor's reader makes of it (its name,
/// schema with `#[schema(...)]` keys, whether it may be left out, the checks the call makes),
/// and what else serde reads it by.
pub(crate) struct Field {
    pub(crate) property: Property,
    /// The other names serde reads it by.
    pub(crate) aliases: Vec<String>,
    /// `#[serde(flatten)]`: its fields are the container's.
    pub(crate) flatten: bool,
    /// Its type's tokens.
    pub(crate) ty: TokenStream,
}

/// The fields of a struct or struct variant as serde reads them: renamed, skipped, required
/// or not (a field's or the container's `#[serde(default)]`), each doc comment a description.
/// `variant`: the fields of an enum's variant, whose `#[schema(...)]` is not read yet.
pub(crate) fn schema_fields(
    fields: TokenStream,
    container: &serde_attr::Container,
    variant: bool,
    errors: &mut Errors,
) -> Vec<Field> {
    let mut read = Vec::new();
    let params = field_params(fields, container, "#[derive(ToolSchema)]", errors);
    for (index, (param, serde)) in params.into_iter().enumerate() {
        if let (true, Some(attr)) = (variant, param.schema.first()) {
            errors.push(Error::new_spanned(
                attr,
                "#[schema(...)] on the field of an enum's variant is not read yet: its bounds \
                 would be listed but not checked; put the fields in a struct of their own",
            ));
            continue;
        }
        if variant {
            let serde_keys = [
                serde.aliases.first().map(|alias| (alias.span(), "alias")),
                serde.flatten.map(|span| (span, "flatten")),
            ];
            if let Some((span, key)) = serde_keys.into_iter().flatten().next() {
                errors.push(Error::new(
                    span,
                    format!(
                        "#[serde({key})] on the field of an enum's variant is not read by \
                         #[derive(ToolSchema)] yet; put the fields in a struct of their own"
                    ),
                ));
                continue;
            }
        }
        if let (Some(span), true) = (serde.flatten, container.deny_unknown_fields) {
            errors.push(Error::new(
                span,
                "serde does not read #[serde(flatten)] beside #[serde(deny_unknown_fields)]",
            ));
        }
        let Some(property) = checked_input(index, &param, None, &[], errors) else {
            continue;
        };
        if let (Some(span), Ty::Nullable(_)) = (serde.flatten, &property.schema) {
            errors.push(Error::new(
                span,
                "#[serde(flatten)] on an `Option`: serde reads any object as `None` when the \
                 fields do not fit, which no schema can say; flatten the struct itself and make \
                 its fields optional",
            ));
            continue;
        }
        read.push(Field {
            property,
            aliases: serde.aliases.iter().map(LitStr::value).collect(),
            flatten: serde.flatten.is_some(),
            ty: param.ty.clone(),
        });
    }
    read
}
