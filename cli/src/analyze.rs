//! `chimera analyze`: searches one position and prints each completed iteration (in the form of
//! UCI `info` lines) and then the best move.

use std::io::Write;

use chimera_engine::registry::Registry;
use chimera_engine::search::{IterationInfo, Limits, SearchReport, Searcher};
use chimera_engine::Position;
use chimera_protocol::report::{best_and_ponder, info_line};

use crate::net::Nets;

/// The table size used by `analyze` and `epd`, in megabytes.
pub const HASH_MB: usize = 64;

/// Prints each iteration as a line of text.
pub struct InfoPrinter<'a, W: Write> {
    /// Where the lines go.
    pub out: &'a mut W,
    /// The root position, to write the principal variation's moves.
    pub root: Position,
    /// The first write error, if any (the search cannot be told to stop by a failed write).
    pub error: Option<String>,
}

impl<W: Write> SearchReport for InfoPrinter<'_, W> {
    fn iteration(&mut self, info: &IterationInfo) {
        let line = info_line(&self.root, info);
        if let Err(e) = writeln!(self.out, "{line}").and_then(|_| self.out.flush()) {
            self.error.get_or_insert(e.to_string());
        }
    }
}

/// Runs `analyze`: the position is the variant's start or `fen`; the limits are a depth, a
/// time, or both; `nets` say what evaluates ([`Nets`]).
pub fn run(
    registry: &Registry,
    variant: &str,
    fen: Option<&str>,
    limits: &Limits,
    threads: usize,
    nets: &Nets,
    out: &mut impl Write,
) -> Result<(), String> {
    let pos = crate::position_of(registry, variant, fen)?;
    let eval = nets.evaluator_noisy(pos.variant());
    let mut searcher = Searcher::new(HASH_MB, threads);
    // No GUI stands between the command line and the clock: the whole time is the search's.
    searcher.move_overhead = 0;
    let mut printer = InfoPrinter {
        out,
        root: pos.clone(),
        error: None,
    };
    let r = searcher.search(&pos, limits, eval.as_ref(), &mut printer);
    if let Some(e) = printer.error {
        return Err(e);
    }
    let line = match best_and_ponder(&pos, &r) {
        None => "bestmove (none)".to_string(),
        Some((best, None)) => format!("bestmove {best}"),
        Some((best, Some(p))) => format!("bestmove {best} ponder {p}"),
    };
    writeln!(printer.out, "{line}").map_err(|e| e.to_string())
}
