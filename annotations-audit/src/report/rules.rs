//! Every rule and verdict's stable identifier and its page: what it means, how to fix the
//! server, how to ignore it. The pages are `docs/rules.md`, one `## id` section each, printed
//! by `annotations-audit explain ID` and carried as each SARIF rule's help.

/// The pages, as the package ships them.
const PAGES: &str = include_str!("../../docs/rules.md");

/// Where the pages are published: the package's source on docs.rs, SARIF's `helpUri`.
pub const HELP_URI: &str =
    "https://docs.rs/crate/mcp-annotations-audit/latest/source/docs/rules.md";

/// What the page of every rule says of ignoring it, after its own text.
const HOW_TO_IGNORE: &str = "To ignore it, with a reason, in `.annotations-audit.toml` (or the \
    file --config names):\n\n    [[ignore]]\n    tool = \"NAME\"    # optional: every tool when \
    left out\n    rule = \"ID\"\n    reason = \"why this does not apply\"";

/// Each identifier with its page's text (without its heading), in the pages' order.
pub fn pages() -> impl Iterator<Item = (&'static str, &'static str)> {
    PAGES.split("\n## ").skip(1).map(|section| {
        let (id, text) = section.split_once('\n').unwrap_or((section, ""));
        (id.trim(), text.trim())
    })
}

/// The page of `id`, if it has one.
pub fn page(id: &str) -> Option<&'static str> {
    pages()
        .find(|(known, _)| *known == id)
        .map(|(_, text)| text)
}

/// Whether `id` is a verdict's (a page that is no rule, and so nothing to ignore).
fn is_verdict(text: &str) -> bool {
    text.starts_with("**Verdict.**")
}

/// Whether `id` names a rule a finding or a result can be of (what `[[ignore]]` may name).
pub fn is_rule(id: &str) -> bool {
    page(id).is_some_and(|text| !is_verdict(text))
}

/// The rules whose findings fail nothing and are not marked: an `[[ignore]]` entry naming one
/// could match nothing, and is refused.
const FAILS_NOTHING: [&str; 1] = ["server-problem"];

/// Whether an `[[ignore]]` entry may name the rule `id`.
pub fn can_be_ignored(id: &str) -> bool {
    is_rule(id) && !FAILS_NOTHING.contains(&id)
}

/// `explain ID`: the page of `id`, with how to ignore it where it is a rule; without an id,
/// every identifier with the first line of its page. An unknown id is refused with the known
/// ones.
pub fn explain(id: Option<&str>) -> Result<String, String> {
    let Some(id) = id else {
        let mut text = String::from("The rules and verdicts (annotations-audit explain ID):\n");
        for (id, page) in pages() {
            let first = page.split("**").nth(1).unwrap_or_default();
            text.push_str(&format!("  {id:<28} {first}\n"));
        }
        return Ok(text);
    };
    let Some(page) = page(id) else {
        let known: Vec<&str> = pages().map(|(id, _)| id).collect();
        return Err(format!(
            "no rule or verdict is called `{id}`; the known ones: {}",
            known.join(", ")
        ));
    };
    let mut text = format!("{id}\n\n{page}\n");
    if can_be_ignored(id) {
        text.push('\n');
        text.push_str(&HOW_TO_IGNORE.replace("ID", id));
        text.push('\n');
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_page_has_an_id_of_its_own_and_text() {
        let ids: Vec<&str> = pages().map(|(id, _)| id).collect();
        assert!(ids.len() > 20, "{ids:?}");
        for (at, (id, text)) in pages().enumerate() {
            assert!(!ids[at + 1..].contains(&id), "`{id}` twice");
            assert!(
                id.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
                "`{id}` is kebab case"
            );
            assert!(text.starts_with("**") && text.len() > 60, "`{id}`: {text}");
        }
        assert!(is_rule("unset-hint") && !is_rule("verified") && !is_rule("nothing"));
    }

    #[test]
    fn an_unknown_id_is_refused_with_the_known_ones() {
        let error = explain(Some("read-only")).unwrap_err();
        assert!(error.contains("read-only-hint"), "{error}");
        let page = explain(Some("read-only-hint")).unwrap();
        assert!(page.contains("rule = \"read-only-hint\""), "{page}");
        assert!(!explain(Some("violated")).unwrap().contains("[[ignore]]"));
    }
}
