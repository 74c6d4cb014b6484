//! The UCI driver: the `uci`/`uciok` handshake with the engine's option list, `setoption`
//! (including `UCI_Variant`, sent only when the engine lists that option and the variant; when
//! it does not, and options were set, `uci` is sent again, since an option such as
//! Fairy-Stockfish's `VariantPath` may have added variants), the
//! `ucinewgame`/`isready` synchronisation before each game, and one
//! `position ... moves ...` + `go wtime .. btime .. winc .. binc ..` per move, answered by
//! `bestmove`.

use std::time::{Duration, Instant};

use crate::clock::Clocks;
use crate::config::EngineSpec;
use crate::player::{GameSetup, Player, Reply, Turn};
use crate::process::{EngineProcess, ReadError};

/// How long an engine may take to answer `uci` and `isready` (hash allocation included).
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// A UCI engine.
pub struct UciPlayer {
    spec: EngineSpec,
    process: EngineProcess,
}

/// The option name in an `option name NAME type ...` line.
fn option_name(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("option name ")?;
    Some(rest.split(" type ").next().unwrap_or(rest).trim())
}

/// Sends `uci` and reads up to `uciok`: the option names, and the variants of `UCI_Variant`
/// if the engine has that option.
fn list_options(
    process: &mut EngineProcess,
) -> Result<(Vec<String>, Option<Vec<String>>), ReadError> {
    process.send("uci")?;
    let mut options = Vec::new();
    let mut variants = None;
    let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
    loop {
        let (line, _) = process.read_line(deadline)?;
        if line.trim() == "uciok" {
            return Ok((options, variants));
        }
        if let Some(opt) = option_name(&line) {
            if opt.eq_ignore_ascii_case("UCI_Variant") {
                variants = Some(combo_values(&line));
            }
            options.push(opt.to_string());
        }
    }
}

/// The `var` values of a combo option line.
fn combo_values(line: &str) -> Vec<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    words
        .windows(2)
        .filter(|w| w[0] == "var")
        .map(|w| w[1].to_ascii_lowercase())
        .collect()
}

impl UciPlayer {
    /// Starts the engine, checks that it can play `variant`, and sets its options.
    pub fn start(spec: &EngineSpec, variant: &str, debug: bool) -> Result<UciPlayer, String> {
        let mut process = EngineProcess::spawn(&spec.name, &spec.cmd, spec.dir.as_deref(), debug)?;
        let name = &spec.name;
        let fail = |e: ReadError, what: &str| match e {
            ReadError::Closed => format!("engine {name} exited during {what}"),
            ReadError::Timeout => format!("engine {name} did not answer {what} in time"),
        };
        let (options, mut variants) = list_options(&mut process).map_err(|e| fail(e, "uci"))?;
        for (key, value) in &spec.options {
            if !options.iter().any(|o| o.eq_ignore_ascii_case(key)) {
                return Err(format!("engine {name} has no option '{key}'"));
            }
            process
                .send(&format!("setoption name {key} value {value}"))
                .map_err(|e| fail(e, "setoption"))?;
        }
        let wanted = variant.to_ascii_lowercase();
        let offered = |v: &Option<Vec<String>>| v.as_ref().is_some_and(|l| l.contains(&wanted));
        if !offered(&variants) && !spec.options.is_empty() {
            // An option may have added variants (Fairy-Stockfish's VariantPath): ask again.
            variants = list_options(&mut process).map_err(|e| fail(e, "uci"))?.1;
        }
        match &variants {
            Some(list) if list.contains(&wanted) => process
                .send(&format!("setoption name UCI_Variant value {variant}"))
                .map_err(|e| fail(e, "setoption"))?,
            // A chess engine without the option plays chess.
            _ if wanted == "chess" => {}
            _ => {
                return Err(format!(
                    "engine {name} does not offer the variant '{variant}'"
                ))
            }
        }
        let mut player = UciPlayer {
            spec: spec.clone(),
            process,
        };
        player.sync()?;
        Ok(player)
    }

    /// `isready`, then waits for `readyok`, dropping anything older (a late `bestmove`).
    fn sync(&mut self) -> Result<(), String> {
        let name = self.spec.name.clone();
        self.process
            .send("isready")
            .and_then(|_| {
                self.process
                    .wait_for(HANDSHAKE_TIMEOUT, |l| l.trim() == "readyok")
            })
            .map(|_| ())
            .map_err(|e| format!("engine {name}: no readyok ({e:?})"))
    }

    fn go_command(&self, turn: &Turn) -> String {
        let mut go = "go".to_string();
        go.push_str(&clock_words(turn.clocks, turn.side));
        if let Some(d) = self.spec.limits.depth {
            go.push_str(&format!(" depth {d}"));
        }
        if let Some(n) = self.spec.limits.nodes {
            go.push_str(&format!(" nodes {n}"));
        }
        go
    }
}

/// The clock part of `go` for `side` to move: each side's own time left and increment (they
/// differ under time odds), and the mover's moves to the next control where there is one;
/// empty without a clock.
fn clock_words(clocks: &Clocks, side: usize) -> String {
    match clocks.left_ms {
        Some([w, b]) => {
            let [winc, binc] = clocks.inc_ms;
            let mut words = format!(
                " wtime {} btime {} winc {winc} binc {binc}",
                w.max(1),
                b.max(1)
            );
            if let Some(n) = clocks.moves_to_go(side) {
                words.push_str(&format!(" movestogo {n}"));
            }
            words
        }
        None => String::new(),
    }
}

/// The `position` command for a game.
pub fn position_command(setup: &GameSetup, moves: &[String]) -> String {
    let mut s = match &setup.fen {
        Some(fen) => format!("position fen {fen}"),
        None => "position startpos".to_string(),
    };
    if !moves.is_empty() {
        s.push_str(" moves ");
        s.push_str(&moves.join(" "));
    }
    s
}

impl Player for UciPlayer {
    fn name(&self) -> &str {
        &self.spec.name
    }

    fn new_game(&mut self, _setup: &GameSetup, _side: usize) -> Result<(), String> {
        self.process
            .send("ucinewgame")
            .map_err(|_| format!("engine {} has exited", self.spec.name))?;
        self.sync()
    }

    fn play(&mut self, turn: &Turn) -> Reply {
        let go = self.go_command(turn);
        let sent = self
            .process
            .send(&position_command(turn.setup, turn.moves))
            .and_then(|_| self.process.send(&go));
        if sent.is_err() {
            return Reply::Crashed;
        }
        let started = Instant::now();
        let deadline = started + turn.wait;
        loop {
            match self.process.read_line(deadline) {
                Ok((line, at)) => {
                    let mut words = line.split_whitespace();
                    if words.next() == Some("bestmove") {
                        let mv = words.next().unwrap_or("").to_string();
                        return Reply::Move(mv, at.saturating_duration_since(started));
                    }
                }
                Err(ReadError::Timeout) => {
                    // Its late answer is dropped by the `isready` before the next game.
                    let _ = self.process.send("stop");
                    return Reply::NoReply;
                }
                Err(ReadError::Closed) => return Reply::Crashed,
            }
        }
    }

    fn game_over(&mut self, _result: &str, _reason: &str) {}

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
    fn reads_option_lines() {
        let l = "option name UCI_Variant type combo default chess var chess var Grand";
        assert_eq!(option_name(l), Some("UCI_Variant"));
        assert_eq!(combo_values(l), vec!["chess", "grand"]);
        assert_eq!(
            option_name("option name Move Overhead type spin default 30"),
            Some("Move Overhead")
        );
        assert_eq!(option_name("id name X"), None);
    }

    #[test]
    fn go_carries_each_sides_own_clock() {
        let tc = |t: &str| t.parse().unwrap();
        let c = Clocks::new([tc("10+0.1"), tc("1+0.01")], 100);
        assert_eq!(
            clock_words(&c, 0),
            " wtime 10000 btime 1000 winc 100 binc 10"
        );
        let c = Clocks::new([crate::clock::TimeControl::Unlimited; 2], 100);
        assert_eq!(clock_words(&c, 0), "");
    }
}
