//! A GUI session on standard input and output: picks the dialect (from the command line, or
//! from the first line the GUI sends), then feeds it what the input thread reads. The only
//! module that knows both dialects, so that neither dialect has to know the other.

use std::sync::mpsc::channel;

use chimera_engine::registry::Registry;

use crate::dialect::{handle_guarded, run_loop, Dialect, Flow};
use crate::input::spawn_stdin;
use crate::state::{EngineState, Event, Output};
use crate::uci::Uci;
use crate::xboard::Xboard;

/// Runs a GUI session on standard input and output. With `dialect` given (`uci` or `xboard`)
/// that dialect starts at once and waits for the GUI's first command; otherwise the first line
/// decides (`xboard` selects XBoard, anything else UCI, and is then handled as its first
/// command). `net` is a net file to load first (`--net`); a bad one is reported on standard
/// error and the hand-made evaluation plays.
pub fn run_stdio(registry: Registry, dialect: Option<&str>, net: Option<&str>) {
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
    let mut state = EngineState::new(registry, out, tx);
    if let Some(path) = net {
        if let Err(e) = state.set_eval_file(path) {
            // A net kept for another variant than the starting one (chess) plays once the
            // GUI chooses its variant: a note, not an error.
            match state.net_variant() {
                Some(v) => eprintln!("chimera: --net: {path} plays {v} once it is chosen"),
                None => eprintln!("chimera: --net: {e}; the hand-made evaluation plays"),
            }
        }
    }
    let mut d: Box<dyn Dialect> = if is_xboard {
        Box::new(Xboard::new(state))
    } else {
        Box::new(Uci::new(state))
    };
    if let Some(ev) = first {
        if handle_guarded(d.as_mut(), ev) == Flow::Quit {
            return;
        }
    }
    run_loop(d.as_mut(), &rx);
}
