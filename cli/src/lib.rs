//! The command line: `chimera perft`, `chimera variants`, `chimera check`, `chimera eval-tables`
//! (`rules`), the search tools `chimera bench`, `chimera analyze` and `chimera epd`, `chimera
//! help`, `chimera match` and `chimera pgn-check` (handed to `chimera-matchplay`), `chimera
//! datagen` and `chimera train` (handed to `chimera-nnue`), and the GUI
//! protocols (`chimera` alone, `chimera uci`, `chimera xboard`, handed to `chimera-protocol`).
//! Arguments are parsed into a typed command first (`args`), then run; every error is a
//! message on standard error and a non-zero exit code, never a panic.
//!
//! The tools are a crate of their own so that the GUI session code never imports them: what
//! both write alike (the PV, the best move, the `info` line) is `chimera_protocol::report`.

pub mod analyze;
mod args;
pub mod bench;
pub mod epd;
pub mod net;
mod rules;

use std::io::Write;

use chimera_engine::registry::Registry;
use chimera_engine::Position;

use args::{parse_args, Command, USAGE};

/// The position a tool works on: `variant`'s start, or `fen` read for it. What is odd about
/// a FEN's position, though playable, is said on standard error.
pub(crate) fn position_of(
    registry: &Registry,
    variant: &str,
    fen: Option<&str>,
) -> Result<Position, String> {
    let v = registry
        .get(variant)
        .ok_or_else(|| format!("unknown variant '{variant}' (see 'chimera variants')"))?;
    let pos = match fen {
        Some(f) => Position::from_fen(&v, f).map_err(|e| e.to_string())?,
        None => Position::startpos(&v),
    };
    for w in pos.oddities() {
        eprintln!("chimera: warning: {w}");
    }
    Ok(pos)
}

/// Runs a command line; returns the process exit code.
pub fn run(args: &[String]) -> i32 {
    // The match runner and the PGN checker have options of their own.
    match args.first().map(String::as_str) {
        Some("match") => return chimera_matchplay::run(&args[1..]),
        Some("pgn-check") => return chimera_matchplay::check_pgn(&args[1..]),
        Some("serve") => return chimera_web::run(&args[1..]),
        Some("datagen") => return chimera_nnue::cli::datagen_main(&args[1..]),
        Some("train") => return chimera_nnue::cli::train_main(&args[1..]),
        _ => {}
    }
    let (command, common) = match parse_args(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("chimera: {e}");
            return 2;
        }
    };
    for w in &common.warnings {
        eprintln!("chimera: {w}");
    }
    let mut registry = Registry::new();
    for file in &common.variant_files {
        // A bad section is reported and left out; a file with no good section is an error.
        let report = registry.load_file(file);
        for e in &report.errors {
            eprintln!("chimera: {e}");
        }
        if report.loaded.is_empty() && !report.errors.is_empty() {
            return 1;
        }
    }
    if let Some(line) = &common.diagram {
        if let Err(errors) = registry.load_diagram("diagram", line) {
            for e in errors {
                eprintln!("chimera: {e}");
            }
            return 1;
        }
    }
    if let Command::Protocol(dialect) = command {
        chimera_protocol::stdio::run_stdio(registry, dialect, common.net.as_deref());
        return 0;
    }
    let nets = net::Nets::from_arg(common.net.as_deref());
    let out = std::io::stdout();
    let mut out = out.lock();
    let result = match command {
        Command::Protocol(_) => Ok(()),
        Command::Help => writeln!(out, "{USAGE}").map_err(|e| e.to_string()),
        Command::Variants => rules::list_variants(&registry, &mut out),
        Command::Check { file } => rules::check_file(&registry, &file, &mut out),
        Command::Probe => rules::probe(&registry, std::io::stdin().lock(), &mut out),
        Command::Bench { depth, threads } => {
            bench::run_with_nets(&registry, depth, threads, &nets, &mut out).map(|_| ())
        }
        Command::Analyze {
            variant,
            fen,
            limits,
            threads,
        } => analyze::run(
            &registry,
            &variant,
            fen.as_deref(),
            &limits,
            threads,
            &nets,
            &mut out,
        ),
        Command::Epd {
            file,
            variant,
            limits,
            threads,
        } => epd::run(
            &registry, &file, &variant, &limits, threads, &nets, &mut out,
        )
        .map(|_| ()),
        Command::EvalTables { variant } => rules::eval_tables(&registry, &variant, &mut out),
        Command::Perft {
            depth,
            variant,
            fen,
            threads,
        } => rules::perft(
            &registry,
            depth,
            &variant,
            fen.as_deref(),
            threads,
            &mut out,
        ),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("chimera: {e}");
            1
        }
    }
}
