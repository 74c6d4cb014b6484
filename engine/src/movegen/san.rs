//! Standard algebraic notation (SAN) for board moves: writing a move (`Nbd7`, `exd6`, `O-O`,
//! `e8=Q+`) and reading one by matching it against the SAN of every legal move. Shogi-style
//! promotions are written as Western shogi notation writes them: `Pe7+` promotes, `Pe7=`
//! declines where promoting was possible, `Pe7-` demotes, and a promoted man is `+P`; checks
//! are not marked there (a `+` after the move is a promotion), mates still are (`#`). Test suites
//! (EPD `bm`/`am`) and PGN speak it; the protocols speak the coordinate notation beside it
//! (`notation`). It lives here, not in a tool, because the match runner, the web board and
//! the `epd` command all read and write it, and it needs nothing above the legal moves.

use crate::board::position::Position;
use crate::types::{Move, MoveKind};

/// The SAN of the legal move `mv` in `pos`, with `+` or `#` when it checks or mates.
pub fn to_san(pos: &mut Position, mv: Move) -> String {
    let mut s = san_body(pos, mv);
    let shogi = has_promoted_types(pos);
    pos.make_move(mv);
    if pos.in_check() {
        let mate = pos.legal_moves().is_empty();
        if mate {
            s.push('#');
        } else if !shogi {
            s.push('+');
        }
    }
    pos.unmake_move();
    s
}

/// True when the variant has promoted types (`+X`, the shogi family): its SAN marks
/// promotions with `+` and `=` and leaves checks unmarked.
fn has_promoted_types(pos: &Position) -> bool {
    pos.variant()
        .pieces()
        .iter()
        .any(|p| p.promoted_from.is_some())
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
        // Pioneer's file choice names no board move: its coordinate text, `M@g`.
        MoveKind::Place => return pos.move_text(mv),
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
        if v.pieces()[id.index()].promoted_from.is_some() {
            s.push('+');
        }
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
        let new = &v.pieces()[p.index()];
        if new.promoted_from.is_some() {
            s.push('+');
        } else if v.pieces()[id.index()].promoted_from == Some(p) {
            s.push('-');
        } else {
            s.push('=');
            s.push(new.letter);
        }
    } else if has_promoted_types(pos) && could_promote(pos, mv) {
        s.push('=');
    }
    if let Some(p) = mv.gated() {
        s.push('/');
        s.push(v.pieces()[p.index()].letter);
    }
    s
}

/// True when another legal move goes from `mv`'s square to its square as a promotion (a shogi
/// man that stays unpromoted where he could promote: `Pe7=`).
fn could_promote(pos: &mut Position, mv: Move) -> bool {
    pos.legal_moves()
        .iter()
        .any(|m| m.from == mv.from && m.to == mv.to && m.kind == mv.kind && m.promotion().is_some())
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

/// The legal move whose SAN is `text`, if any. The SAN as written is tried first (with a check
/// mark or not), so that shogi's `Pe7+` and `Pe7=` name different moves; then the SAN without
/// its decorations.
pub fn parse_san(pos: &mut Position, text: &str) -> Option<Move> {
    let wanted = normalise(text);
    if wanted.is_empty() {
        return None;
    }
    let moves = pos.legal_moves();
    let exact = text.trim().trim_end_matches(['#', '!', '?']);
    let bodies: Vec<String> = moves.iter().map(|&m| san_body(pos, m)).collect();
    let found = moves.iter().zip(&bodies).find_map(|(&m, b)| {
        (b == exact || exact.strip_suffix('+') == Some(b.as_str())).then_some(m)
    });
    if found.is_some() {
        return found;
    }
    moves
        .iter()
        .copied()
        .zip(&bodies)
        .find(|(_, b)| normalise(b) == wanted)
        .map(|(m, _)| m)
        .or_else(|| {
            // Over-specified SAN (`Ngf3` where `Nf3` is unique) still names one move.
            moves.iter().zip(&bodies).find_map(|(&m, b)| {
                let body = normalise(b);
                let full = format!(
                    "{}{}",
                    body.chars().next().unwrap_or(' '),
                    &pos.move_text(m)
                );
                (normalise(&full) == wanted).then_some(m)
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
    /// layer above this one). A section with no parent promotes to nothing unless it says so,
    /// as in Fairy-Stockfish.
    fn chess() -> VariantRef {
        let text = "[chess]\npawn = p\nknight = n\nbishop = b\nrook = r\nqueen = q\nking = k\n\
                    promotionPieceTypes = nbrq\n";
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

    /// Shogi: `+` promotes, `=` declines, a promoted man is `+P`, checks are not marked.
    #[test]
    fn writes_shogi_promotions() {
        let text = "[shogi]\nvariantTemplate = shogi\nmaxFile = 9\nmaxRank = 9\nshogiPawn = p\n\
                    silver = s\ngold = g\nbishop = b\ndragonHorse = h\nrook = r\nbers = d\n\
                    king = k\nlance = l\nshogiKnight = n\npieceDrops = true\n\
                    capturesToHand = true\npromotionRegionWhite = *7 *8 *9\n\
                    promotionRegionBlack = *3 *2 *1\ndoubleStep = false\ncastling = false\n\
                    promotedPieceType = p:g s:g b:h r:d l:g n:g\n\
                    startFen = lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1\n";
        let sections = parse_config(text, "<test>", &|_| None).expect("a valid section");
        let v = build(&sections[0], "<test>").expect("shogi builds");
        let mut pos = Position::from_fen(&v, "4k4/9/9/4P4/9/9/9/9/4K4[] w - - 0 1").unwrap();
        let promote = pos.parse_move("e6e7+").unwrap();
        let stay = pos.parse_move("e6e7").unwrap();
        assert_eq!(to_san(&mut pos, promote), "Pe7+");
        assert_eq!(to_san(&mut pos, stay), "Pe7=");
        assert_eq!(parse_san(&mut pos, "Pe7+"), Some(promote));
        assert_eq!(parse_san(&mut pos, "Pe7="), Some(stay));
        pos.make_move(promote);
        let king = pos.parse_move("e9d9").unwrap();
        pos.make_move(king);
        let tokin = pos.parse_move("e7e8").unwrap();
        assert_eq!(to_san(&mut pos, tokin), "+Pe8");
        assert_eq!(parse_san(&mut pos, "+Pe8"), Some(tokin));
    }
}
