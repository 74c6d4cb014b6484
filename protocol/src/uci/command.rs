//! UCI's commands read from a line (docs/protocols.md §3): each becomes a [`UciCommand`] before it
//! runs, with every value checked; a `go` keeps what it could read and lists the rest as
//! errors, so that the GUI still gets its `bestmove`. Nothing here knows the session.

use std::str::FromStr;

use chimera_engine::search::Limits;

/// The limits and flags of one `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// The search limits.
    pub limits: Limits,
    /// `go ponder`: search the expected position until `ponderhit` or `stop`.
    pub ponder: bool,
    /// `searchmoves`: the only root moves to search (as given; checked when the search
    /// starts).
    pub searchmoves: Vec<String>,
    /// `go perft N` instead of a search.
    pub perft: Option<u32>,
    /// Parameters left out for a missing or bad value, or unknown: each is reported, and the
    /// search still runs (a GUI waits for its `bestmove`).
    pub errors: Vec<String>,
}

/// One UCI command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciCommand {
    /// `uci`
    Uci,
    /// `isready`
    IsReady,
    /// `setoption name N [value V]`
    SetOption {
        /// The option's name as given.
        name: String,
        /// The value, if any (buttons have none).
        value: Option<String>,
    },
    /// `ucinewgame`
    NewGame,
    /// `position startpos|fen F [moves ...]`
    Position {
        /// The FEN, or `None` for the start position.
        fen: Option<String>,
        /// The moves played from it.
        moves: Vec<String>,
    },
    /// `go ...`
    Go(Go),
    /// `stop`
    Stop,
    /// `ponderhit`
    PonderHit,
    /// `quit`
    Quit,
    /// `debug on|off`, `register ...`: accepted and ignored.
    Ignored,
    /// An empty line.
    Empty,
}

fn number<T: FromStr>(key: &str, v: Option<&&str>) -> Result<T, String> {
    let v = v.ok_or_else(|| format!("'{key}' needs a value"))?;
    v.parse()
        .map_err(|_| format!("bad value '{v}' for '{key}'"))
}

/// Milliseconds of a clock; GUIs may send negative times when a clock has run out.
fn clock(key: &str, v: Option<&&str>) -> Result<u64, String> {
    let t: i64 = number(key, v)?;
    Ok(t.max(0) as u64)
}

fn parse_go(words: &[&str]) -> Go {
    let mut go = Go::default();
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        let next = words.get(i + 1);
        let l = &mut go.limits;
        let parsed = match key {
            "wtime" => clock(key, next).map(|t| l.wtime = Some(t)),
            "btime" => clock(key, next).map(|t| l.btime = Some(t)),
            "winc" => clock(key, next).map(|t| l.winc = Some(t)),
            "binc" => clock(key, next).map(|t| l.binc = Some(t)),
            "movestogo" => number(key, next).map(|n| l.movestogo = Some(n)),
            "depth" => number(key, next).map(|n| l.depth = Some(n)),
            "nodes" => number(key, next).map(|n| l.nodes = Some(n)),
            "movetime" => number(key, next).map(|n| l.movetime = Some(n)),
            "mate" => number(key, next).map(|n| l.mate = Some(n)),
            "perft" => number(key, next).map(|n| go.perft = Some(n)),
            "infinite" => {
                l.infinite = true;
                i += 1;
                continue;
            }
            "ponder" => {
                go.ponder = true;
                i += 1;
                continue;
            }
            "searchmoves" => {
                go.searchmoves = words[i + 1..].iter().map(|s| s.to_string()).collect();
                break;
            }
            other => {
                go.errors.push(format!("unknown go parameter '{other}'"));
                i += 1;
                continue;
            }
        };
        if let Err(e) = parsed {
            go.errors.push(e);
        }
        i += 2;
    }
    go
}

fn parse_position(words: &[&str]) -> Result<UciCommand, String> {
    let (fen, rest) = match words.first() {
        Some(&"startpos") => (None, &words[1..]),
        Some(&"fen") => {
            let end = words
                .iter()
                .position(|w| *w == "moves")
                .unwrap_or(words.len());
            if end <= 1 {
                return Err("'position fen' needs a FEN".into());
            }
            (Some(words[1..end].join(" ")), &words[end..])
        }
        _ => return Err("'position' needs 'startpos' or 'fen'".into()),
    };
    let moves = match rest.first() {
        None => Vec::new(),
        Some(&"moves") => rest[1..].iter().map(|s| s.to_string()).collect(),
        Some(w) => return Err(format!("unexpected '{w}' in 'position'")),
    };
    Ok(UciCommand::Position { fen, moves })
}

fn parse_setoption(words: &[&str]) -> Result<UciCommand, String> {
    if words.first() != Some(&"name") {
        return Err("'setoption' needs 'name'".into());
    }
    let rest = &words[1..];
    let vpos = rest.iter().position(|w| *w == "value");
    let (name, value) = match vpos {
        Some(p) => (rest[..p].join(" "), Some(rest[p + 1..].join(" "))),
        None => (rest.join(" "), None),
    };
    if name.is_empty() {
        return Err("'setoption' needs an option name".into());
    }
    Ok(UciCommand::SetOption { name, value })
}

impl FromStr for UciCommand {
    type Err = String;

    fn from_str(line: &str) -> Result<Self, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = words.split_first() else {
            return Ok(UciCommand::Empty);
        };
        match cmd {
            "uci" => Ok(UciCommand::Uci),
            "isready" => Ok(UciCommand::IsReady),
            "setoption" => parse_setoption(args),
            "ucinewgame" => Ok(UciCommand::NewGame),
            "position" => parse_position(args),
            "go" => Ok(UciCommand::Go(parse_go(args))),
            "stop" => Ok(UciCommand::Stop),
            "ponderhit" => Ok(UciCommand::PonderHit),
            "quit" => Ok(UciCommand::Quit),
            "debug" | "register" => Ok(UciCommand::Ignored),
            other => Err(format!("unknown command '{other}'")),
        }
    }
}
