//! The command line alone: its `clap` types ([`args`]), the values its flags take (`values`)
//! the spellings of earlier releases it still reads ([`legacy`]) and the exit statuses
//! ([`status`]). What each subcommand does
//! is its own module's.

pub mod args;
pub mod legacy;
pub mod status;
mod values;
