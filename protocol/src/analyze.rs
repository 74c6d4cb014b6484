//! `chimera analyze`: searches one position and prints each completed iteration (in the form of
//! UCI `info` lines) and then the best move.

use std::io::Write;

use chimera_engine::search::{IterationInfo, Limits, SearchReport, Searcher};
use chimera_engine::variant::Registry;
use chimera_engine::{Move, Position};
use chimera_eval::VariantEval;

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

/// The moves of a variation in coordinate notation, each written in the position it is made in.
pub fn pv_text(root: &Position, pv: &[Move]) -> String {
    let mut pos = root.clone();
    let mut words = Vec::with_capacity(pv.len());
    for &m in pv {
        words.push(pos.move_text(m));
        pos.make_move(m);
    }
    words.join(" ")
}

impl<W: Write> SearchReport for InfoPrinter<'_, W> {
    fn iteration(&mut self, info: &IterationInfo) {
        let line = crate::uci::info_line(&self.root, info);
        if let Err(e) = writeln!(self.out, "{line}").and_then(|_| self.out.flush()) {
            self.error.get_or_insert(e.to_string());
        }
    }
}

/// Runs `analyze`: the position is the variant's start or `fen`; the limits are a depth, a
/// time, or both.
pub fn run(
    registry: &Registry,
    variant: &str,
    fen: Option<&str>,
    limits: &Limits,
    threads: usize,
    out: &mut impl Write,
) -> Result<(), String> {
    let v = registry
        .get(variant)
        .ok_or_else(|| format!("unknown variant '{variant}' (see 'chimera variants')"))?;
    let pos = match fen {
        Some(f) => Position::from_fen(&v, f).map_err(|e| e.to_string())?,
        None => Position::startpos(&v),
    };
    let eval = VariantEval::new(&v);
    let mut searcher = Searcher::new(HASH_MB, threads);
    let mut printer = InfoPrinter {
        out,
        root: pos.clone(),
        error: None,
    };
    let r = searcher.search(&pos, limits, &eval, &mut printer);
    if let Some(e) = printer.error {
        return Err(e);
    }
    let best = r.best.map_or("(none)".to_string(), |m| pos.move_text(m));
    let line = match r.ponder {
        Some(p) => {
            let mut after = pos.clone();
            if let Some(b) = r.best {
                after.make_move(b);
            }
            format!("bestmove {best} ponder {}", after.move_text(p))
        }
        None => format!("bestmove {best}"),
    };
    writeln!(printer.out, "{line}").map_err(|e| e.to_string())
}
