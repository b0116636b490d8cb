//! A hint key's value in `#[tool(...)]` (`read_only`, `destructive = false`, `open_world =
//! HOSTED`): `true` for the key alone, a `true` or `false` literal, or a `const` bool expression,
//! whose check becomes a const assertion.

use proc_macro2::{Delimiter, Ident, TokenStream, TokenTree};
use syn::Error;

use crate::leaf::errors::Errors;
use crate::leaf::tokens::single_token;
use crate::model::entry::{Value, describe_literal, describe_token};

/// One hint key as written.
pub(crate) struct StatedHint {
    pub(crate) key: Ident,
    /// Position among the attribute's entries, to point at the later of two conflicting keys.
    pub(crate) position: usize,
    pub(crate) value: HintValue,
}

pub(crate) enum HintValue {
    /// `key`, `key = true` or `key = false`.
    Bool(bool),
    /// `key = <expression>`: a `const` bool expression, checked by a const assertion.
    Expr(TokenStream),
}

/// The value of the hint key `key`: `true` for the key alone, a literal `true` or `false`, or a
/// `const` bool expression (without the parentheses around it); `None` after an error.
pub(crate) fn hint_value(key: &Ident, value: Value, errors: &mut Errors) -> Option<HintValue> {
    let tokens = match value {
        Value::Bare => return Some(HintValue::Bool(true)),
        Value::Missing(eq) => {
            errors.push(Error::new(
                eq,
                format!("expected `true`, `false` or a const bool expression after `{key} =`"),
            ));
            return None;
        }
        Value::Given(tokens) => tokens.into_iter().collect::<TokenStream>(),
    };
    let Some(only) = single_token(&tokens) else {
        if let Some(error) = missing_operator(&tokens) {
            errors.push(error);
            return None;
        }
        return Some(HintValue::Expr(tokens));
    };
    match only {
        // `open_world = (A || B)`: the parentheses are the user's grouping; generated code
        // adds its own where needed, and keeping both would trip `unused_parens`.
        TokenTree::Group(group)
            if group.delimiter() == Delimiter::Parenthesis && !group.stream().is_empty() =>
        {
            Some(HintValue::Expr(group.stream()))
        }
        TokenTree::Ident(ident) if ident == "true" => Some(HintValue::Bool(true)),
        TokenTree::Ident(ident) if ident == "false" => Some(HintValue::Bool(false)),
        // `read_only = "true"`, `read_only = 1`
        TokenTree::Literal(literal) => {
            errors.push(Error::new(
                literal.span(),
                format!(
                    "expected `true` or `false` for #[tool({key})], found {}",
                    describe_literal(&literal)
                ),
            ));
            None
        }
        _ => Some(HintValue::Expr(tokens)),
    }
}

/// Two operands with nothing between them (`read_only = true false`): an error at the second,
/// rather than what the compiler would say about the generated code around them.
fn missing_operator(tokens: &TokenStream) -> Option<Error> {
    // Words that may stand next to an operand in a `const` expression.
    const JOINING: [&str; 14] = [
        "as", "if", "else", "match", "unsafe", "const", "loop", "while", "let", "in", "mut", "ref",
        "move", "return",
    ];
    let is_joining = |token: &TokenTree| matches!(token, TokenTree::Ident(word) if JOINING.iter().any(|j| word == j));
    let is_operand = |token: &TokenTree| match token {
        TokenTree::Ident(_) => !is_joining(token),
        TokenTree::Literal(_) | TokenTree::Group(_) => true,
        TokenTree::Punct(_) => false,
    };
    let tokens: Vec<TokenTree> = tokens.clone().into_iter().collect();
    tokens.windows(2).find_map(|pair| {
        let (first, second) = (&pair[0], &pair[1]);
        let call = matches!(second, TokenTree::Group(g) if g.delimiter() != Delimiter::Brace);
        (is_operand(first) && is_operand(second) && !call && !matches!(second, TokenTree::Group(_)))
            .then(|| {
                Error::new(
                    second.span(),
                    format!(
                        "expected an operator or `,` before {}: a #[tool] hint takes one value",
                        describe_token(second)
                    ),
                )
            })
    })
}
