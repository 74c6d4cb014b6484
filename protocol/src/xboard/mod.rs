//! XBoard (CECP version 2), in its jobs: translating Chimera's variants and squares into
//! XBoard's terms (`translate`), the forms in which the games XBoard cannot apply by its own
//! rules are shown to it (`present`), the layout both use for a piece-to-char table
//! (`slots`), answering a user's piece handling (`highlight`), reading XBoard's commands
//! (`command`), and running the session on the shared engine state (`session`, the
//! [`Xboard`] dialect). Only the session knows the session.

pub mod command;
pub mod highlight;
pub mod present;
pub mod session;
mod slots;
pub mod translate;

pub use session::Xboard;
