//! The generator's own cases: a schema that takes nothing, and wide ones that must never
//! panic.

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use serde_json::json;

#[test]
fn a_schema_that_takes_nothing_is_an_error_and_a_wide_one_values_never_a_panic() {
    let impossible = json!({"type": "object", "required": ["s"],
        "properties": {"s": {"type": "string", "minLength": 5, "maxLength": 3}}});
    assert!(super::valid(&impossible).is_err());
    for schema in [
        json!({"type": "integer", "multipleOf": 3}),
        json!({"type": "number", "minimum": -1e308, "maximum": 1e308}),
        json!({"type": "string", "minLength": 18446744073709551615_u64}),
        json!({"type": "array", "minItems": 18446744073709551615_u64}),
    ] {
        let Ok(strategy) = super::valid(&schema) else {
            continue;
        };
        let mut runner = TestRunner::deterministic();
        for _ in 0..64 {
            let value = strategy.new_tree(&mut runner).unwrap().current();
            assert!(jsonschema::validator_for(&schema).unwrap().is_valid(&value));
        }
    }
}
