//! What no Betza string says: for now, game-end adjudication (`outcome`): checkmate, stalemate,
//! a lost royal, the move-count rule and repetition, each scored as the variant's file says.

pub mod outcome;

pub use outcome::{GameEnd, Termination};
