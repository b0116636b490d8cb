//! A zip container (an office document: `.xlsx`, `.docx`, `.pptx`, `.odt`, ...) as the probe
//! sees it: member by member, not as the compressed bytes every save rewrites whole. An XML
//! member is read as its element tree, a JSON member as JSON, any other by its length and
//! hash.
//!
//! The view is a JSON object `{"members": {"xl/workbook.xml": ..., ...}}`. An element is
//! `{"name": local name, "attributes": {...}, "children": [...]}` (text as strings among the
//! children), so that a sheet added to a workbook is a child added to a list, which the
//! additive rule allows, and a cell overwritten is a value overwritten, which it does not.
//!
//! Two things every save rewrites are not what a document holds, and are left out:
//! - relationship ids (`Id` in a `.rels` part, `r:id` and its kin in the parts that point
//!   through them), which writers number afresh in the order they write parts; a relationship
//!   is kept by its type and target;
//! - the document's properties (`docProps/`, `meta.xml`): the time of the save, the
//!   application that made it and statistics it recomputes (counts of sheets, pages, words);
//! - what a writer derives from the contents or from where its window stood: a worksheet's
//!   used range (`dimension`), its window (`sheetViews`) and the workbook's (`bookViews`), the
//!   calculation chain (`xl/calcChain.xml`), a word processor's revision-session ids (`rsid*`);
//! - a worksheet's cells that hold nothing (no value, no formula) and rows without cells:
//!   placeholders some writers leave and drop on the next save. Formatting held only by an
//!   empty cell is so not seen: a change there is never reported as a loss.

use std::io::Read;

use serde_json::{Map, Value, json};

/// The first bytes of a zip file's first local header.
pub const MAGIC: &[u8] = b"PK\x03\x04";

/// The most members read; a container with more is judged by its bytes.
const MAX_MEMBERS: usize = 4096;

/// The most bytes read out of all members together: a zip bomb is judged by its bytes.
const MAX_INFLATED: u64 = 128 << 20;

/// The namespace of the relationships that office parts point through.
const RELATIONSHIPS: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/// The view of a zip container's bytes, or `None` where it cannot be read as one.
pub fn view(bytes: &[u8]) -> Option<Value> {
    let mut archive = ::zip::ZipArchive::new(std::io::Cursor::new(bytes)).ok()?;
    if archive.len() > MAX_MEMBERS {
        return None;
    }
    let mut members = Map::new();
    let mut left = MAX_INFLATED;
    for index in 0..archive.len() {
        let mut member = archive.by_index(index).ok()?;
        if member.is_dir() {
            continue;
        }
        let Ok(name) = member.name().map(|name| name.into_owned()) else {
            return None;
        };
        let mut data = Vec::new();
        (&mut member).take(left + 1).read_to_end(&mut data).ok()?;
        left = left.checked_sub(data.len() as u64)?;
        if is_properties(&name) {
            continue;
        }
        members.insert(name.clone(), member_view(&name, &data));
    }
    Some(json!({ "members": members }))
}

/// Whether a member holds the document's properties, which every save rewrites.
fn is_properties(name: &str) -> bool {
    name.starts_with("docProps/") || name == "meta.xml" || name == "xl/calcChain.xml"
}

/// Whether an element is derived or window state (see the module's docs), or a worksheet's
/// placeholder: a cell or row that holds nothing.
fn is_derived(node: roxmltree::Node<'_, '_>, worksheet: bool) -> bool {
    let name = node.tag_name().name();
    if name == "bookViews" {
        return true;
    }
    if !worksheet {
        return false;
    }
    match name {
        "dimension" | "sheetViews" => true,
        "c" => !node.children().any(|child| child.is_element()),
        "row" => !node
            .children()
            .any(|child| child.is_element() && !is_derived(child, true)),
        _ => false,
    }
}

fn member_view(name: &str, data: &[u8]) -> Value {
    if let Ok(value) = serde_json::from_slice::<Value>(data) {
        return value;
    }
    if let Ok(text) = std::str::from_utf8(data) {
        let trimmed = text.trim_start_matches('\u{feff}').trim_start();
        if let Some(Ok(document)) = trimmed
            .starts_with('<')
            .then(|| roxmltree::Document::parse(trimmed))
        {
            // A relationship's target is relative to the folder of the part it belongs to
            // (`xl/_rels/workbook.xml.rels` belongs to `xl/workbook.xml`), or absolute from
            // the package's root: some writers write one form, some the other.
            let base = name
                .strip_suffix(".rels")
                .and_then(|part| part.rsplit_once("_rels/"))
                .map(|(folder, _)| folder.to_owned());
            let part = Part {
                rels: base.as_deref(),
                worksheet: name.starts_with("xl/worksheets/"),
            };
            return element(document.root_element(), part);
        }
    }
    use std::hash::{DefaultHasher, Hash, Hasher};
    let mut hasher = DefaultHasher::new();
    data.hash(&mut hasher);
    json!({"length": data.len(), "hash": format!("{:016x}", hasher.finish())})
}

/// What kind of part an element is in.
#[derive(Clone, Copy)]
struct Part<'a> {
    /// For a `.rels` part (whose `Id`s are relationship ids), the folder its targets are
    /// relative to.
    rels: Option<&'a str>,
    /// A worksheet of a workbook.
    worksheet: bool,
}

/// An element as JSON, without relationship ids and what [`is_derived`] leaves out.
/// How deep an element tree is read; deeper, an element is kept as its text's length and
/// hash (a document nested thousands deep is judged, not a stack overflowed).
const MAX_DEPTH: usize = 128;

fn element(node: roxmltree::Node<'_, '_>, part: Part<'_>) -> Value {
    element_at(node, part, 0)
}

fn element_at(node: roxmltree::Node<'_, '_>, part: Part<'_>, depth: usize) -> Value {
    if depth >= MAX_DEPTH {
        use std::hash::{DefaultHasher, Hash, Hasher};
        let mut hasher = DefaultHasher::new();
        let mut length = 0usize;
        for descendant in node.descendants() {
            descendant.tag_name().name().hash(&mut hasher);
            if let Some(text) = descendant.text() {
                text.hash(&mut hasher);
                length += text.len();
            }
        }
        return json!({"name": node.tag_name().name(), "deeper": {"length": length, "hash": format!("{:016x}", hasher.finish())}});
    }
    let mut attributes = Map::new();
    for attribute in node.attributes() {
        // A word processor's revision-session ids (`w:rsidR`, ...), written afresh each session.
        if attribute.name().starts_with("rsid") {
            continue;
        }
        let name = match attribute.namespace() {
            Some(RELATIONSHIPS) => continue,
            Some(namespace) => format!("{{{namespace}}}{}", attribute.name()),
            None if part.rels.is_some() && attribute.name() == "Id" => continue,
            None => attribute.name().to_owned(),
        };
        let value = match part.rels {
            Some(base) if name == "Target" && node.attribute("TargetMode") != Some("External") => {
                target(base, attribute.value())
            }
            _ => attribute.value().to_owned(),
        };
        attributes.insert(name, Value::from(value));
    }
    let children: Vec<Value> = node
        .children()
        .filter_map(|child| {
            if child.is_element() {
                (!is_derived(child, part.worksheet)).then(|| element_at(child, part, depth + 1))
            } else if child.is_text() {
                let text = child.text().unwrap_or("");
                (!text.trim().is_empty()).then(|| Value::from(text))
            } else {
                None
            }
        })
        .collect();
    json!({"name": node.tag_name().name(), "attributes": attributes, "children": children})
}

/// A relationship's target as a path from the package's root: `/xl/styles.xml` and, from
/// `xl/`, `styles.xml` are both `xl/styles.xml` (`..` taken back a folder).
fn target(base: &str, target: &str) -> String {
    let joined = match target.strip_prefix('/') {
        Some(absolute) => absolute.to_owned(),
        None => format!("{base}{target}"),
    };
    let mut parts: Vec<&str> = Vec::new();
    for part in joined.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            part => parts.push(part),
        }
    }
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn zipped(members: &[(&str, &str)]) -> Vec<u8> {
        let mut out = std::io::Cursor::new(Vec::new());
        let mut writer = ::zip::ZipWriter::new(&mut out);
        for (name, text) in members {
            writer
                .start_file(*name, ::zip::write::SimpleFileOptions::default())
                .unwrap();
            writer.write_all(text.as_bytes()).unwrap();
        }
        writer.finish().unwrap();
        out.into_inner()
    }

    #[test]
    fn members_are_read_as_element_trees_without_relationship_ids_or_properties() {
        let bytes = zipped(&[
            (
                "xl/workbook.xml",
                r#"<workbook xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="A" sheetId="1" r:id="rId4"/></sheets></workbook>"#,
            ),
            (
                "xl/_rels/workbook.xml.rels",
                r#"<Relationships><Relationship Id="rId4" Type="sheet" Target="worksheets/sheet1.xml"/></Relationships>"#,
            ),
            ("docProps/core.xml", "<core>2026-12-02T04:00:00Z</core>"),
            ("data.json", r#"{"a": 1}"#),
        ]);
        let view = view(&bytes).unwrap();
        let sheet = &view["members"]["xl/workbook.xml"]["children"][0]["children"][0];
        assert_eq!(sheet["name"], "sheet");
        assert_eq!(sheet["attributes"], json!({"name": "A", "sheetId": "1"}));
        let relationship = &view["members"]["xl/_rels/workbook.xml.rels"]["children"][0];
        assert_eq!(
            relationship["attributes"],
            json!({"Type": "sheet", "Target": "xl/worksheets/sheet1.xml"})
        );
        assert!(view["members"].get("docProps/core.xml").is_none());
        // The same relationship written from the root: the same target.
        assert_eq!(
            target("xl/", "worksheets/sheet1.xml"),
            "xl/worksheets/sheet1.xml"
        );
        assert_eq!(
            target("xl/", "/xl/worksheets/sheet1.xml"),
            "xl/worksheets/sheet1.xml"
        );
        assert_eq!(target("xl/worksheets/", "../media/a.png"), "xl/media/a.png");
        assert_eq!(view["members"]["data.json"], json!({"a": 1}));
    }

    /// A worksheet saved with an empty row and a cell without a value, then saved again
    /// without them (as openpyxl does), and its used range and window moved: the same
    /// contents.
    #[test]
    fn placeholders_derived_ranges_and_windows_are_not_contents() {
        let sheet = |extra: &str, range: &str, active: &str| {
            format!(
                r#"<worksheet><dimension ref="{range}"/><sheetViews><sheetView><selection activeCell="{active}"/></sheetView></sheetViews><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>red</t></is></c></row>{extra}</sheetData></worksheet>"#
            )
        };
        let first = zipped(&[(
            "xl/worksheets/sheet1.xml",
            &sheet(r#"<row r="2"><c r="B2" s="1"/></row>"#, "A1:B2", "B2"),
        )]);
        let second = zipped(&[("xl/worksheets/sheet1.xml", &sheet("", "A1", "A1"))]);
        assert_eq!(view(&first), view(&second));
        // A value is contents.
        let third = zipped(&[(
            "xl/worksheets/sheet1.xml",
            &sheet(r#"<row r="2"><c r="B2"><v>1</v></c></row>"#, "A1", "A1"),
        )]);
        assert_ne!(view(&first), view(&third));
    }

    #[test]
    fn bytes_that_are_not_a_zip_have_no_view() {
        assert!(view(b"PK\x03\x04 and then nothing").is_none());
    }
}
