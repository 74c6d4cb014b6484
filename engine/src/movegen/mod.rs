//! Move generation: pseudo-legal generation from compiled tables (`generate`), the attack test
//! and legality filter (`legal`), move text (`notation`) and perft (`perft`).

pub mod generate;
pub mod legal;
pub mod notation;
pub mod perft;

pub use generate::{MoveList, MAX_MOVES};
pub use notation::MoveError;
