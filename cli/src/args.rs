//! The command line's arguments: the usage text, and the parser that turns the words after
//! `chimera` into a typed [`Command`] and the options every command shares, or into an error
//! message; nothing runs here.

use chimera_engine::movegen::perft::MAX_PERFT_DEPTH;
use chimera_engine::search::Limits;

use chimera_protocol::state::MAX_THREADS;

pub(crate) const USAGE: &str = "\
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
  probe               read lines VARIANT<TAB>FEN|startpos<TAB>MOVES<TAB>DEPTH on standard
                      input; answer each with ok<TAB>LEGAL<TAB>PERFT<TAB>END<TAB>FEN (the
                      legal moves sorted, perft at DEPTH or '-' for 0, '-' or the game's end
                      for the side to move as win|draw|loss:reason, the FEN written) or
                      error<TAB>MESSAGE; for differential tests (tools/fsf_diff.py)
  match --engine SPEC --engine SPEC [--tc BASE+INC] [options]
                      play engine-against-engine games with Chimera's rules as referee
                      SPEC: \"cmd=PROGRAM proto=uci|xboard [name=N] [dir=D] [option.X=V]
                             [depth=D] [nodes=N]\" (quote a cmd with arguments: cmd='eng -x')
                      --variant V (chess)  --games N (2)  --concurrency N (1)
                      --tc BASE+INC in seconds, or inf with depth=/nodes= per engine;
                      may be left out when every SPEC has its own tc=BASE+INC
                      --openings FILE.epd | --random-plies K  [--seed S]
                      --pgn FILE (appended)  --sprt elo0=0 elo1=5 [alpha=0.05 beta=0.05]
                      --time-margin MS (100)  --max-moves N (500; 0 = none)  --debug
                      --first-pair P: start at pair P (games 2P+1..), as in the whole match
  datagen --out FILE [--variant V] [--nodes N] [--games G] [--threads T]
          [--random-plies K] [--seed S] [--max-plies P] [--net NET] [--hash MB]
                      self-play for training data: N nodes a move (5000), G games (100),
                      T threads (all cores), K random opening plies (8); appended to FILE;
                      played with the variant's built-in net if it has one, else by hand
                      (--net NET: that net; --net hand: the hand-made evaluation)
  train --data FILE --out NET [--hidden H] [--epochs E] [--lr LR] [--final-lr LR]
        [--batch B] [--lambda L] [--seed S] [--threads T] [--variant V] [--mirror on]
        [--init NET0] [--buckets M] [--royal-buckets K] [--view V] [--score-scale S]
                      train a net on FILE's positions (--data may be repeated): H hidden
                      (by board size), E epochs (10), Adam with a step falling along a
                      half cosine from LR (0.001) to --final-lr (LR/100), batches of B
                      (4096), L the game result's weight in the target (0.3); the variant
                      is the data's unless --variant names one; NET is written each epoch;
                      --mirror on shows half the positions mirrored left to right;
                      --init starts from the net NET0 (its size) instead of random weights;
                      a net of another variant (chess's for Capablanca) lends its men's
                      columns to the same men and to compounds of them (A = B + N);
                      --buckets M gives the net M outputs by the men on the board (1-16;
                      NET0's count, else 1), each starting as NET0's output;
                      --royal-buckets K (1, 2 or 4; NET0's, else 1) gives the inputs once
                      per region of the side's own king: first rank or not (2), and left
                      or right half (4), each starting as NET0's inputs;
                      --view turned|mirrored: Black sees the board turned a half-turn or
                      mirrored top to bottom (NET0's when of the same variant, else turned
                      where the start is alike only turned: shogi, makruk);
                      a score s counts as the win chance sigmoid(s / S), S 400 (auto:
                      from the data, its median |score| / 0.75; chess's about 410)
  pgn-check FILE [--variants F]
                      replay every game of a PGN file through the rules (SAN or coordinates)
  serve [--host H] [--port P] [--variants FILE]
                      the web board for every variant: play, watch, analyse in a browser;
                      listens on 127.0.0.1:8080 (--port 0: any free port); prints the URL first
  help                this text

common options:
  --variants FILE     load extra variant definitions (INI, Fairy-Stockfish variants.ini style)
  --diagram LINE      load an Interactive Diagram parameter line as the variant 'diagram'
                      (used unless --variant names another)
  --net FILE          evaluate with the net in FILE (from 'chimera train') in the variant it
                      was made for (uci, xboard, analyze, epd, bench; in 'match', give it
                      to an engine as option.EvalFile=FILE or cmd='chimera --net FILE');
                      other variants play with their built-in net (chess has one) or the
                      hand-made evaluation
  --net hand          the hand-made evaluation in every variant, no net (UCI and XBoard:
                      the option Use NNUE off)
";

/// A parsed command line.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Command {
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
    /// Positions read from standard input, answered one line each (`rules::probe`).
    Probe,
    Help,
    /// A GUI protocol: UCI or XBoard, or chosen by the first input line.
    Protocol(Option<&'static str>),
}

/// Options that every command accepts.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Common {
    pub(crate) variant_files: Vec<String>,
    /// An Interactive Diagram parameter line, loaded as the variant `diagram`.
    pub(crate) diagram: Option<String>,
    /// Notes on options taken otherwise than given, printed before the command runs.
    pub(crate) warnings: Vec<String>,
    /// A net file (`--net`) to evaluate with, for the variant it was made for.
    pub(crate) net: Option<String>,
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

/// Parses the arguments after the program name into a command and the options all share.
pub(crate) fn parse_args(args: &[String]) -> Result<(Command, Common), String> {
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
            "--net" => common.net = Some(value(a)?),
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
        ["probe"] => Command::Probe,
        [cmd, ..] => {
            return Err(format!(
                "unknown command or extra arguments: '{cmd}' (try 'chimera help')"
            ))
        }
    };
    Ok((command, common))
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
        assert_eq!(common.net, None);
        let (_, common) = parse_args(&args("analyze --depth 3 --net my.nnue")).unwrap();
        assert_eq!(common.net.as_deref(), Some("my.nnue"));
        assert!(parse_args(&args("bench --net")).is_err());
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
}
