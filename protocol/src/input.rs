//! Input for the GUI dialects: standard input is read on its own thread and its lines sent over
//! a channel, so that `stop`, `isready`, `?` and `quit` are answered while a search runs; the
//! same channel carries finished searches. Input is read as bytes: a line that is not UTF-8, or
//! is longer than any command, becomes an [`Event::Unreadable`] that the dialect reports, and
//! only the real end of input ends the session. Also the loop that feeds a dialect, the
//! in-process driver the transcript tests use, and protocol detection from the first line.

use std::io::BufRead;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{channel, Receiver, Sender};

use chimera_engine::registry::Registry;

use crate::state::{panic_text, EngineState, Event, Output};

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

/// The longest line taken as a command, in bytes. The longest real ones are `position`
/// commands of long games (a thousand moves are some 6 KB); anything past this is not a
/// command, and keeping it would let one endless line fill the memory.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Cuts a byte stream into line events: [`Event::Line`] for a UTF-8 line (without its `\n` or
/// `\r\n`), [`Event::Unreadable`] for one that is not UTF-8 or is longer than
/// [`MAX_LINE_BYTES`] (of which only the start is kept, to name it).
#[derive(Default)]
pub struct LineSplitter {
    line: Vec<u8>,
    /// Bytes of the current line dropped past the limit.
    dropped: usize,
}

impl LineSplitter {
    /// Takes the next bytes of the stream; returns the lines they complete.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<Event> {
        let mut events = Vec::new();
        let mut rest = bytes;
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            self.keep(&rest[..end]);
            events.push(self.take());
            rest = &rest[end + 1..];
        }
        self.keep(rest);
        events
    }

    /// The end of the stream: the last line, if it had no newline.
    pub fn finish(&mut self) -> Option<Event> {
        (!self.line.is_empty() || self.dropped > 0).then(|| self.take())
    }

    fn keep(&mut self, bytes: &[u8]) {
        let room = MAX_LINE_BYTES.saturating_sub(self.line.len());
        let kept = bytes.len().min(room);
        self.line.extend_from_slice(&bytes[..kept]);
        self.dropped += bytes.len() - kept;
    }

    fn take(&mut self) -> Event {
        let mut line = std::mem::take(&mut self.line);
        let dropped = std::mem::take(&mut self.dropped);
        if line.last() == Some(&b'\r') && dropped == 0 {
            line.pop();
        }
        let shown = || -> String {
            let start = &line[..line.len().min(60)];
            String::from_utf8_lossy(start).escape_debug().to_string()
        };
        if dropped > 0 {
            return Event::Unreadable(format!(
                "line of {} bytes is longer than {MAX_LINE_BYTES}: \"{}...\"",
                line.len() + dropped,
                shown()
            ));
        }
        match String::from_utf8(line) {
            Ok(text) => Event::Line(text),
            Err(e) => {
                let line = e.into_bytes();
                let at = std::str::from_utf8(&line).map_or_else(|e| e.valid_up_to(), |_| 0);
                let text = String::from_utf8_lossy(&line).escape_debug().to_string();
                Event::Unreadable(format!("line is not UTF-8 (byte {at}): \"{text}\""))
            }
        }
    }
}

/// Reads `input` to its end, sending one line event per line and [`Event::Eof`] at the end (or
/// on a read error other than an interruption). Returns early when nobody listens any more.
pub fn read_events(mut input: impl BufRead, tx: &Sender<Event>) {
    let mut splitter = LineSplitter::default();
    loop {
        let chunk = match input.fill_buf() {
            Ok([]) => break,
            Ok(chunk) => chunk,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let n = chunk.len();
        let events = splitter.push(chunk);
        input.consume(n);
        for ev in events {
            if tx.send(ev).is_err() {
                return;
            }
        }
    }
    if let Some(ev) = splitter.finish() {
        let _ = tx.send(ev);
    }
    let _ = tx.send(Event::Eof);
}

/// Starts the thread that reads standard input into `tx` ([`read_events`]).
pub fn spawn_stdin(tx: Sender<Event>) {
    std::thread::spawn(move || read_events(std::io::stdin().lock(), &tx));
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
fn handle_guarded(dialect: &mut dyn Dialect, ev: Event) -> Flow {
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
        if handle_guarded(d.as_mut(), ev) == Flow::Quit {
            return;
        }
    }
    run_loop(d.as_mut(), &rx);
}
