//! UCI, in two jobs: reading its commands (`command`) and running the session on the shared
//! engine state (`session`, the [`Uci`] dialect). `command` knows nothing of the session.

pub mod command;
pub mod session;

pub use command::{Go, UciCommand};
pub use session::{bestmove_line, Uci};
