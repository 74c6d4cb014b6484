//! Chimera's rules core and search, in layers that refer only downwards (tests/layers.rs
//! checks it): `types` (colours, squares, geometry, cells, moves) < `variant` (variants as
//! data: the INI format, XBetza, compiled move tables, rule data, a FEN's text) < `board` (the
//! position, make/unmake, FEN) < `movegen` (generation, legality, notation and SAN, perft) <
//! `rules` (game ends, turns in parts) < `registry` (built-in and loaded variants, their start
//! positions checked on a board) < `search`.
//!
//! The public front, for the evaluation, the protocols and tools:
//! - [`Registry`] and [`registry::builtin`]: variants by name, loaded from files or lines;
//! - [`Variant`] (shared as [`VariantRef`]): the rules, read-only through accessors (no public
//!   field), and queries on them (`plain_moves` for the evaluation's walks, `empty_board_reach`,
//!   `royal_limit`, ...). A definition is built in three stages inside `variant`: read into a
//!   plain spec (one key table), concluded into rules, compiled into tables;
//! - [`Position`]: FEN in and out, legal moves ([`MoveList`]), make/unmake, move text
//!   ([`movegen::notation`]: every move's text, castling in either style; [`movegen::san`]:
//!   SAN for PGN and test suites), perft ([`movegen::perft`]), game ends ([`rules`]);
//! - [`search`]: the [`search::Searcher`], its limits, reports and results, and the
//!   [`search::Evaluator`] trait an evaluation implements.
//!
//! The inner rooms (make/unmake's journal, the generators, the compiled tables' builders) are
//! private to the crate.
#![deny(missing_docs)]

pub mod board;
pub mod movegen;
pub mod registry;
pub mod rules;
pub mod search;
pub mod types;
pub mod variant;

pub use board::{FenError, Position};
pub use movegen::{MoveError, MoveList};
pub use registry::Registry;
pub use types::{Color, Move, MoveKind, PieceId, Square};
pub use variant::{Variant, VariantRef};
