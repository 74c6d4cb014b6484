//! Move generation: pseudo-legal generation from compiled tables (`generate`), the leg
//! interpreter for multi-leg moves (`legs`), several boards and turn parts (`boards`), the attack
//! test and legality filter (`legal`), the quick may-give-check filter (`checks`), move text
//! (`notation`) and perft (`perft`).

mod boards;
mod checks;
mod drops;
pub(crate) mod generate;
pub(crate) mod legal;
mod legs;
pub mod notation;
pub mod perft;

pub use generate::{MoveList, MAX_MOVES};
pub use legal::DeferredLegality;
pub use notation::MoveError;
