//! The tool descriptor's model: what a handler or a `#[derive(Tool)]` struct describes (its
//! name, description, inputs, output schema, icons, `_meta`, task support), each input with its
//! schema and the constraints its call checks; how each is read from the attribute and the
//! signature (`Descriptor::read`, `Property::read`, which leaves an input's `#[schema(...)]`
//! beside it for `check/` to hold against its type); and that `#[schema(...)]`, once checked,
//! applied to its input (`apply`).

use proc_macro2::{Ident, Span, TokenStream, TokenTree};
use syn::LitStr;

use crate::leaf::case::Case;
use crate::leaf::docs::join_docs;
use crate::leaf::errors::Errors;
use crate::leaf::integer::Integer;
use crate::leaf::json_write::json_string;
use crate::leaf::tokens::{flatten, unraw};
use crate::model::handler::Handler;
use crate::model::icons::IconSpec;
use crate::model::params::Param;
use crate::model::schema::{self, Kind, Ty};
use crate::model::schema_attr::{self, SchemaAttr};
use crate::model::tool_attr::Args;

pub(crate) struct Descriptor {
    pub(crate) name: String,
    pub(crate) description: Option<String>,
    pub(crate) properties: Vec<Property>,
    /// The schema of `T` for a handler returning `Json<T>` (or a `Result` of it).
    pub(crate) output: Option<Ty>,
    /// Whether the return type is written `Json<T>` or `Result<Json<T>, E>` (else a `Json`
    /// behind an alias is refused, as its schema cannot be listed).
    pub(crate) written_json: bool,
    /// `#[tool(icons = [...])]`.
    pub(crate) icons: Vec<IconSpec>,
    /// `#[tool(meta = "...")]`: the `_meta` object's JSON text.
    pub(crate) meta: Option<String>,
    /// `#[tool(task_support = "...")]`.
    pub(crate) task_support: Option<String>,
    /// `#[tool(toolset = ...)]`.
    pub(crate) toolsets: Vec<String>,
    /// `#[tool(scopes = [...])]`.
    pub(crate) scopes: Vec<String>,
    /// `#[tool(resolve = ...)]` or `#[tool(resolve_by = ...)]`: marked resolvable.
    pub(crate) resolvable: bool,
}

pub(crate) struct Property {
    /// The position of the parameter (or field) it is read from.
    pub(crate) param: usize,
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
    /// A check without a value (`NotNull`, `Required`).
    Unit,
    Int(Integer),
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

/// One input as read, its `#[schema(...)]` beside it and not applied yet: what the checks hold
/// against its type, before `apply` makes the input the schema lists.
pub(crate) struct ReadInput {
    /// The input as its type and name give it.
    pub(crate) property: Property,
    /// Its `#[schema(...)]` keys.
    pub(crate) attr: SchemaAttr,
    /// Whether its type is an `Option`.
    pub(crate) option: bool,
}

impl Property {
    /// The input the parameter `param` at `index`, named `ident`, gives, with its
    /// `#[schema(...)]` read but not applied yet (the checks hold it against the type first):
    /// its name (serde's, else the handler's `rename_all` of it, else its own), its schema,
    /// whether it may be left out, its description.
    pub(crate) fn read(
        index: usize,
        param: &Param,
        ident: &Ident,
        rename_all: Option<Case>,
        errors: &mut Errors,
    ) -> ReadInput {
        let (schema, option) = schema::read_param(&param.ty, errors);
        let attr = schema_attr::parse(&param.schema, errors);
        let property = Property {
            param: index,
            name: match (&param.serde_name, rename_all) {
                (Some(name), _) => name.clone(),
                (None, Some(case)) => case.rename(&unraw(ident)),
                (None, None) => unraw(ident),
            },
            schema,
            optional: option || param.serde_default,
            null: true,
            checks: Vec::new(),
            default: None,
            description: join_docs(&param.docs),
            cfgs: param.cfgs.clone(),
            span: ident.span(),
        };
        ReadInput {
            property,
            attr,
            option,
        }
    }
}

/// The input `read` from `param` with its `#[schema(...)]` (already checked against its type)
/// applied: see `apply_keys`. On a struct's field, which serde reads (and reads an `Option`
/// from `null` and from nothing alike), `nullable = false` and `required` are also checks the
/// call makes, as the schema refuses what serde would read.
pub(crate) fn apply(read: ReadInput, param: &Param) -> Property {
    let ReadInput {
        mut property,
        attr,
        option,
    } = read;
    if attr.is_empty() {
        return property;
    }
    let field_checks = [
        (attr.nullable.is_some() && option, "NotNull"),
        (attr.required.is_some() && option, "Required"),
    ];
    apply_keys(&mut property, attr, &param.ty);
    if param.field {
        for (given, check) in field_checks {
            if given {
                property.checks.push((check, CheckValue::Unit));
            }
        }
    }
    property
}

/// Applies a parameter's `#[schema(...)]` (already checked against its type): its name, its
/// description, and its schema's keys; a default makes it optional; the constraints the call
/// checks.
fn apply_keys(property: &mut Property, attr: SchemaAttr, ty: &TokenStream) {
    if let Some(rename) = &attr.rename {
        property.name = rename.value();
        property.span = rename.span();
    }
    if let Some(description) = &attr.description {
        property.description = Some(description.value());
    }
    let mut schema = std::mem::replace(&mut property.schema, Ty::Json(Vec::new()));
    if attr.nullable.is_some()
        && let Ty::Nullable(inner) = schema
    {
        schema = *inner;
        property.null = false;
    }
    if attr.required.is_some() {
        // Listed in `required`; `null` still reads as `None`.
        property.optional = false;
    }
    let mut keys: Vec<(&'static str, String)> = Vec::new();
    if let Some(title) = &attr.title {
        keys.push(("title", json_string(&title.value())));
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
        keys.push(("format", json_string(&format.value())));
    }
    if let Some(pattern) = &attr.pattern {
        keys.push(("pattern", json_string(&pattern.value())));
        property
            .checks
            .push(("Pattern", CheckValue::Text(pattern.value())));
    }
    if let Some((_, examples)) = &attr.examples {
        let items: Vec<String> = examples.iter().map(|(item, _)| item.json()).collect();
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
        property.null = matches!(schema.kind(), Kind::Any);
        match &default.literal {
            Some(literal) => keys.push(("default", literal.json())),
            None => {
                runtime_default =
                    Some((default.expr.clone(), schema::static_lifetimes(ty.clone())));
            }
        }
        let known = !matches!(schema.kind(), Kind::Unknown);
        let scalar = matches!(
            default.literal,
            Some(schema_attr::Literal::Number(_) | schema_attr::Literal::Bool(_))
        );
        property.default = Some(match &default.literal {
            Some(literal) if known => {
                let any = matches!(schema.kind(), Kind::Any);
                // An integer literal for a float type is that float, as a bound is: listed as
                // written, handed over as the float.
                let expr = match (literal, schema.kind()) {
                    (schema_attr::Literal::Number(number), Kind::Number(..)) => {
                        number.float_tokens()
                    }
                    _ => default.expr,
                };
                DefaultRead::Json(literal.json(), (!any).then_some((expr, scalar)))
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
pub(crate) fn json_output(output: &TokenStream) -> Option<TokenStream> {
    let json_inner = |tokens: &[TokenTree]| {
        let (segments, args) = schema::path(tokens)?;
        match (segments.last()?.to_string().as_str(), args.as_slice()) {
            ("Json", [inner]) => Some(inner.iter().cloned().collect()),
            _ => None,
        }
    };
    let tokens = flatten(output.clone());
    json_inner(&tokens).or_else(|| {
        let (segments, args) = schema::path(&tokens)?;
        match (segments.last()?.to_string().as_str(), args.first()) {
            ("Result", Some(ok)) => json_inner(ok),
            _ => None,
        }
    })
}

impl Descriptor {
    /// The descriptor `args` and `source` state, with its `properties` (each read with
    /// `Property::read`, checked, then applied): the name (`name = "..."` or the function's),
    /// the description (`description = "..."` or the doc comment), the output schema of a
    /// `Json<T>` return type, and the keys the attribute gives as written.
    pub(crate) fn read(
        args: &Args,
        source: &Source<'_>,
        properties: Vec<Property>,
        errors: &mut Errors,
    ) -> Self {
        let json = source.output.and_then(json_output);
        Descriptor {
            name: args
                .name
                .as_ref()
                .map_or_else(|| source.default_name.clone(), LitStr::value),
            description: match &args.description {
                Some(description) => Some(description.value()),
                None => join_docs(source.docs),
            },
            properties,
            written_json: json.is_some(),
            output: json.map(|ty| schema::read_param(&ty, errors).0),
            icons: args.icons.clone(),
            meta: args.meta.as_ref().map(LitStr::value),
            task_support: args.task_support.as_ref().map(LitStr::value),
            toolsets: args.toolsets.iter().map(LitStr::value).collect(),
            scopes: args.scopes.iter().map(LitStr::value).collect(),
            resolvable: args.resolution.is_some(),
        }
    }

    /// The input read from the parameter at `index` (its name, schema, whether it may be left
    /// out, ...); `None` for a parameter the model does not supply.
    pub(crate) fn input(&self, index: usize) -> Option<&Property> {
        self.properties
            .iter()
            .find(|property| property.param == index)
    }

    /// Whether the signature writes a `Json<T>` result (see `written_json`).
    pub(crate) fn writes_json(&self) -> bool {
        self.written_json
    }

    /// The tool's name.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }
}
