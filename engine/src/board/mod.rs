//! The board: the position and its primitive edits (`position`), make/unmake (`make`), and
//! FEN reading and writing (`fen`), and what is odd about a position the rules can play
//! (`oddities`), a read-only view of the journal of edits (`journal`), the state of the
//! drop/hand family and n-check (`hands`), and the makruk family's rules after a move
//! (`makruk`).

pub(crate) mod fen;
mod hands;
mod journal;
mod make;
mod makruk;
mod oddities;
mod petrify;
pub(crate) mod position;
mod query;

pub use crate::variant::setup::FenError;
pub use journal::Edit;
pub use position::{Position, State};
