//! A GUI session on standard input and output: picks the dialect (from the command line, or
//! from the first line the GUI sends), then feeds it what the input thread reads. The only
//! module that knows both dialects, so that neither dialect has to know the other.

use std::sync::mpsc::channel;

use chimera_engine::registry::Registry;
use chimera_nnue::builtin::HAND;

use crate::dialect::{handle_guarded, run_loop, Dialect, Flow};
use crate::input::spawn_stdin;
use crate::state::{EngineState, Event, Output};
use crate::uci::Uci;
use crate::xboard::Xboard;

/// Runs a GUI session on standard input and output. With `dialect` given (`uci` or `xboard`)
/// that dialect starts at once and waits for the GUI's first command; otherwise the first line
/// decides (`xboard` selects XBoard, anything else UCI, and is then handled as its first
/// command). `net` is a net file to load first (`--net`), or `hand` for the hand-made
/// evaluation in every variant; a bad file is reported on standard error and the built-in
/// nets and the hand-made evaluation play.
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
    match net {
        Some(HAND) => state.set_use_nets(false),
        Some(path) => {
            if let Err(e) = state.set_eval_file(path) {
                // A net kept for another variant than the starting one (chess) plays once
                // the GUI chooses its variant: a note, not an error.
                match state.net_variant() {
                    Some(v) => eprintln!("chimera: --net: {path} plays {v} once it is chosen"),
                    None => eprintln!("chimera: --net: {e}; it is not used"),
                }
            }
        }
        None => {}
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
