//! Variant definitions: the INI configuration format, the XBetza parser, and the built variant.

pub mod betza;
pub mod config;
