#!/usr/bin/env python3
"""Regenerates every figure in BENCHMARKS.md, and the plot beside it, in one command.

    python3 bench/run.py [--handlers 100,1000,10000] [--runs 3] [--dep-runs 2]

1. compile time of N tools (bench/compile_time.py), build and check, for N in --handlers;
2. clean-build CPU time of the dependencies: `mcp-annotations` beside its floor (the same syn
   features, quote, proc-macro2, serde, serde_json), and `mcp-annotations` with `rmcp` beside rmcp
   alone;
3. the run-time benchmarks (`cargo bench`: listing, call, dispatch, serve, memory, wire,
   content, error_place, verify);
4. bench/compile_time.svg, compile time against N for the three variants;
5. the sections of BENCHMARKS.md between `<!-- begin: NAME -->` and `<!-- end: NAME -->`.

Nothing but Python's standard library and cargo is needed.
"""

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "target" / "deps-bench"


def cpu_seconds(command, cwd, env):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


DEP_CRATES = {
    "floor": 'syn = { version = "3", default-features = false, features = ["printing", "proc-macro"] }\n'
             'quote = "1"\nproc-macro2 = "1"\nserde = { version = "1", default-features = false, features = ["std"] }\n'
             'serde_json = "1"\n',
    "annotations": f'mcp-annotations = {{ path = "{ROOT / "annotations"}" }}\n',
    "rmcp": 'rmcp = { version = "=3.11.0", default-features = false, features = ["server"] }\n',
    "annotations+rmcp": f'mcp-annotations = {{ path = "{ROOT / "annotations"}", features = ["rmcp"] }}\n'
                        'rmcp = { version = "=3.11.0", default-features = false, features = ["server"] }\n',
}


def dependency_builds(runs):
    """Clean-build CPU seconds of each crate's dependencies (median of `runs`)."""
    results = {}
    for name, deps in DEP_CRATES.items():
        crate = WORK / name.replace("+", "-")
        (crate / "src").mkdir(parents=True, exist_ok=True)
        (crate / "Cargo.toml").write_text(
            f'[package]\nname = "deps-{name.replace("+", "-")}"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n'
            f"[workspace]\n\n[dependencies]\n{deps}"
        )
        (crate / "src" / "lib.rs").write_text("")
        env = dict(os.environ, CARGO_INCREMENTAL="0", CARGO_TARGET_DIR=str(crate / "target"))
        subprocess.run(["cargo", "fetch"], cwd=crate, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times = []
        for _ in range(runs):
            shutil.rmtree(crate / "target", ignore_errors=True)
            times.append(cpu_seconds(["cargo", "build", "--offline"], crate, env))
        results[name] = statistics.median(times)
        print(f"dependencies of {name}: {results[name]:.1f} s", file=sys.stderr)
    return results


def cargo_bench(name):
    output = subprocess.run(["cargo", "bench", "--bench", name], cwd=ROOT, check=True,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    return output.strip()


def svg_plot(figures, path):
    """A line chart of build time against the number of tools, log-log, one line a variant."""
    import math
    width, height, margin = 640, 400, 60
    points = {v: [(int(n), by[v]["build"]) for n, by in figures.items() if v in by] for v in ["hand", "derive", "rmcp"]}
    xs = [n for line in points.values() for n, _ in line]
    ys = [t for line in points.values() for _, t in line]
    x0, x1 = math.log10(min(xs)), math.log10(max(xs))
    y0, y1 = math.log10(min(ys) * 0.8), math.log10(max(ys) * 1.2)
    sx = lambda n: margin + (math.log10(n) - x0) / ((x1 - x0) or 1) * (width - 2 * margin)
    sy = lambda t: height - margin - (math.log10(t) - y0) / ((y1 - y0) or 1) * (height - 2 * margin)
    colours = {"hand": "#555555", "derive": "#1f77b4", "rmcp": "#d62728"}
    labels = {"hand": "hand-written floor", "derive": "#[tool] + tools!", "rmcp": "rmcp 3.11"}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{width / 2}" y="24" text-anchor="middle" font-size="14">Compile time of N tools (CPU seconds, log-log)</text>',
             f'<line x1="{margin}" y1="{height - margin}" x2="{width - margin}" y2="{height - margin}" stroke="black"/>',
             f'<line x1="{margin}" y1="{margin}" x2="{margin}" y2="{height - margin}" stroke="black"/>']
    for n in sorted(set(xs)):
        parts.append(f'<text x="{sx(n)}" y="{height - margin + 18}" text-anchor="middle">{n}</text>')
    for t in [0.1, 0.3, 1, 3, 10, 30, 100, 300]:
        if 10 ** y0 <= t <= 10 ** y1:
            parts.append(f'<text x="{margin - 6}" y="{sy(t) + 4}" text-anchor="end">{t}</text>')
            parts.append(f'<line x1="{margin}" y1="{sy(t)}" x2="{width - margin}" y2="{sy(t)}" stroke="#eeeeee"/>')
    for i, (variant, line) in enumerate(points.items()):
        line = sorted(line)
        path_d = " ".join(f"{'M' if j == 0 else 'L'}{sx(n):.1f},{sy(t):.1f}" for j, (n, t) in enumerate(line))
        parts.append(f'<path d="{path_d}" fill="none" stroke="{colours[variant]}" stroke-width="2"/>')
        for n, t in line:
            parts.append(f'<circle cx="{sx(n):.1f}" cy="{sy(t):.1f}" r="3" fill="{colours[variant]}"/>')
        parts.append(f'<text x="{margin + 10}" y="{margin + 16 * i}" fill="{colours[variant]}">{labels[variant]}</text>')
    parts.append(f'<text x="{width / 2}" y="{height - 16}" text-anchor="middle">tools in the crate</text>')
    parts.append("</svg>")
    path.write_text("\n".join(parts) + "\n")


def replace_section(text, name, body):
    pattern = re.compile(rf"(<!-- begin: {re.escape(name)} -->\n).*?(<!-- end: {re.escape(name)} -->)", re.S)
    if not pattern.search(text):
        raise SystemExit(f"BENCHMARKS.md has no section {name}")
    return pattern.sub(lambda m: m.group(1) + body.rstrip() + "\n" + m.group(2), text)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--handlers", default="100,1000,10000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dep-runs", type=int, default=2)
    args = parser.parse_args()

    figures_path = ROOT / "target" / "compile-bench" / "figures.json"
    figures_path.parent.mkdir(parents=True, exist_ok=True)
    compile_table = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "compile_time.py"), "--handlers", args.handlers,
         "--runs", str(args.runs), "--json", str(figures_path)],
        cwd=ROOT, check=True, stdout=subprocess.PIPE, text=True).stdout
    figures = json.loads(figures_path.read_text())
    svg_plot(figures, ROOT / "bench" / "compile_time.svg")

    deps = dependency_builds(args.dep_runs)
    deps_table = (
        "| crate | dependencies, clean build CPU | vs floor |\n|---|---:|---:|\n"
        f"| floor: syn (`printing`, `proc-macro`), quote, proc-macro2, serde, serde_json | {deps['floor']:.1f} s | 1.00x |\n"
        f"| `mcp-annotations` (default features) | {deps['annotations']:.1f} s | {deps['annotations'] / deps['floor']:.2f}x |\n"
        f"| floor: rmcp 3.11 (`server`) alone | {deps['rmcp']:.1f} s | 1.00x |\n"
        f"| `mcp-annotations` with `rmcp`, and rmcp | {deps['annotations+rmcp']:.1f} s | {deps['annotations+rmcp'] / deps['rmcp']:.2f}x |\n"
    )

    benches = {name: cargo_bench(name) for name in ["listing", "call", "dispatch", "serve", "memory", "wire", "content", "error_place", "verify"]}

    text = (ROOT / "BENCHMARKS.md").read_text()
    text = replace_section(text, "compile", compile_table)
    text = replace_section(text, "dependencies", deps_table)
    for name, output in benches.items():
        text = replace_section(text, name, "```text\n" + output + "\n```")
    (ROOT / "BENCHMARKS.md").write_text(text)
    print("BENCHMARKS.md and bench/compile_time.svg regenerated", file=sys.stderr)


if __name__ == "__main__":
    main()
