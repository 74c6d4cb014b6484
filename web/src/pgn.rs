//! PGN for the web board's game: written in the engine's SAN (or in coordinate notation where
//! SAN does not read back, one word per turn), and read back through the match tool's PGN
//! reader, which replays every move through the rules.

use std::fmt::Write as _;

use chimera_engine::movegen::san::{parse_san, to_san};
use chimera_engine::{Move, Position, Registry};
use chimera_matchplay::pgn::{read_games, replay, today, COORDINATE_NOTE};

/// The PGN text of a game from `start` with `moves`; `names` are White's and Black's. `notes`,
/// when given one per move, follow each move's SAN (a reviewed game's NAG and score); a game
/// written in coordinates (one word per turn) goes without them.
pub fn write(
    start: &Position,
    moves: &[Move],
    names: [&str; 2],
    result: Option<&str>,
    notes: &[String],
) -> String {
    let v = start.variant();
    let result_token = match result.map(|r| r.split(' ').next().unwrap_or("*")) {
        Some(r @ ("1-0" | "0-1" | "1/2-1/2")) => r.to_string(),
        _ => "*".to_string(),
    };
    let mut tags = vec![
        ("Event", "Chimera web board".to_string()),
        ("Site", "chimera serve".to_string()),
        ("Date", today()),
        ("Round", "-".to_string()),
        ("White", names[0].to_string()),
        ("Black", names[1].to_string()),
        ("Result", result_token.clone()),
    ];
    if v.name() != "chess" {
        tags.push(("Variant", v.name().to_string()));
    }
    let start_fen = start.fen();
    if start_fen != Position::startpos(v).fen() {
        tags.push(("FEN", start_fen));
        tags.push(("SetUp", "1".to_string()));
    }
    let mut text = String::new();
    for (k, val) in &tags {
        let _ = writeln!(
            text,
            "[{k} \"{}\"]",
            val.replace('\\', "\\\\").replace('"', "\\\"")
        );
    }
    text.push('\n');
    let mut words = Vec::new();
    let san = (v.turns().is_none())
        .then(|| san_words(start, moves))
        .flatten();
    let turns: Vec<String> = match san {
        Some(s) if notes.len() == s.len() => s
            .into_iter()
            .zip(notes)
            .map(|(w, n)| if n.is_empty() { w } else { format!("{w} {n}") })
            .collect(),
        Some(s) => s,
        None => {
            words.push(format!("{{{COORDINATE_NOTE}}}"));
            crate::view::turn_words(start, moves)
        }
    };
    // Move numbers count turns from the start position's side and number.
    let mut number = start.fullmove_number();
    let mut white = start.side_to_move() == chimera_engine::Color::White;
    for (i, w) in turns.iter().enumerate() {
        if white {
            words.push(format!("{number}. {w}"));
        } else if i == 0 {
            words.push(format!("{number}... {w}"));
        } else {
            words.push(w.clone());
        }
        if !white {
            number += 1;
        }
        white = !white;
    }
    words.push(result_token);
    // Lines of at most 80 characters.
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > 80 {
            text.push_str(&line);
            text.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    text.push_str(&line);
    text.push('\n');
    text
}

/// SAN for every move, or `None` when some move's SAN does not read back as itself.
fn san_words(start: &Position, moves: &[Move]) -> Option<Vec<String>> {
    let mut pos = start.clone();
    let mut out = Vec::new();
    for &mv in moves {
        let s = to_san(&mut pos, mv);
        if parse_san(&mut pos, &s) != Some(mv) {
            return None;
        }
        out.push(s);
        pos.make_move(mv);
    }
    Some(out)
}

/// Reads the first game of a PGN text: its start position and its final position (which holds
/// the moves played as its history).
pub fn read(registry: &Registry, text: &str) -> Result<(Position, Position), String> {
    let games = read_games(text)?;
    let game = games.first().ok_or("no game in the PGN text")?;
    let end = replay(registry, game)?;
    let mut start = end.clone();
    while start.game_ply() > 0 {
        start.unmake_move();
    }
    Ok((start, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_written_reads_back() {
        let registry = Registry::new();
        for name in [
            "chess",
            "pawnvault",
            "pioneer",
            "alice",
            "aliceguard",
            "vanguard",
        ] {
            let v = registry.get(name).unwrap();
            let start = Position::startpos(&v);
            let mut pos = start.clone();
            // Eight plies, each the last legal move (a drop, a choice, a part of a turn...).
            for i in 0.. {
                // Whole turns only: a PGN holds no half turn.
                if i >= 8 && pos.turn_phase() == 0 {
                    break;
                }
                let moves = pos.legal_moves();
                let Some(&mv) = moves.last() else { break };
                pos.make_move(mv);
            }
            let played: Vec<Move> = pos.moves_played().collect();
            let text = write(&start, &played, ["a", "b"], None, &[]);
            let (s, e) = read(&registry, &text).unwrap_or_else(|e| panic!("{text}\n{e}"));
            assert_eq!(s.fen(), start.fen());
            assert_eq!(e.fen(), pos.fen(), "{text}");
        }
        // Pioneer's file choices are written as chosen (`M@g`), not as a man's move.
        let v = registry.get("pioneer").unwrap();
        let start = Position::startpos(&v);
        let mut pos = start.clone();
        pos.try_play("M@g").unwrap();
        pos.try_play("m@c").unwrap();
        let played: Vec<Move> = pos.moves_played().collect();
        let text = write(&start, &played, ["a", "b"], None, &[]);
        assert!(text.contains("1. M@g M@c"), "{text}");
        let (_, e) = read(&registry, &text).unwrap_or_else(|e| panic!("{text}\n{e}"));
        assert_eq!(e.fen(), pos.fen(), "{text}");
        // A game stopped in the middle of an Alice Guard turn loads back, parts and all.
        let v = registry.get("aliceguard").unwrap();
        let start = Position::startpos(&v);
        let mut pos = start.clone();
        while pos.game_ply() < 4 || pos.turn_phase() == 0 {
            let mv = pos.legal_moves()[0];
            pos.make_move(mv);
        }
        let played: Vec<Move> = pos.moves_played().collect();
        let text = write(&start, &played, ["a", "b"], None, &[]);
        let (_, e) = read(&registry, &text).unwrap_or_else(|e| panic!("{text}\n{e}"));
        assert_eq!(e.fen(), pos.fen(), "{text}");
        // Shogi in SAN: a promotion (`+`), and the promoted man's move (`+B`).
        let v = registry.get("shogi").unwrap();
        let start = Position::startpos(&v);
        let mut pos = start.clone();
        for m in ["c3c4", "g7g6", "b2g7+", "f9f8", "g7f6"] {
            pos.try_play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
        let played: Vec<Move> = pos.moves_played().collect();
        let text = write(&start, &played, ["a", "b"], None, &[]);
        assert!(text.contains("Bg7+") && text.contains("+Bf6"), "{text}");
        let (_, e) = read(&registry, &text).unwrap_or_else(|e| panic!("{text}\n{e}"));
        assert_eq!(e.fen(), pos.fen(), "{text}");
        // A reviewed game's notes follow the moves, and read back.
        let v = registry.get("chess").unwrap();
        let start = Position::startpos(&v);
        let mut pos = start.clone();
        for m in ["e2e4", "e7e5"] {
            pos.try_play(m).unwrap();
        }
        let played: Vec<Move> = pos.moves_played().collect();
        let notes = ["{+0.30}".to_string(), "$2 {+1.60}".to_string()];
        let text = write(&start, &played, ["a", "b"], None, &notes);
        assert!(text.contains("1. e4 {+0.30} e5 $2 {+1.60} *"), "{text}");
        let (_, e) = read(&registry, &text).unwrap();
        assert_eq!(e.fen(), pos.fen());
        assert!(read(&registry, "1. e4 e5 2. Ke3 *").is_err());
        // Moves after a mate are refused, naming the ply and the end.
        let after_mate = "1. f3 e5 2. g4 Qh4# 3. a3 *";
        let err = read(&registry, after_mate).unwrap_err();
        assert!(err.contains("ply 5") && err.contains("checkmate"), "{err}");
        assert!(read(&registry, "1. f3 e5 2. g4 Qh4# 0-1").is_ok());
    }
}
