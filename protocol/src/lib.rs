//! Chimera's text interfaces. For now the command line (`cli`): perft, the variant list, the
//! variant file checker, and the search tools `bench`, `analyze` and `epd` (with the SAN reader
//! and writer `san` that test suites need); the UCI and XBoard dialects build on the same
//! engine state; `matchplay` runs engine-against-engine matches (`chimera match`).

pub mod analyze;
pub mod bench;
pub mod cli;
pub mod epd;
pub mod input;
pub mod matchplay;
pub mod san;
pub mod state;
pub mod uci;
pub mod xboard;
