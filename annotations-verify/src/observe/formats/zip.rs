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
//!   application that made it and statistics it recomputes (counts of sheets, pages, words),
//!   but for the authoring fields of the core properties (`creator`, `title`, `subject`,
//!   `description`, `keywords`, `category`), which are what the author wrote: replacing one
//!   is a loss;
//! - what a writer derives from the contents or from where its window stood: a worksheet's
//!   used range (`dimension`), its window (`sheetViews`) and the workbook's (`bookViews`), the
//!   calculation chain (`xl/calcChain.xml`), a word processor's revision-session ids (`rsid*`),
//!   the counts of what an element lists (`count`, `uniqueCount`: fonts, styles, strings);
//! - a worksheet's cells that hold nothing (no value, no formula) and rows without cells:
//!   placeholders some writers leave and drop on the next save. Formatting held only by an
//!   empty cell is so not seen: a change there is never reported as a loss.

use std::io::Read;

use serde_json::{Map, Value, json};

/// The first bytes of a zip file's first local header.
pub const MAGIC: &[u8] = b"PK\x03\x04";

/// The most members read; a container with more is refused (not judged).
const MAX_MEMBERS: usize = 4096;

/// The most bytes read out of all members together: a zip bomb is refused, not inflated.
const MAX_INFLATED: u64 = 128 << 20;

/// The most XML nodes (elements and text) read out of all members together: a part of
/// millions of empty elements, a few kilobytes compressed, would cost gigabytes as JSON.
pub const MAX_NODES: u32 = 500_000;

/// The namespace of the relationships that office parts point through.
const RELATIONSHIPS: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/// The view of a zip container's bytes: `Ok(None)` where they cannot be read as one (then
/// they are judged as bytes), `Err` with why where the observer refuses to read it (more
/// members, inflated bytes or XML nodes than it reads): then it is not judged.
///
/// # Errors
///
/// Why the container was refused.
pub fn view(bytes: &[u8]) -> Result<Option<Value>, String> {
    let Ok(mut archive) = ::zip::ZipArchive::new(std::io::Cursor::new(bytes)) else {
        return Ok(None);
    };
    if archive.len() > MAX_MEMBERS {
        return Err(format!(
            "a zip container of {} members, more than the {MAX_MEMBERS} the observer reads",
            archive.len()
        ));
    }
    let mut members = Map::new();
    let mut left = MAX_INFLATED;
    let mut nodes = MAX_NODES;
    for index in 0..archive.len() {
        let Ok(mut member) = archive.by_index(index) else {
            return Ok(None);
        };
        if member.is_dir() {
            continue;
        }
        let Ok(name) = member.name().map(|name| name.into_owned()) else {
            return Ok(None);
        };
        let mut data = Vec::new();
        if (&mut member).take(left + 1).read_to_end(&mut data).is_err() {
            return Ok(None);
        }
        left = left.checked_sub(data.len() as u64).ok_or_else(|| {
            format!(
                "a zip container of more than {} MiB inflated, more than the observer reads",
                MAX_INFLATED >> 20
            )
        })?;
        if is_properties(&name) {
            continue;
        }
        let mut view = member_view(&name, &data, &mut nodes)?;
        if name == CORE_PROPERTIES && !authoring_only(&mut view) {
            continue;
        }
        members.insert(name.clone(), view);
    }
    Ok(Some(json!({ "members": members })))
}

/// The member of an office document's core properties: its authoring fields are what its
/// author wrote, the rest what every save rewrites.
const CORE_PROPERTIES: &str = "docProps/core.xml";

/// The core properties an author writes (Dublin Core's and OPC's names): replacing one loses
/// what was there. The others (`modified`, `lastModifiedBy`, `revision`, `lastPrinted`,
/// `created`) a writer stamps.
const AUTHORING: [&str; 6] = [
    "creator",
    "title",
    "subject",
    "description",
    "keywords",
    "category",
];

/// Whether a member holds the document's properties that every save rewrites: the extended
/// and custom properties (the application, its counts), an OpenDocument's `meta.xml` (whose
/// `creator` is the last to save), the calculation chain. The core properties are read,
/// their authoring fields alone.
fn is_properties(name: &str) -> bool {
    (name.starts_with("docProps/") && name != CORE_PROPERTIES)
        || name == "meta.xml"
        || name == "xl/calcChain.xml"
}

/// The core properties' element tree with only its authoring fields (see [`AUTHORING`]) that
/// hold text (an empty one, which some writers write and others drop on the next save, holds
/// nothing); `false` where the part is no element tree (unreadable XML, read by its bytes,
/// which every save's time changes): then it is left out as the other properties are.
fn authoring_only(view: &mut Value) -> bool {
    let Some(children) = view.get_mut("children").and_then(Value::as_array_mut) else {
        return false;
    };
    children.retain(|child| {
        child["name"]
            .as_str()
            .is_some_and(|name| AUTHORING.contains(&name))
            && child["children"]
                .as_array()
                .is_some_and(|inside| !inside.is_empty())
    });
    true
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

/// A member's view: JSON as its value, XML as its element tree (its nodes taken from `nodes`;
/// `Err` where the container's XML holds more than [`MAX_NODES`]), anything else by its length
/// and hash.
fn member_view(name: &str, data: &[u8], nodes: &mut u32) -> Result<Value, String> {
    if let Ok(value) = serde_json::from_slice::<Value>(data) {
        return Ok(value);
    }
    if let Ok(text) = std::str::from_utf8(data) {
        let trimmed = text.trim_start_matches('\u{feff}').trim_start();
        if trimmed.starts_with('<') && nested_deeper(trimmed, MAX_NESTING) {
            return Err(format!(
                "a zip container whose XML nests deeper than {MAX_NESTING} elements, deeper than \
                 the observer reads"
            ));
        }
        let options = roxmltree::ParsingOptions {
            allow_dtd: false,
            nodes_limit: *nodes,
        };
        let parsed = trimmed
            .starts_with('<')
            .then(|| roxmltree::Document::parse_with_options(trimmed, options));
        if let Some(Err(roxmltree::Error::NodesLimitReached)) = parsed {
            return Err(format!(
                "a zip container whose XML holds more than {MAX_NODES} nodes, more than the \
                 observer reads"
            ));
        }
        if let Some(Ok(document)) = parsed {
            let count = u32::try_from(document.descendants().count()).unwrap_or(u32::MAX);
            *nodes = nodes.saturating_sub(count);
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
            return Ok(element(document.root_element(), part));
        }
    }
    use std::hash::{DefaultHasher, Hash, Hasher};
    let mut hasher = DefaultHasher::new();
    data.hash(&mut hasher);
    Ok(json!({"length": data.len(), "hash": format!("{:016x}", hasher.finish())}))
}

/// How deep an XML member may nest its elements to be read: the XML reader descends one call
/// per level, so a document nested fifty thousand deep (a kilobyte compressed) would overflow
/// the stack. Real documents nest a few dozen deep.
pub const MAX_NESTING: usize = 256;

/// Whether the elements of the XML `text` nest deeper than `limit`, read without parsing it:
/// each start tag opens a level (unless it closes itself), each end tag closes one; comments,
/// CDATA, declarations, processing instructions and quoted attribute values are skipped.
fn nested_deeper(text: &str, limit: usize) -> bool {
    let bytes = text.as_bytes();
    let skip_to = |from: usize, end: &[u8]| {
        bytes[from..]
            .windows(end.len())
            .position(|window| window == end)
            .map_or(bytes.len(), |at| from + at + end.len())
    };
    let (mut at, mut depth) = (0, 0usize);
    while let Some(found) = bytes[at..].iter().position(|byte| *byte == b'<') {
        at += found;
        let rest = &bytes[at..];
        if rest.starts_with(b"<!--") {
            at = skip_to(at, b"-->");
        } else if rest.starts_with(b"<![CDATA[") {
            at = skip_to(at, b"]]>");
        } else if rest.starts_with(b"<!") || rest.starts_with(b"<?") {
            at = skip_to(at, b">");
        } else if rest.starts_with(b"</") {
            depth = depth.saturating_sub(1);
            at = skip_to(at, b">");
        } else {
            // A start tag: to its `>`, past any quoted value that holds one.
            let mut quote = None;
            let mut end = at + 1;
            while end < bytes.len() {
                match (quote, bytes[end]) {
                    (None, b'"' | b'\'') => quote = Some(bytes[end]),
                    (Some(open), byte) if byte == open => quote = None,
                    (None, b'>') => break,
                    _ => {}
                }
                end += 1;
            }
            if bytes.get(end.wrapping_sub(1)) != Some(&b'/') {
                depth += 1;
                if depth > limit {
                    return true;
                }
            }
            at = end + 1;
        }
        if at >= bytes.len() {
            break;
        }
    }
    false
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
        // A count of what the element lists (`<fonts count="2">`, a shared-string table's
        // `count` and `uniqueCount`), recomputed on every save: a style or string added is
        // seen as the child added, not as a number overwritten.
        if attribute.namespace().is_none()
            && matches!(attribute.name(), "count" | "uniqueCount")
            && attribute.value().parse::<u64>().is_ok()
        {
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

    /// Core properties as openpyxl writes them: an author and what a save stamps.
    const CORE: &str = r#"<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:title></dc:title><dc:creator>Ada</dc:creator><cp:keywords/><cp:lastModifiedBy>Bob</cp:lastModifiedBy><dcterms:created xsi:type="dcterms:W3CDTF">2026-12-01T00:00:00Z</dcterms:created><dcterms:modified xsi:type="dcterms:W3CDTF">2026-12-02T04:00:00Z</dcterms:modified></cp:coreProperties>"#;

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
            ("docProps/core.xml", CORE),
            (
                "docProps/app.xml",
                "<Properties><Application>x</Application></Properties>",
            ),
            ("data.json", r#"{"a": 1}"#),
        ]);
        let view = view(&bytes).unwrap().unwrap();
        let sheet = &view["members"]["xl/workbook.xml"]["children"][0]["children"][0];
        assert_eq!(sheet["name"], "sheet");
        assert_eq!(sheet["attributes"], json!({"name": "A", "sheetId": "1"}));
        let relationship = &view["members"]["xl/_rels/workbook.xml.rels"]["children"][0];
        assert_eq!(
            relationship["attributes"],
            json!({"Type": "sheet", "Target": "xl/worksheets/sheet1.xml"})
        );
        // The core properties: the authoring fields alone; the extended ones not at all.
        let core = &view["members"]["docProps/core.xml"];
        assert_eq!(
            core["children"],
            json!([{"name": "creator", "attributes": {}, "children": ["Ada"]}])
        );
        assert!(view["members"].get("docProps/app.xml").is_none());
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

    /// A style added to a workbook: the list gains a font, its recomputed count is no value
    /// overwritten.
    #[test]
    fn the_counts_an_element_keeps_of_its_children_are_not_contents() {
        let styles = |fonts: &str, count: u32| {
            format!(r#"<styleSheet><fonts count="{count}">{fonts}</fonts></styleSheet>"#)
        };
        let one = styles(r#"<font><sz val="11"/></font>"#, 1);
        let two = styles(r#"<font><sz val="11"/></font><font><b/></font>"#, 2);
        let before = view(&zipped(&[("xl/styles.xml", &one)])).unwrap().unwrap();
        let after = view(&zipped(&[("xl/styles.xml", &two)])).unwrap().unwrap();
        let fonts = |view: &Value| view["members"]["xl/styles.xml"]["children"][0].clone();
        assert_eq!(fonts(&before)["attributes"], json!({}));
        assert!(crate::contains(&fonts(&before), &fonts(&after)));
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
        assert_eq!(view(b"PK\x03\x04 and then nothing"), Ok(None));
    }

    #[test]
    fn nesting_is_counted_without_parsing() {
        let text = "<a><b/><c x='>'>t</c><!-- <d><e> --><![CDATA[<f>]]></a>";
        assert!(!nested_deeper(text, 2));
        assert!(nested_deeper(text, 1));
        assert!(nested_deeper("<a><b><c/></b></a>", 1));
        assert!(!nested_deeper("<a><b><c/></b></a>", 2));
        let deep = format!("{}{}", "<a>".repeat(50_000), "</a>".repeat(50_000));
        assert!(nested_deeper(&deep, MAX_NESTING));
    }
}
