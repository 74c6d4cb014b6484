//! Move generation: pseudo-legal generation from compiled tables (`generate`), the leg
//! interpreter for multi-leg moves (`legs`), several boards and turn parts (`boards`), the attack
//! test and legality filter (`legal`), the drop/hand family's filters (`hands`), the quick
//! may-give-check filter (`checks`), the makruk family's moves (`makruk`), move text in
//! coordinate notation (`notation`) and in SAN (`san`), perft (`perft`) and the move list that
//! spills to the heap (`list`).

mod boards;
mod checks;
mod chesslike;
mod drops;
pub mod ends;
pub(crate) mod generate;
mod hands;
pub(crate) mod legal;
mod legs;
mod list;
mod makruk;
pub mod notation;
mod palace;
pub mod perft;
pub mod san;
mod shogi;
mod walls;

pub use generate::{MoveList, INLINE_MOVES};
pub use legal::DeferredLegality;
pub use list::SpillVec;
pub use notation::MoveError;
