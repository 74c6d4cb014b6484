//! The in-process driver the transcript tests and scripted sessions use: it feeds a dialect
//! one line at a time and waits for the searches that end by themselves, so that a test
//! reads every answer before it sends the next line.

use std::sync::mpsc::{channel, Receiver};

use chimera_engine::registry::Registry;

use crate::dialect::{Dialect, Flow};
use crate::input::LineSplitter;
use crate::state::{EngineState, Event, Output};

/// Drives a dialect in-process, one line at a time, for tests and scripted use: after each
/// line it waits for any search that ends by itself (or was stopped), so every result is
/// known before the next line is read. Open-ended searches keep running until a line
/// stops them.
pub struct Driver<D: Dialect> {
    /// The dialect.
    pub dialect: D,
    rx: Receiver<Event>,
    quit: bool,
}

impl<D: Dialect> Driver<D> {
    /// A driver for the dialect built by `make` from a state writing to `out`.
    pub fn new(registry: Registry, out: Output, make: impl FnOnce(EngineState) -> D) -> Self {
        let (tx, rx) = channel();
        let state = EngineState::new(registry, out, tx);
        Driver {
            dialect: make(state),
            rx,
            quit: false,
        }
    }

    /// Handles one line and waits as described above; returns `false` once the dialect quit.
    pub fn feed(&mut self, line: &str) -> bool {
        self.send(line);
        self.settle();
        !self.quit
    }

    /// Handles one line without waiting for the search it may start, as a GUI does when it
    /// sends `?` or `stop` to an engine that is thinking; returns `false` once the dialect quit.
    pub fn send(&mut self, line: &str) -> bool {
        self.send_event(Event::Line(line.to_string()))
    }

    /// Handles raw input bytes as standard input would be read ([`LineSplitter`]): each line
    /// they hold (a last line without a newline too) is handled as by [`Driver::feed`].
    /// Returns `false` once the dialect quit.
    pub fn feed_bytes(&mut self, bytes: &[u8]) -> bool {
        for ev in Self::lines_of(bytes) {
            self.send_event(ev);
            self.settle();
        }
        !self.quit
    }

    /// Like [`Driver::feed_bytes`], but without waiting for the searches the lines start, as
    /// a GUI that sends its commands whatever the engine is doing. Returns `false` once the
    /// dialect quit.
    pub fn send_bytes(&mut self, bytes: &[u8]) -> bool {
        for ev in Self::lines_of(bytes) {
            self.send_event(ev);
        }
        !self.quit
    }

    fn lines_of(bytes: &[u8]) -> Vec<Event> {
        let mut splitter = LineSplitter::default();
        let mut events = splitter.push(bytes);
        events.extend(splitter.finish());
        events
    }

    /// Handles what finished searches send back for up to `limit`, until nothing runs any
    /// more (open-ended searches included); returns `true` when nothing does.
    pub fn settle_for(&mut self, limit: std::time::Duration) -> bool {
        let deadline = std::time::Instant::now() + limit;
        while self.dialect.state().searching() && !self.quit {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let Ok(ev) = self.rx.recv_timeout(left) else {
                break;
            };
            if self.dialect.handle(ev) == Flow::Quit {
                self.quit = true;
            }
        }
        !self.dialect.state().searching()
    }

    fn send_event(&mut self, ev: Event) -> bool {
        if self.quit {
            return false;
        }
        if self.dialect.handle(ev) == Flow::Quit {
            self.quit = true;
        }
        !self.quit
    }

    /// Waits for searches that will end by themselves.
    pub fn settle(&mut self) {
        while self.dialect.state().should_wait() {
            let Ok(ev) = self.rx.recv() else { return };
            if self.dialect.handle(ev) == Flow::Quit {
                self.quit = true;
            }
        }
    }
}
