//! Changes to a tool's output schema: what a client may no longer find (breaking) or may find
//! beside what it knew (compatible).

use serde_json::{Map, Value};

use crate::host::diff::schema::{properties, required, strip, strip_deep};
use crate::host::diff::{Change, Class};

/// The changes from one output schema to another (`None`: none listed).
pub(crate) fn output(name: &str, old: Option<&Value>, new: Option<&Value>, out: &mut Vec<Change>) {
    match (old, new) {
        (None, None) => {}
        (None, Some(_)) => out.push(Change::new(name, "output schema added", Class::Compatible)),
        (Some(_), None) => out.push(Change::new(name, "output schema removed", Class::Breaking)),
        (Some(old), Some(new)) => {
            let (Some(old), Some(new)) = (old.as_object(), new.as_object()) else {
                if old != new {
                    out.push(Change::new(name, "output schema changed", Class::Breaking));
                }
                return;
            };
            let (old_props, new_props) = (properties(old), properties(new));
            for (field, schema) in &old_props {
                match new_props.get(field) {
                    None => out.push(Change::new(
                        name,
                        format!("output field `{field}` removed"),
                        Class::Breaking,
                    )),
                    Some(other) if strip_deep(schema) != strip_deep(other) => {
                        out.push(Change::new(
                            name,
                            format!("output field `{field}` changed"),
                            Class::Breaking,
                        ))
                    }
                    Some(_) => {}
                }
            }
            for field in new_props
                .keys()
                .filter(|field| !old_props.contains_key(*field))
            {
                out.push(Change::new(
                    name,
                    format!("new output field `{field}`"),
                    Class::Compatible,
                ));
            }
            // A field always there now is one more a caller finds; one that may now be
            // missing is one a caller may no longer find.
            let (was, is) = (required(old), required(new));
            // Named as JSON names it (quoted, escaped).
            let quoted = |field: &String| Value::from(field.as_str());
            for field in was.iter().filter(|field| !is.contains(field)) {
                if new_props.contains_key(field) {
                    out.push(Change::new(
                        name,
                        format!("output field {} no longer always present", quoted(field)),
                        Class::Breaking,
                    ));
                }
            }
            for field in is.iter().filter(|field| !was.contains(field)) {
                if old_props.contains_key(field) {
                    out.push(Change::new(
                        name,
                        format!("output field {} now always present", quoted(field)),
                        Class::Compatible,
                    ));
                }
            }
            let rest = |schema: &Map<String, Value>| {
                strip_deep(&Value::Object(strip(schema, &["properties", "required"])))
            };
            if rest(old) != rest(new) {
                out.push(Change::new(name, "output schema changed", Class::Breaking));
            }
        }
    }
}
