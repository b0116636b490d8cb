//! `#[tool(icons = [...])]`: each icon a URI (`"https://..."`) or `{ src = "...", mime_type =
//! "image/png", sizes = ["48x48"], theme = "dark" }`, checked against the protocol's rules for
//! an `Icon` while compiling, each mistake at its token.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use syn::{Error, Lit, LitStr};

use crate::leaf::errors::Errors;
use crate::leaf::icon_rule::{mime_ok, size_ok};
use crate::leaf::tokens::{flatten, split_top_level};
use crate::model::entry::{self, Entry, Value};

/// One icon as written, checked.
#[derive(Clone)]
pub(crate) struct IconSpec {
    pub(crate) src: String,
    pub(crate) mime_type: Option<String>,
    pub(crate) sizes: Vec<String>,
    pub(crate) theme: Option<String>,
}

const KEYS: [&str; 4] = ["src", "mime_type", "sizes", "theme"];

/// Reads the value of `icons = ...`: a bracketed list of icons.
pub(crate) fn read(value: TokenStream, at: Span, errors: &mut Errors) -> Vec<IconSpec> {
    let tokens = flatten(value);
    let list = match tokens.as_slice() {
        [TokenTree::Group(list)] if list.delimiter() == Delimiter::Bracket => list.stream(),
        _ => {
            errors.push(Error::new(
                tokens.first().map_or(at, TokenTree::span),
                "#[tool(icons)] takes a list: `icons = [\"https://...\", { src = \"...\", \
                 sizes = [\"48x48\"] }]`",
            ));
            return Vec::new();
        }
    };
    let mut icons = Vec::new();
    for (item, _) in split_top_level(list) {
        match item.as_slice() {
            [] => {}
            [TokenTree::Literal(_)] => {
                if let Some(src) = string(&item[0], "an icon's URI", errors)
                    && check_src(&src, errors)
                {
                    icons.push(IconSpec {
                        src: src.value(),
                        mime_type: None,
                        sizes: Vec::new(),
                        theme: None,
                    });
                }
            }
            [TokenTree::Group(fields)] if fields.delimiter() == Delimiter::Brace => {
                if let Some(icon) = fields_of(fields.stream(), fields.span(), errors) {
                    icons.push(icon);
                }
            }
            [first, ..] => errors.push(Error::new(
                first.span(),
                "expected an icon: a URI in quotes, or `{ src = \"...\", ... }`",
            )),
        }
    }
    if icons.is_empty() && errors.is_empty() {
        errors.push(Error::new(
            at,
            "#[tool(icons)] is empty: list at least one icon, or leave `icons` out",
        ));
    }
    icons
}

fn string(token: &TokenTree, what: &str, errors: &mut Errors) -> Option<LitStr> {
    if let TokenTree::Literal(literal) = token
        && let Lit::Str(text) = Lit::new(literal.clone())
    {
        return Some(text);
    }
    errors.push(Error::new(
        token.span(),
        format!("expected {what} in double quotes"),
    ));
    None
}

/// The protocol's rule: an HTTP(S) URL or a `data:` URI (schemes in any case, as URIs take
/// them); a `data:` URI of an image (`data:image/png;base64,...`).
fn check_src(src: &LitStr, errors: &mut Errors) -> bool {
    let text = src.value();
    let lower = text.to_ascii_lowercase();
    let web = ["https://", "http://"]
        .iter()
        .any(|scheme| lower.len() > scheme.len() && lower.starts_with(scheme));
    let data = lower.strip_prefix("data:").map(|rest| {
        rest.split_once(',')
            .is_some_and(|(media, _)| media.starts_with("image/") && media.len() > 6)
    });
    let message = if text.chars().any(char::is_whitespace) {
        Some("an icon's `src` has no spaces")
    } else if data == Some(false) {
        Some("an icon's `data:` URI holds an image: `data:image/png;base64,...`")
    } else if !web && data.is_none() {
        Some("an icon's `src` is an `https://` (or `http://`) URL or a `data:` URI")
    } else {
        None
    };
    if let Some(message) = message {
        errors.push(Error::new(src.span(), message));
    }
    message.is_none()
}

fn fields_of(stream: TokenStream, span: Span, errors: &mut Errors) -> Option<IconSpec> {
    let mut src = None;
    let mut mime_type = None;
    let mut sizes = None;
    let mut theme = None;
    let before = errors.len();
    let mut seen = std::collections::HashSet::new();
    for entry in entry::split(stream) {
        let read = Entry::read(&entry).and_then(|Entry { key, value }| match value {
            Ok(Value::Given(value)) => Some((key, value.into_iter().next())),
            Ok(Value::Missing(_)) => Some((key, None)),
            Ok(Value::Bare) | Err(_) => None,
        });
        let Some((key, value)) = read else {
            errors.push(Error::new(
                entry[0].span(),
                "expected `key = value` in an icon: `src`, `mime_type`, `sizes` or `theme`",
            ));
            continue;
        };
        let name = key.to_string();
        let known = entry::known_key(&key, "icon", &KEYS, &mut seen, |name| {
            format!("duplicate icon key `{name}`")
        });
        if let Err(error) = known {
            errors.push(error);
            continue;
        }
        let Some(value) = &value else {
            errors.push(Error::new(
                key.span(),
                format!("expected a value after `{name} =`"),
            ));
            continue;
        };
        match name.as_str() {
            "src" => {
                if let Some(text) = string(value, "the icon's URI", errors)
                    && check_src(&text, errors)
                {
                    src = Some(text.value());
                }
            }
            "mime_type" => {
                if let Some(text) = string(value, "a MIME type", errors) {
                    let mime = text.value();
                    if mime_ok(&mime) {
                        mime_type = Some(mime);
                    } else {
                        errors.push(Error::new(
                            text.span(),
                            "an icon's `mime_type` is an image type such as \"image/png\" or \
                             \"image/svg+xml\"",
                        ));
                    }
                }
            }
            "sizes" => sizes = Some(sizes_of(value, errors)),
            _ => {
                if let Some(text) = string(value, "`\"light\"` or `\"dark\"`", errors) {
                    match text.value().as_str() {
                        "light" | "dark" => theme = Some(text.value()),
                        _ => errors.push(Error::new(
                            text.span(),
                            "an icon's `theme` is \"light\" or \"dark\"",
                        )),
                    }
                }
            }
        }
    }
    if src.is_none() && errors.len() == before && !seen.contains("src") {
        errors.push(Error::new(span, "an icon needs `src = \"...\"`, its URI"));
    }
    Some(IconSpec {
        src: src?,
        mime_type,
        sizes: sizes.unwrap_or_default(),
        theme,
    })
}

/// `["48x48", "any"]`: each `WxH` in pixels or `any`.
fn sizes_of(value: &TokenTree, errors: &mut Errors) -> Vec<String> {
    let TokenTree::Group(list) = value else {
        errors.push(Error::new(
            value.span(),
            "expected a list of sizes: `sizes = [\"48x48\"]`",
        ));
        return Vec::new();
    };
    if list.delimiter() != Delimiter::Bracket {
        errors.push(Error::new(
            list.span(),
            "expected a list of sizes: `sizes = [\"48x48\"]`",
        ));
        return Vec::new();
    }
    let mut sizes: Vec<String> = Vec::new();
    let pieces = split_top_level(list.stream());
    if pieces.iter().all(|(item, _)| item.is_empty()) {
        errors.push(Error::new(
            list.span(),
            "an icon's `sizes` is empty: list at least one, or leave `sizes` out",
        ));
    }
    for (item, _) in pieces {
        let Some(first) = item.first() else { continue };
        let Some(text) = string(first, "a size such as \"48x48\"", errors) else {
            continue;
        };
        let size = text.value();
        let ok = size_ok(&size);
        if ok && sizes.contains(&size) {
            errors.push(Error::new(
                text.span(),
                format!("the size \"{size}\" is listed twice"),
            ));
        } else if ok {
            sizes.push(size);
        } else {
            errors.push(Error::new(
                text.span(),
                "an icon's size is `WxH` in pixels (\"48x48\") or \"any\"",
            ));
        }
    }
    sizes
}
