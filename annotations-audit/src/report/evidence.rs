//! `probe --evidence FILE`: the probe's verdicts as a host acts on them, in the format
//! `mcp_annotations::host::Evidence` reads (`schemas/evidence-v1.json`): each tool's descriptor
//! digest and a verdict for each hint it claimed. Ignores change nothing here: they decide what
//! fails a CI run, not what a probe saw.

use std::path::Path;

use mcp_annotations::descriptor::Hint;
use mcp_annotations::host::{self, Claim, Evidence, ToolEvidence};

use super::{ProbeReport, Verdict};

/// The evidence of `report`.
pub fn of(report: &ProbeReport) -> Evidence {
    let probe = concat!("annotations-audit ", env!("CARGO_PKG_VERSION"));
    let mut evidence = Evidence::new(probe, report.confinement.as_str());
    for row in &report.tools {
        let mut tool = ToolEvidence::named(row.name.as_str(), row.digest.as_str());
        for hint in Hint::ALL {
            // What a resolution broke, the listed claim's verdict carries too.
            let resolution = row
                .resolution
                .as_ref()
                .map_or(Verdict::Unclaimed, |resolution| resolution.verdicts[hint]);
            let verdict = match (row.probe[hint], resolution) {
                (Verdict::Unclaimed, _) => continue,
                (_, Verdict::Violated) | (Verdict::Violated, _) => host::Verdict::Violated,
                (_, Verdict::Nondeterministic) | (Verdict::Nondeterministic, _) => {
                    host::Verdict::Nondeterministic
                }
                (Verdict::Unexercised, _) => host::Verdict::Unexercised,
                (Verdict::Verified, _) => host::Verdict::Verified,
            };
            let mut claim = Claim::new(verdict, row.succeeded);
            if let Some(why) = row.unjudged.get(hint.claim()) {
                claim = claim.with_why(why.as_str());
            }
            tool = tool.with_claim(hint, claim);
        }
        evidence = evidence.with_tool(tool);
    }
    evidence
}

/// Writes the evidence of `report` to `path`.
///
/// # Errors
///
/// The file cannot be written.
pub fn write(report: &ProbeReport, path: &Path) -> Result<(), String> {
    std::fs::write(path, super::pretty(&of(report).to_json()))
        .map_err(|error| format!("cannot write the evidence {}: {error}", path.display()))
}
