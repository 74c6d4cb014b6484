//! Input for the GUI dialects: standard input is read on its own thread and its lines sent over
//! a channel, so that `stop`, `isready`, `?` and `quit` are answered while a search runs; the
//! same channel carries finished searches. Input is read as bytes: a line that is not UTF-8, or
//! is longer than any command, becomes an [`Event::Unreadable`] that the dialect reports, and
//! only the real end of input ends the session.

use std::io::BufRead;
use std::sync::mpsc::Sender;

use crate::state::Event;

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
