//! Progress on long work, on stderr and only when stderr is a terminal: a probe's tools done,
//! calls made, violations so far and the time elapsed; an audit's pages of a listing read.
//! Through a pipe or a file (a CI log, JSON on stdout) nothing is drawn at all.

use std::io::IsTerminal;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// The display, made at the first start: `None` where stderr is not a terminal.
static BAR: OnceLock<Option<ProgressBar>> = OnceLock::new();
static CALLS: AtomicU64 = AtomicU64::new(0);
static VIOLATIONS: AtomicU64 = AtomicU64::new(0);

/// The display, where there is one; made on first use.
fn bar() -> Option<&'static ProgressBar> {
    BAR.get_or_init(|| {
        std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.enable_steady_tick(Duration::from_millis(250));
            bar
        })
    })
    .as_ref()
}

/// A probe of `tools` tools begins.
pub fn start_probe(tools: usize) {
    if let Some(bar) = bar() {
        let style = ProgressStyle::with_template(
            "{spinner} {elapsed:>4} probing [{bar:24}] {pos}/{len} tools, {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
        bar.set_style(style);
        bar.set_length(tools as u64);
        bar.set_position(0);
        refresh(bar);
    }
}

/// A listing's pages are being read: `tools` so far.
pub fn listed(tools: usize) {
    if let Some(bar) = bar() {
        // A probe's display (a length set) is not replaced by its listing's.
        if bar.length().is_none() {
            let style = ProgressStyle::with_template("{spinner} {elapsed:>4} listing: {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner());
            bar.set_style(style);
            bar.set_message(format!("{tools} tools"));
        }
    }
}

/// A tool's probe is done.
pub fn tool_done() {
    if let Some(bar) = bar() {
        bar.inc(1);
    }
}

/// A call was made.
pub fn call() {
    CALLS.fetch_add(1, Ordering::Relaxed);
    if let Some(bar) = bar() {
        refresh(bar);
    }
}

/// A hint was found violated.
pub fn violation() {
    VIOLATIONS.fetch_add(1, Ordering::Relaxed);
    if let Some(bar) = bar() {
        refresh(bar);
    }
}

fn refresh(bar: &ProgressBar) {
    let calls = CALLS.load(Ordering::Relaxed);
    let violations = VIOLATIONS.load(Ordering::Relaxed);
    bar.set_message(format!(
        "{calls} call{}, {violations} violation{} so far",
        if calls == 1 { "" } else { "s" },
        if violations == 1 { "" } else { "s" },
    ));
}

/// The work is done: the display is cleared, before the report is printed.
pub fn finish() {
    if let Some(Some(bar)) = BAR.get() {
        bar.finish_and_clear();
    }
}
