//! What text lost, line by line: the lines of the old text the new one no longer holds (as
//! multisets), but for a line written again with only its time stamp moved to now (a build
//! stamp, an `updated:` line a server regenerates with the file), or, in a change that added a
//! file, with only its counts grown by one (a summary regenerated from what the server holds),
//! which loses nothing; and
//! what a git index lost, by the paths it stages: an entry staged again with new contents
//! loses nothing of its own (what the file lost, its own lines say, and the old contents stay
//! in the repository's objects), a path no longer staged does.

use std::collections::BTreeMap;
use std::time::{SystemTime, UNIX_EPOCH};

/// The lines of `was` that `is` does not hold (as multisets), and the lines `is` gained, each
/// with its place: its index from the start and from the end of its text.
fn differing<'t>(was: &'t str, is: &'t str) -> (Vec<Placed<'t>>, Vec<Placed<'t>>) {
    let placed = |text: &'t str| -> Vec<Placed<'t>> {
        let lines: Vec<&str> = text.lines().collect();
        let count = lines.len();
        lines
            .into_iter()
            .enumerate()
            .map(|(at, line)| (line, at, count - 1 - at))
            .collect()
    };
    let (was, is) = (placed(was), placed(is));
    // Each line of one text not matched by an equal line of the other (as multisets): the
    // unmatched occurrences, the last ones of each line.
    let unmatched = |these: &[Placed<'t>], those: &[Placed<'t>]| -> Vec<Placed<'t>> {
        let mut available: BTreeMap<&str, i64> = BTreeMap::new();
        for (line, _, _) in those {
            *available.entry(line).or_default() += 1;
        }
        let mut out = Vec::new();
        for &(line, from_start, from_end) in these {
            let count = available.entry(line).or_default();
            *count -= 1;
            if *count < 0 {
                out.push((line, from_start, from_end));
            }
        }
        out
    };
    (unmatched(&was, &is), unmatched(&is, &was))
}

/// A line, its index from the start of its text and from its end.
type Placed<'t> = (&'t str, usize, usize);

/// Whether `is` holds every line of `was` (as multisets), each as it was.
pub(super) fn kept(was: &str, is: &str) -> bool {
    differing(was, is).0.is_empty()
}

/// The first line of `was` that `is` lost, cut to 60 characters; `None` when it lost none. A
/// lost line is matched with a new line in its place (as many lines from the start, or from
/// the end, of its text) that is the same but for a date-time moved to within a day of now,
/// or, where the same change `added` a file, but for counts each grown by one (`Notes: 4` to
/// `Notes: 5`, `2/5 done` to `2/6 done`: a summary the server regenerates from what it holds):
/// a line rewritten in place, never one removed while another was added elsewhere.
pub(super) fn line_lost(was: &str, is: &str, added: bool) -> Option<String> {
    let (lost, mut gained) = differing(was, is);
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |since| since.as_secs_f64());
    for (line, from_start, from_end) in lost {
        let in_place = gained.iter().position(|(new, start, end)| {
            (*start == from_start || *end == from_end)
                && (restamped(line, new, now) || (added && recounted(line, new)))
        });
        match in_place {
            Some(at) => {
                gained.swap_remove(at);
            }
            None => return Some(line.chars().take(60).collect()),
        }
    }
    None
}

/// The first entry of the git index `was` (its entries, one `mode id path` line each) whose
/// path `is` no longer stages.
pub(super) fn index_path_lost(was: &str, is: &str) -> Option<String> {
    let path = |line: &str| -> String { line.splitn(3, ' ').nth(2).unwrap_or(line).to_owned() };
    let staged: std::collections::BTreeSet<String> = is.lines().map(path).collect();
    was.lines()
        .find(|line| !staged.contains(&path(line)))
        .map(|line| line.chars().take(60).collect())
}

/// Whether `new` is `old` with its date-time (`2026-12-07T01:02:03Z`, `2026-12-07 01:02`)
/// moved to within a day of `now` (seconds since the epoch), all else the same.
fn restamped(old: &str, new: &str, now: f64) -> bool {
    let (Some((old_at, old_len)), Some((new_at, new_len))) = (date_time(old), date_time(new))
    else {
        return false;
    };
    old[..old_at] == new[..new_at]
        && old[old_at + old_len..] == new[new_at + new_len..]
        && written_time(&new[new_at..new_at + new_len])
            .is_some_and(|at| (at - now).abs() <= 86_400.0)
}

/// Whether `new` is `old` with one or more of its counts grown by one, all else the same (no
/// other character, no number added or removed). A count is a whole number of at least one,
/// standing on its own: no letter, digit, `.`, `,`, `:` or `-` beside it, so that a date, a
/// time, a version, a decimal or an id (`user42`) is never one; `/` may stand beside it
/// (`2/5 done`).
fn recounted(old: &str, new: &str) -> bool {
    // The line as runs of digits and runs of anything else (an ASCII digit is one byte, so
    // each cut falls between characters).
    fn runs(line: &str) -> Vec<(bool, &str)> {
        let bytes = line.as_bytes();
        let mut runs = Vec::new();
        let mut start = 0;
        for at in 1..=bytes.len() {
            if at == bytes.len() || bytes[at].is_ascii_digit() != bytes[start].is_ascii_digit() {
                runs.push((bytes[start].is_ascii_digit(), &line[start..at]));
                start = at;
            }
        }
        runs
    }
    // Whether the text beside a number lets it stand on its own.
    let apart = |c: Option<char>| {
        c.is_none_or(|c| !(c.is_alphanumeric() || matches!(c, '.' | ',' | ':' | '-' | '_')))
    };
    let (old, new) = (runs(old), runs(new));
    if old.len() != new.len() {
        return false;
    }
    let mut moved = false;
    for (at, ((old_digit, was), (new_digit, is))) in old.iter().zip(&new).enumerate() {
        if old_digit != new_digit {
            return false;
        }
        if was == is {
            continue;
        }
        let (Ok(a), Ok(b)) = (was.parse::<u64>(), is.parse::<u64>()) else {
            return false;
        };
        let before = at
            .checked_sub(1)
            .and_then(|at| old[at].1.chars().next_back());
        let after = old.get(at + 1).and_then(|(_, text)| text.chars().next());
        if !*old_digit || a == 0 || b != a + 1 || !apart(before) || !apart(after) {
            return false;
        }
        moved = true;
    }
    moved
}

/// Where the first date-time of `line` starts, and how long it is: `YYYY-MM-DD`, `T` or a
/// space, `HH:MM`, then maybe `:SS`, a fraction and `Z` or an offset.
fn date_time(line: &str) -> Option<(usize, usize)> {
    let bytes = line.as_bytes();
    let digits = |at: usize, n: usize| {
        bytes
            .get(at..at + n)
            .is_some_and(|part| part.iter().all(u8::is_ascii_digit))
    };
    let is = |at: usize, c: u8| bytes.get(at) == Some(&c);
    (0..bytes.len()).find_map(|start| {
        let whole = digits(start, 4)
            && is(start + 4, b'-')
            && digits(start + 5, 2)
            && is(start + 7, b'-')
            && digits(start + 8, 2)
            && (is(start + 10, b'T') || is(start + 10, b' '))
            && digits(start + 11, 2)
            && is(start + 13, b':')
            && digits(start + 14, 2);
        if !whole || (start > 0 && bytes[start - 1].is_ascii_digit()) {
            return None;
        }
        let mut end = start + 16;
        if is(end, b':') && digits(end + 1, 2) {
            end += 3;
            if is(end, b'.') {
                end += 1;
                while digits(end, 1) {
                    end += 1;
                }
            }
        }
        if is(end, b'Z') {
            end += 1;
        } else if (is(end, b'+') || is(end, b'-')) && digits(end + 1, 2) {
            end += 3;
            if is(end, b':') {
                end += 1;
            }
            if digits(end, 2) {
                end += 2;
            }
        }
        Some((start, end - start))
    })
}

/// The seconds since the epoch of a date and time written out (`2026-12-06T21:40:00`,
/// `2026-12-06 21:40:00.123Z`), to the minute, read as UTC (an offset is left out: a day's
/// leeway covers it); `None` for any other text.
///
/// ```
/// use mcp_annotations_verify::judge::written_time;
///
/// assert_eq!(written_time("1970-01-02T00:00"), Some(86_400.0));
/// assert_eq!(written_time("red"), None);
/// ```
pub fn written_time(text: &str) -> Option<f64> {
    let bytes = text.as_bytes();
    if bytes.len() < 16 || !matches!(bytes[10], b'T' | b' ') {
        return None;
    }
    let number = |range: std::ops::Range<usize>| -> Option<i64> {
        let part = text.get(range)?;
        part.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| part.parse().ok())?
    };
    let (year, month, day) = (number(0..4)?, number(5..7)?, number(8..10)?);
    let (hour, minute) = (number(11..13)?, number(14..16)?);
    if bytes[4] != b'-' || bytes[7] != b'-' || bytes[13] != b':' || !(1..=12).contains(&month) {
        return None;
    }
    // Days from the civil date (Howard Hinnant's algorithm).
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let year_of_era = y - era * 400;
    let month_index = (month + 9) % 12;
    let day_of_year = (153 * month_index + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    let days = era * 146_097 + day_of_era - 719_468;
    #[allow(clippy::cast_precision_loss)]
    Some((days * 86_400 + hour * 3_600 + minute * 60) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_restamped_with_now_loses_nothing_and_any_other_rewrite_does() {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_secs();
        assert_eq!(written_time("1970-01-02T00:00"), Some(86_400.0));
        assert_eq!(written_time("2000-03-01 12:30"), Some(951_913_800.0));
        let stamp = |at: u64| {
            let days = at / 86_400;
            // Back to a civil date, for the test's own stamps.
            let (mut year, mut left) = (1970, days);
            loop {
                let length = if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 {
                    366
                } else {
                    365
                };
                if left < length {
                    break;
                }
                left -= length;
                year += 1;
            }
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
            let months = [
                31,
                if leap { 29 } else { 28 },
                31,
                30,
                31,
                30,
                31,
                31,
                30,
                31,
                30,
                31,
            ];
            let mut month = 0;
            while left >= months[month] {
                left -= months[month];
                month += 1;
            }
            let time = at % 86_400;
            format!(
                "{year:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
                month + 1,
                left + 1,
                time / 3_600,
                time % 3_600 / 60,
                time % 60
            )
        };
        let old = format!("<!-- build:{} -->", stamp(now - 30 * 86_400));
        let new = format!("<!-- build:{} -->", stamp(now));
        #[allow(clippy::cast_precision_loss)]
        let minute = (now - now % 60) as f64;
        assert_eq!(written_time(&stamp(now)[..]), Some(minute));
        let was = format!("<html>\n{old}\n<p>tea</p>\n");
        // Restamped now: nothing lost.
        assert_eq!(
            line_lost(&was, &format!("<html>\n{new}\n<p>tea</p>\n"), false),
            None
        );
        // Restamped, and a line of content gone: that line lost.
        assert_eq!(
            line_lost(&was, &format!("<html>\n{new}\n"), false).as_deref(),
            Some("<p>tea</p>")
        );
        // A time moved to another than now (a meeting moved) is a loss.
        let moved = format!("<!-- build:{} -->", stamp(now + 10 * 86_400));
        assert!(line_lost(&was, &format!("<html>\n{moved}\n<p>tea</p>\n"), false).is_some());
        // The same stamp with other words around it is a loss.
        let reworded = format!("<!-- built:{} -->", stamp(now));
        assert!(line_lost(&was, &format!("<html>\n{reworded}\n<p>tea</p>\n"), false).is_some());
        // A number that is no time is never masked.
        assert!(line_lost("qty: 3\n", "qty: 5\n", true).is_some());
        // A ring of the last lines: the oldest dropped and a new one appended with now's time
        // is a loss, not a line restamped in place.
        let ring = format!("{old} boot\nb\nc\n");
        assert!(line_lost(&ring, &format!("b\nc\n{new} boot\n"), false).is_some());
    }

    /// A summary line the server regenerates (a count grown by one, where the same change
    /// added a file) loses nothing; a number moved otherwise, or with no file added, a date,
    /// a version or an id, or a line that changed more than its counts, does.
    #[test]
    fn a_count_moved_by_one_with_a_file_added_loses_nothing() {
        let was = "# Notes\nNotes: 4 (2/4 pinned)\n- milk\n";
        let is = "# Notes\nNotes: 5 (2/5 pinned)\n- milk\n- eggs\n";
        assert_eq!(line_lost(was, is, true), None);
        // The same rewrite where no file was added: the line's old value is lost.
        assert!(line_lost(was, is, false).is_some());
        // A value set, not counted (moved by more than one, or down, or from nothing).
        assert!(line_lost("level: 3\n", "level: 7\n", true).is_some());
        assert!(line_lost("level: 3\n", "level: 2\n", true).is_some());
        assert!(line_lost("enabled: 0\n", "enabled: 1\n", true).is_some());
        // A date, a time, a version, a decimal or an id is no count.
        for (was, is) in [
            ("due: 2026-12-07\n", "due: 2026-12-08\n"),
            ("at 10:30\n", "at 10:31\n"),
            ("version 1.2.3\n", "version 1.2.4\n"),
            ("price: 1.98\n", "price: 1.99\n"),
            ("owner: user42\n", "owner: user43\n"),
        ] {
            assert!(line_lost(was, is, true).is_some(), "{was}");
        }
        // Words changed beside the count.
        assert!(line_lost("Notes: 4\n", "Items: 5\n", true).is_some());
        // A number removed or added, not moved.
        assert!(line_lost("Notes: 4\n", "Notes: 45\n", true).is_some());
        assert!(line_lost("Notes: 4\n", "Notes: 4 5\n", true).is_some());
        // A line gone while a count line elsewhere moved: the line gone is lost.
        assert!(line_lost("Notes: 4\n- milk\n", "- tea\nNotes: 5\n", true).is_some());
    }

    #[test]
    fn an_index_entry_staged_again_loses_nothing_and_an_unstaged_path_does() {
        let was = "100644 aaaa notes/a.md\n100644 bbbb notes/b.md\n";
        assert_eq!(
            index_path_lost(was, "100644 cccc notes/a.md\n100644 bbbb notes/b.md\n"),
            None
        );
        assert_eq!(
            index_path_lost(was, "100644 bbbb notes/b.md\n100644 dddd notes/c.md\n").as_deref(),
            Some("100644 aaaa notes/a.md")
        );
    }
}
