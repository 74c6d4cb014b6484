//! What every GUI dialect is to the code that feeds it: the [`Dialect`] trait, the [`Flow`] a
//! command asks for, and the loop that hands a dialect its events and keeps a panicking
//! command from ending the session. It knows neither where events come from nor which
//! dialects exist, so that the dialects, the stdio session and the test driver can all
//! depend on it without depending on one another.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::Receiver;

use crate::state::{panic_text, EngineState, Event};

/// What a dialect wants after a command.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading.
    Continue,
    /// End the session.
    Quit,
}

/// A GUI dialect: it handles events and says when its loop must wait for a search.
pub trait Dialect {
    /// Handles one event.
    fn handle(&mut self, event: Event) -> Flow;
    /// The shared state.
    fn state(&self) -> &EngineState;
}

/// Feeds events to `dialect` until it quits or the channel closes.
pub fn run_loop(dialect: &mut dyn Dialect, rx: &Receiver<Event>) {
    while let Ok(ev) = rx.recv() {
        if handle_guarded(dialect, ev) == Flow::Quit {
            break;
        }
    }
}

/// Hands one event to the dialect. A defect that panics while handling it must not take the
/// GUI's engine away: it is reported as an error line and the session goes on (the commands
/// build their results before they change the state, so a failed one leaves it as it was).
pub(crate) fn handle_guarded(dialect: &mut dyn Dialect, ev: Event) -> Flow {
    match catch_unwind(AssertUnwindSafe(|| dialect.handle(ev))) {
        Ok(flow) => flow,
        Err(panic) => {
            let state = dialect.state();
            let text = format!("internal error: {}", panic_text(&panic));
            state.out.line(&(state.error_line)(&text));
            Flow::Continue
        }
    }
}
