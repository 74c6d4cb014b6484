//! Chimera's rules core.
//!
//! - `types`: the vocabulary every layer shares (colours, squares, geometry, cells, moves);
//! - `variant`: variants as data: the INI format, XBetza, compiled move tables, the registry;
//! - `board`: the position, make/unmake, FEN;
//! - `movegen`: pseudo-legal generation, the attack test, legality, move text, perft.
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
