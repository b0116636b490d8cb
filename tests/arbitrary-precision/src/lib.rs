//! See `tests/`.
