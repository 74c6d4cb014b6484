//! PGN for match games: the writer (Seven Tag Roster plus Variant, FEN/SetUp, TimeControl (the
//! first engine's), WhiteTimeControl/BlackTimeControl when the colours' controls differ,
//! Termination; moves in SAN, or in coordinate notation for a game where some move has no SAN
//! that reads back as the same move, said so in a comment; after each engine move a comment
//! with the time it took and the time left before the increment) and a reader that replays the moves
//! through Chimera's rules, which is how the files are checked (`chimera pgn-check`).

use std::collections::HashMap;
use std::fmt::Write as _;

use chimera_engine::movegen::san::{parse_san, to_san};
use chimera_engine::registry::Registry;
use chimera_engine::{Move, Position};

use crate::referee::GameRecord;

/// The comment that marks a game written in coordinate notation.
pub const COORDINATE_NOTE: &str =
    "moves in coordinate notation: SAN is not defined for every move of this variant";

/// Today's date as `YYYY.MM.DD` (UTC), from the days since 1970 (civil-from-days).
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The Gregorian date of a day number counted from 1970-01-01.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// The moves of a game as SAN, or `None` when some move's SAN does not read back as itself.
fn san_moves(start: &Position, moves: &[Move]) -> Option<Vec<String>> {
    let mut pos = start.clone();
    let mut out = Vec::with_capacity(moves.len());
    for &mv in moves {
        let san = to_san(&mut pos, mv);
        if parse_san(&mut pos, &san) != Some(mv) {
            return None;
        }
        out.push(san);
        pos.make_move(mv);
    }
    Some(out)
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The PGN text of one game; `round` is its number in the match.
pub fn write_game(game: &GameRecord, round: u32, event: &str) -> String {
    let setup = &game.setup;
    let start = match &setup.fen {
        Some(fen) => Position::from_fen(&setup.variant, fen).expect("openings are checked"),
        None => Position::startpos(&setup.variant),
    };
    let mut tags: Vec<(&str, String)> = vec![
        ("Event", event.to_string()),
        ("Site", "chimera match".to_string()),
        ("Date", today()),
        ("Round", round.to_string()),
        ("White", game.names[0].clone()),
        ("Black", game.names[1].clone()),
        ("Result", game.outcome.pgn().to_string()),
    ];
    if setup.variant.name() != "chess" {
        tags.push(("Variant", setup.variant.name().to_string()));
    }
    if let Some(fen) = &setup.fen {
        tags.push(("FEN", fen.clone()));
        tags.push(("SetUp", "1".into()));
    }
    tags.push(("TimeControl", setup.tc.to_string()));
    // Time odds: each colour's own control as well.
    if setup.side_tc[0] != setup.side_tc[1] {
        tags.push(("WhiteTimeControl", setup.side_tc[0].to_string()));
        tags.push(("BlackTimeControl", setup.side_tc[1].to_string()));
    }
    tags.push(("Termination", game.ending.pgn_termination().to_string()));
    tags.push(("PlyCount", game.moves.len().to_string()));
    let mut text = String::new();
    for (k, v) in &tags {
        let _ = writeln!(text, "[{k} \"{}\"]", escape(v));
    }
    text.push('\n');
    let mut tokens: Vec<String> = Vec::new();
    // A turn of several parts is one word, `a,b`, as on the wire (no SAN is defined for it).
    let turns = start.variant().turns().is_some();
    let words = match (!turns).then(|| san_moves(&start, &game.moves)).flatten() {
        Some(san) => san,
        None => {
            tokens.push(format!("{{{COORDINATE_NOTE}}}"));
            let mut pos = start.clone();
            start
                .group_turns(&game.moves)
                .iter()
                .map(|turn| pos.play_turn_text(turn))
                .collect()
        }
    };
    let mut number = start.fullmove_number();
    let mut white_to_move = start.side_to_move() == chimera_engine::Color::White;
    for (i, w) in words.iter().enumerate() {
        if white_to_move {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(w.clone());
        if let Some((ms, left)) = i
            .checked_sub(setup.opening.len())
            .and_then(|k| game.times.get(k))
        {
            tokens.push(match left {
                Some(left) => format!("{{{ms}ms, {left}ms left}}"),
                None => format!("{{{ms}ms}}"),
            });
        }
        if i + 1 == setup.opening.len() {
            tokens.push("{end of opening}".into());
        }
        if !white_to_move {
            number += 1;
        }
        white_to_move = !white_to_move;
    }
    tokens.push(format!("{{{}}}", game.reason.replace('}', ")")));
    tokens.push(game.outcome.pgn().to_string());
    // Lines of at most 80 characters.
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 80 {
            text.push_str(&line);
            text.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    text.push_str(&line);
    text.push_str("\n\n");
    text
}

/// One game read back from PGN.
#[derive(Debug, Default)]
pub struct PgnGame {
    /// The tags.
    pub tags: HashMap<String, String>,
    /// The move words, in order (SAN or coordinates).
    pub moves: Vec<String>,
    /// The result token at the end.
    pub result: String,
}

/// Splits PGN text into games: tag pairs, then move text without numbers, comments, NAGs and
/// variations.
pub fn read_games(text: &str) -> Result<Vec<PgnGame>, String> {
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut in_moves = false;
    let mut comment_depth = 0usize;
    let mut variation_depth = 0usize;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if comment_depth == 0 && line.starts_with('[') {
            if in_moves {
                games.push(std::mem::take(&mut game));
                in_moves = false;
            }
            let inner = line.trim_start_matches('[').trim_end_matches(']');
            let (key, value) = inner
                .split_once(' ')
                .ok_or_else(|| format!("line {}: bad tag '{line}'", n + 1))?;
            let value = value.trim().trim_matches('"').replace("\\\"", "\"");
            game.tags.insert(key.to_string(), value);
            continue;
        }
        let mut word = String::new();
        for c in line.chars().chain(std::iter::once(' ')) {
            if comment_depth > 0 {
                if c == '}' {
                    comment_depth -= 1;
                }
                continue;
            }
            if !(c.is_whitespace() || matches!(c, '{' | '(' | ')')) {
                word.push(c);
                continue;
            }
            // A separator: the word before it is complete.
            let w = std::mem::take(&mut word);
            if !w.is_empty() && variation_depth == 0 {
                in_moves = true;
                if ["1-0", "0-1", "1/2-1/2", "*"].contains(&w.as_str()) {
                    game.result = w;
                    games.push(std::mem::take(&mut game));
                    in_moves = false;
                } else if !w.starts_with('$') {
                    // Drop a move number glued to the move (`12.e4`, `3...Nf6`).
                    let m = w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
                    if !m.is_empty() {
                        game.moves.push(m.to_string());
                    }
                }
            }
            match c {
                '{' => comment_depth += 1,
                '(' => variation_depth += 1,
                ')' => variation_depth = variation_depth.saturating_sub(1),
                _ => {}
            }
        }
    }
    if in_moves {
        games.push(game);
    }
    Ok(games)
}

/// Replays a game through the rules: every move must be legal (SAN or coordinates). Returns
/// the final position.
pub fn replay(registry: &Registry, game: &PgnGame) -> Result<Position, String> {
    let variant_name = game.tags.get("Variant").map_or("chess", String::as_str);
    let variant = registry
        .get(variant_name)
        .ok_or_else(|| format!("unknown variant '{variant_name}'"))?;
    let mut pos = match game.tags.get("FEN") {
        Some(fen) => Position::from_fen(&variant, fen).map_err(|e| format!("bad FEN: {e}"))?,
        None => Position::startpos(&variant),
    };
    for (i, word) in game.moves.iter().enumerate() {
        // A game the rules have ended takes no more moves, whatever the text says.
        if let Some(end) = pos.outcome() {
            return Err(format!(
                "ply {}: '{word}' comes after the end of the game ({end})",
                i + 1
            ));
        }
        let last = i + 1 == game.moves.len();
        let turn = match parse_san(&mut pos, word) {
            Some(mv) => vec![mv],
            None => crate::referee::read_turn(&pos, word)
                .or_else(|e| {
                    // A game stopped in the middle of a turn ends on the parts played.
                    if last {
                        crate::referee::read_turn_start(&pos, word)
                    } else {
                        Err(e)
                    }
                })
                .map_err(|_| format!("ply {}: '{word}' is not a legal move", i + 1))?,
        };
        turn.iter().for_each(|&mv| pos.make_move(mv));
    }
    Ok(pos)
}

/// `chimera pgn-check FILE`: replays every game; returns a one-line report.
pub fn check_file(registry: &Registry, file: &str) -> Result<String, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: cannot read: {e}"))?;
    let games = read_games(&text).map_err(|e| format!("{file}: {e}"))?;
    let mut plies = 0;
    for (i, g) in games.iter().enumerate() {
        replay(registry, g).map_err(|e| format!("{file}: game {}: {e}", i + 1))?;
        plies += g.moves.len();
        if g.tags.get("Result") != Some(&g.result) {
            return Err(format!(
                "{file}: game {}: Result tag differs from the result",
                i + 1
            ));
        }
    }
    Ok(format!(
        "{file}: {} games, {plies} plies, every move legal",
        games.len()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn reads_movetext() {
        let games = read_games(
            "[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 {a comment} e5 2.Nf3 $1 (2. d4) Nc6\n3. a3 1-0\n\n\
             [Event \"y\"]\n\n1. d4 *\n",
        )
        .unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves, vec!["e4", "e5", "Nf3", "Nc6", "a3"]);
        assert_eq!(games[0].result, "1-0");
        assert_eq!(games[1].moves, vec!["d4"]);
        let r = Registry::new();
        assert!(replay(&r, &games[0]).is_ok());
    }
}
