//! A host's audit of any MCP server's tools: the `annotations-audit` command line (installed
//! with `cargo install annotations --features cli`), run as an example of this repository.
//!
//! ```text
//! cargo run --example audit -- <command> [args...]
//! cargo run --example audit -- --format json --timeout 10 <command> [args...]
//! cargo run --example audit -- --probe -- cargo run --example notes
//! cargo run --example audit -- --diff old.json -- cargo run --example notes
//! ```

#[path = "../annotations/src/bin/annotations-audit/cli/mod.rs"]
mod cli;

fn main() {
    std::process::exit(cli::run(std::env::args().skip(1).collect()));
}
