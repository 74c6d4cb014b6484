//! Runs a whole match: `--concurrency` worker threads, each with its own pair of engine
//! processes, take game numbers from a shared counter (game 2k and 2k+1 share opening k, the
//! first engine White in the even one); the main thread collects the finished games, appends
//! them to the PGN file, prints one progress line per game and stops the match early when the
//! SPRT crosses a bound. A crashed or hung engine is restarted before its next game.

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::Arc;

use crate::config::{EngineSpec, MatchConfig, Proto};
use crate::openings::Openings;
use crate::player::Player;
use crate::referee::{play_game, Ending, GameRecord, Outcome};
use crate::stats::{Sprt, SprtVerdict, Tally};
use crate::uci_player::UciPlayer;
use crate::xboard_player::XboardPlayer;

/// Starts an engine for `variant`.
pub fn start_player(
    spec: &EngineSpec,
    variant: &str,
    debug: bool,
) -> Result<Box<dyn Player>, String> {
    Ok(match spec.proto {
        Proto::Uci => Box::new(UciPlayer::start(spec, variant, debug)?),
        Proto::Xboard => Box::new(XboardPlayer::start(spec, variant, debug)?),
    })
}

/// What a worker reports.
enum Message {
    /// Game number, whether the first engine had White, the game.
    Game(u32, bool, Box<GameRecord>),
    /// The match cannot go on.
    Fatal(String),
}

/// The shared state of the workers.
struct Shared {
    config: MatchConfig,
    openings: Openings,
    next_game: AtomicU32,
    stop: AtomicBool,
}

fn worker(shared: &Shared, tx: &Sender<Message>) {
    let config = &shared.config;
    let mut players: [Option<Box<dyn Player>>; 2] = [None, None];
    while !shared.stop.load(Ordering::SeqCst) {
        // Game numbers are the whole match's: a slice from `--first-pair` plays the games a
        // match from pair 0 would have played under those numbers.
        let game = 2 * config.first_pair + shared.next_game.fetch_add(1, Ordering::SeqCst);
        if game >= 2 * config.first_pair + config.games {
            break;
        }
        for (slot, spec) in players.iter_mut().zip(&config.engines) {
            if slot.as_mut().is_some_and(|p| p.alive()) {
                continue;
            }
            if let Some(mut old) = slot.take() {
                old.quit();
            }
            match start_player(spec, &config.variant, config.debug) {
                Ok(p) => *slot = Some(p),
                Err(e) => {
                    shared.stop.store(true, Ordering::SeqCst);
                    let _ = tx.send(Message::Fatal(e));
                    return;
                }
            }
        }
        let [Some(first), Some(second)] = &mut players else {
            return;
        };
        let mut setup = shared.openings.for_pair(game / 2);
        // Even games give the first engine White (a bit test: `is_multiple_of` is newer than our MSRV).
        let first_is_white = game & 1 == 0;
        // Each colour's clock runs on its engine's own control.
        let [a, b] = config.tc;
        setup.side_tc = if first_is_white { [a, b] } else { [b, a] };
        let record = if first_is_white {
            play_game(
                [first.as_mut(), second.as_mut()],
                &setup,
                config.margin_ms,
                config.max_moves,
            )
        } else {
            play_game(
                [second.as_mut(), first.as_mut()],
                &setup,
                config.margin_ms,
                config.max_moves,
            )
        };
        // An engine that crashed, hung or overstepped its time may still be thinking or be
        // broken: start it afresh for the next game.
        if let (Some(side), Ending::Crash | Ending::TimeForfeit) = (record.culprit, record.ending) {
            let engine = if first_is_white { side } else { 1 - side };
            if let Some(mut p) = players[engine].take() {
                p.quit();
            }
        }
        if tx
            .send(Message::Game(game, first_is_white, Box::new(record)))
            .is_err()
        {
            break;
        }
    }
    for p in players.iter_mut().flatten() {
        p.quit();
    }
}

/// The running totals the progress line and the summary print.
#[derive(Default)]
struct Totals {
    tally: Tally,
    endings: BTreeMap<Ending, u32>,
    /// Forfeits per engine (0 = first) and kind.
    forfeits: BTreeMap<(usize, Ending), u32>,
    /// Per engine: the least time left after any move (ms, before the increment).
    closest_ms: [Option<i64>; 2],
    /// Per engine: clock oversteps within the margin.
    forgiven: [u32; 2],
}

fn signed(x: f64) -> String {
    // No "-0.0".
    let x = if x == 0.0 { 0.0 } else { x };
    format!("{}{x:.1}", if x >= 0.0 { "+" } else { "" })
}

impl Totals {
    fn add(&mut self, first_is_white: bool, record: &GameRecord) {
        let first_side_won = match record.outcome {
            Outcome::Draw => None,
            Outcome::WhiteWins => Some(first_is_white),
            Outcome::BlackWins => Some(!first_is_white),
        };
        match first_side_won {
            None => self.tally.draws += 1,
            Some(true) => self.tally.wins += 1,
            Some(false) => self.tally.losses += 1,
        }
        *self.endings.entry(record.ending).or_default() += 1;
        for side in 0..2 {
            let engine = if first_is_white { side } else { 1 - side };
            if let Some(c) = record.clocks.closest_ms[side] {
                let least = &mut self.closest_ms[engine];
                *least = Some(least.map_or(c, |l| l.min(c)));
            }
            self.forgiven[engine] += record.clocks.forgiven[side];
        }
        if let Some(side) = record.culprit {
            let engine = if first_is_white { side } else { 1 - side };
            *self.forfeits.entry((engine, record.ending)).or_default() += 1;
        }
    }

    fn elo_text(&self) -> String {
        match (self.tally.elo(), self.tally.elo_error()) {
            (Some(e), Some(err)) => format!("Elo {} +/- {err:.1}", signed(e)),
            (Some(e), None) => format!("Elo {} +/- inf", signed(e)),
            _ => "Elo n/a".to_string(),
        }
    }

    /// The summary's last line, for scripts: `Result: W-D-L N games, score S%, Elo E +/- X`
    /// from the first engine's side, with `n/a` for an Elo that is infinite or cannot be
    /// estimated yet and `inf` for an unbounded error bar.
    fn result_line(&self) -> String {
        let t = &self.tally;
        let (elo, err) = match (t.elo(), t.elo_error()) {
            (Some(e), Some(x)) => (signed(e), format!("{x:.1}")),
            (Some(e), None) => (signed(e), "inf".to_string()),
            _ => ("n/a".to_string(), "inf".to_string()),
        };
        format!(
            "Result: {}-{}-{} {} games, score {:.1}%, Elo {elo} +/- {err}",
            t.wins,
            t.draws,
            t.losses,
            t.games(),
            100.0 * t.score().unwrap_or(0.0),
        )
    }

    fn sprt_text(&self, config: &MatchConfig) -> String {
        match &config.sprt {
            Some(s) => {
                let (lo, hi) = s.bounds();
                format!("  LLR {:.2} ({lo:.2}, {hi:.2})", s.llr(&self.tally))
            }
            None => String::new(),
        }
    }
}

/// Plays the match and prints progress and the summary on `out`. Returns an error when the
/// match could not be played (an engine would not start).
pub fn run_match(
    config: MatchConfig,
    openings: Openings,
    out: &mut impl Write,
) -> Result<(), String> {
    let names = [
        config.engines[0].name.clone(),
        config.engines[1].name.clone(),
    ];
    let event = format!("{} vs {} ({})", names[0], names[1], config.variant);
    let mut pgn = match &config.pgn {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("{path}: cannot open: {e}"))?,
        ),
        None => None,
    };
    let w = |out: &mut dyn Write, s: String| writeln!(out, "{s}").map_err(|e| e.to_string());
    let tc_text = if config.tc[0] == config.tc[1] {
        config.tc[0].to_string()
    } else {
        format!(
            "{} {}, {} {}",
            names[0], config.tc[0], names[1], config.tc[1]
        )
    };
    let slice = match config.first_pair {
        0 => String::new(),
        p => format!(" from pair {p} (game {})", 2 * p + 1),
    };
    w(
        out,
        format!(
            "Match {event}: {} games{slice}, tc {tc_text}, concurrency {}",
            config.games, config.concurrency
        ),
    )?;
    let workers = config.concurrency.min(config.games as usize).max(1);
    let shared = Arc::new(Shared {
        config,
        openings,
        next_game: AtomicU32::new(0),
        stop: AtomicBool::new(false),
    });
    let (tx, rx) = channel();
    let handles: Vec<_> = (0..workers)
        .map(|_| {
            let (shared, tx) = (shared.clone(), tx.clone());
            std::thread::spawn(move || worker(&shared, &tx))
        })
        .collect();
    drop(tx);
    let config = &shared.config;
    let mut totals = Totals::default();
    let mut fatal = None;
    let mut decision: Option<Decision> = None;
    for message in rx {
        let (game, first_is_white, record) = match message {
            Message::Fatal(e) => {
                fatal.get_or_insert(e);
                continue;
            }
            Message::Game(g, f, r) => (g, f, r),
        };
        totals.add(first_is_white, &record);
        if let Some(file) = pgn.as_mut() {
            let text = crate::pgn::write_game(&record, game + 1, &event);
            file.write_all(text.as_bytes())
                .map_err(|e| format!("cannot write the PGN: {e}"))?;
        }
        let t = &totals.tally;
        w(
            out,
            format!(
                "Game {} ({} vs {}): {} {{{}}} | {} games: {}-{}-{}  score {:.1}%  {}{}",
                game + 1,
                record.names[0],
                record.names[1],
                record.outcome.pgn(),
                record.reason,
                t.games(),
                t.wins,
                t.draws,
                t.losses,
                100.0 * t.score().unwrap_or(0.0),
                totals.elo_text(),
                totals.sprt_text(config),
            ),
        )?;
        if let Some(s) = &config.sprt {
            if decision.is_none() {
                let verdict = s.verdict(t);
                if verdict != SprtVerdict::Continue {
                    decision = Some(Decision {
                        verdict,
                        games: t.games(),
                        llr: s.llr(t),
                    });
                    shared.stop.store(true, Ordering::SeqCst);
                }
            }
        }
    }
    for h in handles {
        let _ = h.join();
    }
    if let Some(e) = fatal {
        return Err(e);
    }
    let t = &totals.tally;
    w(out, format!("Finished {} games: {event}", t.games()))?;
    w(
        out,
        format!(
            "{}: {} wins, {} draws, {} losses; score {:.1}%; {} (95%)",
            names[0],
            t.wins,
            t.draws,
            t.losses,
            100.0 * t.score().unwrap_or(0.0),
            totals.elo_text()
        ),
    )?;
    if let Some(s) = &config.sprt {
        let result = sprt_outcome(s, decision, t);
        w(
            out,
            format!(
                "SPRT elo0={} elo1={} alpha={} beta={}: {}: {result}",
                s.elo0,
                s.elo1,
                s.alpha,
                s.beta,
                totals.sprt_text(config).trim()
            ),
        )?;
    }
    let endings: Vec<String> = totals
        .endings
        .iter()
        .map(|(e, n)| format!("{} {n}", e.label()))
        .collect();
    w(out, format!("Endings: {}", endings.join(", ")))?;
    if config.tc[0] != crate::clock::TimeControl::Unlimited {
        let clock = |e: usize| match totals.closest_ms[e] {
            Some(ms) => format!(
                "{} {ms} ms left at the closest, {} overstep(s) within the margin",
                names[e], totals.forgiven[e]
            ),
            None => format!("{} made no move", names[e]),
        };
        w(out, format!("Clocks: {}; {}", clock(0), clock(1)))?;
    }
    let forfeits: Vec<String> = totals
        .forfeits
        .iter()
        .map(|((engine, e), n)| format!("{} {} {n}", names[*engine], e.label()))
        .collect();
    w(
        out,
        format!(
            "Forfeits: {}",
            if forfeits.is_empty() {
                "none".to_string()
            } else {
                forfeits.join(", ")
            }
        ),
    )?;
    w(out, totals.result_line())
}

/// The moment an SPRT bound was crossed. The games still under way then are played out and
/// counted, and may take the ratio back inside the bounds.
#[derive(Clone, Copy, Debug)]
struct Decision {
    /// The bound crossed (never `Continue`).
    verdict: SprtVerdict,
    /// Games counted when it was crossed.
    games: u32,
    /// The ratio then.
    llr: f64,
}

/// The SPRT's verdict in words for the summary; `t` holds every game played, including those
/// still under way when the bound was crossed.
fn sprt_outcome(sprt: &Sprt, decision: Option<Decision>, t: &Tally) -> String {
    let Some(d) = decision else {
        return "no decision yet".to_string();
    };
    let mut text = match d.verdict {
        SprtVerdict::AcceptH0 => "H0 accepted (not an improvement)",
        SprtVerdict::AcceptH1 => "H1 accepted (an improvement)",
        SprtVerdict::Continue => "no decision yet",
    }
    .to_string();
    if d.games != t.games() {
        text.push_str(&format!(" at game {} (LLR {:.2})", d.games, d.llr));
        if sprt.verdict(t) != d.verdict {
            text.push_str(", but the games then under way left the final LLR short of that bound");
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sprt_summary_says_when_the_bound_was_crossed() {
        let sprt = Sprt::parse("elo0=50 elo1=100").unwrap();
        let tally = |wins, draws, losses| Tally {
            wins,
            draws,
            losses,
        };
        // Decided on the last game counted (LLR 3.00 of 2.94): nothing to add.
        let t = tally(28, 0, 1);
        let h1 = SprtVerdict::AcceptH1;
        let at = Some(Decision {
            verdict: h1,
            games: 29,
            llr: sprt.llr(&t),
        });
        assert_eq!(sprt.verdict(&t), h1);
        assert_eq!(sprt_outcome(&sprt, at, &t), "H1 accepted (an improvement)");
        // The game under way then was won: still over the bound.
        let text = sprt_outcome(&sprt, at, &tally(29, 0, 1));
        assert_eq!(text, "H1 accepted (an improvement) at game 29 (LLR 3.00)");
        // It was lost: LLR 2.83, short of the bound, and the summary says so.
        let text = sprt_outcome(&sprt, at, &tally(28, 0, 2));
        assert!(
            text.starts_with("H1 accepted (an improvement) at game 29"),
            "{text}"
        );
        assert!(text.ends_with("short of that bound"), "{text}");
        assert_eq!(sprt_outcome(&sprt, None, &t), "no decision yet");
    }

    #[test]
    fn the_result_line_reads_back() {
        let mut t = Totals::default();
        assert_eq!(
            t.result_line(),
            "Result: 0-0-0 0 games, score 0.0%, Elo n/a +/- inf"
        );
        t.tally = Tally {
            wins: 30,
            draws: 10,
            losses: 10,
        };
        assert_eq!(
            t.result_line(),
            "Result: 30-10-10 50 games, score 70.0%, Elo +147.2 +/- 95.1"
        );
        t.tally = Tally {
            wins: 0,
            draws: 2,
            losses: 0,
        };
        assert_eq!(
            t.result_line(),
            "Result: 0-2-0 2 games, score 50.0%, Elo +0.0 +/- inf"
        );
    }
}
