//! What no Betza string says: game-end adjudication (`outcome`): checkmate, stalemate, a lost
//! royal, the move-count rule and repetition, each scored as the variant's file says; several
//! boards and the moves between them (`boards`); turns made of several parts (`turns`).

pub mod boards;
pub mod outcome;
pub mod turns;

pub use outcome::{GameEnd, Termination};
