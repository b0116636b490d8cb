//! Listings and pages as rmcp's `Vec<Tool>` and `ListToolsResult`, and an invalid cursor as
//! rmcp's error.

impl<S> crate::listing::Listing<S> {
    /// The tools as rmcp's `list_tools` returns them, in order.
    ///
    /// ```
    /// use mcp_annotations::{Listing, tool, tools};
    ///
    /// #[tool(read_only, title = "List notes")]
    /// fn list_notes() {}
    ///
    /// static TOOLS: Listing = tools![list_notes];
    /// let listed: Vec<rmcp::model::Tool> = TOOLS.to_rmcp();
    /// assert_eq!(listed[0].title.as_deref(), Some("List notes"));
    /// # list_notes();
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "rmcp")))]
    #[must_use]
    pub fn to_rmcp(&self) -> Vec<rmcp::model::Tool> {
        self.tools().iter().map(rmcp::model::Tool::from).collect()
    }
}

/// The listing's tools, as rmcp's `list_tools` returns them.
impl<S> From<crate::listing::Listing<S>> for Vec<rmcp::model::Tool> {
    fn from(listing: crate::listing::Listing<S>) -> Self {
        listing.to_rmcp()
    }
}

impl<S> crate::listing::Listing<S> {
    /// The page of tools at `cursor` as rmcp's `ListToolsResult`, for a hand-written
    /// `ServerHandler::list_tools`: [`page`](Self::page) with rmcp's types, the next cursor
    /// included, and an invalid cursor as the JSON-RPC error -32602 that rmcp sends back.
    ///
    /// ```
    /// use mcp_annotations::{Listing, tool, tools};
    ///
    /// #[tool(read_only, title = "List notes")]
    /// fn list_notes() {}
    /// #[tool(read_only, title = "Find note")]
    /// fn find_note(text: String) {}
    ///
    /// let listing: Listing = tools![list_notes, find_note];
    /// let first = listing.to_rmcp_page(None, 1)?;
    /// assert_eq!(first.tools[0].name, "list_notes");
    /// let cursor = first.next_cursor.unwrap();
    /// let second = listing.to_rmcp_page(Some(&cursor), 1)?;
    /// assert_eq!(second.tools[0].name, "find_note");
    /// assert_eq!(second.next_cursor, None);
    /// assert_eq!(listing.to_rmcp_page(Some("forged"), 1).unwrap_err().code.0, -32602);
    /// # list_notes(); find_note(String::new());
    /// # Ok::<(), rmcp::ErrorData>(())
    /// ```
    ///
    /// # Errors
    ///
    /// An invalid cursor, as `rmcp::ErrorData` with code -32602.
    #[cfg_attr(docsrs, doc(cfg(feature = "rmcp")))]
    pub fn to_rmcp_page(
        &self,
        cursor: Option<&str>,
        page_size: usize,
    ) -> Result<rmcp::model::ListToolsResult, rmcp::ErrorData> {
        let page = self.page(cursor, page_size)?;
        let mut result = rmcp::model::ListToolsResult::with_all_items(
            page.tools.iter().map(rmcp::model::Tool::from).collect(),
        );
        result.next_cursor = page.next_cursor;
        Ok(result)
    }
}

/// An invalid cursor as rmcp's error: JSON-RPC code -32602 (invalid params), with the message.
impl From<crate::listing::CursorError> for rmcp::ErrorData {
    fn from(error: crate::listing::CursorError) -> Self {
        rmcp::ErrorData::invalid_params(error.to_string(), None)
    }
}
