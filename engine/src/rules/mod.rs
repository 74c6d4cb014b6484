//! What no Betza string says, played on a position: game-end adjudication and the wording of
//! a result (`outcome`): checkmate, stalemate, a lost royal, the move-count rule and
//! repetition, each scored as the variant's file says, with xiangqi's perpetual chases and
//! janggi's moves back and forth (`chasing`); turns made of several parts (`turns`); Shatar's
//! mates (`shatar`). The rule data they read lives with the variant (`variant::ends`,
//! `variant::turns`, `variant::boards`).

mod chasing;
pub mod outcome;
mod shatar;
pub mod turns;

pub use outcome::{result_token, GameEnd, Termination};
