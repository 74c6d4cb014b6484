//! The tools that look at the rules without searching: `chimera variants`, `chimera check`,
//! `chimera perft` and `chimera eval-tables`.

use std::io::Write;
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
}
