//! In-process GUI sessions for the protocol tests: a UCI or XBoard driver over the built-in
//! variants with its output captured, and `talk`, which feeds lines and returns the answer.
#![allow(dead_code)] // each test file uses the part it needs

use chimera_engine::registry::Registry;
use chimera_protocol::dialect::Dialect;
use chimera_protocol::driver::Driver;
use chimera_protocol::state::{Capture, Output};
use chimera_protocol::uci::Uci;
use chimera_protocol::xboard::Xboard;

/// A UCI session and the capture of what it writes.
pub fn uci() -> (Driver<Uci>, Capture) {
    let (out, cap) = Output::capture();
    (Driver::new(Registry::new(), out, Uci::new), cap)
}

/// An XBoard session and the capture of what it writes.
pub fn xboard() -> (Driver<Xboard>, Capture) {
    let (out, cap) = Output::capture();
    (Driver::new(Registry::new(), out, Xboard::new), cap)
}

/// Feeds every line, then returns what the engine wrote (lines of a search running in the
/// background may come later).
pub fn talk<D: Dialect>(d: &mut Driver<D>, cap: &Capture, lines: &[&str]) -> Vec<String> {
    for l in lines {
        d.feed(l);
    }
    cap.take()
}

/// The engine's move in XBoard output: a multi-leg move comes one leg per `move` line, every
/// leg but the last ending with a comma, and is joined back into one token here.
pub fn xboard_move(lines: &[String]) -> Option<String> {
    let mut text = String::new();
    for l in lines {
        if let Some(leg) = l.strip_prefix("move ") {
            text.push_str(leg);
            if !leg.ends_with(',') {
                return Some(text);
            }
        }
    }
    None
}
