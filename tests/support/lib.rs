//! Shared fixtures.
