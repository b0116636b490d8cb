// A handler that takes more than sixteen arguments from the model cannot be listed: one error at the entry.
use mcp_annotations::{Listing, tool, tools};

#[tool(read_only)]
#[allow(clippy::too_many_arguments)]
fn wide(
    _a: u8, _b: u8, _c: u8, _d: u8, _e: u8, _f: u8, _g: u8, _h: u8, _i: u8,
    _j: u8, _k: u8, _l: u8, _m: u8, _n: u8, _o: u8, _p: u8, _q: u8,
) {
}

static TOOLS: Listing = tools![wide];

fn main() {
    wide(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    let _ = &TOOLS;
}
