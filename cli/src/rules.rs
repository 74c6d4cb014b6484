//! The tools that look at the rules without searching: `chimera variants`, `chimera check`,
//! `chimera perft`, `chimera eval-tables`, and `chimera probe`, which answers many positions
//! at once for a differential test against another program (`tools/fsf_diff.py`).

use std::io::{BufRead, Write};
use std::time::Instant;

use chimera_engine::registry::Registry;
use chimera_protocol::report::perft_lines;
use chimera_protocol::wire::Castling;

/// `chimera eval-tables`: the evaluation tables of a variant, as text.
pub(crate) fn eval_tables(
    registry: &Registry,
    variant: &str,
    out: &mut impl Write,
) -> Result<(), String> {
    match registry.get(variant) {
        Some(v) => {
            write!(out, "{}", chimera_eval::Tables::new(&v).to_text()).map_err(|e| e.to_string())
        }
        None => Err(format!(
            "unknown variant '{variant}' (see 'chimera variants')"
        )),
    }
}

/// `chimera variants`: one line per variant.
pub(crate) fn list_variants(registry: &Registry, out: &mut impl Write) -> Result<(), String> {
    for name in registry.names() {
        let Some(v) = registry.get(&name) else {
            continue;
        };
        let g = &v.geometry();
        writeln!(
            out,
            "{name:<12} {}x{} {:>2} piece types  {}  [{}]",
            g.files,
            g.ranks,
            v.num_pieces(),
            v.start_fen(),
            v.source()
        )
        .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// `chimera check FILE`: validates a variant file without loading it.
pub(crate) fn check_file(
    registry: &Registry,
    file: &str,
    out: &mut impl Write,
) -> Result<(), String> {
    let text =
        chimera_engine::registry::read_definition_file(file).map_err(|e| format!("{file}: {e}"))?;
    let report = registry.check_text(&text, file);
    for n in &report.loaded {
        writeln!(out, "variant {n}: ok").map_err(|e| e.to_string())?;
    }
    for w in &report.warnings {
        writeln!(out, "{w}").map_err(|e| e.to_string())?;
    }
    if report.errors.is_empty() {
        return Ok(());
    }
    Err(format!(
        "{} problem(s):\n{}",
        report.errors.len(),
        report.errors_text("\n")
    ))
}

/// `chimera perft`: the move counts of each root move (divide) and their total.
pub(crate) fn perft(
    registry: &Registry,
    depth: u32,
    variant: &str,
    fen: Option<&str>,
    threads: usize,
    out: &mut impl Write,
) -> Result<(), String> {
    let mut pos = crate::position_of(registry, variant, fen)?;
    let start = Instant::now();
    let divide = if threads > 1 {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| e.to_string())?;
        pool.install(|| pos.perft_divide(depth, true))
    } else {
        pos.perft_divide(depth, false)
    };
    let secs = start.elapsed().as_secs_f64();
    let (lines, total) = perft_lines(&pos, depth, &divide, Castling::KingToTarget);
    let (last, moves) = lines.split_last().expect("perft_lines ends with the total");
    for line in moves {
        writeln!(out, "{line}").map_err(|e| e.to_string())?;
    }
    eprintln!(
        "time {:.3} s, {:.0} nodes/s",
        secs,
        total as f64 / secs.max(1e-9)
    );
    writeln!(out, "{last}").map_err(|e| e.to_string())
}

/// `chimera probe`: one answer line per input line `VARIANT<TAB>FEN|startpos<TAB>MOVES<TAB>DEPTH`
/// (moves space-separated, in coordinate notation; DEPTH 0 for no perft). The answer:
/// `ok<TAB>LEGAL<TAB>PERFT<TAB>END<TAB>FEN`: the legal moves sorted, in the notation
/// Fairy-Stockfish writes (castling as the king's move, or in Chess960 variants as the king
/// taking his rook), space-separated; perft at DEPTH (`-`
/// for depth 0); `-` or the end of the game from the side to move's view (`win`, `draw`,
/// `loss`, a colon and the reason); the FEN Chimera writes. A bad line gives
/// `error<TAB>MESSAGE` and the next line is read.
pub(crate) fn probe(
    registry: &Registry,
    input: impl BufRead,
    out: &mut impl Write,
) -> Result<(), String> {
    for line in input.lines() {
        let line = line.map_err(|e| e.to_string())?;
        if line.trim().is_empty() {
            continue;
        }
        let answer = match probe_line(registry, &line) {
            Ok(a) => format!("ok\t{a}"),
            Err(e) => format!("error\t{}", e.replace(['\t', '\n'], " ")),
        };
        writeln!(out, "{answer}").map_err(|e| e.to_string())?;
        out.flush().map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The answer to one `chimera probe` line, without its `ok`.
fn probe_line(registry: &Registry, line: &str) -> Result<String, String> {
    let fields: Vec<&str> = line.split('\t').collect();
    let [variant, fen, moves, depth] = fields[..] else {
        return Err(format!(
            "expected 4 tab-separated fields, got {}",
            fields.len()
        ));
    };
    let depth: u32 = depth
        .trim()
        .parse()
        .ok()
        .filter(|&d| d <= 6)
        .ok_or_else(|| format!("bad depth '{depth}' (0 to 6)"))?;
    let v = registry
        .get(variant.trim())
        .ok_or_else(|| format!("unknown variant '{variant}'"))?;
    let mut pos = match fen.trim() {
        "startpos" => chimera_engine::Position::startpos(&v),
        f => chimera_engine::Position::from_fen(&v, f).map_err(|e| format!("fen: {e}"))?,
    };
    for m in moves.split_whitespace() {
        pos.try_play(m)
            .map_err(|e| format!("{e} after {}", pos.fen()))?;
    }
    // Fairy-Stockfish writes castling as the king taking his rook in its Chess960 variants.
    let castling = if v.chess960() {
        Castling::KingTakesRook
    } else {
        Castling::KingToTarget
    };
    let mut legal: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&m| pos.move_text_in(m, castling))
        .collect();
    legal.sort();
    let perft = if depth == 0 {
        "-".to_string()
    } else {
        pos.perft(depth).to_string()
    };
    let end = match pos.outcome() {
        None => "-".to_string(),
        Some(e) => {
            let value = match e.winner {
                None => "draw",
                Some(c) if c == pos.side_to_move() => "win",
                Some(_) => "loss",
            };
            format!("{value}:{}", e.reason_text())
        }
    };
    Ok(format!(
        "{}\t{perft}\t{end}\t{}",
        legal.join(" "),
        pos.fen()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_reports_unknown_variants_and_bad_fens_as_errors() {
        let r = Registry::new();
        let mut out = Vec::new();
        assert!(perft(&r, 1, "nosuch", None, 1, &mut out).is_err());
        assert!(perft(&r, 1, "chess", Some("8/8/8 w - -"), 1, &mut out).is_err());
        assert!(perft(&r, 2, "chess", None, 1, &mut out).is_ok());
        let text = String::from_utf8(out).unwrap();
        assert!(text.trim_end().ends_with("Nodes searched: 400"), "{text}");
    }

    #[test]
    fn probe_answers_each_line_and_goes_on_after_a_bad_one() {
        let r = Registry::new();
        let input = "chess\tstartpos\te2e4 e7e5\t2\n\
                     chess\tstartpos\te2e5\t1\n\
                     nosuch\tstartpos\t\t1\n\
                     chess\t7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\t\t1\n";
        let mut out = Vec::new();
        probe(&r, input.as_bytes(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        let f: Vec<&str> = lines[0].split('\t').collect();
        assert_eq!(f[0], "ok");
        assert_eq!(f[1].split(' ').count(), 29);
        assert!(f[1].contains("e1e2") && f[1].contains("g1f3"), "{}", f[1]);
        assert_eq!(f[2], "835"); // pyffish 0.0.90 counts 835 too
        assert_eq!(f[3], "-");
        assert!(f[4].starts_with("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w"));
        assert!(lines[1].starts_with("error\t"), "{}", lines[1]);
        assert!(lines[2].starts_with("error\t"), "{}", lines[2]);
        let f: Vec<&str> = lines[3].split('\t').collect();
        assert_eq!(
            (f[1], f[2], f[3]),
            ("", "0", "draw:stalemate"),
            "{}",
            lines[3]
        );
    }
}
