//! The referee: plays one game between two [`Player`]s with Chimera's rules as the arbiter.
//! Every move an engine sends is matched against the legal moves (coordinate notation, or SAN
//! as a fallback for engines that speak it); the game ends on the rules' verdict
//! (`Position::outcome`: mate, stalemate, a lost royal, the move-count rule, repetition), on
//! insufficient material in chess (bare kings, or a single minor piece), on the `--max-moves`
//! adjudication, or on an engine's failure: an illegal or unparsable move, a fallen flag, a
//! crash or a hang, a resignation, a false claim, or calling a legal move illegal.

use std::time::Duration;

use chimera_engine::movegen::san::parse_san;
use chimera_engine::rules::result_token;
use chimera_engine::{Color, Move, MoveError, Position};

use crate::clock::Clocks;
use crate::player::{GameSetup, Player, Reply, Turn};

/// How long to wait for a move when there is no clock, before calling the engine hung.
const UNTIMED_WAIT: Duration = Duration::from_secs(120);

/// The result of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Drawn.
    Draw,
}

impl Outcome {
    /// The PGN result token, in the engine's one wording of results.
    pub fn pgn(self) -> &'static str {
        result_token(match self {
            Outcome::WhiteWins => Some(Color::White),
            Outcome::BlackWins => Some(Color::Black),
            Outcome::Draw => None,
        })
    }

    fn win_for(side: usize) -> Outcome {
        if side == 0 {
            Outcome::WhiteWins
        } else {
            Outcome::BlackWins
        }
    }
}

/// How a game ended, in the classes the summary counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ending {
    /// By the rules of the game (mate, stalemate, repetition ...).
    Rules,
    /// By the referee's own adjudication (move limit, insufficient material).
    Adjudication,
    /// An engine resigned.
    Resignation,
    /// An engine's clock ran out (or it stopped answering while its clock ran).
    TimeForfeit,
    /// An engine played an illegal or unparsable move.
    IllegalMove,
    /// An engine claimed a result the rules do not give.
    FalseClaim,
    /// An engine called its opponent's legal move illegal.
    RejectedLegalMove,
    /// An engine's process ended, or it hung without a clock, or it failed to start a game.
    Crash,
}

impl Ending {
    /// The PGN `Termination` tag value.
    pub fn pgn_termination(self) -> &'static str {
        match self {
            Ending::Rules | Ending::Resignation => "normal",
            Ending::Adjudication => "adjudication",
            Ending::TimeForfeit => "time forfeit",
            Ending::IllegalMove | Ending::FalseClaim | Ending::RejectedLegalMove => {
                "rules infraction"
            }
            Ending::Crash => "abandoned",
        }
    }

    /// Whether this ending is the fault of one engine (a forfeit, not a played-out result).
    pub fn is_forfeit(self) -> bool {
        self >= Ending::TimeForfeit
    }

    /// A short label for the summary.
    pub fn label(self) -> &'static str {
        match self {
            Ending::Rules => "rules",
            Ending::Adjudication => "adjudication",
            Ending::Resignation => "resignation",
            Ending::TimeForfeit => "time forfeit",
            Ending::IllegalMove => "illegal move",
            Ending::FalseClaim => "false claim",
            Ending::RejectedLegalMove => "rejected legal move",
            Ending::Crash => "crash/hang",
        }
    }
}

/// A finished game.
#[derive(Clone)]
pub struct GameRecord {
    /// The setup it started from.
    pub setup: GameSetup,
    /// The names of White and Black.
    pub names: [String; 2],
    /// Every move, opening included.
    pub moves: Vec<Move>,
    /// The result.
    pub outcome: Outcome,
    /// Its class.
    pub ending: Ending,
    /// The side at fault for a forfeit (0 White, 1 Black).
    pub culprit: Option<usize>,
    /// Words for the PGN comment and the progress line.
    pub reason: String,
    /// The final clocks (with the closest approach to the flag and the oversteps forgiven).
    pub clocks: Clocks,
    /// For each move after the opening: the time it took and, with a clock, the time left
    /// after it (before the increment), in ms.
    pub times: Vec<(u64, Option<i64>)>,
}

fn side_name(side: usize) -> &'static str {
    if side == 0 {
        "White"
    } else {
        "Black"
    }
}

/// Bare kings, or kings and one knight or bishop: no mate is possible (chess only).
pub fn insufficient_material(pos: &Position) -> bool {
    if pos.variant().name() != "chess" {
        return false;
    }
    let mut minors = 0;
    for color in [Color::White, Color::Black] {
        for &sq in pos.squares_of(color) {
            let Some(id) = pos.piece_id_at(sq) else {
                continue;
            };
            match pos.variant().pieces()[id.index()].letter {
                'K' => {}
                'N' | 'B' => minors += 1,
                _ => return false,
            }
        }
    }
    minors <= 1
}

/// Reads an engine's move: coordinates first, then SAN.
fn read_move(pos: &mut Position, text: &str) -> Result<Move, MoveError> {
    match pos.parse_move(text) {
        Ok(mv) => Ok(mv),
        Err(e) => parse_san(pos, text).ok_or(e),
    }
}

/// Reads a whole turn: one move, or in a variant whose turns have several parts the parts
/// joined by commas (`e2e3,l2d4`, docs/protocols.md D3), which must hand the move to the
/// opponent exactly at their end. The position is left as it was.
pub fn read_turn(pos: &Position, text: &str) -> Result<Vec<Move>, MoveError> {
    let mut after = pos.clone();
    let us = pos.side_to_move();
    if pos.variant().turns().is_none() {
        return read_move(&mut after, text).map(|mv| vec![mv]);
    }
    let parts: Vec<&str> = text.split(',').collect();
    let mut moves = Vec::with_capacity(parts.len());
    for (i, part) in parts.iter().enumerate() {
        let mv = read_move(&mut after, part)?;
        after.make_move(mv);
        moves.push(mv);
        let turn_over = after.side_to_move() != us || after.outcome().is_some();
        if turn_over != (i + 1 == parts.len()) {
            return Err(MoveError::Illegal(text.to_string()));
        }
    }
    Ok(moves)
}

/// The first parts of a turn, `text` (parts joined by commas), played no further than the
/// turn goes: how a game stopped in the middle of a turn ends.
pub fn read_turn_start(pos: &Position, text: &str) -> Result<Vec<Move>, MoveError> {
    let mut after = pos.clone();
    let us = pos.side_to_move();
    let mut moves = Vec::new();
    for part in text.split(',') {
        if after.side_to_move() != us || after.outcome().is_some() {
            return Err(MoveError::Illegal(text.to_string()));
        }
        let mv = read_move(&mut after, part)?;
        after.make_move(mv);
        moves.push(mv);
    }
    Ok(moves)
}

/// The rules' verdict on the position, if the game is over.
fn verdict(pos: &mut Position) -> Option<(Outcome, Ending, String)> {
    if let Some(end) = pos.outcome() {
        let outcome = match end.winner {
            Some(Color::White) => Outcome::WhiteWins,
            Some(Color::Black) => Outcome::BlackWins,
            None => Outcome::Draw,
        };
        // The rules' words, as the engine's own XBoard claim and the web board say them.
        return Some((outcome, Ending::Rules, end.reason_text().to_string()));
    }
    insufficient_material(pos).then(|| {
        (
            Outcome::Draw,
            Ending::Adjudication,
            "Draw by insufficient material".into(),
        )
    })
}

/// Plays one game: `players[0]` is White. `max_moves` adjudicates a draw after that many
/// full moves (0 = never).
pub fn play_game(
    players: [&mut dyn Player; 2],
    setup: &GameSetup,
    margin_ms: u64,
    max_moves: u32,
) -> GameRecord {
    let names = [players[0].name().to_string(), players[1].name().to_string()];
    let mut pos = match &setup.fen {
        Some(fen) => Position::from_fen(&setup.variant, fen).expect("openings are checked"),
        None => Position::startpos(&setup.variant),
    };
    let mut moves = Vec::new();
    let mut texts = Vec::new();
    let mut opening_turns = [0u32; 2];
    for text in &setup.opening {
        opening_turns[pos.side_to_move().index()] += 1;
        for mv in read_turn(&pos, text).expect("openings are checked") {
            moves.push(mv);
            pos.make_move(mv);
        }
        texts.push(text.clone());
    }
    let mut clocks = Clocks::new(setup.side_tc, margin_ms);
    // The opening's moves are moves of the game, so they count towards a control of so many
    // moves, as a GUI counts them and as the engines see them.
    clocks.moves_made = opening_turns;
    let mut times = Vec::new();
    let [white, black] = players;
    let mut players: [&mut dyn Player; 2] = [white, black];
    // (result, class, side at fault, reason)
    let (outcome, ending, culprit, reason) = 'game: {
        for (side, player) in players.iter_mut().enumerate() {
            if let Err(e) = player.new_game(setup, side) {
                let reason = format!("{} could not start the game: {e}", side_name(side));
                break 'game (
                    Outcome::win_for(1 - side),
                    Ending::Crash,
                    Some(side),
                    reason,
                );
            }
        }
        loop {
            if let Some((outcome, ending, reason)) = verdict(&mut pos) {
                break 'game (outcome, ending, None, reason);
            }
            if max_moves > 0 && texts.len() >= 2 * max_moves as usize {
                let reason = format!("Draw by adjudication after {max_moves} moves");
                break 'game (Outcome::Draw, Ending::Adjudication, None, reason);
            }
            let side = pos.side_to_move().index();
            let loss = Outcome::win_for(1 - side);
            let who = side_name(side);
            let turn = Turn {
                setup,
                moves: &texts,
                clocks: &clocks,
                side,
                wait: clocks.wait_limit(side).unwrap_or(UNTIMED_WAIT),
            };
            let forfeit = |ending: Ending, reason: String| (loss, ending, Some(side), reason);
            let resign = |reason: String| (loss, Ending::Resignation, None, reason);
            // Every reply but a legal move in time ends the game.
            break 'game match players[side].play(&turn) {
                Reply::Move(text, elapsed) => {
                    let left = clocks.left_ms.map(|l| l[side] - elapsed.as_millis() as i64);
                    if !clocks.charge(side, elapsed) {
                        let ms = elapsed.as_millis();
                        let reason = format!("{who} loses on time (move {text} took {ms} ms)");
                        forfeit(Ending::TimeForfeit, reason)
                    } else {
                        match read_turn(&pos, &text) {
                            Ok(turn) => {
                                times.push((elapsed.as_millis() as u64, left));
                                texts.push(pos.play_turn_text(&turn));
                                moves.extend(turn);
                                continue;
                            }
                            Err(e) => forfeit(Ending::IllegalMove, format!("{who} plays an {e}")),
                        }
                    }
                }
                Reply::NoReply if clocks.left_ms.is_some() => forfeit(
                    Ending::TimeForfeit,
                    format!("{who} loses on time (no move)"),
                ),
                Reply::NoReply => forfeit(Ending::Crash, format!("{who} does not answer")),
                Reply::Crashed => forfeit(Ending::Crash, format!("{who}'s engine crashed")),
                Reply::Resign => resign(format!("{who} resigns")),
                Reply::Rejected(line) => forfeit(
                    Ending::RejectedLegalMove,
                    format!("{who} calls a legal move illegal ({line})"),
                ),
                Reply::Claim(result, why) => {
                    // The game is not over by the rules here (that was checked above), so
                    // only a claim against oneself stands: it is a resignation.
                    let own_loss = (side == 0 && result == "0-1") || (side == 1 && result == "1-0");
                    if own_loss {
                        resign(format!("{who} resigns ({why})"))
                    } else {
                        let reason = format!("{who} claims {result} {{{why}}} falsely");
                        forfeit(Ending::FalseClaim, reason)
                    }
                }
            };
        }
    };
    for p in players.iter_mut() {
        p.game_over(outcome.pgn(), &reason);
    }
    GameRecord {
        setup: setup.clone(),
        names,
        moves,
        outcome,
        ending,
        culprit,
        reason,
        clocks,
        times,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chimera_engine::registry::builtin;

    #[test]
    fn knows_insufficient_material_in_chess_only() {
        let chess = builtin("chess").unwrap();
        for (fen, dead) in [
            ("8/8/4k3/8/8/3K4/8/8 w - - 0 1", true),
            ("8/8/4k3/8/8/3KN3/8/8 w - - 0 1", true),
            ("8/8/4kb2/8/8/3KN3/8/8 w - - 0 1", false),
            ("8/8/4k3/8/8/3KP3/8/8 w - - 0 1", false),
        ] {
            let pos = Position::from_fen(&chess, fen).unwrap();
            assert_eq!(insufficient_material(&pos), dead, "{fen}");
        }
        let berolina = builtin("berolina").unwrap();
        let pos = Position::from_fen(&berolina, "8/8/4k3/8/8/3K4/8/8 w - - 0 1").unwrap();
        assert!(!insufficient_material(&pos));
    }
}
