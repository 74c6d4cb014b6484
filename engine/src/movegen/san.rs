//! Standard algebraic notation (SAN) for board moves: writing a move (`Nbd7`, `exd6`, `O-O`,
//! `e8=Q+`) and reading one by matching it against the SAN of every legal move. Test suites
//! (EPD `bm`/`am`) and PGN speak it; the protocols speak the coordinate notation beside it
//! (`notation`). It lives here, not in a tool, because the match runner, the web board and
//! the `epd` command all read and write it, and it needs nothing above the legal moves.

use crate::board::position::Position;
use crate::types::{Move, MoveKind};

/// The SAN of the legal move `mv` in `pos`, with `+` or `#` when it checks or mates.
pub fn to_san(pos: &mut Position, mv: Move) -> String {
    let mut s = san_body(pos, mv);
    pos.make_move(mv);
    if pos.in_check() {
        s.push(if pos.legal_moves().is_empty() {
            '#'
        } else {
            '+'
        });
    }
    pos.unmake_move();
    s
}

fn san_body(pos: &mut Position, mv: Move) -> String {
    let v = pos.variant().clone();
    let g = &v.geometry();
    match mv.kind {
        MoveKind::Castle | MoveKind::CastleGateKing | MoveKind::CastleGateRook => {
            let kingside = g.file_of(mv.aux) > g.file_of(mv.from);
            let mut s = if kingside { "O-O" } else { "O-O-O" }.to_string();
            if let Some(p) = mv.gated() {
                s.push('/');
                s.push(v.pieces()[p.index()].letter);
            }
            return s;
        }
        MoveKind::Drop => {
            return format!("{}@{}", v.pieces()[mv.piece as usize].letter, g.name(mv.to));
        }
        MoveKind::Pass => return "--".to_string(),
        _ => {}
    }
    let Some(id) = pos.moved_piece(mv) else {
        return pos.move_text(mv);
    };
    let pawn = v.promotion().pawn_types & (1 << id.0) != 0;
    let capture = pos.is_capture(mv);
    let mut s = String::new();
    if pawn {
        if capture || g.file_of(mv.from) != g.file_of(mv.to) {
            s.push((b'a' + g.display_file(mv.from) as u8) as char);
        }
    } else {
        s.push(v.pieces()[id.index()].letter);
        let rivals: Vec<Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| {
                m.to == mv.to
                    && m.from != mv.from
                    && m.kind != MoveKind::Drop
                    && pos.moved_piece(*m) == Some(id)
            })
            .collect();
        if !rivals.is_empty() {
            let same_file = rivals
                .iter()
                .any(|m| g.display_file(m.from) == g.display_file(mv.from));
            let same_rank = rivals
                .iter()
                .any(|m| g.rank_of(m.from) == g.rank_of(mv.from));
            let name = g.name(mv.from);
            let (file, rank) = name.split_at(1);
            if !same_file {
                s.push_str(file);
            } else if !same_rank {
                s.push_str(rank);
            } else {
                s.push_str(&name);
            }
        }
    }
    if capture {
        s.push('x');
    }
    s.push_str(&g.name(mv.to));
    if let Some(p) = mv.promotion() {
        s.push('=');
        s.push(v.pieces()[p.index()].letter);
    }
    if let Some(p) = mv.gated() {
        s.push('/');
        s.push(v.pieces()[p.index()].letter);
    }
    s
}

/// SAN without the decorations that do not identify the move (`+`, `#`, `!`, `?`, and the `=`
/// of a promotion), with castling written with letter O.
fn normalise(san: &str) -> String {
    san.trim()
        .chars()
        .filter(|c| !matches!(c, '+' | '#' | '!' | '?' | '='))
        .map(|c| if c == '0' { 'O' } else { c })
        .collect()
}

/// The legal move whose SAN is `text`, if any.
pub fn parse_san(pos: &mut Position, text: &str) -> Option<Move> {
    let wanted = normalise(text);
    if wanted.is_empty() {
        return None;
    }
    let moves = pos.legal_moves();
    moves
        .iter()
        .copied()
        .find(|&m| normalise(&san_body(pos, m)) == wanted)
        .or_else(|| {
            // Over-specified SAN (`Ngf3` where `Nf3` is unique) still names one move.
            moves.iter().copied().find(|&m| {
                let body = normalise(&san_body(pos, m));
                let full = format!(
                    "{}{}",
                    body.chars().next().unwrap_or(' '),
                    &pos.move_text(m)
                );
                normalise(&full) == wanted
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::builder::build;
    use crate::variant::config::parse_config;
    use crate::variant::VariantRef;

    /// Orthodox chess, built from its section of the built-in file without the registry (a
    /// layer above this one).
    fn chess() -> VariantRef {
        let text = "[chess]\npawn = p\nknight = n\nbishop = b\nrook = r\nqueen = q\nking = k\n";
        let sections = parse_config(text, "<test>", &|_| None).expect("a valid section");
        build(&sections[0], "<test>").expect("chess builds")
    }

    #[test]
    fn writes_and_reads_the_usual_forms() {
        let v = chess();
        let mut pos = Position::from_fen(
            &v,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        for (uci, san) in [
            ("e1g1", "O-O"),
            ("e1c1", "O-O-O"),
            ("d5e6", "dxe6"),
            ("e5f7", "Nxf7"),
            ("c3b5", "Nb5"),
            ("f3f6", "Qxf6"),
            ("e2a6", "Bxa6"),
        ] {
            let mv = pos.parse_move(uci).unwrap();
            assert_eq!(to_san(&mut pos, mv), san);
            assert_eq!(parse_san(&mut pos, san), Some(mv));
        }
        let mut pos = Position::from_fen(&v, "7k/4P3/8/8/8/8/8/R3K3 w Q - 0 1").unwrap();
        let mv = pos.parse_move("e7e8q").unwrap();
        assert_eq!(to_san(&mut pos, mv), "e8=Q+");
        assert_eq!(parse_san(&mut pos, "e8=Q"), Some(mv));
        let mv = pos.parse_move("a1a8").unwrap();
        assert_eq!(to_san(&mut pos, mv), "Ra8+");
        let mut pos = Position::from_fen(&v, "6k1/5ppp/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
        let mv = pos.parse_move("a1a8").unwrap();
        assert_eq!(to_san(&mut pos, mv), "Ra8#");
    }
}
