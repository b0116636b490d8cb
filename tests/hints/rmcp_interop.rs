//! Lossless interop with the official Rust SDK's `rmcp::model::ToolAnnotations`.

use annotations_tests::all_combinations;
use mcp_annotations::ToolAnnotations;

#[test]
fn conversions_are_lossless_both_ways() {
    for ours in all_combinations() {
        let theirs = rmcp::model::ToolAnnotations::from(&ours);
        assert_eq!(theirs.title.as_deref(), ours.title());
        assert_eq!(theirs.read_only_hint, ours.read_only_hint);
        assert_eq!(theirs.destructive_hint, ours.destructive_hint);
        assert_eq!(theirs.idempotent_hint, ours.idempotent_hint);
        assert_eq!(theirs.open_world_hint, ours.open_world_hint);
        assert_eq!(ToolAnnotations::from(&theirs), ours);
        assert_eq!(ToolAnnotations::from(theirs.clone()), ours);
        assert_eq!(rmcp::model::ToolAnnotations::from(ours.clone()), theirs);
    }
}

#[test]
fn json_written_by_either_reads_back_identically_in_the_other() {
    for ours in all_combinations() {
        let theirs = rmcp::model::ToolAnnotations::from(&ours);

        let ours_json = serde_json::to_value(&ours).unwrap();
        let theirs_json = serde_json::to_value(&theirs).unwrap();
        assert_eq!(ours_json, theirs_json, "both write the same wire form");

        let read_by_rmcp: rmcp::model::ToolAnnotations = serde_json::from_value(ours_json).unwrap();
        assert_eq!(read_by_rmcp, theirs);
        let read_by_us: ToolAnnotations = serde_json::from_value(theirs_json).unwrap();
        assert_eq!(read_by_us, ours);
    }
}
