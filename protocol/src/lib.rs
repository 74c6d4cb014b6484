//! Chimera's text interfaces. For now the command line (`cli`): perft, the variant list and the
//! variant file checker; the UCI and XBoard dialects build on the same engine state later.

pub mod cli;
