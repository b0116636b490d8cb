//! The tool descriptor beside a handler: its name, description and input schema.

use proc_macro2::{Ident, Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned};
use syn::{Error, LitStr};

use crate::ast::{Handler, Param, join_docs};
use crate::attr::Args;
use crate::errors::Errors;
use crate::schema::{self, Ty, json_string};
use crate::schema_attr::{self, SchemaAttr};
use crate::tokens::unraw;

pub(crate) struct Descriptor {
    name: String,
    description: Option<String>,
    properties: Vec<Property>,
    /// The schema of `T` for a handler returning `Json<T>` (or a `Result` of it).
    output: Option<Ty>,
    /// Whether the return type is written `Json<T>` or `Result<Json<T>, E>` (else a `Json`
    /// behind an alias is refused, as its schema cannot be listed).
    written_json: bool,
    /// `#[tool(icons = [...])]`.
    icons: Vec<crate::icons::IconSpec>,
    /// `#[tool(meta = "...")]`: the `_meta` object's JSON text.
    meta: Option<String>,
    /// `#[tool(task_support = "...")]`.
    task_support: Option<String>,
}

pub(crate) struct Property {
    /// The position of the parameter (or field) it is read from.
    param: usize,
    /// The name the model passes it by (its `rename`, or the parameter's name).
    pub(crate) name: String,
    pub(crate) schema: Ty,
    /// Whether it may be left out (an `Option`, or a parameter with a `default`).
    pub(crate) optional: bool,
    /// Whether an explicit `null` is read.
    pub(crate) null: bool,
    /// The constraints the call checks: the runtime's `Check` variant and its value.
    pub(crate) checks: Vec<(&'static str, CheckValue)>,
    /// `#[schema(default = EXPR)]`: how a missing argument gets it.
    pub(crate) default: Option<DefaultRead>,
    pub(crate) description: Option<String>,
    pub(crate) cfgs: Vec<TokenStream>,
    pub(crate) span: Span,
}

/// How a parameter's default reaches a call that leaves the argument out.
pub(crate) enum DefaultRead {
    /// A literal of a type the macro knows: the reader reads its JSON as it reads an
    /// argument, so the call needs no code of its own. The expression is kept for rustc to
    /// check against the parameter's type (`["a"]` for a `Vec<u8>`, `1e39` for an `f32`),
    /// with whether it is a number or boolean literal (typed directly, not converted).
    /// (`None` for `serde_json::Value`, which takes any literal.)
    Json(String, Option<(TokenStream, bool)>),
    /// Any other expression: evaluated by the call (converted with `Into`).
    Expr(TokenStream),
}

/// The value of a constraint, as the runtime's `Check` holds it.
#[derive(Clone)]
pub(crate) enum CheckValue {
    Int(i128),
    Float(f64),
    Count(u64),
    Text(String),
}

/// What a descriptor is read from: a handler function or a `#[derive(Tool)]` struct.
pub(crate) struct Source<'a> {
    /// The function's or struct's name, for errors.
    pub(crate) ident: &'a Ident,
    /// The tool's name when no `name = "..."` is given.
    pub(crate) default_name: String,
    pub(crate) docs: &'a [String],
    /// The inputs: parameters or fields.
    pub(crate) params: &'a [Param],
    pub(crate) generics: &'a [String],
    /// The handler's return type.
    pub(crate) output: Option<&'a TokenStream>,
}

impl<'a> Source<'a> {
    pub(crate) fn handler(handler: &'a Handler) -> Self {
        Source {
            ident: &handler.name,
            default_name: unraw(&handler.name),
            docs: &handler.docs,
            params: &handler.params,
            generics: &handler.generics,
            output: handler.output.as_ref(),
        }
    }
}

pub(crate) fn read(args: &Args, source: &Source<'_>, errors: &mut Errors) -> Descriptor {
    let name = match &args.name {
        Some(name) => name.value(),
        None => {
            let name = source.default_name.clone();
            if let Err(problem) = crate::name::check(&name) {
                errors.push(Error::new(
                    source.ident.span(),
                    format!(
                        "`{name}` is not a valid tool name: {problem}; name the tool with \
                         #[tool(name = \"...\")]"
                    ),
                ));
            }
            name
        }
    };
    let description = match &args.description {
        Some(description) => Some(description.value()),
        None => join_docs(source.docs),
    };
    let mut properties = Vec::new();
    for (index, param) in source.params.iter().enumerate() {
        let Some(property) = property(
            index,
            param,
            args.rename_all.as_ref(),
            source.generics,
            errors,
        ) else {
            continue;
        };
        if let Some(earlier) = properties
            .iter()
            .find(|earlier: &&Property| earlier.name == property.name)
        {
            errors.push(Error::new(
                property.span,
                format!(
                    "two parameters are both `{}` to the model (the other is parameter {}); \
                     give one another name with #[schema(rename = \"...\")]",
                    property.name,
                    earlier.param + 1
                ),
            ));
        }
        properties.push(property);
    }
    let json = source.output.and_then(json_output);
    let written_json = json.is_some();
    let output = json.map(|ty| schema::read_param(&ty, errors).0);
    Descriptor {
        name,
        description,
        properties,
        output,
        written_json,
        icons: args.icons.clone(),
        meta: args.meta.as_ref().map(LitStr::value),
        task_support: args.task_support.as_ref().map(LitStr::value),
    }
}

/// The input read from one parameter (or field) at `index`: its name (its `rename`, the
/// handler's `rename_all`, or serde's), its schema with its `#[schema(...)]` keys checked
/// against its type and applied, and what the call checks. `None` for a parameter the model
/// does not supply, or one whose error is reported.
pub(crate) fn property(
    index: usize,
    param: &Param,
    rename_all: Option<&LitStr>,
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
    let (schema, optional) = schema::read_param(&param.ty, errors);
    let attr = schema_attr::parse(&param.schema, errors);
    let mut property = Property {
        param: index,
        name: match (&param.serde_name, rename_all) {
            (Some(name), _) => name.clone(),
            (None, Some(case)) => crate::case::rename(&unraw(ident), &case.value()),
            (None, None) => unraw(ident),
        },
        schema,
        optional: optional || param.serde_default,
        null: true,
        checks: Vec::new(),
        default: None,
        description: join_docs(&param.docs),
        cfgs: param.cfgs.clone(),
        span: ident.span(),
    };
    if param.field {
        // serde names a field and fills it in: the keys that would say otherwise are serde's.
        let serde_keys = [
            attr.rename.as_ref().map(|r| (r.span(), "#[serde(rename)]")),
            attr.default
                .as_ref()
                .map(|d| (d.key.span(), "#[serde(default)]")),
            attr.nullable
                .as_ref()
                .map(|(k, _)| (k.span(), "an `Option` field")),
        ];
        for (span, instead) in serde_keys.into_iter().flatten() {
            errors.push(Error::new(
                span,
                format!("on a struct's field, serde decides this: write {instead} instead"),
            ));
        }
    }
    if !attr.is_empty() {
        crate::valid::fixed_length(&attr, &property.schema, &param.ty, errors);
        crate::valid::schema_attr(&attr, &property.schema.kind(), optional, &param.ty, errors);
        apply(&mut property, attr, &param.ty);
    }
    Some(property)
}

/// Applies a parameter's `#[schema(...)]` (already checked against its type): its name, its
/// description, and its schema's keys; a default makes it optional; the constraints the call
/// checks.
fn apply(property: &mut Property, attr: SchemaAttr, ty: &TokenStream) {
    if let Some(rename) = &attr.rename {
        property.name = rename.value();
        property.span = rename.span();
    }
    if let Some(description) = &attr.description {
        property.description = Some(description.value());
    }
    let mut schema = std::mem::replace(&mut property.schema, Ty::Json(Vec::new()));
    if attr.nullable.is_some() {
        if let Ty::Nullable(inner) = schema {
            schema = *inner;
            property.null = false;
        }
    }
    let mut keys: Vec<(&'static str, String)> = Vec::new();
    if let Some(title) = &attr.title {
        keys.push(("title", crate::schema::json_string(&title.value())));
    }
    for (key, number) in &attr.numbers {
        let (name, check) = match key.to_string().as_str() {
            "minimum" => ("minimum", "Minimum"),
            "maximum" => ("maximum", "Maximum"),
            "exclusive_minimum" => ("exclusiveMinimum", "ExclusiveMinimum"),
            "exclusive_maximum" => ("exclusiveMaximum", "ExclusiveMaximum"),
            _ => ("multipleOf", "MultipleOf"),
        };
        keys.push((name, number.json.clone()));
        let value = match number.int {
            Some(int) => CheckValue::Int(int),
            None => CheckValue::Float(number.float),
        };
        property.checks.push((check, value));
    }
    for (key, count) in &attr.counts {
        let (name, check) = match key.to_string().as_str() {
            "min_length" => ("minLength", "MinLength"),
            "max_length" => ("maxLength", "MaxLength"),
            "min_items" => ("minItems", "MinItems"),
            _ => ("maxItems", "MaxItems"),
        };
        keys.push((name, count.to_string()));
        property.checks.push((check, CheckValue::Count(*count)));
    }
    if let Some(format) = &attr.format {
        keys.push(("format", crate::schema::json_string(&format.value())));
    }
    if let Some(pattern) = &attr.pattern {
        keys.push(("pattern", crate::schema::json_string(&pattern.value())));
        property
            .checks
            .push(("Pattern", CheckValue::Text(pattern.value())));
    }
    if let Some((_, examples)) = &attr.examples {
        let items: Vec<String> = examples.iter().map(schema_attr::Literal::json).collect();
        keys.push(("examples", format!("[{}]", items.join(","))));
    }
    if attr.unique_items.is_some() {
        let target = match &mut schema {
            Ty::Nullable(inner) => inner.as_mut(),
            other => other,
        };
        if let Ty::Array { unique, .. } = target {
            *unique = true;
        }
    }
    let mut runtime_default = None;
    if let Some(default) = attr.default {
        property.optional = true;
        // A type that reads `null` itself (`serde_json::Value`) still does.
        property.null = matches!(schema.kind(), crate::schema::Kind::Any);
        match &default.literal {
            Some(literal) => keys.push(("default", literal.json())),
            None => {
                runtime_default = Some((
                    default.expr.clone(),
                    crate::schema::static_lifetimes(ty.clone()),
                ));
            }
        }
        let known = !matches!(schema.kind(), crate::schema::Kind::Unknown);
        let scalar = matches!(
            default.literal,
            Some(schema_attr::Literal::Number(_) | schema_attr::Literal::Bool(_))
        );
        property.default = Some(match &default.literal {
            Some(literal) if known => {
                let any = matches!(schema.kind(), crate::schema::Kind::Any);
                DefaultRead::Json(literal.json(), (!any).then_some((default.expr, scalar)))
            }
            _ => DefaultRead::Expr(default.expr),
        });
    }
    if !keys.is_empty() || runtime_default.is_some() {
        schema = match schema {
            Ty::Nullable(inner) => Ty::Nullable(Box::new(Ty::Keyed {
                inner,
                keys,
                runtime_default,
            })),
            other => Ty::Keyed {
                inner: Box::new(other),
                keys,
                runtime_default,
            },
        };
    }
    property.schema = schema;
}

/// `T` of a return type `Json<T>` or `Result<Json<T>, E>` (any path ending so).
fn json_output(output: &TokenStream) -> Option<TokenStream> {
    let json_inner = |tokens: &[TokenTree]| {
        let (segments, args) = schema::path(tokens)?;
        match (segments.last()?.to_string().as_str(), args.as_slice()) {
            ("Json", [inner]) => Some(inner.iter().cloned().collect()),
            _ => None,
        }
    };
    let tokens = crate::tokens::flatten(output.clone());
    json_inner(&tokens).or_else(|| {
        let (segments, args) = schema::path(&tokens)?;
        match (segments.last()?.to_string().as_str(), args.first()) {
            ("Result", Some(ok)) => json_inner(ok),
            _ => None,
        }
    })
}

impl Descriptor {
    /// The input read from the parameter at `index` (its name, schema, whether it may be left
    /// out, ...); `None` for a parameter the model does not supply.
    pub(crate) fn input(&self, index: usize) -> Option<&Property> {
        self.properties
            .iter()
            .find(|property| property.param == index)
    }

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

    /// Whether the signature writes a `Json<T>` result (see `written_json`).
    pub(crate) fn writes_json(&self) -> bool {
        self.written_json
    }

    /// The tool's name.
    pub(crate) fn name(&self) -> &str {
        &self.name
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
                |mime| some(quote!(#krate::MimeType::from_static(#mime))),
            );
            let sizes = &icon.sizes;
            let theme = match icon.theme.as_deref() {
                Some("light") => some(quote!(#krate::IconTheme::Light)),
                Some(_) => some(quote!(#krate::IconTheme::Dark)),
                None => none.clone(),
            };
            quote!(#krate::Icon::__from_parts(#src, #mime_type, &[#(#krate::__private::Cow::Borrowed(#sizes)),*], #theme))
        });
        // In a `static` of their own: a constant made by calls would count as needing its
        // destructor, and then the descriptor could not be read in `const` or borrowed in
        // place (`X_TOOL.name()`); a reference to a static is a plain value.
        let count = self.icons.len();
        let icons = if count == 0 {
            quote!(#krate::__private::Cow::Borrowed(&[]))
        } else {
            quote!(#krate::__private::Cow::Borrowed({
                static ICONS: [#krate::Icon; #count] = [#(#icons),*];
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
                some(quote!(#krate::TaskSupport::#variant))
            }
            None => none.clone(),
        };
        let meta = self
            .meta
            .as_deref()
            .map_or_else(|| none.clone(), |text| some(cow(text)));
        quote! {
            #krate::Tool {
                name: #name,
                title: #title,
                description: #description,
                input_schema: #input_schema,
                output_schema: #output_schema,
                annotations: #annotations,
                icons: #icons,
                task_support: #task_support,
                meta: #meta,
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
            return Some(quote!(#krate::Schema::Static(#json)));
        }
        let expr = ty.to_expr(krate);
        Some(quote! {
            #krate::Schema::Lazy(#krate::__private::Lazy({
                fn output_schema() -> &'static str {
                    static SCHEMA: #krate::__private::OnceLock<::std::string::String> =
                        #krate::__private::OnceLock::new();
                    SCHEMA.get_or_init(|| #krate::__private::output_schema(#expr))
                }
                output_schema
            }))
        })
    }

    /// `Schema::Static("...")` when every property is known at compile time, else a schema
    /// that a function builds once, on first use.
    fn input_schema(&self, krate: &TokenStream) -> TokenStream {
        if let Some(json) = self.static_schema() {
            return quote!(#krate::Schema::Static(#json));
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
            #krate::Schema::Lazy(#krate::__private::Lazy({
                fn input_schema() -> &'static str {
                    static SCHEMA: #krate::__private::OnceLock<::std::string::String> =
                        #krate::__private::OnceLock::new();
                    SCHEMA.get_or_init(|| {
                        let mut properties = ::std::vec::Vec::new();
                        #(#pushes)*
                        #krate::__private::object(properties)
                    })
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
                Some(text) if !json.contains("\"description\":") => {
                    schema::with_description(&json, text)
                }
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
                CheckValue::Int(n) => quote!(#krate::__private::Bound::Int(#n)),
                CheckValue::Float(x) => quote!(#krate::__private::Bound::Float(#x)),
                CheckValue::Count(n) => quote!(#n),
                CheckValue::Text(text) => quote!(#text),
            };
            quote!(#krate::__private::Check::#variant(#value))
        })
        .collect()
}
