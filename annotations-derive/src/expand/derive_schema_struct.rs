//! `#[derive(ToolSchema)]` on a struct: an object of its fields as serde reads them (JSON text
//! when every field's schema is known while compiling), or its one field's schema for a newtype
//! or a `transparent` struct; and the body of `check_value` that checks each field's
//! constraints. The pieces the enum's schema uses too.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::Error;

use crate::expand::descriptor::check_tokens;
use crate::leaf::errors::Errors;
use crate::leaf::json_write::{json_string, with_description};
use crate::model::body::Field;
use crate::model::descriptor::CheckValue;
use crate::model::schema::Ty;
use crate::model::serde_attr;

/// What the derive writes for a type: the expression of its schema, the body of its
/// `check_value` (if it has anything to check), and whether the schema is written while
/// compiling (so it cannot lead back to the type itself).
pub(crate) struct Built {
    pub(crate) schema: TokenStream,
    pub(crate) check: Option<TokenStream>,
    pub(crate) fixed: bool,
}

impl Built {
    pub(crate) fn fixed(schema: TokenStream) -> Self {
        Built {
            schema,
            check: None,
            fixed: true,
        }
    }
}

/// `Some("text")` or `None`, as tokens.
pub(crate) fn optional_text(text: Option<&str>) -> TokenStream {
    match text {
        Some(text) => quote!(::core::option::Option::Some(#text)),
        None => quote!(::core::option::Option::None),
    }
}

/// The runtime's `Property` for each field, for a schema built when first asked for.
pub(crate) fn pushes(fields: &[&Field], krate: &TokenStream) -> Vec<TokenStream> {
    fields
        .iter()
        .map(|field| {
            let property = &field.property;
            let name = &property.name;
            let schema = property.schema.to_expr(krate);
            let required = !property.optional;
            let description = optional_text(property.description.as_deref());
            quote! {
                #krate::__private::Property {
                    name: #name,
                    schema: #schema,
                    description: #description,
                    required: #required,
                }
            }
        })
        .collect()
}

/// The schema a flattened field adds: its type's, without the `null` of an `Option`.
fn flattened_schema(field: &Field) -> &Ty {
    match &field.property.schema {
        Ty::Nullable(inner) => inner,
        other => other,
    }
}

/// A named struct's schema: an object of its fields, as serde reads them, as JSON text when
/// every field's schema is known while compiling and each has one name.
pub(crate) fn record(
    fields: &[Field],
    container: &serde_attr::Container,
    description: Option<&str>,
    krate: &TokenStream,
) -> Built {
    let plain = fields
        .iter()
        .all(|field| field.aliases.is_empty() && !field.flatten);
    // Known while compiling: the JSON text itself.
    let all_known: Option<Vec<String>> = fields
        .iter()
        .map(|field| field.property.schema.to_json())
        .collect();
    if let (Some(jsons), true) = (all_known, plain) {
        let mut out = String::from(r#"{"type":"object""#);
        if let Some(description) = description {
            out.push_str(&format!(r#","description":{}"#, json_string(description)));
        }
        let properties: Vec<String> = fields
            .iter()
            .zip(&jsons)
            .map(|(field, json)| {
                let json = match &field.property.description {
                    Some(text) => with_description(json, text),
                    None => json.clone(),
                };
                format!("{}:{json}", json_string(&field.property.name))
            })
            .collect();
        out.push_str(&format!(r#","properties":{{{}}}"#, properties.join(",")));
        let required: Vec<String> = fields
            .iter()
            .filter(|field| !field.property.optional)
            .map(|field| json_string(&field.property.name))
            .collect();
        if !required.is_empty() {
            out.push_str(&format!(r#","required":[{}]"#, required.join(",")));
        }
        if container.deny_unknown_fields {
            out.push_str(r#","additionalProperties":false"#);
        }
        out.push('}');
        return Built::fixed(quote!(#krate::__private::fragment(#out)));
    }
    let named: Vec<&Field> = fields.iter().filter(|field| !field.flatten).collect();
    let pushes = pushes(&named, krate);
    let aliases = named
        .iter()
        .filter(|field| !field.aliases.is_empty())
        .map(|field| {
            let name = &field.property.name;
            let aliases = &field.aliases;
            quote!((#name, &[#(#aliases),*] as &[&str]))
        });
    let flattened = fields.iter().filter(|field| field.flatten).map(|field| {
        // A user type says how it reads beside other fields (an enum's variants do).
        let schema = match flattened_schema(field) {
            Ty::Dynamic(ty, span) => quote::quote_spanned! {*span=>
                <#ty as #krate::__private::ToolSchema>::flattened_tool_schema()
            },
            other => other.to_expr(krate),
        };
        let optional = field.property.optional;
        quote!((#schema, #optional))
    });
    let closed = container.deny_unknown_fields;
    let description = optional_text(description);
    Built {
        schema: quote! {
            #krate::__private::record_with(
                ::std::vec![#(#pushes),*],
                &[#(#aliases),*],
                ::std::vec![#(#flattened),*],
                #closed,
                #description,
            )
        },
        check: None,
        fixed: false,
    }
}

/// A call of the runtime's `check_field` on `value`: the constraints `checks` and the sets and
/// user types `schema` holds, at `__at` (and within it, the field `name`); `None` when there
/// is nothing to check.
pub(crate) fn check_call(
    value: &TokenStream,
    checks: &[(&'static str, CheckValue)],
    schema: &Ty,
    name: Option<&str>,
    krate: &TokenStream,
) -> Option<TokenStream> {
    let unique = schema.unique(krate);
    if checks.is_empty() && unique.is_none() {
        return None;
    }
    let unique = unique.unwrap_or_else(|| quote!(#krate::__private::Unique::None));
    let tests = check_tokens(checks, krate);
    let name = optional_text(name);
    Some(quote! {
        #krate::__private::check_field(#value, &[#(#tests),*], &#unique, __at, #name)
    })
}

/// The checks of the named fields among `fields` on the object `__object`, each under every
/// name serde reads it by.
pub(crate) fn field_checks(fields: &[Field], krate: &TokenStream) -> Vec<TokenStream> {
    let mut checks = Vec::new();
    for field in fields.iter().filter(|field| !field.flatten) {
        let property = &field.property;
        // `#[schema(required)]` on an `Option`: serde reads a missing one as `None`, and the
        // schema lists it as required.
        if property
            .checks
            .iter()
            .any(|(check, _)| *check == "Required")
        {
            let name = &property.name;
            let names = std::iter::once(name).chain(&field.aliases);
            checks.push(quote! {
                if #(!__object.contains_key(#names))&&* {
                    return ::core::result::Result::Err(
                        #krate::__private::missing_field(__at, #name),
                    );
                }
            });
        }
        for name in std::iter::once(&property.name).chain(&field.aliases) {
            let value = quote!(__field);
            // Nothing to check under one name is nothing under any.
            let Some(call) = check_call(
                &value,
                &property.checks,
                &property.schema,
                Some(name),
                krate,
            ) else {
                break;
            };
            checks.push(quote! {
                if let ::core::option::Option::Some(__field) = __object.get(#name) {
                    #call?;
                }
            });
        }
    }
    checks
}

/// The body of `ToolSchema::check_value` for a struct's fields: each field's constraints, and
/// the sets and user types inside it, under each name serde reads it by; a flattened field's
/// on the object itself. `None` when there is nothing to check.
pub(crate) fn record_checks(fields: &[Field], krate: &TokenStream) -> Option<TokenStream> {
    let value = quote!(__value);
    let flattened: Vec<TokenStream> = fields
        .iter()
        .filter(|field| field.flatten)
        .filter_map(|field| check_call(&value, &[], flattened_schema(field), None, krate))
        .collect();
    let named = field_checks(fields, krate);
    if flattened.is_empty() && named.is_empty() {
        return None;
    }
    let named = (!named.is_empty()).then(|| {
        quote! {
            // Another type is serde's to refuse, with its own message.
            if let ::core::option::Option::Some(__object) = __value.as_object() {
                #(#named)*
            }
        }
    });
    Some(quote! {
        #(#flattened?;)*
        #named
        ::core::result::Result::Ok(())
    })
}

/// A struct read as its one field (a newtype, or `#[serde(transparent)]`); an error at `span`
/// when serde reads not exactly one.
pub(crate) fn one_field(
    fields: &[Field],
    span: Span,
    description: Option<&str>,
    krate: &TokenStream,
    errors: &mut Errors,
) -> Built {
    let [field] = fields else {
        errors.push(Error::new(
            span,
            "#[serde(transparent)] needs exactly one field that serde reads",
        ));
        return Built::fixed(quote!(#krate::__private::Value::Null));
    };
    transparent(field, description, krate)
}

/// A struct read as its one field: that field's schema, with the type's doc comment as its
/// description, and its checks on the value itself.
fn transparent(field: &Field, description: Option<&str>, krate: &TokenStream) -> Built {
    let property = &field.property;
    let schema = property.schema.to_expr(krate);
    let schema = match description.or(property.description.as_deref()) {
        Some(text) => {
            let text = json_string(text);
            quote!(#krate::__private::with_keys(#schema, &[("description", #text)]))
        }
        None => schema,
    };
    Built {
        schema,
        check: check_call(
            &quote!(__value),
            &property.checks,
            &property.schema,
            None,
            krate,
        ),
        fixed: property.schema.to_json().is_some(),
    }
}
