//! `#[derive(ToolSchema)]` on an enum: a string `enum` of unit variants, or a `oneOf` (`anyOf`
//! when untagged) of its variants in serde's tagging, and the check that finds the variant serde
//! reads and checks its payload.

use proc_macro2::{Delimiter, TokenStream};
use quote::quote;
use syn::Error;

use crate::expand::derive_schema_struct::{Built, check_call, field_checks, optional_text, pushes};
use crate::expand::inputs::schema_fields;
use crate::leaf::errors::Errors;
use crate::leaf::json_write::json_string;
use crate::leaf::tokens::split_top_level;
use crate::model::attrs::attribute_streams;
use crate::model::body::Field;
use crate::model::body::Variant;
use crate::model::schema::{self, Ty, static_lifetimes};
use crate::model::serde_attr;

/// An enum of unit variants: `{"type": "string", "enum": [...]}`, each variant by every name
/// serde reads it by.
pub(crate) fn unit_enum(
    variants: &[Variant],
    description: Option<&str>,
    krate: &TokenStream,
) -> Built {
    let names: Vec<String> = variants
        .iter()
        .flat_map(Variant::names)
        .map(|name| json_string(&name))
        .collect();
    let mut out = String::from(r#"{"type":"string""#);
    if let Some(description) = description {
        out.push_str(&format!(r#","description":{}"#, json_string(description)));
    }
    out.push_str(&format!(r#","enum":[{}]}}"#, names.join(",")));
    Built::fixed(quote!(#krate::__private::fragment(#out)))
}

/// An enum with data (or with serde's `tag` or `untagged`): each variant as serde writes it,
/// `oneOf` (`anyOf` when untagged), built once, when the schema is first asked for.
pub(crate) fn data_enum(
    variants: Vec<Variant>,
    container: &serde_attr::Container,
    description: Option<&str>,
    krate: &TokenStream,
    errors: &mut Errors,
) -> Built {
    let tagging = match (&container.tag, &container.content, container.untagged) {
        (_, _, true) => quote!(#krate::__private::Tagging::Untagged),
        (Some(tag), Some(content), false) => {
            let (tag, content) = (tag.value(), content.value());
            quote!(#krate::__private::Tagging::Adjacent(#tag, #content))
        }
        (Some(tag), None, false) => {
            let tag = tag.value();
            quote!(#krate::__private::Tagging::Internal(#tag))
        }
        (None, Some(content), false) => {
            errors.push(Error::new(
                content.span(),
                "#[serde(content)] needs #[serde(tag)] beside it",
            ));
            quote!(#krate::__private::Tagging::External)
        }
        (None, None, false) => quote!(#krate::__private::Tagging::External),
    };
    let closed = container.deny_unknown_fields;
    let mut built = Vec::new();
    let mut checks = Vec::new();
    for variant in variants {
        let mut optional_content = false;
        let value = match &variant.data {
            Some(fields) if fields.delimiter() == Delimiter::Brace => {
                // serde's `rename_all` on an enum renames its variants, not their fields.
                let fields_container = serde_attr::Container {
                    rename_all: None,
                    deny_unknown_fields: container.deny_unknown_fields,
                    ..serde_attr::Container::default()
                };
                let fields = schema_fields(fields.stream(), &fields_container, true, errors);
                checks.push((
                    variant.names(),
                    Payload::Fields(
                        field_checks(&fields, krate),
                        fields_probe(&fields, container.deny_unknown_fields, krate),
                    ),
                ));
                let fields: Vec<&Field> = fields.iter().collect();
                let fields = pushes(&fields, krate);
                quote!(::core::option::Option::Some(#krate::__private::record(::std::vec![#(#fields),*], #closed, ::core::option::Option::None)))
            }
            Some(fields) => {
                let pieces = split_top_level(fields.stream());
                if pieces.len() != 1 || container.tag.is_some() && container.content.is_none() {
                    errors.push(Error::new(
                        fields.span(),
                        "#[derive(ToolSchema)] reads a tuple variant of one field (a newtype), \
                         and not under an internal `tag`; this one is not read yet",
                    ));
                    continue;
                }
                let (_, _, j) = attribute_streams(&pieces[0].0);
                let ty: TokenStream = pieces[0].0[j..].iter().cloned().collect();
                let read = schema::read_param(&ty, errors).0;
                // serde reads a missing content as `None`.
                optional_content = matches!(read, Ty::Nullable(_)) && container.content.is_some();
                let check = check_call(&quote!(__payload), &[], &read, None, krate);
                let owned = static_lifetimes(ty.clone());
                checks.push((variant.names(), Payload::Value(check, owned)));
                let schema = read.to_expr(krate);
                quote!(::core::option::Option::Some(#schema))
            }
            None => {
                checks.push((variant.names(), Payload::Unit));
                quote!(::core::option::Option::None)
            }
        };
        // A variant's alias is another name serde reads it by.
        for name in variant.names() {
            let one = quote!(#krate::__private::variant(#tagging, #name, #value, #closed));
            built.push(match (&container.content, optional_content) {
                (Some(content), true) => {
                    let content = content.value();
                    quote!(#krate::__private::optional_content(#one, #content))
                }
                _ => one,
            });
        }
    }
    let untagged = container.untagged;
    let description = optional_text(description);
    Built {
        schema: quote!(#krate::__private::variants(::std::vec![#(#built),*], #untagged, #description)),
        check: enum_checks(&checks, container, krate),
        fixed: false,
    }
}

/// What a variant holds, for its check: nothing, a value of one type (its check on
/// `__payload`, if it holds anything to check, and the type, for finding an untagged enum's
/// variant), or fields (the checks of each on `__object`, and whether an object reads as
/// them).
enum Payload {
    Unit,
    Value(Option<TokenStream>, TokenStream),
    Fields(Vec<TokenStream>, TokenStream),
}

/// Whether `__payload` reads as a struct variant of these fields, as serde reads an untagged
/// one: an object whose fields each read as their type, every required one there.
fn fields_probe(fields: &[Field], closed: bool, krate: &TokenStream) -> TokenStream {
    let names = fields.iter().map(|field| &field.property.name);
    // A closed enum's variant reads no other field.
    let known = if closed {
        quote!(&& __object.keys().all(|__key| [#(#names),*].contains(&__key.as_str())))
    } else {
        quote!()
    };
    let each = fields.iter().map(|field| {
        let name = &field.property.name;
        let ty = static_lifetimes(field.ty.clone());
        let optional = field.property.optional;
        quote! {
            __object.get(#name).map_or(#optional, |__field| #krate::__private::reads::<#ty>(__field))
        }
    });
    quote! {
        __payload.as_object().is_some_and(|__object| true #(&& #each)* #known)
    }
}

/// The body of an enum's `ToolSchema::check_value`: the variant serde reads found as its
/// tagging says (for an untagged enum, the first variant that reads, as serde picks it), then
/// its payload's checks. `None` when no variant holds anything to check.
fn enum_checks(
    variants: &[(Vec<String>, Payload)],
    container: &serde_attr::Container,
    krate: &TokenStream,
) -> Option<TokenStream> {
    let body = |payload: &Payload| match payload {
        Payload::Unit | Payload::Value(None, _) => None,
        Payload::Value(Some(check), _) => Some(quote!(#check?;)),
        Payload::Fields(checks, _) if checks.is_empty() => None,
        Payload::Fields(checks, _) => Some(quote! {
            if let ::core::option::Option::Some(__object) = __payload.as_object() {
                #(#checks)*
            }
        }),
    };
    let internal = container.tag.is_some() && container.content.is_none() && !container.untagged;
    // An externally tagged enum is always checked: flattened into a struct, serde reads the
    // first of several variant keys, which the schema (one variant) refuses.
    let external = container.tag.is_none() && !container.untagged;
    if !internal && !external && variants.iter().all(|(_, payload)| body(payload).is_none()) {
        return None;
    }
    let ok = quote!(::core::result::Result::Ok(()));
    // One `match` arm a variant with checks: its names (`Some(...)` around them for a tag
    // read as an `Option<&str>`), where its payload is, its checks.
    let arms = |tagged: bool, find: &TokenStream| -> Vec<TokenStream> {
        variants
            .iter()
            .filter_map(|(names, payload)| {
                let body = body(payload)?;
                let pattern = if tagged {
                    quote!(::core::option::Option::Some(#(#names)|*))
                } else {
                    quote!(#(#names)|*)
                };
                Some(quote!(#pattern => { #find #body }))
            })
            .collect()
    };
    let dispatch = match (&container.tag, &container.content, container.untagged) {
        (_, _, true) => {
            let tries = variants.iter().map(|(_, payload)| {
                let checked = body(payload).unwrap_or_default();
                let probe = match payload {
                    Payload::Unit => quote!(__payload.is_null()),
                    Payload::Value(_, ty) => quote!(#krate::__private::reads::<#ty>(__payload)),
                    Payload::Fields(_, probe) => probe.clone(),
                };
                quote! {
                    if #probe {
                        #checked
                        return #ok;
                    }
                }
            });
            quote! {
                let __payload = __value;
                #(#tries)*
            }
        }
        (Some(tag), Some(content), false) => {
            let (tag, content) = (tag.value(), content.value());
            let arms = arms(
                true,
                &quote! {
                    let ::core::option::Option::Some(__payload) = __object.get(#content) else { return #ok };
                    let __at = &#krate::__private::At(__at, #content);
                },
            );
            quote! {
                let ::core::option::Option::Some(__object) = __value.as_object() else { return #ok };
                match __object.get(#tag).and_then(#krate::__private::Value::as_str) {
                    #(#arms)*
                    _ => {}
                }
            }
        }
        (Some(tag), None, false) => {
            let tag = tag.value();
            let arms = arms(true, &quote!(let __payload = __value;));
            quote! {
                // serde would also read the tag and the fields from an array, which the
                // schema (an object) does not allow.
                if __value.is_array() {
                    return ::core::result::Result::Err(::std::format!("`{}`: expected an object, found an array", __at));
                }
                let ::core::option::Option::Some(__object) = __value.as_object() else { return #ok };
                match __object.get(#tag).and_then(#krate::__private::Value::as_str) {
                    #(#arms)*
                    _ => {}
                }
            }
        }
        _ => {
            let arms = arms(
                false,
                &quote! {
                    let __at = &#krate::__private::At(__at, __name);
                },
            );
            let names = variants.iter().flat_map(|(names, _)| names);
            quote! {
                let ::core::option::Option::Some(__object) = __value.as_object() else { return #ok };
                // The variant's key, among the fields of a struct the enum is flattened into.
                let mut __variants = __object
                    .iter()
                    .filter(|(__key, _)| [#(#names),*].contains(&__key.as_str()));
                let ::core::option::Option::Some((__name, __payload)) = __variants.next() else { return #ok };
                if let ::core::option::Option::Some((__other, _)) = __variants.next() {
                    return ::core::result::Result::Err(::std::format!(
                        "`{}`: expected one variant, found both `{}` and `{}`", __at, __name, __other
                    ));
                }
                match __name.as_str() {
                    #(#arms)*
                    _ => {}
                }
            }
        }
    };
    Some(quote! {
        #dispatch
        #ok
    })
}
