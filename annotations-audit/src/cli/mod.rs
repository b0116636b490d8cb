//! The command line alone: its `clap` types ([`args`]), the values its flags take (`values`)
//! and the spellings of earlier releases it still reads ([`legacy`]). What each subcommand does
//! is its own module's.

pub mod args;
pub mod legacy;
mod values;
