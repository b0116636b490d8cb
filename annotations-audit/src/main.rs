//! `annotations-audit`: a host's audit of any MCP server's tools, installed with
//! `cargo install mcp-annotations-audit`. See `annotations-audit --help`.

#![forbid(unsafe_code)]

mod cli;

fn main() {
    std::process::exit(cli::run(std::env::args().skip(1).collect()));
}
