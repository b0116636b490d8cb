//! The fields of a derive's struct (or an enum's struct variant) checked as serde reads them:
//! what `#[derive(Tool)]` refuses (a `transparent` struct, an alias, `flatten`), and for
//! `#[derive(ToolSchema)]` what it does not read yet on a variant's field, `flatten` beside
//! `deny_unknown_fields` or on an `Option`. The fields are read by `model/body.rs`; each check
//! reports what it finds and says whether the field is read on.

use syn::Error;

use crate::leaf::errors::Errors;
use crate::model::descriptor::Property;
use crate::model::params::Param;
use crate::model::schema::Ty;
use crate::model::serde_attr;

/// A `#[derive(Tool)]` struct's arguments are an object of named inputs: an error for
/// `#[serde(transparent)]`, which would make them one value.
pub(crate) fn tool_container(container: &serde_attr::Container, errors: &mut Errors) {
    if let Some(span) = container.transparent {
        errors.push(Error::new(
            span,
            "#[serde(transparent)] on a #[derive(Tool)] struct: a tool's arguments are an \
             object of named inputs, not one value",
        ));
    }
}

/// A `#[derive(Tool)]` field's alias or `flatten` is refused: a tool's schema lists one name
/// for each input.
pub(crate) fn tool_field(serde: &serde_attr::Field, errors: &mut Errors) {
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
}

/// A `#[derive(ToolSchema)]` field before it is read as an input: on an enum's variant
/// (`variant`), a `#[schema(...)]`, an alias or `flatten` is not read yet (and the field is
/// not read on: `false`); `flatten` beside the container's `deny_unknown_fields` is an error
/// serde would make too.
pub(crate) fn schema_field(
    param: &Param,
    serde: &serde_attr::Field,
    container: &serde_attr::Container,
    variant: bool,
    errors: &mut Errors,
) -> bool {
    if let (true, Some(attr)) = (variant, param.schema.first()) {
        errors.push(Error::new_spanned(
            attr,
            "#[schema(...)] on the field of an enum's variant is not read yet: its bounds \
             would be listed but not checked; put the fields in a struct of their own",
        ));
        return false;
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
            return false;
        }
    }
    if let (Some(span), true) = (serde.flatten, container.deny_unknown_fields) {
        errors.push(Error::new(
            span,
            "serde does not read #[serde(flatten)] beside #[serde(deny_unknown_fields)]",
        ));
    }
    true
}

/// A flattened field read as `property`: `flatten` on an `Option` is an error (and the field
/// is left out: `false`), as no schema can say when serde reads it as `None`.
pub(crate) fn flatten_fits(
    serde: &serde_attr::Field,
    property: &Property,
    errors: &mut Errors,
) -> bool {
    if let (Some(span), Ty::Nullable(_)) = (serde.flatten, &property.schema) {
        errors.push(Error::new(
            span,
            "#[serde(flatten)] on an `Option`: serde reads any object as `None` when the \
             fields do not fit, which no schema can say; flatten the struct itself and make \
             its fields optional",
        ));
        return false;
    }
    true
}
