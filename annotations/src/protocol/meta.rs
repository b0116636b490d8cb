//! `_meta`: the JSON object any protocol value may carry for its extensions.

use serde_json::{Map, Value};

/// A block's `_meta`: a JSON object.
pub type Meta = Map<String, Value>;
