//! The secrets a command line gives (each `--header` value and its last word, the token of
//! `Bearer TOKEN`; an `--http` URL's password and query values): kept once, as the command
//! line is read, and redacted from whatever a server says wherever it goes (its answers, its
//! stderr's last lines in an error or a report, the `--server-log` file).
//!
//! A secret is found as the reader would see it: in the text, or in the text without its
//! control and zero-width characters (which the report's writers drop, joining what they
//! split). One a server splits across two strings, or writes in another encoding, is not
//! found: a server that holds a token can always say it another way.

use std::sync::Mutex;

/// Every secret kept, longest first (a token may hold a shorter one).
static SECRETS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// What is too short to be a secret: redacting it would garble every text.
const SHORTEST: usize = 4;

/// Keeps `secrets` for [`redact`].
pub fn keep(secrets: impl IntoIterator<Item = String>) {
    if let Ok(mut kept) = SECRETS.lock() {
        kept.extend(
            secrets
                .into_iter()
                .filter(|secret| secret.len() >= SHORTEST),
        );
        kept.sort_by_key(|secret| std::cmp::Reverse(secret.len()));
        kept.dedup();
    }
}

/// The secrets of a Streamable HTTP endpoint's `url` (where it reads as one: a probe's holds
/// `{port}` until the server is started) and `headers`, longest first.
pub fn of(url: Option<&reqwest::Url>, headers: &[(String, String)]) -> Vec<String> {
    let mut secrets = Vec::new();
    for (_, value) in headers {
        secrets.push(value.clone());
        if let Some((_, token)) = value.rsplit_once(' ') {
            secrets.push(token.to_owned());
        }
    }
    if let Some(url) = url {
        secrets.extend(url.password().map(str::to_owned));
        secrets.extend(url.query_pairs().map(|(_, value)| value.into_owned()));
    }
    secrets.retain(|secret| secret.len() >= SHORTEST);
    // Longest first: a token may hold a shorter one.
    secrets.sort_by_key(|secret| std::cmp::Reverse(secret.len()));
    secrets
}

/// `text` with every secret kept replaced by `[redacted]`.
pub fn redact(text: &str) -> String {
    let Ok(secrets) = SECRETS.lock() else {
        return text.to_owned();
    };
    redact_with(text, &secrets)
}

/// `text` with each of `secrets` replaced, found in the text as it is or as it shows.
pub fn redact_with(text: &str, secrets: &[String]) -> String {
    if secrets.is_empty() {
        return text.to_owned();
    }
    let replaced = |text: &str| {
        let mut text = text.to_owned();
        for secret in secrets {
            if text.contains(secret.as_str()) {
                text = text.replace(secret.as_str(), "[redacted]");
            }
        }
        text
    };
    let text = replaced(text);
    let shown: String = text.chars().filter(|&c| !hidden(c)).collect();
    if secrets.iter().any(|secret| shown.contains(secret.as_str())) {
        replaced(&shown)
    } else {
        text
    }
}

/// Whether a character shows as nothing: a control character, or a zero-width one.
fn hidden(c: char) -> bool {
    c.is_control() && !matches!(c, '\n' | '\t')
        || matches!(c, '\u{200b}'..='\u{200f}' | '\u{2060}'..='\u{2064}' | '\u{feff}' | '\u{ad}')
}

#[cfg(test)]
mod tests {
    use super::redact_with;

    #[test]
    fn a_secret_is_found_as_it_shows() {
        let secrets = ["s3cretTOKEN1234".to_owned()];
        assert_eq!(
            redact_with("title s3cretTOKEN1234", &secrets),
            "title [redacted]"
        );
        // A BEL or a zero-width space inside it, which a table drops or a terminal hides.
        for split in ["s3cretT\u{7}OKEN1234", "s3cret\u{200b}TOKEN1234"] {
            let shown = redact_with(&format!("title {split}"), &secrets);
            assert!(
                !shown
                    .replace(['\u{7}', '\u{200b}'], "")
                    .contains("s3cretTOKEN1234"),
                "{shown}"
            );
        }
        assert_eq!(redact_with("nothing here", &secrets), "nothing here");
    }
}
