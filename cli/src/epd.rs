//! `chimera epd FILE --movetime MS`: runs a test suite of EPD records (`bm` best moves and `am`
//! avoid moves in SAN, as in Win At Chess) and prints the number solved. A position is solved
//! when the move chosen at the end of the search is one of its `bm` moves and none of its `am`.
//! Each line also says when the search found the answer for good (time and nodes), so that one
//! long run shows how many positions a shorter budget would solve.

use std::io::Write;
use std::time::Duration;

use chimera_engine::movegen::san::{parse_san, to_san};
use chimera_engine::registry::Registry;
use chimera_engine::search::{IterationInfo, Limits, SearchReport, Searcher};
use chimera_engine::{Move, Position};

use crate::net::Nets;

/// One test position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdRecord {
    /// The position (the four EPD fields, with move counters added).
    pub fen: String,
    /// `bm` moves, in SAN.
    pub best: Vec<String>,
    /// `am` moves, in SAN.
    pub avoid: Vec<String>,
    /// The `id`, or the line number.
    pub id: String,
}

/// Parses one EPD line; `None` for blank lines and comments.
pub fn parse_line(line: &str, number: usize) -> Result<Option<EpdRecord>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let fields: Vec<&str> = line.splitn(5, ' ').collect();
    if fields.len() < 4 {
        return Err(format!("line {number}: fewer than four EPD fields"));
    }
    let fen = format!(
        "{} {} {} {} 0 1",
        fields[0], fields[1], fields[2], fields[3]
    );
    let mut rec = EpdRecord {
        fen,
        best: Vec::new(),
        avoid: Vec::new(),
        id: format!("line {number}"),
    };
    for op in fields.get(4).copied().unwrap_or("").split(';') {
        let op = op.trim();
        let (code, args) = op.split_once(' ').unwrap_or((op, ""));
        let words = || {
            args.split_whitespace()
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        match code {
            "bm" => rec.best = words(),
            "am" => rec.avoid = words(),
            "id" => rec.id = args.trim().trim_matches('"').to_string(),
            _ => {}
        }
    }
    if rec.best.is_empty() && rec.avoid.is_empty() {
        return Err(format!("line {number}: no bm or am"));
    }
    Ok(Some(rec))
}

/// Watches the iterations of one search for the moment its best move became right and stayed
/// right: the first of the final run of iterations whose best move solves the position.
struct SolutionWatch<'a> {
    best: &'a [Move],
    avoid: &'a [Move],
    /// Time and nodes of the first iteration of the current run of right answers.
    found: Option<(Duration, u64)>,
}

impl SolutionWatch<'_> {
    fn solves(&self, m: Move) -> bool {
        (self.best.is_empty() || self.best.contains(&m)) && !self.avoid.contains(&m)
    }
}

impl SearchReport for SolutionWatch<'_> {
    fn iteration(&mut self, info: &IterationInfo) {
        if info.multipv != 1 {
            return;
        }
        match info.pv.first() {
            Some(&m) if self.solves(m) => {
                self.found.get_or_insert((info.time, info.nodes));
            }
            _ => self.found = None,
        }
    }
}

/// Runs the suite in `file` on `variant` with `limits` for every position (a fresh table each
/// time); prints one line per position and `solved N/M` last. Returns (solved, total).
pub fn run(
    registry: &Registry,
    file: &str,
    variant: &str,
    limits: &Limits,
    threads: usize,
    nets: &Nets,
    out: &mut impl Write,
) -> Result<(usize, usize), String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: cannot read: {e}"))?;
    let v = registry
        .get(variant)
        .ok_or_else(|| format!("unknown variant '{variant}'"))?;
    let eval = nets.evaluator_noisy(&v);
    let mut searcher = Searcher::new(crate::analyze::HASH_MB, threads);
    // No GUI stands between the command line and the clock: the whole time is the search's.
    searcher.move_overhead = 0;
    let (mut solved, mut total) = (0, 0);
    for (n, line) in text.lines().enumerate() {
        let Some(rec) = parse_line(line, n + 1).map_err(|e| format!("{file}: {e}"))? else {
            continue;
        };
        let mut pos =
            Position::from_fen(&v, &rec.fen).map_err(|e| format!("{file}: {}: {e}", rec.id))?;
        let resolve = |pos: &mut Position, list: &[String]| -> Result<Vec<Move>, String> {
            list.iter()
                .map(|s| {
                    parse_san(pos, s)
                        .ok_or_else(|| format!("{file}: {}: '{s}' is not a legal move", rec.id))
                })
                .collect()
        };
        let best = resolve(&mut pos, &rec.best)?;
        let avoid = resolve(&mut pos, &rec.avoid)?;
        searcher.clear();
        let mut watch = SolutionWatch {
            best: &best,
            avoid: &avoid,
            found: None,
        };
        let r = searcher.search(&pos, limits, eval.as_ref(), &mut watch);
        total += 1;
        let ok = r.best.is_some_and(|m| watch.solves(m));
        if ok {
            solved += 1;
        }
        let found = if ok {
            // A right move that only came with the last, unfinished iteration was found at
            // the end.
            let (time, nodes) = watch.found.unwrap_or((r.time, r.nodes));
            format!("{}ms/{}", time.as_millis(), nodes)
        } else {
            "-".to_string()
        };
        let played = r.best.map_or("(none)".to_string(), |m| to_san(&mut pos, m));
        writeln!(
            out,
            "{:<10} {:<6} {:<8} expected {:<12} depth {:>2} {:<10} found {}",
            rec.id,
            if ok { "ok" } else { "FAIL" },
            played,
            if rec.best.is_empty() {
                format!("not {}", rec.avoid.join(" "))
            } else {
                rec.best.join(" ")
            },
            r.depth,
            r.score.to_string(),
            found
        )
        .map_err(|e| e.to_string())?;
    }
    writeln!(out, "solved {solved}/{total}").map_err(|e| e.to_string())?;
    Ok((solved, total))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mate in two (WAC.001) and a quiet position where one move is to be avoided: both are
    /// solved, and each line says when, within the budget.
    #[test]
    fn reports_when_each_answer_was_found() {
        let suite = "\
2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"mate\";
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - am f3; id \"opening\";
";
        let path = std::env::temp_dir().join(format!("chimera-epd-{}.epd", std::process::id()));
        std::fs::write(&path, suite).unwrap();
        let limits = Limits {
            nodes: Some(20_000),
            ..Limits::default()
        };
        let mut out = Vec::new();
        let result = run(
            &Registry::new(),
            path.to_str().unwrap(),
            "chess",
            &limits,
            1,
            &Nets::default(),
            &mut out,
        );
        std::fs::remove_file(&path).unwrap();
        assert_eq!(result, Ok((2, 2)));
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        for line in &lines[..2] {
            assert!(line.contains(" ok "), "{line}");
            let found = line.rsplit(' ').next().unwrap();
            let (ms, nodes) = found.split_once("ms/").expect(line);
            assert!(ms.parse::<u64>().is_ok(), "{line}");
            assert!(nodes.parse::<u64>().unwrap() <= 20_000, "{line}");
        }
        assert!(lines[0].contains("mate 2"), "{}", lines[0]);
        assert_eq!(lines[2], "solved 2/2");
    }
}
