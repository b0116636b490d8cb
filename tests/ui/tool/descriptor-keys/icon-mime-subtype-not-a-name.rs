use mcp_annotations::tool;

/// Export. A subtype starts with a letter or digit, as the runtime's `MimeType` reads one: the
/// error is at the literal, not in the generated `const`.
#[tool(read_only, open_world = false, icons = [{ src = "https://example.com/i", mime_type = "image/.png" }])]
pub fn export() {}

fn main() {}
