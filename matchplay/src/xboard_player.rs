//! The XBoard (CECP) driver. Start-up: `xboard` + `protover 2`, then the engine's `feature`
//! lines, each answered `accepted`/`rejected`; `done=0` extends the wait until `done=1`, and an
//! engine that sends no `done` at all (protocol version 1) is given two seconds, as XBoard
//! does. Each game: `new`, `variant NAME` (not for chess), `force`, `setboard FEN` when the game
//! starts from a position, `level 0 M:SS INC` (or `sd`/`st` without a clock), then `ping` and
//! its `pong` to drop whatever the last game left in the pipe. Moves go out as `usermove M`
//! (or bare `M` when the engine did not accept `usermove`), after `time`/`otim` in
//! centiseconds; the engine plays after `go` and then answers each opponent move by itself.
//! Ranks are counted from 0 on boards with exactly 10 ranks (docs/protocols.md §2.1).

use std::time::{Duration, Instant};

use crate::clock::TimeControl;
use crate::config::EngineSpec;
use crate::player::{GameSetup, Player, Reply, Turn};
use crate::process::{EngineProcess, ReadError};

/// How long a protocol-1 engine (no `feature done`) gets to announce itself.
const NO_DONE_WAIT: Duration = Duration::from_secs(2);
/// How long an engine may take after `feature done=0`, and to answer `ping`.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// What the engine announced.
#[derive(Debug, Default, Clone)]
struct Features {
    ping: bool,
    setboard: bool,
    usermove: bool,
    variants: Option<Vec<String>>,
}

/// The `key=value` pairs of a `feature` line; values may be quoted.
fn parse_features(line: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = line
        .trim_start()
        .strip_prefix("feature")
        .unwrap_or("")
        .trim_start();
    while let Some(eq) = rest.find('=') {
        let key = rest[..eq].trim().to_string();
        let after = &rest[eq + 1..];
        let (value, tail) = if let Some(quoted) = after.strip_prefix('"') {
            match quoted.find('"') {
                Some(end) => (&quoted[..end], &quoted[end + 1..]),
                None => (quoted, ""),
            }
        } else {
            let end = after.find(char::is_whitespace).unwrap_or(after.len());
            (&after[..end], &after[end..])
        };
        out.push((key, value.to_string()));
        rest = tail.trim_start();
    }
    out
}

/// Shifts the rank numbers of the squares in a move by `delta` (10-rank boards only).
pub fn shift_move_ranks(text: &str, delta: i32) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        if c.is_ascii_lowercase() && chars.peek().is_some_and(|d| d.is_ascii_digit()) {
            let mut digits = String::new();
            while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                digits.push(*d);
                chars.next();
            }
            let n: i32 = digits.parse().unwrap_or(0);
            out.push_str(&(n + delta).to_string());
        }
    }
    out
}

/// The `level` command for `moves` moves per control (0: the whole game), a base time and
/// increment in ms: `level MOVES M:SS INC`.
fn level_command(moves: u32, base_ms: u64, inc_ms: u64) -> String {
    // XBoard counts whole seconds; round a fractional base up rather than give less.
    let secs = base_ms.div_ceil(1000);
    let inc = format!("{:.3}", inc_ms as f64 / 1000.0);
    let inc = inc.trim_end_matches('0').trim_end_matches('.');
    format!("level {moves} {}:{:02} {inc}", secs / 60, secs % 60)
}

/// An XBoard engine.
pub struct XboardPlayer {
    spec: EngineSpec,
    process: EngineProcess,
    features: Features,
    variant: String,
    /// Moves of the current game the engine has been told or has played itself.
    known: usize,
    /// Whether the engine is in force mode (playing neither side).
    forced: bool,
    /// Shift of rank numbers on the wire: -1 on 10-rank boards.
    rank_shift: i32,
    pings: u32,
}

impl XboardPlayer {
    /// Starts the engine, reads its features, checks that it offers `variant`, and sets its
    /// options.
    pub fn start(spec: &EngineSpec, variant: &str, debug: bool) -> Result<XboardPlayer, String> {
        let mut process = EngineProcess::spawn(&spec.name, &spec.cmd, spec.dir.as_deref(), debug)?;
        let name = spec.name.clone();
        let exited = |_| format!("engine {name} exited during start-up");
        process.send("xboard").map_err(exited)?;
        process.send("protover 2").map_err(exited)?;
        let mut features = Features::default();
        let mut deadline = Instant::now() + NO_DONE_WAIT;
        'handshake: loop {
            let line = match process.read_line(deadline) {
                Ok((line, _)) => line,
                Err(ReadError::Timeout) => break,
                Err(ReadError::Closed) => return Err(exited(ReadError::Closed)),
            };
            if !line.trim_start().starts_with("feature") {
                continue;
            }
            for (key, value) in parse_features(&line) {
                let on = value == "1";
                let accept = match key.as_str() {
                    "ping" => {
                        features.ping = on;
                        true
                    }
                    "setboard" => {
                        features.setboard = on;
                        true
                    }
                    "usermove" => {
                        features.usermove = on;
                        true
                    }
                    "variants" => {
                        features.variants = Some(
                            value
                                .split(',')
                                .map(|v| v.trim().to_ascii_lowercase())
                                .collect(),
                        );
                        true
                    }
                    // Moves are exchanged in coordinates only.
                    "san" => !on,
                    _ => true,
                };
                let verdict = if accept { "accepted" } else { "rejected" };
                process.send(&format!("{verdict} {key}")).map_err(exited)?;
                if key == "done" {
                    if on {
                        break 'handshake;
                    }
                    deadline = Instant::now() + HANDSHAKE_TIMEOUT;
                }
            }
        }
        let wire_name = match variant {
            "chess" => "normal".to_string(),
            v => v.to_ascii_lowercase(),
        };
        if wire_name != "normal"
            && !features
                .variants
                .as_ref()
                .is_some_and(|l| l.contains(&wire_name))
        {
            return Err(format!(
                "engine {} does not offer the variant '{variant}'",
                spec.name
            ));
        }
        for (key, value) in &spec.options {
            process
                .send(&format!("option {key}={value}"))
                .map_err(exited)?;
        }
        // No pondering: both engines share the machine.
        process.send("easy").map_err(exited)?;
        Ok(XboardPlayer {
            spec: spec.clone(),
            process,
            features,
            variant: wire_name,
            known: 0,
            forced: true,
            rank_shift: 0,
            pings: 0,
        })
    }

    /// Waits until the engine has caught up: `ping`/`pong`, or a short quiet spell for engines
    /// without `ping`. Lines left from the last game are dropped on the way.
    fn sync(&mut self) -> Result<(), String> {
        let name = self.spec.name.clone();
        if self.features.ping {
            self.pings += 1;
            let pong = format!("pong {}", self.pings);
            self.process
                .send(&format!("ping {}", self.pings))
                .and_then(|_| {
                    self.process
                        .wait_for(HANDSHAKE_TIMEOUT, |l| l.trim() == pong)
                })
                .map(|_| ())
                .map_err(|e| format!("engine {name}: no pong ({e:?})"))
        } else {
            loop {
                match self
                    .process
                    .read_line(Instant::now() + Duration::from_millis(200))
                {
                    Ok(_) => continue,
                    Err(ReadError::Timeout) => return Ok(()),
                    Err(ReadError::Closed) => return Err(format!("engine {name} has exited")),
                }
            }
        }
    }

    fn send_move(&mut self, mv: &str) -> Result<(), ReadError> {
        let text = shift_move_ranks(mv, self.rank_shift);
        if self.features.usermove {
            self.process.send(&format!("usermove {text}"))
        } else {
            self.process.send(&text)
        }
    }

    /// Sends `time` and `otim` for the side the engine plays.
    fn send_clocks(&mut self, turn: &Turn) -> Result<(), ReadError> {
        if let Some(left) = turn.clocks.left_ms {
            let cs = |ms: i64| ms.max(0) / 10;
            self.process
                .send(&format!("time {}", cs(left[turn.side])))?;
            self.process
                .send(&format!("otim {}", cs(left[1 - turn.side])))?;
        }
        Ok(())
    }

    /// Gives the engine the moves it has not seen and sets it thinking.
    fn start_thinking(&mut self, turn: &Turn) -> Result<(), ReadError> {
        let pending: Vec<String> = turn.moves[self.known.min(turn.moves.len())..].to_vec();
        if !self.forced && pending.len() == 1 {
            // The engine plays the other side and answers the move by itself.
            self.send_clocks(turn)?;
            self.send_move(&pending[0])?;
        } else {
            if !self.forced {
                self.process.send("force")?;
            }
            for mv in &pending {
                self.send_move(mv)?;
            }
            self.send_clocks(turn)?;
            self.process.send("go")?;
            self.forced = false;
        }
        self.known = turn.moves.len();
        Ok(())
    }
}

impl Player for XboardPlayer {
    fn name(&self) -> &str {
        &self.spec.name
    }

    fn new_game(&mut self, setup: &GameSetup, side: usize) -> Result<(), String> {
        let name = self.spec.name.clone();
        let exited = |_| format!("engine {name} has exited");
        self.rank_shift = if setup.variant.geometry().ranks == 10 {
            -1
        } else {
            0
        };
        self.process.send("new").map_err(exited)?;
        if self.variant != "normal" {
            self.process
                .send(&format!("variant {}", self.variant))
                .map_err(exited)?;
        }
        self.process.send("force").map_err(exited)?;
        if let Some(fen) = &setup.fen {
            if !self.features.setboard {
                return Err(format!(
                    "engine {name} cannot be given a position (no setboard feature); \
                     use --random-plies instead of --openings"
                ));
            }
            // The e.p. square is the fourth field; it is a square like any other on the wire.
            let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
            if let Some(ep) = fields.get_mut(3) {
                *ep = shift_move_ranks(ep, self.rank_shift);
            }
            self.process
                .send(&format!("setboard {}", fields.join(" ")))
                .map_err(exited)?;
        }
        // `level` is the engine's own control; `time`/`otim` then give both clocks.
        let level = match setup.side_tc[side] {
            TimeControl::Increment {
                base_ms,
                inc_ms,
                moves,
            } => level_command(moves, base_ms, inc_ms),
            TimeControl::Unlimited => "st 86400".to_string(),
        };
        self.process.send(&level).map_err(exited)?;
        if let Some(d) = self.spec.limits.depth {
            self.process.send(&format!("sd {d}")).map_err(exited)?;
        }
        self.known = 0;
        self.forced = true;
        self.sync()
    }

    fn play(&mut self, turn: &Turn) -> Reply {
        if self.start_thinking(turn).is_err() {
            return Reply::Crashed;
        }
        let started = Instant::now();
        let deadline = started + turn.wait;
        let mut legs = String::new();
        loop {
            let (line, at) = match self.process.read_line(deadline) {
                Ok(l) => l,
                Err(ReadError::Timeout) => {
                    let _ = self.process.send("?");
                    return Reply::NoReply;
                }
                Err(ReadError::Closed) => return Reply::Crashed,
            };
            let text = line.trim();
            let mv = text
                .strip_prefix("move ")
                .or_else(|| text.strip_prefix("My move is : "))
                .or_else(|| text.strip_prefix("My move is: "));
            if let Some(mv) = mv {
                let mv = mv.trim();
                legs.push_str(mv);
                if mv.ends_with(',') {
                    continue;
                }
                self.known += 1;
                let mv = shift_move_ranks(&legs, -self.rank_shift);
                return Reply::Move(mv, at.saturating_duration_since(started));
            }
            if text == "resign" || text.starts_with("resign ") {
                return Reply::Resign;
            }
            if let Some(result) = ["1-0", "0-1", "1/2-1/2"]
                .into_iter()
                .find(|r| text.starts_with(r))
            {
                let reason = text[result.len()..].trim().trim_matches(['{', '}']).trim();
                return Reply::Claim(result.to_string(), reason.to_string());
            }
            if text.starts_with("Illegal move") {
                return Reply::Rejected(text.to_string());
            }
        }
    }

    fn game_over(&mut self, result: &str, reason: &str) {
        let _ = self.process.send(&format!("result {result} {{{reason}}}"));
        let _ = self.process.send("force");
        self.forced = true;
    }

    fn alive(&mut self) -> bool {
        !self.process.exited()
    }

    fn quit(&mut self) {
        self.process.quit("quit", Duration::from_secs(1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_feature_lines() {
        let f = parse_features(
            r#"feature ping=1 myname="Fairy-Max 5.0b" variants="normal,shatranj" done=0"#,
        );
        assert_eq!(
            f,
            vec![
                ("ping".to_string(), "1".to_string()),
                ("myname".into(), "Fairy-Max 5.0b".into()),
                ("variants".into(), "normal,shatranj".into()),
                ("done".into(), "0".into()),
            ]
        );
    }

    #[test]
    fn converts_ranks_and_levels() {
        assert_eq!(shift_move_ranks("e3e5", -1), "e2e4");
        assert_eq!(shift_move_ranks("a9b10q", 1), "a10b11q");
        assert_eq!(shift_move_ranks("N@e4,e4f5", -1), "N@e3,e3f4");
        assert_eq!(level_command(0, 1000, 50), "level 0 0:01 0.05");
        assert_eq!(level_command(0, 90_500, 0), "level 0 1:31 0");
        assert_eq!(level_command(40, 300_000, 0), "level 40 5:00 0");
    }
}
