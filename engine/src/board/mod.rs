//! The board: the position and its primitive edits (`position`), make/unmake (`make`), and
//! FEN reading and writing (`fen`), the makruk family's rules after a move (`makruk`), and what is odd about a position the rules can play
//! (`oddities`), and a read-only view of the journal of edits (`journal`).

pub(crate) mod fen;
mod journal;
mod make;
mod makruk;
mod oddities;
pub(crate) mod position;
mod query;

pub use crate::variant::setup::FenError;
pub use journal::Edit;
pub use position::{Position, State};
