//! The command line alone: its `clap` types ([`args`]) and the spellings of earlier releases
//! it still reads ([`legacy`]). What each subcommand does is its own module's.

pub mod args;
pub mod legacy;
