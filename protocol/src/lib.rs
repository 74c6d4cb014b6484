//! Chimera's GUI protocols: the UCI (`uci`) and XBoard (`xboard`) dialects, which share one
//! engine state (`state`) fed by the input thread (`input`), write moves through `wire`,
//! highlights through `highlight`, and what a search found through `report` (which the
//! command-line tools of `chimera-cli` write too). Matches between engines are the
//! `chimera-matchplay` crate's.

pub mod highlight;
pub mod input;
pub mod report;
pub mod state;
pub mod uci;
pub mod wire;
pub mod xboard;
