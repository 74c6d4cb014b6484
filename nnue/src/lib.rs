//! Chimera's learned evaluation, for any variant the engine can play: self-play data
//! (`datagen`, written in the `data` format), the network's inputs read from the variant
//! (`features`), the float network and its trainer (`network`, `train`), the quantised net and
//! its file format (`netfile`), and the engine side: accumulators kept up to date from
//! make/unmake's journal (`accumulator`) behind the search's `Evaluator` trait (`eval`), and
//! the nets built into the binary with the rule that picks a variant's evaluation
//! (`builtin`). The command lines `chimera datagen` and `chimera train` are parsed and run in
//! `cli`.

pub mod accumulator;
pub mod builtin;
pub mod calibrate;
pub mod cli;
pub mod data;
pub mod datagen;
pub mod eval;
pub mod features;
pub mod netfile;
pub mod network;
mod simd;
pub mod train;
pub mod transfer;
