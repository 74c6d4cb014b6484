//! Chimera's GUI protocols: the UCI (`uci`) and XBoard (`xboard`) dialects. Both are a
//! [`dialect::Dialect`] run on one engine state (`state`); a session on standard input and
//! output (`stdio`) picks the dialect and feeds it the lines the input thread reads (`input`),
//! and tests feed it in-process through `driver`. Both write moves through `wire`
//! (XBoard's highlights are its own, `xboard::highlight`), what a search found through `report` (which the command-line tools of
//! `chimera-cli` write too), and tell the GUI the same engine and variant facts (`facts`). The
//! engine's options are declared once, in `options`, for both dialects and the web board.
//! Matches between engines are the `chimera-matchplay` crate's.

pub mod dialect;
pub mod driver;
pub mod facts;
pub mod input;
pub mod options;
pub mod report;
pub mod state;
pub mod stdio;
pub mod uci;
pub mod wire;
pub mod xboard;

// The options table against both dialects: a module above `options`, `uci` and `xboard`, so
// that the test reaching all three makes no circle between them.
#[cfg(test)]
mod options_in_dialects;
