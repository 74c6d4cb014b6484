//! XBoard's commands as data: each CECP line is parsed into an [`XbCommand`] before anything
//! runs, so that a malformed line is an error message and never half a command.

use std::str::FromStr;

/// One CECP command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum XbCommand {
    /// `xboard`
    Xboard,
    /// `protover N`
    Protover(u32),
    /// `new`
    New,
    /// `variant NAME`
    Variant(String),
    /// `setboard FEN`
    SetBoard(String),
    /// `usermove M`
    UserMove(String),
    /// `force`
    Force,
    /// `go`
    Go,
    /// `playother`
    PlayOther,
    /// `?`
    MoveNow,
    /// `undo`
    Undo,
    /// `remove`
    Remove,
    /// `level MPS BASE INC` (base and increment in milliseconds)
    Level(u32, u64, u64),
    /// `st S` (milliseconds)
    St(u64),
    /// `sd D`
    Sd(u32),
    /// `time T` (centiseconds)
    Time(i64),
    /// `otim T` (centiseconds)
    Otim(i64),
    /// `post` (true) / `nopost` (false)
    Post(bool),
    /// `analyze`
    Analyze,
    /// `exit`
    Exit,
    /// `.`
    Stat,
    /// `hard` (true) / `easy` (false)
    Ponder(bool),
    /// `memory MB`
    Memory(usize),
    /// `cores N`
    Cores(usize),
    /// `option NAME[=VALUE]`
    Option(String, Option<String>),
    /// `result R {text}`
    Result,
    /// `ping N`
    Ping(String),
    /// `hint`
    Hint,
    /// `bk`
    Book,
    /// `exclude M` / `exclude all` (true), `include ...` (false)
    Exclude(bool, String),
    /// `lift SQ`: the user picked up the man on SQ (answered with `highlight`).
    Lift(String),
    /// `put SQ`: the user put the lifted man on SQ (a trailing comma: another leg follows).
    Put(String),
    /// `quit`
    Quit,
    /// Commands that carry information only (`name`, `computer`, `accepted`, ...).
    Ignored,
}

fn arg<T: FromStr>(cmd: &str, a: Option<&str>) -> Result<T, String> {
    a.and_then(|v| v.trim().parse().ok())
        .ok_or_else(|| format!("bad or missing argument: {cmd}"))
}

/// `min` or `min:sec` in milliseconds (anything after the number is ignored).
fn parse_base(s: &str) -> Option<u64> {
    let (m, sec) = s.split_once(':').unwrap_or((s, "0"));
    let m: u64 = m.parse().ok()?;
    let digits: String = sec.chars().take_while(|c| c.is_ascii_digit()).collect();
    let sec: u64 = if digits.is_empty() {
        0
    } else {
        digits.parse().ok()?
    };
    Some((m * 60 + sec) * 1000)
}

impl FromStr for XbCommand {
    type Err = String;

    fn from_str(line: &str) -> Result<Self, String> {
        let line = line.trim();
        let (cmd, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let first = rest.split_whitespace().next();
        use XbCommand::*;
        Ok(match cmd {
            "xboard" => Xboard,
            "protover" => Protover(arg(line, first)?),
            "new" => New,
            "variant" => Variant(first.ok_or("missing variant name")?.to_string()),
            "setboard" => SetBoard(rest.to_string()),
            "usermove" => UserMove(first.ok_or("missing move")?.to_string()),
            "force" => Force,
            "go" => Go,
            "playother" => PlayOther,
            "?" => MoveNow,
            "undo" => Undo,
            "remove" => Remove,
            "level" => {
                let w: Vec<&str> = rest.split_whitespace().collect();
                if w.len() < 3 {
                    return Err(format!("bad or missing argument: {line}"));
                }
                let mps = w[0]
                    .parse()
                    .map_err(|_| format!("bad moves per session: {line}"))?;
                let base = parse_base(w[1]).ok_or_else(|| format!("bad base time: {line}"))?;
                let inc: f64 = w[2].parse().map_err(|_| format!("bad increment: {line}"))?;
                Level(mps, base, (inc.max(0.0) * 1000.0) as u64)
            }
            "st" => {
                let s: f64 = arg(line, first)?;
                St((s.max(0.0) * 1000.0) as u64)
            }
            "sd" => Sd(arg(line, first)?),
            "time" => Time(arg(line, first)?),
            "otim" => Otim(arg(line, first)?),
            "post" => Post(true),
            "nopost" => Post(false),
            "analyze" => Analyze,
            "exit" => Exit,
            "." => Stat,
            "hard" => Ponder(true),
            "easy" => Ponder(false),
            "memory" => Memory(arg(line, first)?),
            "cores" => Cores(arg(line, first)?),
            "option" => match rest.split_once('=') {
                Some((n, v)) => Option(n.trim().to_string(), Some(v.trim().to_string())),
                None => Option(rest.to_string(), None),
            },
            "result" => Result,
            "ping" => Ping(first.unwrap_or("").to_string()),
            "hint" => Hint,
            "bk" => Book,
            "exclude" | "include" => {
                Exclude(cmd == "exclude", first.ok_or("missing move")?.to_string())
            }
            "lift" => Lift(first.ok_or("missing square")?.to_string()),
            "put" => Put(first.ok_or("missing square")?.to_string()),
            "quit" => Quit,
            "accepted" | "rejected" | "random" | "computer" | "name" | "rating" | "ics"
            | "draw" | "nps" | "egtpath" | "white" | "black" | "setscore" | "hover" | "" => Ignored,
            _ => return Err(format!("Error (unknown command): {cmd}")),
        })
    }
}
