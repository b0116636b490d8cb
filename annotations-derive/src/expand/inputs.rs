//! The descriptor's inputs, through the stages in order: each parameter (or field) read by
//! `model/`, checked by `check/`, then its `#[schema(...)]` applied by `model/`. The one way
//! `#[tool]`, `#[derive(Tool)]` and `#[derive(ToolSchema)]` make inputs of what they are on,
//! each error reported in the order the input is gone through.

use proc_macro2::TokenStream;

use crate::check::{descriptor as check, fields};
use crate::leaf::case::Case;
use crate::leaf::errors::Errors;
use crate::model::body::{Field, read_fields};
use crate::model::descriptor::{self, Descriptor, Property, Source};
use crate::model::params::Param;
use crate::model::serde_attr;
use crate::model::tool_attr::Args;

/// The descriptor of `source` under `args`: its name checked, each of its parameters (or
/// fields) that passes its checks an input, no two of one name; then what the attribute and
/// the signature state besides.
pub(crate) fn descriptor(args: &Args, source: &Source<'_>, errors: &mut Errors) -> Descriptor {
    check::tool_name(args, source, errors);
    let rename_all = args.rename_all.map(|(case, _)| case);
    let mut properties: Vec<Property> = Vec::new();
    for (index, param) in source.params.iter().enumerate() {
        let Some(property) = input(index, param, rename_all, source.generics, errors) else {
            continue;
        };
        if let Some(error) = check::name_taken(&properties, &property) {
            errors.push(error);
        }
        properties.push(property);
    }
    Descriptor::read(args, source, properties, errors)
}

/// The input of the parameter (or field) `param` at `index`: checked to be one the model can
/// be read for, read, its `#[schema(...)]` checked against its type, then applied. `None` for
/// a parameter the model does not supply, or one whose error is reported.
fn input(
    index: usize,
    param: &Param,
    rename_all: Option<Case>,
    generics: &[String],
    errors: &mut Errors,
) -> Option<Property> {
    let ident = check::readable(param, generics, errors)?;
    let read = Property::read(index, param, ident, rename_all, errors);
    check::input(&read, param, errors);
    Some(descriptor::apply(read, param))
}

/// A `#[derive(Tool)]` struct's named fields as parameters, named and required as serde reads
/// them (a field serde skips is not an input); the container and each field checked for what
/// a tool's schema cannot say.
pub(crate) fn tool_fields(
    stream: TokenStream,
    container: &serde_attr::Container,
    errors: &mut Errors,
) -> Vec<Param> {
    fields::tool_container(container, errors);
    let read = read_fields(stream, container, "#[derive(Tool)]", errors);
    let mut params = Vec::new();
    for (param, serde) in read {
        fields::tool_field(&serde, errors);
        params.push(param);
    }
    params
}

/// The fields of a `#[derive(ToolSchema)]` struct or struct variant as serde reads them:
/// renamed, skipped, required or not (a field's or the container's `#[serde(default)]`), each
/// doc comment a description, each field that passes its checks the input it is read as.
/// `variant`: the fields of an enum's variant, whose `#[schema(...)]` is not read yet.
pub(crate) fn schema_fields(
    stream: TokenStream,
    container: &serde_attr::Container,
    variant: bool,
    errors: &mut Errors,
) -> Vec<Field> {
    let mut read = Vec::new();
    let params = read_fields(stream, container, "#[derive(ToolSchema)]", errors);
    for (index, (param, serde)) in params.into_iter().enumerate() {
        if !fields::schema_field(&param, &serde, container, variant, errors) {
            continue;
        }
        let Some(property) = input(index, &param, None, &[], errors) else {
            continue;
        };
        if fields::flatten_fits(&serde, &property, errors) {
            read.push(Field::new(property, &param, &serde));
        }
    }
    read
}
