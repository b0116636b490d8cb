//! The tool descriptor written beside a handler or for a `#[derive(Tool)]` struct: the `Tool`
//! struct literal (name, title, description, input and output schemas, icons, task support,
//! `_meta`), and the constraints a call or a struct's fields check.

use proc_macro2::{Ident, Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::LitStr;

use crate::leaf::integer::Integer;
use crate::leaf::json_write::{json_string, with_description};
use crate::model::descriptor::{CheckValue, Descriptor};
use crate::model::schema::Ty;

impl Descriptor {
    /// `("field", &[Check::...])` for each input with `#[schema(...)]` constraints (none under
    /// a `#[cfg]`), for a `#[derive(Tool)]` type's `FIELD_CHECKS`.
    pub(crate) fn field_checks(&self, krate: &TokenStream) -> Vec<TokenStream> {
        self.properties
            .iter()
            .filter(|property| property.cfgs.is_empty() && !property.checks.is_empty())
            .map(|property| {
                let name = &property.name;
                let checks = check_tokens(&property.checks, krate);
                quote!((#name, &[#(#checks),*]))
            })
            .collect()
    }

    /// `("field", Unique::...)` for each input that holds a set (none under a `#[cfg]`), for
    /// a `#[derive(Tool)]` type's `UNIQUE_FIELDS`.
    pub(crate) fn unique_fields(&self, krate: &TokenStream) -> Vec<TokenStream> {
        self.properties
            .iter()
            .filter(|property| property.cfgs.is_empty())
            .filter_map(|property| {
                let name = &property.name;
                let unique = property.schema.unique(krate)?;
                Some(quote!((#name, #unique)))
            })
            .collect()
    }

    /// The `Tool` struct literal (a literal, not constructor calls, so that the constant can
    /// be borrowed and promoted like any literal; its hidden field keeps users' code from
    /// writing one).
    pub(crate) fn value(
        &self,
        krate: &TokenStream,
        title: Option<&LitStr>,
        annotations: &TokenStream,
    ) -> TokenStream {
        let cow = |text: &str| quote!(#krate::__private::Cow::Borrowed(#text));
        let some = |value: TokenStream| quote!(::core::option::Option::Some(#value));
        let none = quote!(::core::option::Option::None);
        let name = cow(&self.name);
        let title = title.map_or_else(
            || none.clone(),
            |title| some(quote!(#krate::__private::Cow::Borrowed(#title))),
        );
        let description = self
            .description
            .as_deref()
            .map_or_else(|| none.clone(), |text| some(cow(text)));
        let input_schema = self.input_schema(krate);
        let output_schema = self.output_schema(krate).map_or_else(|| none.clone(), some);
        let icons = self.icons.iter().map(|icon| {
            let src = &icon.src;
            let mime_type = icon.mime_type.as_ref().map_or_else(
                || none.clone(),
                |mime| some(quote!(#krate::__private::MimeType::from_static(#mime))),
            );
            let sizes = &icon.sizes;
            let theme = match icon.theme.as_deref() {
                Some("light") => some(quote!(#krate::__private::IconTheme::Light)),
                Some(_) => some(quote!(#krate::__private::IconTheme::Dark)),
                None => none.clone(),
            };
            quote!(#krate::__private::Icon::__from_parts(#src, #mime_type, &[#(#krate::__private::Cow::Borrowed(#sizes)),*], #theme))
        });
        // In a `static` of their own: a constant made by calls would count as needing its
        // destructor, and then the descriptor could not be read in `const` or borrowed in
        // place (`X_TOOL.name()`); a reference to a static is a plain value.
        let count = self.icons.len();
        let icons = if count == 0 {
            quote!(#krate::__private::Cow::Borrowed(&[]))
        } else {
            quote!(#krate::__private::Cow::Borrowed({
                static ICONS: [#krate::__private::Icon; #count] = [#(#icons),*];
                &ICONS
            }))
        };
        let task_support = match self.task_support.as_deref() {
            Some(support) => {
                let variant = Ident::new(
                    match support {
                        "forbidden" => "Forbidden",
                        "optional" => "Optional",
                        _ => "Required",
                    },
                    Span::call_site(),
                );
                some(quote!(#krate::__private::TaskSupport::#variant))
            }
            None => none.clone(),
        };
        let meta = self
            .meta
            .as_deref()
            .map_or_else(|| none.clone(), |text| some(cow(text)));
        let toolsets = &self.toolsets;
        let scopes = &self.scopes;
        let resolvable = self.resolvable;
        quote! {
            #krate::__private::Tool {
                name: #name,
                title: #title,
                description: #description,
                input_schema: #input_schema,
                output_schema: #output_schema,
                annotations: #annotations,
                icons: #icons,
                task_support: #task_support,
                meta: #meta,
                toolsets: &[#(#toolsets),*],
                scopes: &[#(#scopes),*],
                resolvable: #resolvable,
                __non_exhaustive: #krate::__private::NonExhaustive,
            }
        }
    }

    /// The `outputSchema` of a handler returning `Json<T>`: `T`'s schema, whatever its root
    /// (a listing wraps one that is not an object for the versions before 2026-07-28, as
    /// results wrap such values there); none for `Option`s and `serde_json::Value`, whose
    /// values may be anything, `null` included.
    fn output_schema(&self, krate: &TokenStream) -> Option<TokenStream> {
        let ty = self.output.as_ref()?;
        match ty {
            Ty::Nullable(_) => return None,
            Ty::Json(pairs) if pairs.is_empty() => return None,
            _ => {}
        }
        if let Some(json) = ty.to_json() {
            return Some(quote!(#krate::__private::Schema::Static(#json)));
        }
        let expr = ty.to_expr(krate);
        Some(quote! {
            #krate::__private::Schema::Lazy(#krate::__private::Lazy({
                fn output_schema() -> &'static str {
                    static SCHEMA: #krate::__private::OnceLock<::std::string::String> =
                        #krate::__private::OnceLock::new();
                    fn build() -> ::std::string::String {
                        #krate::__private::output_schema(#expr)
                    }
                    #krate::__private::once(&SCHEMA, build)
                }
                output_schema
            }))
        })
    }

    /// `Schema::Static("...")` when every property is known at compile time, else a schema
    /// that a function builds once, on first use.
    fn input_schema(&self, krate: &TokenStream) -> TokenStream {
        if let Some(json) = self.static_schema() {
            return quote!(#krate::__private::Schema::Static(#json));
        }
        let pushes = self.properties.iter().map(|property| {
            let name = &property.name;
            let schema = property.schema.to_expr(krate);
            let description = match &property.description {
                Some(text) => quote!(::core::option::Option::Some(#text)),
                None => quote!(::core::option::Option::None),
            };
            let required = !property.optional;
            let cfgs = &property.cfgs;
            // The list is the generated code's own (call-site hygiene), whatever span the
            // parameter's name has (a handler written by `macro_rules!` gives it the macro's).
            let properties = Ident::new("properties", Span::call_site());
            quote_spanned! {property.span=>
                #(#cfgs)*
                #properties.push(#krate::__private::Property {
                    name: #name,
                    schema: #schema,
                    description: #description,
                    required: #required,
                });
            }
        });
        quote! {
            #krate::__private::Schema::Lazy(#krate::__private::Lazy({
                fn input_schema() -> &'static str {
                    static SCHEMA: #krate::__private::OnceLock<::std::string::String> =
                        #krate::__private::OnceLock::new();
                    fn build() -> ::std::string::String {
                        let mut properties = ::std::vec::Vec::new();
                        #(#pushes)*
                        #krate::__private::object(properties)
                    }
                    #krate::__private::once(&SCHEMA, build)
                }
                input_schema
            }))
        }
    }

    /// The whole input schema as JSON text, if every property is known and none depends on a
    /// `#[cfg]`.
    fn static_schema(&self) -> Option<String> {
        if self.properties.is_empty() {
            return Some(r#"{"type":"object","additionalProperties":false}"#.to_owned());
        }
        let mut properties = Vec::new();
        let mut required = Vec::new();
        for property in &self.properties {
            if !property.cfgs.is_empty() {
                return None;
            }
            let json = property.schema.to_json()?;
            let json = match &property.description {
                // Insert `"description"` last, unless the schema has one.
                Some(text) if !json.contains("\"description\":") => with_description(&json, text),
                _ => json,
            };
            properties.push(format!("{}:{json}", json_string(&property.name)));
            if !property.optional {
                required.push(json_string(&property.name));
            }
        }
        let mut out = format!(
            r#"{{"type":"object","properties":{{{}}}"#,
            properties.join(",")
        );
        if !required.is_empty() {
            out.push_str(&format!(r#","required":[{}]"#, required.join(",")));
        }
        out.push_str(r#","additionalProperties":false}"#);
        Some(out)
    }
}

/// The runtime's `__private::Check` for each constraint of a `#[schema(...)]`.
pub(crate) fn check_tokens(
    checks: &[(&'static str, CheckValue)],
    krate: &TokenStream,
) -> Vec<TokenStream> {
    checks
        .iter()
        .map(|(variant, value)| {
            let variant = Ident::new(variant, Span::call_site());
            let value = match value {
                CheckValue::Int(Integer::Signed(n)) => quote!((#krate::__private::Bound::Int(#n))),
                CheckValue::Int(Integer::Above(n)) => {
                    quote!((#krate::__private::Bound::Unsigned(#n)))
                }
                CheckValue::Float(x) => quote!((#krate::__private::Bound::Float(#x))),
                CheckValue::Count(n) => quote!((#n)),
                CheckValue::Text(text) => quote!((#text)),
                CheckValue::Unit => quote!(),
            };
            quote!(#krate::__private::Check::#variant #value)
        })
        .collect()
}
