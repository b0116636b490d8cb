#!/usr/bin/env python3
"""Compile-time cost of a server's tools: this crate against the hand-written floor and rmcp.

Generates a workspace (under target/compile-bench/) with one leaf crate per variant, each with
N tools of one shape: an `&self` method taking a documented `u64` and a `String`, with a doc
comment, read-only, closed-world, with a title, all served as one listing:

  hand    the floor: plain methods, hand-written `ToolAnnotations` and `Tool` constants (the
          literals `#[tool]` writes, hidden field included), a
          `Listing::new(&[...])`, and a hand-written `match` on the name for dispatch
  derive  this crate: `#[tool(...)]` on each method and one `tools![...]` (the listing is the
          dispatch)
  schema  the same, each parameter with `#[schema(...)]` keys (bounds on the id; a rename,
          length bounds and a default on the name)
  rmcp    rmcp 3.11: `#[tool_router]`, `#[tool(annotations(...))]` and `Parameters<T>` with a
          `schemars` struct per tool, as rmcp's documentation shows
  types   this crate with user types: each tool takes a `#[derive(ToolSchema)]` struct of its
          own (serde's `rename_all` and `default`, `#[schema(...)]` bounds and lengths on its
          fields, a shared unit enum) and a `#[schema(default = 10, maximum = 100)]` limit
  rmcp-types  the same schema with rmcp and schemars: a `JsonSchema` struct per tool with
          schemars' `range`/`length` attributes inside rmcp's `Parameters<T>`
  types-floor  the strict floor of the same tools with no crate: the same structs with serde's
          `Deserialize` alone, plain methods, the whole `tools/list` result as one string
          literal, and a `match` on the name that reads the arguments with serde_json

Dependencies are built once; then each leaf crate is rebuilt from scratch (`CARGO_INCREMENTAL=0`,
its source touched), once unmeasured and `--runs` times measured, for `cargo build` and for
`cargo check`; the median CPU time (user + system of cargo and rustc) is reported.

Usage: python3 bench/compile_time.py [--handlers 100,1000,10000] [--runs 5] [--json out.json]
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "target" / "compile-bench"
VARIANTS = ["floor", "hand", "derive", "schema", "rmcp", "types", "rmcp-types", "types-floor"]
# What runs without --variants (and so what bench/run.py measures): the user-type variants
# take minutes at 1000 tools and are asked for by name.
DEFAULT_VARIANTS = ["floor", "hand", "derive", "schema", "rmcp"]

SCHEMA = (
    r'{"type":"object","properties":{"id":{"type":"integer","minimum":0,'
    r'"maximum":18446744073709551615,"description":"The item\'s id"},"name":{"type":"string",'
    r'"description":"Its name"}},"required":["id","name"],"additionalProperties":false}'
)

# The input schema the `types` variant lists for each tool, written out for `types-floor`.
TYPES_SCHEMA = (
    r'{"type":"object","properties":{"query":{"type":"object","properties":{"itemId":'
    r'{"type":"integer","minimum":1,"maximum":1000000,"description":"The item\'s id"},"name":'
    r'{"type":"string","minLength":1,"maxLength":64,"description":"Its name"},"tags":'
    r'{"type":"array","items":{"type":"string"},"description":"Its tags"},"sort":'
    r'{"type":"string","enum":["name","file_size"],"description":"The order of results"}},'
    r'"required":["itemId","name","sort"],"additionalProperties":false,'
    r'"description":"What to look for"},"limit":{"type":"integer","minimum":0,"maximum":100,'
    r'"default":10,"description":"How many at most"}},"required":["query"],'
    r'"additionalProperties":false}'
)


def handler(variant: str, n: int) -> str:
    title = f"Tool {n}"
    doc = f"    /// Look up item {n} by id and name.\n"
    body = f"        format!(\"{{name}}#{{}}\", id + {n})\n"
    if variant == "derive":
        return (
            doc
            + f'    #[::mcp_annotations::tool(read_only, open_world = false, title = "{title}")]\n'
            + f"    pub fn tool_{n}(\n        &self,\n        /// The item's id\n        id: u64,\n"
            + "        /// Its name\n        name: String,\n    ) -> String {\n"
            + body
            + "    }\n"
        )
    if variant == "schema":
        return (
            doc
            + f'    #[::mcp_annotations::tool(read_only, open_world = false, title = "{title}")]\n'
            + f"    pub fn tool_{n}(\n        &self,\n        /// The item's id\n"
            + "        #[schema(minimum = 1, maximum = 1000000)]\n        id: u64,\n"
            + "        /// Its name\n        #[schema(rename = \"itemName\", min_length = 1, max_length = 64, default = \"any\")]\n"
            + "        name: String,\n    ) -> String {\n"
            + body
            + "    }\n"
        )
    if variant == "floor":
        # What a careful author writes with no crate at all: a plain method.
        return doc + f"    pub fn tool_{n}(&self, id: u64, name: String) -> String {{\n" + body + "    }\n"
    if variant == "hand":
        schema = SCHEMA.replace('"', '\\"')
        return (
            doc
            + f"    pub fn tool_{n}(&self, id: u64, name: String) -> String {{\n"
            + body
            + "    }\n"
            + f"    /// The MCP tool annotations of `tool_{n}`.\n"
            + f"    pub const TOOL_{n}_ANNOTATIONS: ::mcp_annotations::ToolAnnotations = "
            + "::mcp_annotations::ToolAnnotations {\n"
            + f'        title: Some(::std::borrow::Cow::Borrowed("{title}")),\n'
            + "        read_only_hint: Some(true),\n"
            + "        destructive_hint: None,\n"
            + "        idempotent_hint: None,\n"
            + "        open_world_hint: Some(false),\n"
            + "    };\n"
            + f"    /// The MCP tool descriptor of `tool_{n}`.\n"
            + f"    pub const TOOL_{n}_TOOL: ::mcp_annotations::Tool = ::mcp_annotations::Tool {{\n"
            + f'        name: ::std::borrow::Cow::Borrowed("tool_{n}"),\n'
            + f'        title: Some(::std::borrow::Cow::Borrowed("{title}")),\n'
            + f'        description: Some(::std::borrow::Cow::Borrowed("Look up item {n} by id and name.")),\n'
            + f'        input_schema: ::mcp_annotations::schema::Schema::Static("{schema}"),\n'
            + "        output_schema: None,\n"
            + f"        annotations: Self::TOOL_{n}_ANNOTATIONS,\n"
            + "        icons: ::std::borrow::Cow::Borrowed(&[]),\n"
            + "        task_support: None,\n"
            + "        meta: None,\n"
            + "        toolsets: &[],\n"
            + "        scopes: &[],\n"
            + "        resolvable: false,\n"
            + "        __non_exhaustive: ::mcp_annotations::__private::NonExhaustive,\n"
            + "    };\n"
        )
    if variant == "types":
        return (
            doc
            + f'    #[::mcp_annotations::tool(read_only, open_world = false, title = "{title}")]\n'
            + f"    pub fn tool_{n}(\n        &self,\n        /// What to look for\n        query: Query{n},\n"
            + "        /// How many at most\n        #[schema(default = 10, maximum = 100)]\n        limit: u32,\n"
            + "    ) -> String {\n"
            + f"        format!(\"{{}}#{{}} {{limit}}\", query.name, query.item_id + {n})\n"
            + "    }\n"
        )
    if variant == "types-floor":
        return (
            doc
            + f"    pub fn tool_{n}(&self, query: Query{n}, limit: u32) -> String {{\n"
            + f"        format!(\"{{}}#{{}} {{limit}}\", query.name, query.item_id + {n})\n"
            + "    }\n"
        )
    if variant == "rmcp-types":
        return (
            doc
            + f'    #[::rmcp::tool(annotations(read_only_hint = true, open_world_hint = false, title = "{title}"))]\n'
            + f"    pub fn tool_{n}(&self, ::rmcp::handler::server::wrapper::Parameters(Args{n} {{ query, limit }}): "
            + f"::rmcp::handler::server::wrapper::Parameters<Args{n}>) -> String {{\n"
            + f"        format!(\"{{}}#{{}} {{limit}}\", query.name, query.item_id + {n})\n"
            + "    }\n"
        )
    if variant == "rmcp":
        return (
            doc
            + f'    #[::rmcp::tool(annotations(read_only_hint = true, open_world_hint = false, title = "{title}"))]\n'
            + f"    pub fn tool_{n}(&self, ::rmcp::handler::server::wrapper::Parameters(Args{n} {{ id, name }}): "
            + f"::rmcp::handler::server::wrapper::Parameters<Args{n}>) -> String {{\n"
            + body
            + "    }\n"
        )
    raise ValueError(variant)


def extra(variant: str, handlers: int) -> str:
    if variant == "floor":
        # The whole tools/list result as one JSON string literal, and a match on the name
        # that reads the arguments with serde_json and calls.
        tools = ",".join(
            '{"name":"tool_%d","title":"Tool %d","description":"Look up item %d by id and name.",'
            '"inputSchema":%s,"annotations":{"title":"Tool %d","readOnlyHint":true,"openWorldHint":false}}'
            % (n, n, n, SCHEMA, n)
            for n in range(handlers)
        )
        listing = '{"tools":[' + tools + "]}"
        arms = "".join(
            f'            "tool_{n}" => Some(self.tool_{n}(read(args, "id")?, read(args, "name")?)),\n'
            for n in range(handlers)
        )
        return (
            "\n/// The whole `tools/list` result.\n"
            f"pub const TOOLS_LIST: &str = r##\"{listing}\"##;\n\n"
            "fn read<T: ::serde::de::DeserializeOwned>(args: &::serde_json::Map<String, ::serde_json::Value>, key: &str) -> Option<T> {\n"
            "    ::serde_json::from_value(args.get(key)?.clone()).ok()\n}\n\n"
            "impl Server {\n    /// Calls a tool by name.\n"
            "    pub fn dispatch(&self, name: &str, args: &::serde_json::Map<String, ::serde_json::Value>) -> Option<String> {\n"
            "        match name {\n" + arms + "            _ => None,\n        }\n    }\n}\n"
        )
    if variant == "hand":
        entries = ", ".join(f"Server::TOOL_{n}_TOOL" for n in range(handlers))
        arms = "".join(
            f'            "tool_{n}" => Some(self.tool_{n}(read(args, "id")?, read(args, "name")?)),\n'
            for n in range(handlers)
        )
        return (
            "\n/// Every tool.\npub static TOOLS: ::mcp_annotations::Listing = "
            f"::mcp_annotations::Listing::new(&[{entries}]);\n\n"
            "fn read<T: ::serde::de::DeserializeOwned>(args: &::serde_json::Map<String, ::serde_json::Value>, key: &str) -> Option<T> {\n"
            "    ::serde_json::from_value(args.get(key)?.clone()).ok()\n}\n\n"
            "impl Server {\n    /// Calls a tool by name.\n"
            "    pub fn dispatch(&self, name: &str, args: &::serde_json::Map<String, ::serde_json::Value>) -> Option<String> {\n"
            "        match name {\n" + arms + "            _ => None,\n        }\n    }\n}\n"
        )
    if variant == "types":
        structs = "".join(
            "/// What to look for.\n"
            "#[derive(::mcp_annotations::ToolSchema, ::serde::Deserialize)]\n"
            "#[serde(rename_all = \"camelCase\")]\n"
            f"pub struct Query{n} {{\n"
            "    /// The item's id\n    #[schema(minimum = 1, maximum = 1000000)]\n    pub item_id: u64,\n"
            "    /// Its name\n    #[schema(min_length = 1, max_length = 64)]\n    pub name: String,\n"
            "    /// Its tags\n    #[serde(default)]\n    pub tags: Vec<String>,\n"
            "    /// The order of results\n    pub sort: Sort,\n}\n"
            for n in range(handlers)
        )
        entries = ", ".join(f"Server::tool_{n}" for n in range(handlers))
        return (
            "\n/// How results are sorted.\n#[derive(::mcp_annotations::ToolSchema, ::serde::Deserialize)]\n"
            "#[serde(rename_all = \"snake_case\")]\npub enum Sort {\n    Name,\n    FileSize,\n}\n\n"
            + structs
            + f"\n/// Every tool.\npub static TOOLS: ::mcp_annotations::Listing<Server> = ::mcp_annotations::tools![{entries}];\n"
        )
    if variant == "types-floor":
        structs = "".join(
            "/// What to look for.\n"
            "#[derive(::serde::Deserialize)]\n"
            "#[serde(rename_all = \"camelCase\")]\n"
            f"pub struct Query{n} {{\n"
            "    /// The item's id\n    pub item_id: u64,\n"
            "    /// Its name\n    pub name: String,\n"
            "    /// Its tags\n    #[serde(default)]\n    pub tags: Vec<String>,\n"
            "    /// The order of results\n    pub sort: Sort,\n}\n"
            for n in range(handlers)
        )
        tools = ",".join(
            '{"name":"tool_%d","title":"Tool %d","description":"Look up item %d by id and name.",'
            '"inputSchema":%s,"annotations":{"title":"Tool %d","readOnlyHint":true,"openWorldHint":false}}'
            % (n, n, n, TYPES_SCHEMA, n)
            for n in range(handlers)
        )
        arms = "".join(
            f'            "tool_{n}" => Some(self.tool_{n}(read(args, "query")?, read(args, "limit").unwrap_or(10))),\n'
            for n in range(handlers)
        )
        return (
            "\n/// How results are sorted.\n#[derive(::serde::Deserialize)]\n"
            "#[serde(rename_all = \"snake_case\")]\npub enum Sort {\n    Name,\n    FileSize,\n}\n\n"
            + structs
            + "\n/// The whole `tools/list` result.\n"
            + f'pub const TOOLS_LIST: &str = r##"{{"tools":[{tools}]}}"##;\n\n'
            + "fn read<T: ::serde::de::DeserializeOwned>(args: &::serde_json::Map<String, ::serde_json::Value>, key: &str) -> Option<T> {\n"
            + "    ::serde_json::from_value(args.get(key)?.clone()).ok()\n}\n\n"
            + "impl Server {\n    /// Calls a tool by name.\n"
            + "    pub fn dispatch(&self, name: &str, args: &::serde_json::Map<String, ::serde_json::Value>) -> Option<String> {\n"
            + "        match name {\n" + arms + "            _ => None,\n        }\n    }\n}\n"
        )
    if variant == "rmcp-types":
        structs = "".join(
            "/// What to look for.\n"
            "#[derive(::serde::Deserialize, ::schemars::JsonSchema)]\n"
            "#[serde(rename_all = \"camelCase\")]\n"
            f"pub struct Query{n} {{\n"
            "    /// The item's id\n    #[schemars(range(min = 1, max = 1000000))]\n    pub item_id: u64,\n"
            "    /// Its name\n    #[schemars(length(min = 1, max = 64))]\n    pub name: String,\n"
            "    /// Its tags\n    #[serde(default)]\n    pub tags: Vec<String>,\n"
            "    /// The order of results\n    pub sort: Sort,\n}\n"
            "#[derive(::serde::Deserialize, ::schemars::JsonSchema)]\n"
            f"pub struct Args{n} {{\n    /// What to look for\n    pub query: Query{n},\n"
            "    /// How many at most\n    #[serde(default = \"ten\")]\n    #[schemars(range(max = 100))]\n    pub limit: u32,\n}\n"
            for n in range(handlers)
        )
        return (
            "\nfn ten() -> u32 {\n    10\n}\n\n"
            "/// How results are sorted.\n#[derive(::serde::Deserialize, ::schemars::JsonSchema)]\n"
            "#[serde(rename_all = \"snake_case\")]\npub enum Sort {\n    Name,\n    FileSize,\n}\n\n"
            + structs
        )
    if variant in ("derive", "schema"):
        entries = ", ".join(f"Server::tool_{n}" for n in range(handlers))
        return f"\n/// Every tool.\npub static TOOLS: ::mcp_annotations::Listing<Server> = ::mcp_annotations::tools![{entries}];\n"
    if variant == "rmcp":
        structs = "".join(
            "#[derive(::serde::Deserialize, ::schemars::JsonSchema)]\n"
            f"pub struct Args{n} {{\n    /// The item's id\n    pub id: u64,\n    /// Its name\n    pub name: String,\n}}\n"
            for n in range(handlers)
        )
        return "\n" + structs
    raise ValueError(variant)


def write_workspace(variants, handlers):
    WORK.mkdir(parents=True, exist_ok=True)
    members = ", ".join(f'"{v}"' for v in variants)
    (WORK / "Cargo.toml").write_text(f'[workspace]\nmembers = [{members}]\nresolver = "2"\n')
    for variant in variants:
        crate = WORK / variant
        (crate / "src").mkdir(parents=True, exist_ok=True)
        if variant == "floor":
            deps = 'serde = "1"\nserde_json = "1"\n'
        elif variant == "types-floor":
            deps = 'serde = { version = "1", features = ["derive"] }\nserde_json = "1"\n'
        elif variant.startswith("rmcp"):
            deps = (
                'rmcp = { version = "=3.11.0", default-features = false, features = ["macros", "server"] }\n'
                'serde = { version = "1", features = ["derive"] }\n'
                'schemars = "1"\n'
            )
        else:
            serde = '{ version = "1", features = ["derive"] }' if variant == "types" else '"1"'
            deps = (
                f'mcp-annotations = {{ path = "{ROOT / "annotations"}" }}\n'
                f'serde = {serde}\nserde_json = "1"\n'
            )
        (crate / "Cargo.toml").write_text(
            f'[package]\nname = "bench-{variant}"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n'
            f"[dependencies]\n{deps}"
        )
        body = "".join(handler(variant, n) for n in range(handlers))
        router = "#[::rmcp::tool_router]\n" if variant.startswith("rmcp") else ""
        (crate / "src" / "lib.rs").write_text(
            "//! Generated by bench/compile_time.py.\n#![allow(missing_docs, dead_code)]\n\n"
            "/// A server with many tools.\npub struct Server;\n\n"
            + router + "impl Server {\n" + body + "}\n" + extra(variant, handlers)
        )


def cpu_seconds_of(command, env):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=WORK, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(variant, subcommand, runs, env, warm=True):
    command = ["cargo", subcommand, "-p", f"bench-{variant}"]
    if warm:
        (WORK / variant / "src" / "lib.rs").touch()
        cpu_seconds_of(command, env)
    times = []
    for _ in range(runs):
        (WORK / variant / "src" / "lib.rs").touch()
        times.append(cpu_seconds_of(command, env))
    return statistics.median(times), times


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--handlers", default="100,1000,10000")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--large", type=int, default=5000,
                        help="from this many tools on, one unwarmed run each (rmcp takes minutes)")
    parser.add_argument("--variants", default=",".join(DEFAULT_VARIANTS),
                        help="any of " + ",".join(VARIANTS))
    parser.add_argument("--json", help="also write the figures to this JSON file")
    args = parser.parse_args()
    variants = args.variants.split(",")
    # rmcp's `#[tool_router]` chains one call a tool: at 10 000 tools rustc overflows its
    # default stack (SIGSEGV), so every variant gets a larger one (it costs no CPU time).
    env = dict(os.environ, CARGO_INCREMENTAL="0", CARGO_TARGET_DIR=str(WORK / "target"),
               RUST_MIN_STACK=str(1 << 30))

    results = {}
    for handlers in [int(n) for n in args.handlers.split(",")]:
        write_workspace(variants, handlers)
        print(f"{handlers} tools: building dependencies ...", file=sys.stderr)
        subprocess.run(["cargo", "build", "--workspace"], cwd=WORK, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run(["cargo", "check", "--workspace"], cwd=WORK, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        results[handlers] = {}
        for variant in variants:
            large = handlers >= args.large
            runs = 1 if large else args.runs
            try:
                build, build_runs = measure(variant, "build", runs, env, warm=not large)
                check, check_runs = measure(variant, "check", runs, env, warm=not large)
            except subprocess.CalledProcessError as error:
                print(f"  {variant}: does not compile: {error.stderr.decode()[-300:]}", file=sys.stderr)
                continue
            results[handlers][variant] = {"build": build, "check": check,
                                          "build_runs": build_runs, "check_runs": check_runs}
            print(f"  {variant}: build {build:.2f} s, check {check:.2f} s", file=sys.stderr)

    print(f"Median CPU seconds of rebuilding the leaf crate, {args.runs} runs each "
          f"(one from {args.large} tools on)")
    print()
    print("| tools | variant | build | check | build vs hand | rmcp / this crate |")
    print("|---:|---|---:|---:|---:|---:|")
    for handlers, by_variant in results.items():
        hand = by_variant.get("hand", {}).get("build")
        ours = {"rmcp": "derive", "rmcp-types": "types"}
        for variant, figures in by_variant.items():
            vs_hand = f"{figures['build'] / hand:.2f}x" if hand else ""
            peer = by_variant.get(ours.get(variant, ""), {}).get("build")
            vs_derive = f"{figures['build'] / peer:.2f}x" if peer else ""
            print(f"| {handlers} | {variant} | {figures['build']:.2f} s | {figures['check']:.2f} s | {vs_hand} | {vs_derive} |")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
