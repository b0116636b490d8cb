//! Results as rmcp's `CallToolResult`.

/// The result as rmcp's `CallToolResult`: every text block, the structured content and the
/// error flag.
impl From<crate::ToolResult> for rmcp::model::CallToolResult {
    fn from(result: crate::ToolResult) -> Self {
        let content = result
            .content
            .into_iter()
            .map(|block| match block {
                crate::Content::Text(text) => rmcp::model::ContentBlock::text(text),
            })
            .collect();
        let mut out = rmcp::model::CallToolResult::success(content);
        out.structured_content = result.structured_content;
        if result.is_error {
            out.is_error = Some(true);
        }
        out
    }
}
