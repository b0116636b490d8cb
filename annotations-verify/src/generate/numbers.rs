//! The numbers a schema takes: integers within their bounds (drawn as an offset from the lower
//! one, near the bounds and zero more often), multiples of a step, floats within a range.

use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;
use serde_json::{Map, Value, json};

fn number(object: &Map<String, Value>, key: &str) -> Option<f64> {
    object.get(key).and_then(Value::as_f64)
}

fn integer(object: &Map<String, Value>, key: &str) -> Option<i128> {
    let value = object.get(key)?;
    value
        .as_i64()
        .map(i128::from)
        .or_else(|| value.as_u64().map(i128::from))
        .or_else(|| value.to_string().parse().ok())
        .or_else(|| {
            let float = value.as_f64()?;
            #[allow(clippy::cast_possible_truncation)]
            (float.is_finite() && float.abs() < 1e38).then_some(float as i128)
        })
}

pub(crate) fn integers(object: &Map<String, Value>) -> Result<BoxedStrategy<Value>, String> {
    // Within `i64`, which every JSON value holds; a wider bound is clamped to it.
    let clamp = |n: i128| n.clamp(i128::from(i64::MIN), i128::from(i64::MAX));
    let mut low = integer(object, "minimum").map_or(i128::from(i64::MIN), clamp);
    let mut high = integer(object, "maximum").map_or(i128::from(i64::MAX), clamp);
    if let Some(min) = integer(object, "exclusiveMinimum") {
        low = low.max(clamp(min + 1));
    }
    if let Some(max) = integer(object, "exclusiveMaximum") {
        high = high.min(clamp(max - 1));
    }
    if low > high {
        return Err("integer bounds that hold no integer".to_owned());
    }
    #[allow(clippy::cast_possible_truncation)]
    let (low, high) = (low as i64, high as i64);
    let step = integer(object, "multipleOf").filter(|step| *step > 1);
    let near = |centre: i64| {
        let from = centre.saturating_sub(8).max(low);
        let to = centre.saturating_add(8).min(high);
        from..=to.max(from)
    };
    let anchor = 0i64.clamp(low, high);
    let near = |centre: i64| {
        let range = near(centre);
        between(*range.start(), *range.end())
    };
    let base = prop_oneof![
        3 => near(anchor),
        1 => near(low),
        1 => near(high),
        1 => between(low, high),
    ];
    Ok(match step {
        #[allow(clippy::cast_possible_truncation)]
        Some(step) => {
            let step = step.min(i128::from(i64::MAX)) as i64;
            base.prop_map(move |n| n.saturating_sub(n.rem_euclid(step)))
                .prop_map(|n| json!(n))
                .boxed()
        }
        None => base.prop_map(|n| json!(n)).boxed(),
    })
}

/// The integers from `low` to `high`, both kept: drawn as an offset from `low` (proptest's
/// own signed ranges overflow at `i64::MIN`), shrinking towards `low`.
fn between(low: i64, high: i64) -> BoxedStrategy<i64> {
    if low >= high {
        return Just(low).boxed();
    }
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let span = (i128::from(high) - i128::from(low)) as u64;
    if span == u64::MAX {
        return any::<i64>().boxed();
    }
    #[allow(clippy::cast_possible_truncation)]
    (0..=span)
        .prop_map(move |offset| (i128::from(low) + i128::from(offset)) as i64)
        .boxed()
}

/// The multiples of a step that is not whole (`multipleOf: 0.25`) within the bounds: each
/// `k * step` for the whole `k` the bounds leave (the validator keeps the right ones where a
/// float's rounding or an exclusive bound decides).
fn multiples(step: f64, low: f64, high: f64) -> Result<BoxedStrategy<Value>, String> {
    let (first, last) = ((low / step).ceil(), (high / step).floor());
    if !(first.is_finite() && last.is_finite()) || first > last {
        return Err(format!("number bounds that hold no multiple of {step}"));
    }
    let limit = 1e15;
    #[allow(clippy::cast_possible_truncation)]
    let (first, last) = (
        first.clamp(-limit, limit) as i64,
        last.clamp(-limit, limit) as i64,
    );
    #[allow(clippy::cast_precision_loss)]
    Ok(between(first, last)
        .prop_map(move |k| json!(k as f64 * step))
        .boxed())
}

pub(crate) fn numbers(object: &Map<String, Value>) -> Result<BoxedStrategy<Value>, String> {
    let low = number(object, "minimum")
        .or_else(|| number(object, "exclusiveMinimum"))
        .unwrap_or(-1e6);
    let high = number(object, "maximum")
        .or_else(|| number(object, "exclusiveMaximum"))
        .unwrap_or(1e6)
        .max(low);
    if let Some(step) = number(object, "multipleOf") {
        if step.fract() != 0.0 && step > 0.0 {
            return multiples(step, low, high);
        }
        // A whole step's multiples are integers (the validator keeps the right ones).
        return integers(object);
    }
    // A range wider than a float can span is generated within a billion of zero (or its
    // nearer end): the validator keeps the values it takes.
    let (low, high) = if (high - low).is_finite() {
        (low, high)
    } else {
        (low.max(-1e9), high.min(1e9).max(low.max(-1e9)))
    };
    if !(low.is_finite() && high.is_finite()) {
        return Err("number bounds that no float spans".to_owned());
    }
    let whole = integers(object).ok();
    let floats = (low..=high).prop_map(|x| json!(x)).boxed();
    Ok(match whole {
        Some(whole) => prop_oneof![whole, floats].boxed(),
        None => floats,
    })
}
