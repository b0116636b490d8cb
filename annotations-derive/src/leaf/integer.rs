//! An integer written in a `#[schema(...)]` key or a Rust integer type's bounds, exactly: any
//! value an `i128` or a `u128` holds, so that a `u128` bound above `i128::MAX` is read as
//! written. A leaf: imports nothing of the crate.

/// An integer from `i128::MIN` to `u128::MAX`. The order of the variants is the order of the
/// values: `Above` holds only values above `i128::MAX`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Integer {
    /// Any value an `i128` holds.
    Signed(i128),
    /// A value above `i128::MAX`.
    Above(u128),
}

impl Integer {
    /// Reads decimal digits with an optional `-`; `None` outside the range.
    pub(crate) fn parse(text: &str) -> Option<Integer> {
        match text.parse::<i128>() {
            Ok(n) => Some(Integer::Signed(n)),
            Err(_) => text.parse::<u128>().ok().map(Integer::from_u128),
        }
    }

    /// `n`, in the variant that holds it.
    pub(crate) fn from_u128(n: u128) -> Integer {
        i128::try_from(n).map_or(Integer::Above(n), Integer::Signed)
    }

    /// The value as a `u64`, if it is one.
    pub(crate) fn to_u64(self) -> Option<u64> {
        match self {
            Integer::Signed(n) => u64::try_from(n).ok(),
            Integer::Above(_) => None,
        }
    }

    /// The nearest `f64`.
    #[allow(clippy::cast_precision_loss)]
    pub(crate) fn to_f64(self) -> f64 {
        match self {
            Integer::Signed(n) => n as f64,
            Integer::Above(n) => n as f64,
        }
    }

    /// Whether the value is a multiple of `step` (greater than 0), exactly: the multiples of a
    /// number are those of its magnitude, on both sides of 0.
    pub(crate) fn is_multiple_of(self, step: Integer) -> bool {
        let magnitude = |n: Integer| match n {
            Integer::Signed(n) => n.unsigned_abs(),
            Integer::Above(n) => n,
        };
        let step = magnitude(step);
        step != 0 && magnitude(self) % step == 0
    }
}

impl std::fmt::Display for Integer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Integer::Signed(n) => n.fmt(f),
            Integer::Above(n) => n.fmt(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::leaf::integer::Integer;

    #[test]
    fn every_integer_of_both_types_in_order() {
        let max = Integer::parse("340282366920938463463374607431768211455").unwrap();
        assert_eq!(max, Integer::Above(u128::MAX));
        let above = Integer::parse("170141183460469231731687303715884105728").unwrap();
        let top = Integer::parse("170141183460469231731687303715884105727").unwrap();
        assert!(top < above && above < max);
        assert!(Integer::parse("-170141183460469231731687303715884105728").unwrap() < top);
        assert_eq!(
            Integer::parse("340282366920938463463374607431768211456"),
            None
        );
        assert_eq!(Integer::parse("-1"), Some(Integer::Signed(-1)));
        assert_eq!(max.to_string(), "340282366920938463463374607431768211455");
        assert!(max.is_multiple_of(Integer::Signed(5)));
        assert!(!max.is_multiple_of(Integer::Signed(2)));
        assert!(Integer::Signed(-6).is_multiple_of(Integer::Signed(3)));
        assert!(Integer::Signed(i128::MIN).is_multiple_of(above));
        assert!(!Integer::Signed(1).is_multiple_of(Integer::Signed(0)));
    }
}
