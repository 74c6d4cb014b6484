//! The `chimera match` command line: the two `--engine` specifications and the match options,
//! parsed and checked into a [`MatchConfig`] before any engine starts. Every mistake is an error
//! message naming the bad word.

use crate::clock::{TimeControl, DEFAULT_MARGIN_MS};
use crate::player::SearchLimits;
use crate::process::split_command;
use crate::stats::Sprt;

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    /// UCI.
    Uci,
    /// XBoard / CECP (v1 or v2).
    Xboard,
}

/// One `--engine "cmd=... proto=... name=... option.X=Y"` argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The command line that starts the engine.
    pub cmd: String,
    /// Its protocol.
    pub proto: Proto,
    /// Its name in the PGN (default: the program's file name).
    pub name: String,
    /// The working directory, if not ours.
    pub dir: Option<String>,
    /// Engine options to set (UCI `setoption`, XBoard `option NAME=VALUE`).
    pub options: Vec<(String, String)>,
    /// A depth or node limit per move.
    pub limits: SearchLimits,
    /// The engine's own time control (`tc=`, time odds), overriding the match's `--tc`.
    pub tc: Option<TimeControl>,
}

/// Where the games' opening positions come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningSource {
    /// Every game from the variant's start position.
    StartPosition,
    /// One position per line of an EPD (or FEN) file, in order, wrapping around.
    Epd(String),
    /// This many random legal plies from the start position.
    RandomPlies(u32),
}

/// Everything `chimera match` was asked to do.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchConfig {
    /// The two engines; the statistics are from the first one's point of view.
    pub engines: [EngineSpec; 2],
    /// The variant played.
    pub variant: String,
    /// Games in all (pairs of games share an opening, colours swapped).
    pub games: u32,
    /// The first game pair played (`--first-pair`): the match plays games `2 * first_pair`
    /// on, numbered and opened as the same games of a match started at pair 0, so a slice of
    /// a long match can be played anywhere (the cluster runner's tasks) and be the same games.
    pub first_pair: u32,
    /// Each engine's time control (index 0 = the first engine): its own `tc=`, else `--tc`.
    pub tc: [TimeControl; 2],
    /// The clock overstep forgiven, in ms.
    pub margin_ms: u64,
    /// Games played at once.
    pub concurrency: usize,
    /// The openings.
    pub openings: OpeningSource,
    /// The PGN file to append games to.
    pub pgn: Option<String>,
    /// The SPRT to stop on, if any.
    pub sprt: Option<Sprt>,
    /// Seed for random openings.
    pub seed: u64,
    /// Extra variant definition files.
    pub variant_files: Vec<String>,
    /// Declare a draw after this many full moves (0 = never).
    pub max_moves: u32,
    /// Print the engines' traffic on standard error.
    pub debug: bool,
}

fn number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.parse().map_err(|_| format!("bad {what} '{text}'"))
}

impl std::str::FromStr for EngineSpec {
    type Err = String;

    /// Reads `key=value` words; values with spaces are quoted (`cmd="eng --uci"`).
    fn from_str(text: &str) -> Result<EngineSpec, String> {
        let mut cmd = None;
        let mut proto = None;
        let mut name = None;
        let mut dir = None;
        let mut options = Vec::new();
        let mut limits = SearchLimits::default();
        let mut tc = None;
        for word in split_command(text)? {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| format!("engine spec: '{word}' is not key=value"))?;
            match key {
                "cmd" => cmd = Some(value.to_string()),
                "proto" => {
                    proto = Some(match value {
                        "uci" => Proto::Uci,
                        "xboard" | "cecp" => Proto::Xboard,
                        _ => return Err(format!("engine spec: unknown protocol '{value}'")),
                    })
                }
                "name" => name = Some(value.to_string()),
                "dir" => dir = Some(value.to_string()),
                "depth" => limits.depth = Some(number(value, "depth")?),
                "nodes" => limits.nodes = Some(number(value, "node count")?),
                "tc" => tc = Some(value.parse().map_err(|e| format!("engine spec: {e}"))?),
                k => match k.strip_prefix("option.") {
                    Some(opt) if !opt.is_empty() => options.push((opt.to_string(), value.into())),
                    _ => return Err(format!("engine spec: unknown key '{k}'")),
                },
            }
        }
        let cmd = cmd.ok_or("engine spec: cmd= is missing")?;
        if split_command(&cmd)?.is_empty() {
            return Err("engine spec: cmd= is empty".into());
        }
        let proto = proto.ok_or("engine spec: proto=uci or proto=xboard is missing")?;
        if proto == Proto::Xboard && limits.nodes.is_some() {
            return Err("engine spec: nodes= works with UCI engines only".into());
        }
        let name = name.unwrap_or_else(|| {
            let program = split_command(&cmd).ok().and_then(|w| w.first().cloned());
            let program = program.unwrap_or_default();
            program.rsplit('/').next().unwrap_or("engine").to_string()
        });
        Ok(EngineSpec {
            cmd,
            proto,
            name,
            dir,
            options,
            limits,
            tc,
        })
    }
}

/// Parses the arguments that follow `chimera match`.
pub fn parse(args: &[String]) -> Result<MatchConfig, String> {
    let mut engines = Vec::new();
    let mut variant = "chess".to_string();
    let mut games = 2u32;
    let mut first_pair = 0u32;
    let mut tc: Option<TimeControl> = None;
    let mut margin_ms = DEFAULT_MARGIN_MS;
    let mut concurrency = 1usize;
    let mut openings = OpeningSource::StartPosition;
    let mut pgn = None;
    let mut sprt = None;
    let mut seed = 1u64;
    let mut variant_files = Vec::new();
    let mut max_moves = 500u32;
    let mut debug = false;
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        let mut value = || -> Result<String, String> {
            i += 1;
            args.get(i)
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match flag {
            "--engine" => engines.push(value()?.parse::<EngineSpec>()?),
            "--variant" => variant = value()?,
            "--games" => {
                games = number(&value()?, "game count")?;
                if games == 0 {
                    return Err("--games must be at least 1".into());
                }
            }
            "--first-pair" => first_pair = number(&value()?, "pair number")?,
            "--tc" => tc = Some(value()?.parse()?),
            "--time-margin" => margin_ms = number(&value()?, "time margin")?,
            "--concurrency" => {
                concurrency = number(&value()?, "concurrency")?;
                if !(1..=64).contains(&concurrency) {
                    return Err("--concurrency must be between 1 and 64".into());
                }
            }
            "--openings" => openings = OpeningSource::Epd(value()?),
            "--random-plies" => {
                openings = OpeningSource::RandomPlies(number(&value()?, "ply count")?)
            }
            "--pgn" => pgn = Some(value()?),
            "--seed" => seed = number(&value()?, "seed")?,
            "--variants" => variant_files.push(value()?),
            "--max-moves" => max_moves = number(&value()?, "move limit")?,
            "--debug" => debug = true,
            "--sprt" => {
                // The SPRT parameters are the following key=value words.
                let mut words = Vec::new();
                while let Some(w) = args.get(i + 1).filter(|w| !w.starts_with("--")) {
                    words.push(w.clone());
                    i += 1;
                }
                sprt = Some(Sprt::parse(&words.join(" "))?);
            }
            other => return Err(format!("match: unknown option '{other}'")),
        }
        i += 1;
    }
    let engines: [EngineSpec; 2] = engines
        .try_into()
        .map_err(|_| "match needs --engine exactly twice".to_string())?;
    // An engine's own `tc=` (time odds) wins over `--tc`, which may then be left out.
    let own = |e: &EngineSpec| {
        e.tc.or(tc).ok_or_else(|| {
            format!(
                "match needs --tc BASE+INC (seconds) or --tc inf, or tc= on engine {}",
                e.name
            )
        })
    };
    let tc = [own(&engines[0])?, own(&engines[1])?];
    if tc.contains(&TimeControl::Unlimited) {
        if tc[0] != tc[1] {
            return Err("match: one engine has a clock and the other none (tc inf)".into());
        }
        for e in &engines {
            if e.limits.depth.is_none() && e.limits.nodes.is_none() {
                return Err(format!(
                    "engine {}: with --tc inf every engine needs depth= or nodes=",
                    e.name
                ));
            }
        }
    }
    // Game numbers are u32 and a pair's second game is numbered 2 * pair + 1.
    if first_pair
        .checked_mul(2)
        .and_then(|g| g.checked_add(games))
        .is_none()
    {
        return Err("--first-pair and --games: game numbers beyond 2^32".into());
    }
    Ok(MatchConfig {
        engines,
        variant,
        games,
        first_pair,
        tc,
        margin_ms,
        concurrency,
        openings,
        pgn,
        sprt,
        seed,
        variant_files,
        max_moves,
        debug,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn reads_engine_specs() {
        let e: EngineSpec = "cmd=\"/x/eng --uci\" proto=uci option.Hash=16 depth=3"
            .parse()
            .unwrap();
        assert_eq!(e.cmd, "/x/eng --uci");
        assert_eq!(e.name, "eng");
        assert_eq!(e.options, vec![("Hash".to_string(), "16".to_string())]);
        assert_eq!(e.limits.depth, Some(3));
        // An option whose name has a space is quoted as a whole word.
        let e: EngineSpec = "cmd=x proto=uci 'option.Use NNUE=false'".parse().unwrap();
        assert_eq!(
            e.options,
            vec![("Use NNUE".to_string(), "false".to_string())]
        );
        for bad in [
            "proto=uci",
            "cmd=x",
            "cmd=x proto=ucci",
            "cmd=x proto=uci colour=red",
            "cmd=x proto=uci depth=x",
            "cmd=x proto=xboard nodes=5",
            "cmd= proto=uci",
            "cmd=x proto=uci bare",
            "cmd=x proto=uci tc=",
            "cmd=x proto=uci tc=0+1",
            "cmd=x proto=uci tc=10+x",
            "cmd=x proto=uci tc=-1",
            "cmd=x proto=uci tc=10+0.1+1",
        ] {
            assert!(bad.parse::<EngineSpec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn reads_a_match() {
        let c = parse(&args(&[
            "--engine",
            "cmd=a proto=uci",
            "--engine",
            "cmd=b proto=xboard name=B",
            "--games",
            "10",
            "--tc",
            "1+0.05",
            "--sprt",
            "elo0=0",
            "elo1=5",
            "--random-plies",
            "4",
        ]))
        .unwrap();
        assert_eq!(c.games, 10);
        assert_eq!(c.engines[1].name, "B");
        assert_eq!(c.openings, OpeningSource::RandomPlies(4));
        assert!(c.sprt.is_some());
        for bad in [
            &["--engine", "cmd=a proto=uci", "--tc", "1"][..],
            &["--engine", "cmd=a proto=uci", "--engine", "cmd=a proto=uci"],
            &[
                "--engine",
                "cmd=a proto=uci",
                "--engine",
                "cmd=a proto=uci",
                "--tc",
                "inf",
            ],
            &["--games", "0"],
            &["--frobnicate"],
            &["--tc"],
        ] {
            assert!(parse(&args(bad)).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn reads_the_first_pair() {
        let engines = ["--engine", "cmd=a proto=uci", "--engine", "cmd=b proto=uci"];
        let with = |extra: &[&str]| {
            let mut a = engines.to_vec();
            a.extend_from_slice(&["--tc", "1+0.1"]);
            a.extend_from_slice(extra);
            parse(&args(&a))
        };
        assert_eq!(with(&[]).unwrap().first_pair, 0);
        let c = with(&["--first-pair", "7", "--games", "2"]).unwrap();
        assert_eq!((c.first_pair, c.games), (7, 2));
        for bad in [
            &["--first-pair", "-1"][..],
            &["--first-pair", "x"],
            &["--first-pair"],
            &["--first-pair", "2147483647", "--games", "2"],
        ] {
            assert!(with(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn reads_time_odds() {
        let e: EngineSpec = "cmd=x proto=uci tc=1.25+0.0125".parse().unwrap();
        assert_eq!(
            e.tc,
            Some(TimeControl::Increment {
                base_ms: 1250,
                inc_ms: 13,
                moves: 0
            })
        );
        assert_eq!(e.tc.unwrap().to_string(), "1.25+0.013");
        let tc = |t: &str| t.parse::<TimeControl>().unwrap();
        // tc= overrides --tc for its engine only.
        let c = parse(&args(&[
            "--engine",
            "cmd=a proto=uci",
            "--engine",
            "cmd=b proto=uci tc=2+0.02",
            "--tc",
            "10+0.1",
        ]))
        .unwrap();
        assert_eq!(c.tc, [tc("10+0.1"), tc("2+0.02")]);
        // --tc may be left out when both engines have their own.
        let c = parse(&args(&[
            "--engine",
            "cmd=a proto=uci tc=60",
            "--engine",
            "cmd=b proto=uci tc=30+1",
        ]))
        .unwrap();
        assert_eq!(c.tc, [tc("60+0"), tc("30+1")]);
        for bad in [
            // Only one engine has a control and there is no --tc.
            &[
                "--engine",
                "cmd=a proto=uci tc=10",
                "--engine",
                "cmd=b proto=uci",
            ][..],
            // A clock against no clock.
            &[
                "--engine",
                "cmd=a proto=uci tc=inf depth=3",
                "--engine",
                "cmd=b proto=uci depth=3",
                "--tc",
                "1+0.1",
            ],
            &[
                "--engine",
                "cmd=a proto=uci tc=1+x",
                "--engine",
                "cmd=b proto=uci",
                "--tc",
                "1",
            ],
        ] {
            assert!(parse(&args(bad)).is_err(), "{bad:?}");
        }
    }
}
