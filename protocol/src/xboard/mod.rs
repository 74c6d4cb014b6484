//! XBoard (CECP version 2), in its three jobs: translating Chimera's variants and squares into
//! XBoard's terms (`translate`), reading XBoard's commands (`command`), and running the
//! session on the shared engine state (`session`, the [`Xboard`] dialect). `translate` and
//! `command` know nothing of the session; the session uses both.

pub mod command;
pub mod present;
pub mod session;
pub mod translate;

pub use session::Xboard;
