//! The command line alone: its `clap` types ([`args`]), the values its flags take (`values`)
//! the spellings of earlier releases it still reads ([`legacy`]), the exit statuses
//! ([`status`]) and the probe's part of the settings file it names ([`settings`]). What each
//! subcommand does is its own module's.

pub mod args;
pub mod legacy;
pub mod settings;
pub mod status;
mod values;
