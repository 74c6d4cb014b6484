//! Input for the GUI dialects: standard input is read on its own thread and its lines sent over
//! a channel, so that `stop`, `isready`, `?` and `quit` are answered while a search runs; the
//! same channel carries finished searches. Also the loop that feeds a dialect, the in-process
//! driver the transcript tests use, and protocol detection from the first line.

use std::io::BufRead;
use std::sync::mpsc::{channel, Receiver, Sender};

use chimera_engine::variant::Registry;

use crate::state::{EngineState, Event, Output};

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

/// Starts the thread that reads standard input into `tx`, one [`Event::Line`] per line and
/// [`Event::Eof`] at the end.
pub fn spawn_stdin(tx: Sender<Event>) {
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        for line in stdin.lock().lines() {
            let Ok(line) = line else { break };
            if tx.send(Event::Line(line)).is_err() {
                return;
            }
        }
        let _ = tx.send(Event::Eof);
    });
}

/// Feeds events to `dialect` until it quits or the channel closes.
pub fn run_loop(dialect: &mut dyn Dialect, rx: &Receiver<Event>) {
    while let Ok(ev) = rx.recv() {
        if dialect.handle(ev) == Flow::Quit {
            break;
        }
    }
}

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
        if self.quit {
            return false;
        }
        if self.dialect.handle(Event::Line(line.to_string())) == Flow::Quit {
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

/// Runs a GUI session on standard input and output. With `dialect` given (`uci` or `xboard`)
/// that dialect starts at once and waits for the GUI's first command; otherwise the first line
/// decides (`xboard` selects XBoard, anything else UCI, and is then handled as its first
/// command).
pub fn run_stdio(registry: Registry, dialect: Option<&str>) {
    let (tx, rx) = channel();
    spawn_stdin(tx.clone());
    let out = Output::stdout();
    let first = match dialect {
        Some(_) => None,
        None => match rx.recv() {
            Ok(ev) => Some(ev),
            Err(_) => return,
        },
    };
    let is_xboard = match (&first, dialect) {
        (_, Some(d)) => d == "xboard",
        (Some(Event::Line(l)), None) => l.trim() == "xboard",
        _ => false,
    };
    let state = EngineState::new(registry, out, tx);
    let mut d: Box<dyn Dialect> = if is_xboard {
        Box::new(crate::xboard::Xboard::new(state))
    } else {
        Box::new(crate::uci::Uci::new(state))
    };
    if let Some(ev) = first {
        if d.handle(ev) == Flow::Quit {
            return;
        }
    }
    run_loop(d.as_mut(), &rx);
}
