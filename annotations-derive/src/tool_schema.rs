//! `#[derive(ToolSchema)]`: the JSON Schema of a user's struct or enum, without schemars,
//! written while compiling when every field's type is known (as a handler parameter's is),
//! and honouring the `#[serde(...)]` attributes that change the JSON serde reads (see
//! `serde_attr.rs`), so the schema and serde's reading never disagree.
//!
//! Named structs become objects (a field's doc comment its description, its `#[schema(...)]`
//! keys on its schema and checked by the call; `Option` fields and fields with a serde default
//! not required; `deny_unknown_fields` closes the object; aliases and `flatten` as serde reads
//! them), a newtype or `transparent` struct its field's schema, enums of unit variants a
//! string `enum`, and enums with data a `oneOf` of their variants in serde's tagging (built
//! once, when first asked for). A type that leads back to itself is a `$ref` into `$defs`.
//! What it does not understand (other shapes, generics) is a compile error.

use proc_macro2::{Delimiter, Ident, Span, TokenStream, TokenTree};
use quote::quote;
use syn::{Error, LitStr};

use crate::ast::{join_docs, skip_visibility};
use crate::errors::Errors;
use crate::krate::Krate;
use crate::schema::{self, Ty, json_string};
use crate::serde_attr;
use crate::tokens::{punct, split_top_level};

/// One item's or field's leading attributes: doc lines, the other attributes' bracket
/// contents, and where the item itself starts.
fn attributes(tokens: &[TokenTree]) -> (Vec<String>, Vec<TokenStream>, usize) {
    let (docs, attrs, i) = crate::ast::attributes(tokens);
    (
        docs,
        attrs.iter().map(proc_macro2::Group::stream).collect(),
        i,
    )
}

pub(crate) fn expand(input: TokenStream) -> TokenStream {
    let mut errors = Errors::new();
    let tokens: Vec<TokenTree> = crate::tokens::flatten(input);
    let (docs, attrs, i) = attributes(&tokens);
    let i = skip_visibility(&tokens, i);
    let (Some(TokenTree::Ident(keyword)), Some(TokenTree::Ident(name))) =
        (tokens.get(i), tokens.get(i + 1))
    else {
        return Error::new(
            Span::call_site(),
            "#[derive(ToolSchema)] expected a struct or an enum",
        )
        .to_compile_error();
    };
    let name = name.clone();
    let krate = Krate::new(None).path();
    let container = serde_attr::container(&attrs, "#[derive(ToolSchema)]", &mut errors);
    if punct(tokens.get(i + 2), '<') {
        // No implementation at all: one for the type without its parameters would only add
        // rustc's own errors.
        errors.push(Error::new(
            tokens[i + 2].span(),
            "#[derive(ToolSchema)] does not take generic types yet: a generic type has no one \
             schema; implement `annotations::ToolSchema` for each instance you use",
        ));
        return errors.into_compile_errors();
    }
    let description = join_docs(&docs);
    let body = tokens[i + 2..].iter().find_map(|token| match token {
        TokenTree::Group(group) if group.delimiter() == Delimiter::Brace => Some(group.stream()),
        _ => None,
    });
    let tuple = tokens[i + 2..].iter().find_map(|token| match token {
        TokenTree::Group(group) if group.delimiter() == Delimiter::Parenthesis => {
            Some(group.stream())
        }
        _ => None,
    });
    let description = description.as_deref();
    let built = match (keyword.to_string().as_str(), body) {
        ("struct", Some(fields)) => {
            if let Some(tag) = container.tag.as_ref().or(container.content.as_ref()) {
                errors.push(Error::new(
                    tag.span(),
                    "#[serde(tag)] on a struct is not read by #[derive(ToolSchema)] yet",
                ));
            }
            let fields = read_fields(fields, &container, false, &mut errors);
            match container.transparent {
                Some(span) => one_field(&fields, span, description, &krate, &mut errors),
                None => Built {
                    check: record_checks(&fields, &krate),
                    ..record(&fields, &container, description, &krate)
                },
            }
        }
        ("struct", None)
            if tuple
                .as_ref()
                .is_some_and(|fields| split_top_level(fields.clone()).len() == 1) =>
        {
            let field = newtype_field(tuple.unwrap_or_default(), &name);
            let fields = read_fields(field, &container, false, &mut errors);
            one_field(&fields, name.span(), description, &krate, &mut errors)
        }
        ("enum", Some(variants)) => {
            let variants = read_variants(variants, &container, &mut errors);
            let tagged = container.tag.is_some() || container.untagged;
            if !tagged && variants.iter().all(|variant| variant.data.is_none()) {
                unit_enum(&variants, description, &krate)
            } else {
                data_enum(variants, &container, description, &krate, &mut errors)
            }
        }
        ("struct", None) => {
            errors.push(Error::new(
                name.span(),
                "#[derive(ToolSchema)] reads structs with named fields and newtype structs; a \
                 tuple struct of several fields or a unit struct is not read yet",
            ));
            Built::fixed(quote!(#krate::__private::Value::Null))
        }
        _ => {
            errors.push(Error::new(
                keyword.span(),
                "#[derive(ToolSchema)] expected a struct or an enum",
            ));
            Built::fixed(quote!(#krate::__private::Value::Null))
        }
    };
    let Built {
        schema,
        check,
        fixed,
    } = built;
    // A schema built from other types' may lead back to this one; one written while
    // compiling cannot.
    let schema = if fixed {
        schema
    } else {
        quote!(#krate::__private::named(::core::any::type_name::<Self>(), || #schema))
    };
    let check = check.map(|body| {
        quote! {
            fn check_value(
                __value: &#krate::__private::Value,
                __at: &dyn ::core::fmt::Display,
            ) -> ::core::result::Result<(), ::std::string::String> {
                #body
            }
        }
    });
    let implementation = quote! {
        impl #krate::ToolSchema for #name {
            fn tool_schema() -> #krate::__private::Value {
                #schema
            }
            #check
        }
    };
    match errors.check() {
        Ok(()) => implementation,
        Err(errors) => quote!(#implementation #errors),
    }
}

/// What the derive writes for a type: the expression of its schema, the body of its
/// `check_value` (if it has anything to check), and whether the schema is written while
/// compiling (so it cannot lead back to the type itself).
struct Built {
    schema: TokenStream,
    check: Option<TokenStream>,
    fixed: bool,
}

impl Built {
    fn fixed(schema: TokenStream) -> Self {
        Built {
            schema,
            check: None,
            fixed: true,
        }
    }
}

/// `Some("text")` or `None`, as tokens.
fn optional_text(text: Option<&str>) -> TokenStream {
    match text {
        Some(text) => quote!(::core::option::Option::Some(#text)),
        None => quote!(::core::option::Option::None),
    }
}

/// A newtype struct's one field (the contents of its parentheses), written as a named field
/// `value`, so that its `#[schema(...)]` and `#[serde(...)]` are read as any field's.
fn newtype_field(field: TokenStream, name: &Ident) -> TokenStream {
    let tokens = crate::tokens::flatten(field);
    let (_, attrs, j) = crate::ast::attributes(&tokens);
    let j = skip_visibility(&tokens, j);
    let mut named = TokenStream::new();
    for attr in attrs {
        named.extend([
            TokenTree::Punct(proc_macro2::Punct::new('#', proc_macro2::Spacing::Alone)),
            TokenTree::Group(attr),
        ]);
    }
    let ty: TokenStream = tokens[j..].iter().cloned().collect();
    let value = Ident::new("value", name.span());
    named.extend(quote!(#value: #ty));
    named
}

/// One field as serde reads it: the input the descriptor's reader makes of it (its name,
/// schema with `#[schema(...)]` keys, whether it may be left out, the checks the call makes),
/// and what else serde reads it by.
struct Field {
    property: crate::descriptor::Property,
    /// The other names serde reads it by.
    aliases: Vec<String>,
    /// `#[serde(flatten)]`: its fields are the container's.
    flatten: bool,
    /// Its type's tokens.
    ty: TokenStream,
}

/// The fields of a struct or struct variant as serde reads them: renamed, skipped, required
/// or not (a field's or the container's `#[serde(default)]`), each doc comment a description.
/// `variant`: the fields of an enum's variant, whose `#[schema(...)]` is not read yet.
fn read_fields(
    fields: TokenStream,
    container: &serde_attr::Container,
    variant: bool,
    errors: &mut Errors,
) -> Vec<Field> {
    let mut read = Vec::new();
    let params = crate::derive::field_params(fields, container, "#[derive(ToolSchema)]", errors);
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
        let Some(property) = crate::descriptor::property(index, &param, None, &[], errors) else {
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

/// The runtime's `Property` for each field, for a schema built when first asked for.
fn pushes(fields: &[&Field], krate: &TokenStream) -> Vec<TokenStream> {
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
fn record(
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
                    Some(text) => schema::with_description(json, text),
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
        let schema = flattened_schema(field).to_expr(krate);
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
fn check_call(
    value: &TokenStream,
    checks: &[(&'static str, crate::descriptor::CheckValue)],
    schema: &Ty,
    name: Option<&str>,
    krate: &TokenStream,
) -> Option<TokenStream> {
    let unique = schema.unique(krate);
    if checks.is_empty() && unique.is_none() {
        return None;
    }
    let unique = unique.unwrap_or_else(|| quote!(#krate::__private::Unique::None));
    let tests = crate::descriptor::check_tokens(checks, krate);
    let name = optional_text(name);
    Some(quote! {
        #krate::__private::check_field(#value, &[#(#tests),*], &#unique, __at, #name)
    })
}

/// The checks of the named fields among `fields` on the object `__object`, each under every
/// name serde reads it by.
fn field_checks(fields: &[Field], krate: &TokenStream) -> Vec<TokenStream> {
    let mut checks = Vec::new();
    for field in fields.iter().filter(|field| !field.flatten) {
        let property = &field.property;
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
fn record_checks(fields: &[Field], krate: &TokenStream) -> Option<TokenStream> {
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
fn one_field(
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

/// One variant of an enum as serde reads it (a variant serde skips is left out).
struct Variant {
    serde: serde_attr::Field,
    /// The name serde reads it by (its `rename`, or the enum's case).
    name: String,
    /// Its fields, in braces or parentheses; `None` for a unit variant.
    data: Option<proc_macro2::Group>,
}

impl Variant {
    /// The names serde reads it by: its own, then its aliases.
    fn names(&self) -> Vec<String> {
        std::iter::once(self.name.clone())
            .chain(self.serde.aliases.iter().map(LitStr::value))
            .collect()
    }
}

/// The variants of an enum, as serde reads them.
fn read_variants(
    variants: TokenStream,
    container: &serde_attr::Container,
    errors: &mut Errors,
) -> Vec<Variant> {
    let mut read = Vec::new();
    for (variant, _) in split_top_level(variants) {
        let (_, attrs, i) = attributes(&variant);
        let Some(TokenTree::Ident(ident)) = variant.get(i) else {
            continue;
        };
        let serde = serde_attr::field(&attrs, "#[derive(ToolSchema)]", errors);
        if serde.skip {
            continue;
        }
        let name = serde_attr::variant_name(&crate::tokens::unraw(ident), &serde, container);
        let data = match variant.get(i + 1) {
            Some(TokenTree::Group(group)) => Some(group.clone()),
            _ => None,
        };
        read.push(Variant { serde, name, data });
    }
    read
}

/// An enum of unit variants: `{"type": "string", "enum": [...]}`, each variant by every name
/// serde reads it by.
fn unit_enum(variants: &[Variant], description: Option<&str>, krate: &TokenStream) -> Built {
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
fn data_enum(
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
                let fields = read_fields(fields.stream(), &fields_container, true, errors);
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
                let (_, _, j) = attributes(&pieces[0].0);
                let ty: TokenStream = pieces[0].0[j..].iter().cloned().collect();
                let read = schema::read_param(&ty, errors).0;
                // serde reads a missing content as `None`.
                optional_content = matches!(read, Ty::Nullable(_)) && container.content.is_some();
                let check = check_call(&quote!(__payload), &[], &read, None, krate);
                let owned = crate::schema::static_lifetimes(ty.clone());
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
        let ty = crate::schema::static_lifetimes(field.ty.clone());
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
    if !internal && variants.iter().all(|(_, payload)| body(payload).is_none()) {
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
            quote! {
                let ::core::option::Option::Some(__object) = __value.as_object() else { return #ok };
                let ::core::option::Option::Some((__name, __payload)) = __object.iter().next() else { return #ok };
                if __object.len() != 1 {
                    return #ok;
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
