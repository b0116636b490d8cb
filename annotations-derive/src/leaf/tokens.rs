//! Token helpers every stage uses: reading through invisible groups, spotting punctuation,
//! identifiers and groups, following `<...>` nesting, splitting at top-level commas, an
//! identifier without its `r#`, and where an expression starts. A leaf: it imports nothing of
//! the crate, so every import points down to it.

use proc_macro2::{Delimiter, Ident, Span, TokenStream, TokenTree};

/// Splices the contents of invisible groups (what `macro_rules!` wraps `$t:ty` in) into the
/// stream, so the tokens read the same from a macro as from source.
pub(crate) fn flatten(stream: TokenStream) -> Vec<TokenTree> {
    let mut out = Vec::new();
    for token in stream {
        match token {
            TokenTree::Group(group) if group.delimiter() == Delimiter::None => {
                out.extend(flatten(group.stream()));
            }
            other => out.push(other),
        }
    }
    out
}

/// Whether `token` is the punctuation `ch`.
pub(crate) fn punct(token: Option<&TokenTree>, ch: char) -> bool {
    matches!(token, Some(TokenTree::Punct(p)) if p.as_char() == ch)
}

/// Whether `token` is the identifier `word`.
pub(crate) fn ident(token: Option<&TokenTree>, word: &str) -> bool {
    matches!(token, Some(TokenTree::Ident(i)) if i == word)
}

/// Whether `token` is a group in `delimiter`s.
pub(crate) fn group(token: Option<&TokenTree>, delimiter: Delimiter) -> bool {
    matches!(token, Some(TokenTree::Group(g)) if g.delimiter() == delimiter)
}

/// The identifier's name without `r#`.
pub(crate) fn unraw(ident: &Ident) -> String {
    let name = ident.to_string();
    name.strip_prefix("r#").map(str::to_owned).unwrap_or(name)
}

/// How deep a scan of tokens is inside `<...>`. Brackets of other kinds are groups already;
/// angle brackets are single punctuation, and the `>` of `->` closes nothing.
#[derive(Default)]
pub(crate) struct Angles {
    depth: usize,
    after_dash: bool,
}

/// What a token did to the nesting.
#[derive(PartialEq, Eq)]
pub(crate) enum Step {
    Opened,
    Closed,
    Other,
}

impl Angles {
    /// A scan that starts just after an opening `<`.
    pub(crate) fn inside() -> Self {
        Angles {
            depth: 1,
            after_dash: false,
        }
    }

    /// Feeds the next token.
    pub(crate) fn step(&mut self, token: &TokenTree) -> Step {
        let step = match token {
            TokenTree::Punct(p) if p.as_char() == '<' => {
                self.depth += 1;
                Step::Opened
            }
            TokenTree::Punct(p) if p.as_char() == '>' && !self.after_dash => {
                self.depth = self.depth.saturating_sub(1);
                Step::Closed
            }
            _ => Step::Other,
        };
        self.after_dash = punct(Some(token), '-');
        step
    }

    /// How many `<` are open.
    pub(crate) fn depth(&self) -> usize {
        self.depth
    }
}

/// Splits `tokens` at the commas outside any `<...>`. Each piece keeps the comma that ended
/// it, if any.
pub(crate) fn split_top_level(tokens: TokenStream) -> Vec<(Vec<TokenTree>, Option<TokenTree>)> {
    let mut pieces = Vec::new();
    let mut current = Vec::new();
    let mut angles = Angles::default();
    for token in tokens {
        if angles.step(&token) == Step::Other && angles.depth() == 0 && punct(Some(&token), ',') {
            pieces.push((std::mem::take(&mut current), Some(token)));
            continue;
        }
        current.push(token);
    }
    if !current.is_empty() {
        pieces.push((current, None));
    }
    pieces
}

/// The span of an expression's first token.
pub(crate) fn expr_span(expr: &TokenStream) -> Span {
    expr.clone()
        .into_iter()
        .next()
        .map_or_else(Span::call_site, |token| token.span())
}

/// The value's token when it is exactly one.
pub(crate) fn single_token(tokens: &TokenStream) -> Option<TokenTree> {
    let mut iter = tokens.clone().into_iter();
    match (iter.next(), iter.next()) {
        (Some(only), None) => Some(only),
        _ => None,
    }
}

/// `tokens` with every token at `span`: rustc points an error at a whole path when all of it
/// comes from one place.
pub(crate) fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut token| {
            token.set_span(span);
            token
        })
        .collect()
}
