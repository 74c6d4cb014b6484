//! Chimera's text interfaces: the command line (`cli`: perft, the variant list, the variant
//! file checker, and the search tools `bench`, `analyze` and `epd`), and the GUI dialects, UCI
//! (`uci`) and XBoard (`xboard`), which share one engine state (`state`) fed by the input
//! thread (`input`), and write moves through `wire` and highlights through `highlight`.
//! Matches between engines are the `chimera-matchplay` crate's.

pub mod analyze;
pub mod bench;
pub mod cli;
pub mod epd;
pub mod highlight;
pub mod input;
pub mod state;
pub mod uci;
pub mod wire;
pub mod xboard;
