//! The command line: `chimera perft`, `chimera variants`, `chimera check`, `chimera help`,
//! `chimera match` and `chimera pgn-check` (handed to `matchplay`), and
//! the GUI protocols (`chimera` alone, `chimera uci`, `chimera xboard`).
//! Arguments are parsed into a typed command first, then run; every error is a message on
//! standard error and a non-zero exit code, never a panic.

use std::io::Write;
use std::time::Instant;

use chimera_engine::movegen::perft::MAX_PERFT_DEPTH;
use chimera_engine::search::Limits;
use chimera_engine::variant::Registry;
use chimera_engine::Position;

use crate::state::MAX_THREADS;

const USAGE: &str = "\
usage: chimera [<command>] [options]

With no command, Chimera speaks a GUI protocol on standard input and output: the first line
selects it (`uci` for UCI, `xboard` for XBoard/CECP v2).

commands:
  uci | xboard        start that protocol at once
  perft DEPTH [--variant V] [--fen FEN] [--threads N]
                      count the legal move paths of length DEPTH, split by root move
  variants            list the variants this engine knows
  bench [DEPTH] [--threads N]
                      search fixed positions of several variants; last line: <nodes> nodes <nps> nps
  analyze [--variant V] [--fen FEN] [--depth D | --movetime MS | --nodes N] [--threads N]
                      search one position, printing each iteration, then the best move
  epd FILE (--movetime MS | --nodes N) [--threads N] [--variant V]
                      run a test suite (bm/am in SAN) and print the number solved;
                      --nodes gives the same result on every machine (one thread)
  eval-tables [--variant V]
                      print the evaluation's piece values and square tables
  check FILE          parse and build a variant file without using it; report every problem
  match --engine SPEC --engine SPEC --tc BASE+INC [options]
                      play engine-against-engine games with Chimera's rules as referee
                      SPEC: \"cmd=PROGRAM proto=uci|xboard [name=N] [dir=D] [option.X=V]
                             [depth=D] [nodes=N]\" (quote a cmd with arguments: cmd='eng -x')
                      --variant V (chess)  --games N (2)  --concurrency N (1)
                      --tc BASE+INC in seconds, or inf with depth=/nodes= per engine
                      --openings FILE.epd | --random-plies K  [--seed S]
                      --pgn FILE (appended)  --sprt elo0=0 elo1=5 [alpha=0.05 beta=0.05]
                      --time-margin MS (100)  --max-moves N (500; 0 = none)  --debug
  pgn-check FILE [--variants F]
                      replay every game of a PGN file through the rules (SAN or coordinates)
  help                this text

common options:
  --variants FILE     load extra variant definitions (INI, Fairy-Stockfish variants.ini style)
  --diagram LINE      load an Interactive Diagram parameter line as the variant 'diagram'
                      (used unless --variant names another)
";

/// A parsed command line.
#[derive(Debug, PartialEq, Eq)]
enum Command {
    Perft {
        depth: u32,
        variant: String,
        fen: Option<String>,
        threads: usize,
    },
    Variants,
    Bench {
        depth: u32,
        threads: usize,
    },
    Analyze {
        variant: String,
        fen: Option<String>,
        limits: Limits,
        threads: usize,
    },
    Epd {
        file: String,
        variant: String,
        limits: Limits,
        threads: usize,
    },
    EvalTables {
        variant: String,
    },
    Check {
        file: String,
    },
    Help,
    /// A GUI protocol: UCI or XBoard, or chosen by the first input line.
    Protocol(Option<&'static str>),
}

/// Options that every command accepts.
#[derive(Debug, Default, PartialEq, Eq)]
struct Common {
    variant_files: Vec<String>,
    /// An Interactive Diagram parameter line, loaded as the variant `diagram`.
    diagram: Option<String>,
    /// Notes on options taken otherwise than given, printed before the command runs.
    warnings: Vec<String>,
}

/// A whole number of at least 1, or an error naming the option.
fn positive<T: std::str::FromStr + PartialOrd + From<u8>>(
    text: &str,
    what: &str,
) -> Result<T, String> {
    text.parse()
        .ok()
        .filter(|n| *n >= T::from(1))
        .ok_or_else(|| format!("bad {what} '{text}'"))
}

fn parse_args(args: &[String]) -> Result<(Command, Common), String> {
    let mut common = Common::default();
    let mut positional: Vec<&str> = Vec::new();
    let mut variant = "chess".to_string();
    let mut variant_given = false;
    let mut fen = None;
    let mut threads = 1usize;
    let mut depth: Option<u32> = None;
    let mut movetime: Option<u64> = None;
    let mut nodes: Option<u64> = None;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let mut value = |name: &str| -> Result<String, String> {
            i += 1;
            args.get(i)
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match a {
            "--variants" => common.variant_files.push(value(a)?),
            "--diagram" => common.diagram = Some(value(a)?),
            "--variant" => {
                variant = value(a)?;
                variant_given = true;
            }
            "--fen" => fen = Some(value(a)?),
            "--threads" => {
                threads = positive(&value(a)?, "thread count")?;
                if threads > MAX_THREADS {
                    common.warnings.push(format!(
                        "--threads {threads} is more than {MAX_THREADS}; using {MAX_THREADS}"
                    ));
                    threads = MAX_THREADS;
                }
            }
            "--depth" => depth = Some(positive(&value(a)?, "depth")?),
            "--movetime" => movetime = Some(positive(&value(a)?, "movetime")?),
            "--nodes" => nodes = Some(positive(&value(a)?, "node count")?),
            "-h" | "--help" => positional.insert(0, "help"),
            s if s.starts_with("--") => return Err(format!("unknown option '{s}'")),
            s => positional.push(s),
        }
        i += 1;
    }
    // A diagram given on the command line is the variant unless another is named.
    if common.diagram.is_some() && !variant_given {
        variant = "diagram".to_string();
    }
    let command = match positional.as_slice() {
        [] => Command::Protocol(None),
        ["uci"] => Command::Protocol(Some("uci")),
        ["xboard"] => Command::Protocol(Some("xboard")),
        ["help"] => Command::Help,
        ["help", ..] => Command::Help,
        ["perft", depth] => {
            let depth = depth
                .parse()
                .ok()
                .filter(|&d| d <= MAX_PERFT_DEPTH)
                .ok_or_else(|| format!("bad depth '{depth}' (0 to {MAX_PERFT_DEPTH})"))?;
            Command::Perft {
                depth,
                variant,
                fen,
                threads,
            }
        }
        ["perft"] => return Err("perft needs a depth".into()),
        ["variants"] => Command::Variants,
        ["bench"] => Command::Bench {
            depth: depth.unwrap_or(crate::bench::DEFAULT_DEPTH),
            threads,
        },
        ["bench", d] => Command::Bench {
            depth: d
                .parse()
                .ok()
                .filter(|&d| d >= 1)
                .ok_or_else(|| format!("bad depth '{d}'"))?,
            threads,
        },
        ["analyze"] => {
            if depth.is_none() && movetime.is_none() && nodes.is_none() {
                return Err("analyze needs --depth D, --movetime MS or --nodes N".into());
            }
            Command::Analyze {
                variant,
                fen,
                limits: Limits {
                    depth,
                    movetime,
                    nodes,
                    ..Limits::default()
                },
                threads,
            }
        }
        ["epd", file] => {
            if movetime.is_none() && nodes.is_none() {
                return Err("epd needs --movetime MS or --nodes N".into());
            }
            Command::Epd {
                file: file.to_string(),
                variant,
                limits: Limits {
                    movetime,
                    nodes,
                    ..Limits::default()
                },
                threads,
            }
        }
        ["eval-tables"] => Command::EvalTables { variant },
        ["check", file] => Command::Check {
            file: file.to_string(),
        },
        [cmd, ..] => {
            return Err(format!(
                "unknown command or extra arguments: '{cmd}' (try 'chimera help')"
            ))
        }
    };
    Ok((command, common))
}

/// Runs a command line; returns the process exit code.
pub fn run(args: &[String]) -> i32 {
    // The match runner and the PGN checker have options of their own.
    match args.first().map(String::as_str) {
        Some("match") => return chimera_matchplay::run(&args[1..]),
        Some("pgn-check") => return chimera_matchplay::check_pgn(&args[1..]),
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
        if let Err(errors) = registry.load_file(file) {
            for e in errors {
                eprintln!("chimera: {e}");
            }
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
        crate::input::run_stdio(registry, dialect);
        return 0;
    }
    let out = std::io::stdout();
    let mut out = out.lock();
    let result = match command {
        Command::Protocol(_) => Ok(()),
        Command::Help => writeln!(out, "{USAGE}").map_err(|e| e.to_string()),
        Command::Variants => list_variants(&registry, &mut out),
        Command::Check { file } => check_file(&registry, &file, &mut out),
        Command::Bench { depth, threads } => {
            crate::bench::run(&registry, depth, threads, &mut out).map(|_| ())
        }
        Command::Analyze {
            variant,
            fen,
            limits,
            threads,
        } => crate::analyze::run(
            &registry,
            &variant,
            fen.as_deref(),
            &limits,
            threads,
            &mut out,
        ),
        Command::Epd {
            file,
            variant,
            limits,
            threads,
        } => crate::epd::run(&registry, &file, &variant, &limits, threads, &mut out).map(|_| ()),
        Command::EvalTables { variant } => match registry.get(&variant) {
            Some(v) => write!(out, "{}", chimera_eval::Tables::new(&v).to_text())
                .map_err(|e| e.to_string()),
            None => Err(format!(
                "unknown variant '{variant}' (see 'chimera variants')"
            )),
        },
        Command::Perft {
            depth,
            variant,
            fen,
            threads,
        } => perft(
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

fn list_variants(registry: &Registry, out: &mut impl Write) -> Result<(), String> {
    for name in registry.names() {
        let Some(v) = registry.get(&name) else {
            continue;
        };
        let g = &v.geometry;
        writeln!(
            out,
            "{name:<12} {}x{} {:>2} piece types  {}  [{}]",
            g.files,
            g.ranks,
            v.num_pieces(),
            v.start_fen,
            v.source
        )
        .map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn check_file(registry: &Registry, file: &str, out: &mut impl Write) -> Result<(), String> {
    let text = chimera_engine::variant::registry::read_definition_file(file)
        .map_err(|e| format!("{file}: {e}"))?;
    match registry.check_text(&text, file) {
        Ok(names) => {
            for n in names {
                writeln!(out, "variant {n}: ok").map_err(|e| e.to_string())?;
            }
            Ok(())
        }
        Err(errors) => {
            let lines: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
            Err(format!("{} problem(s):\n{}", lines.len(), lines.join("\n")))
        }
    }
}

fn perft(
    registry: &Registry,
    depth: u32,
    variant: &str,
    fen: Option<&str>,
    threads: usize,
    out: &mut impl Write,
) -> Result<(), String> {
    let v = registry
        .get(variant)
        .ok_or_else(|| format!("unknown variant '{variant}' (see 'chimera variants')"))?;
    let mut pos = match fen {
        Some(f) => Position::from_fen(&v, f).map_err(|e| e.to_string())?,
        None => Position::startpos(&v),
    };
    for w in pos.oddities() {
        eprintln!("chimera: warning: {w}");
    }
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
    let total: u64 = if depth == 0 {
        1
    } else {
        divide.iter().map(|d| d.1).sum()
    };
    let elapsed = start.elapsed();
    let w = |out: &mut dyn Write, s: String| writeln!(out, "{s}").map_err(|e| e.to_string());
    for (mv, n) in &divide {
        w(out, format!("{}: {}", pos.move_text(*mv), n))?;
    }
    w(out, String::new())?;
    let secs = elapsed.as_secs_f64();
    eprintln!(
        "time {:.3} s, {:.0} nodes/s",
        secs,
        total as f64 / secs.max(1e-9)
    );
    w(out, format!("Nodes searched: {total}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn parses_perft_with_options() {
        let (c, common) = parse_args(&args(
            "perft 3 --variant grand --threads 2 --variants x.ini",
        ))
        .unwrap();
        assert_eq!(
            c,
            Command::Perft {
                depth: 3,
                variant: "grand".into(),
                fen: None,
                threads: 2
            }
        );
        assert_eq!(common.variant_files, vec!["x.ini".to_string()]);
    }

    #[test]
    fn parses_the_search_commands() {
        let (c, _) = parse_args(&args("analyze --depth 7 --threads 2")).unwrap();
        assert!(matches!(
            c,
            Command::Analyze {
                limits: Limits {
                    depth: Some(7),
                    movetime: None,
                    ..
                },
                threads: 2,
                ..
            }
        ));
        let (c, _) = parse_args(&args("epd wac.epd --nodes 5000")).unwrap();
        assert!(matches!(
            c,
            Command::Epd {
                limits: Limits {
                    nodes: Some(5000),
                    ..
                },
                ..
            }
        ));
        let (c, _) = parse_args(&args("epd wac.epd --movetime 100")).unwrap();
        assert!(matches!(
            c,
            Command::Epd {
                limits: Limits {
                    movetime: Some(100),
                    ..
                },
                ..
            }
        ));
        assert_eq!(
            parse_args(&args("bench 5")).unwrap().0,
            Command::Bench {
                depth: 5,
                threads: 1
            }
        );
        for bad in ["analyze", "epd x.epd", "bench x", "analyze --movetime 0"] {
            assert!(parse_args(&args(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn thread_counts_are_bounded_as_the_protocol_option_is() {
        let (c, common) = parse_args(&args("perft 1 --threads 100000")).unwrap();
        assert!(
            matches!(
                c,
                Command::Perft {
                    threads: MAX_THREADS,
                    ..
                }
            ),
            "{c:?}"
        );
        assert_eq!(common.warnings.len(), 1, "{:?}", common.warnings);
        let (c, common) = parse_args(&args("bench --threads 3")).unwrap();
        assert!(matches!(c, Command::Bench { threads: 3, .. }), "{c:?}");
        assert!(common.warnings.is_empty());
    }

    #[test]
    fn rejects_bad_arguments() {
        for bad in [
            "perft",
            "perft x",
            "perft 3 --threads 0",
            "perft 3 --fen",
            "frobnicate",
            "perft 3 --bogus 1",
            "perft 65",
            "perft 429967296",
        ] {
            assert!(parse_args(&args(bad)).is_err(), "{bad}");
        }
    }

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
