//! A first net for one variant made from another variant's trained net: each man of the new
//! variant whose moves the old variant knows keeps what the old net learnt of it, square by
//! square, so that a new variant's first round of training refines chess knowledge instead of
//! starting from random weights.
//!
//! The rules, per piece type of the new variant: the old type with the same letter and the
//! same XBetza moves; else one with the same moves under another letter or spelling (compared
//! as board vectors, `Variant::move_vectors`: `Q` is `RB`); else, for a compound whose moves
//! are those of two or three old types together (the Archbishop `BN`, the Chancellor `RN`),
//! the sum of their columns, as if the parts stood on one square (a compound is worth about
//! its parts); else, for a pawn type that moves otherwise (Pawn Vault's vaulting pawns,
//! Berolina's), the old variant's pawn of the same letter or its first pawn type (what a pawn
//! is worth, and how much more near promotion, carries over better than zero); else the old
//! type whose moves reach most of the same squares (at least [`NEAR`] of the squares either
//! reaches from the middle of an empty board), the nearest man; else nothing (zero columns,
//! learnt from the data).
//! Squares: the new board is laid centred over the old one, ranks counted from each side's
//! own edge, and a square beyond the old board takes the nearest old square's column.
//! A man in hand starts as his type's mean column over the board's squares, the same for each
//! man counted (a dragon waiting to be dropped is worth about a dragon on an average square,
//! not nothing); reserves start at zero; every output bucket starts as the old net's of the same
//! part of the turn and stage of the game (see `FloatNet::rebucketed`). The hidden layer keeps
//! the old net's size.

use std::collections::HashSet;

use chimera_engine::types::{Color, PieceId};
use chimera_engine::variant::MoveVector;
use chimera_engine::Variant;

use crate::features::Layout;
use crate::network::FloatNet;

/// What became of each piece type of the new variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The same letter and moves in the old variant.
    Same,
    /// The same moves under another letter.
    Moves(char),
    /// A compound: the sum of these old types.
    Compound(Vec<char>),
    /// A pawn type that moves otherwise: this old pawn type.
    Pawn(char),
    /// No type moves alike: the old type whose moves reach most of the same squares.
    Near(char),
    /// No counterpart: starts at zero.
    New,
}

/// The net transferred, and per new piece type (in the variant's order) its letter and origin.
pub struct Transfer {
    pub net: FloatNet,
    pub origins: Vec<(char, Origin)>,
}

impl Transfer {
    /// True when every piece type of the new variant starts from something the old net learnt.
    pub fn covers_every_type(&self) -> bool {
        self.origins.iter().all(|(_, o)| *o != Origin::New)
    }

    /// How many types found a counterpart with the same moves (under any letter).
    pub fn exact_types(&self) -> usize {
        (self.origins.iter())
            .filter(|(_, o)| matches!(o, Origin::Same | Origin::Moves(_)))
            .count()
    }

    /// One line per piece type, for the trainer to print.
    pub fn describe(&self) -> String {
        let parts: Vec<String> = self
            .origins
            .iter()
            .map(|(letter, o)| match o {
                Origin::Same => format!("{letter}"),
                Origin::Moves(old) => format!("{letter}={old}"),
                Origin::Compound(old) => {
                    let sum: Vec<String> = old.iter().map(|c| c.to_string()).collect();
                    format!("{letter}={}", sum.join("+"))
                }
                Origin::Pawn(old) => format!("{letter}~{old}"),
                Origin::Near(old) => format!("{letter}≈{old}"),
                Origin::New => format!("{letter} new"),
            })
            .collect();
        parts.join(" ")
    }
}

/// The old types (indices) whose XBetza strings, one after another, spell `betza`, fewest
/// parts first; royal types are left out (a king's column holds its safety, not a value).
fn compound_of(betza: &str, old: &Variant) -> Option<Vec<usize>> {
    // Shortest split by dynamic programming over the string's prefixes.
    let n = betza.len();
    let mut best: Vec<Option<Vec<usize>>> = vec![None; n + 1];
    best[0] = Some(Vec::new());
    for i in 0..n {
        let Some(prefix) = best[i].clone() else {
            continue;
        };
        for (t, p) in old.pieces().iter().enumerate() {
            if p.royal || p.betza.is_empty() || !betza[i..].starts_with(p.betza.as_str()) {
                continue;
            }
            let j = i + p.betza.len();
            let mut parts = prefix.clone();
            parts.push(t);
            if best[j].as_ref().is_none_or(|b| b.len() > parts.len()) {
                best[j] = Some(parts);
            }
        }
    }
    best[n].take().filter(|parts| parts.len() > 1)
}

/// A non-royal type of the old variant and his moves: what a new man may be made of.
type OldMan = (usize, Vec<MoveVector>);

/// The old variant's non-royal types with their moves, worked out once per transfer.
fn old_men(old: &Variant) -> Vec<OldMan> {
    (0..old.pieces().len())
        .filter(|&t| !old.pieces()[t].royal)
        .map(|t| (t, old.move_vectors(PieceId(t as u8))))
        .collect()
}

/// The old non-royal types (at most three, fewest first) whose moves together are exactly
/// `moves`, each a part of them: a compound spelt otherwise than its parts one after another
/// (`NB`, `WFN`).
fn compound_by_moves(moves: &[MoveVector], old_men: &[OldMan]) -> Option<Vec<usize>> {
    let parts: Vec<&OldMan> = (old_men.iter())
        .filter(|(_, v)| {
            !v.is_empty() && v.len() < moves.len() && v.iter().all(|m| moves.contains(m))
        })
        .collect();
    let covers = |chosen: &[&OldMan]| {
        let n = moves
            .iter()
            .filter(|m| chosen.iter().any(|(_, v)| v.contains(m)))
            .count();
        n == moves.len()
    };
    for (i, a) in parts.iter().enumerate() {
        for (j, b) in parts.iter().enumerate().skip(i + 1) {
            if covers(&[a, b]) {
                return Some(vec![a.0, b.0]);
            }
            for c in parts.iter().skip(j + 1) {
                if covers(&[a, b, c]) {
                    return Some(vec![a.0, b.0, c.0]);
                }
            }
        }
    }
    None
}

/// The least share of reached squares two men must have in common to count as near.
pub const NEAR: f64 = 0.6;

/// The squares `moves` reach from the middle of an empty board (slides up to seven steps),
/// each with how it is reached (quiet or capture, by a hop or not).
fn reach_set(moves: &[MoveVector]) -> HashSet<(i8, i8, bool, bool)> {
    let mut out = HashSet::new();
    for m in moves {
        let steps = if m.range == 0 { 7 } else { m.range.min(7) } as i8;
        for k in 1..=steps {
            let (x, y) = (m.dx * k, m.dy * k);
            if m.quiet {
                out.insert((x, y, false, m.hops));
            }
            if m.capture {
                out.insert((x, y, true, m.hops));
            }
        }
    }
    out
}

/// The non-royal old type whose moves reach most of the same squares as `moves` (the shared
/// squares over all squares either reaches), if that share is at least [`NEAR`].
fn nearest(moves: &[MoveVector], old_men: &[OldMan]) -> Option<usize> {
    let mine = reach_set(moves);
    if mine.is_empty() {
        return None;
    }
    (old_men.iter())
        .map(|(t, their_moves)| {
            let theirs = reach_set(their_moves);
            let common = mine.intersection(&theirs).count() as f64;
            let all = mine.union(&theirs).count() as f64;
            (*t, if all > 0.0 { common / all } else { 0.0 })
        })
        .filter(|&(_, share)| share >= NEAR)
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(t, _)| t)
}

/// For a non-royal pawn type `ty` of `new`: the old pawn type with its letter, else the old
/// variant's first pawn type.
fn pawn_counterpart(ty: usize, new: &Variant, old: &Variant) -> Option<usize> {
    let is_pawn = |v: &Variant, t: usize| v.promotion().pawn_types & (1 << t) != 0;
    if new.pieces()[ty].royal || !is_pawn(new, ty) {
        return None;
    }
    let letter = new.pieces()[ty].letter;
    let olds = old.pieces();
    let pawns = || (0..olds.len()).filter(|&t| is_pawn(old, t) && !olds[t].royal);
    pawns()
        .find(|&t| olds[t].letter == letter)
        .or_else(|| pawns().next())
}

/// The old types each new type starts from (empty: none), with its origin.
fn type_sources(new: &Variant, old: &Variant) -> Vec<(char, Origin, Vec<usize>)> {
    let old_moves: Vec<Vec<MoveVector>> = (0..old.pieces().len())
        .map(|t| old.move_vectors(PieceId(t as u8)))
        .collect();
    let old_men = old_men(old);
    new.pieces()
        .iter()
        .enumerate()
        .map(|(ty, p)| {
            let olds = old.pieces();
            if let Some(t) = olds
                .iter()
                .position(|o| o.letter == p.letter && o.betza == p.betza && o.royal == p.royal)
            {
                return (p.letter, Origin::Same, vec![t]);
            }
            let moves = new.move_vectors(PieceId(ty as u8));
            let same_moves = |t: usize| {
                olds[t].royal == p.royal && (olds[t].betza == p.betza || old_moves[t] == moves)
            };
            if let Some(t) = (0..olds.len()).find(|&t| same_moves(t)) {
                return (p.letter, Origin::Moves(olds[t].letter), vec![t]);
            }
            if !p.royal {
                if let Some(parts) =
                    compound_of(&p.betza, old).or_else(|| compound_by_moves(&moves, &old_men))
                {
                    let letters = parts.iter().map(|&t| olds[t].letter).collect();
                    return (p.letter, Origin::Compound(letters), parts);
                }
            }
            if let Some(t) = pawn_counterpart(ty, new, old) {
                return (p.letter, Origin::Pawn(olds[t].letter), vec![t]);
            }
            if !p.royal {
                if let Some(t) = nearest(&moves, &old_men) {
                    return (p.letter, Origin::Near(olds[t].letter), vec![t]);
                }
            }
            (p.letter, Origin::New, Vec::new())
        })
        .collect()
}

/// `index` on an axis of `new_len` squares laid centred over one of `old_len`, clamped to it.
fn centred(index: usize, new_len: usize, old_len: usize) -> usize {
    let shift = (old_len as isize - new_len as isize) / 2;
    (index as isize + shift).clamp(0, old_len as isize - 1) as usize
}

/// Sets every hand feature of each type that `from_old` marks to the mean of that type's board
/// columns (its first board, the one men are dropped or gated onto).
fn mean_columns_in_hand(
    w1: &mut [f32],
    h: usize,
    to: &Layout,
    from_old: impl Iterator<Item = bool>,
) {
    let (files, ranks, _) = to.board_shape();
    for (ty, known) in from_old.enumerate() {
        if !known {
            continue;
        }
        for (rel, color) in [Color::White, Color::Black].into_iter().enumerate() {
            let mut mean = vec![0.0f32; h];
            for rank in 0..ranks {
                for file in 0..files {
                    let f = to.board_feature(rel, ty, 0, file, rank);
                    for (m, w) in mean.iter_mut().zip(&w1[f * h..(f + 1) * h]) {
                        *m += w / (files * ranks) as f32;
                    }
                }
            }
            let id = PieceId(ty as u8);
            let slots = (0..).map_while(|k| to.hand_feature(Color::White, color, id, k));
            for f in slots {
                w1[f * h..(f + 1) * h].copy_from_slice(&mean);
            }
        }
    }
}

/// A net for `new` (layout `to`) from `old_net`, a net of `old` (layout `from`).
pub fn transfer(
    old_net: &FloatNet,
    old: &Variant,
    from: &Layout,
    new: &Variant,
    to: &Layout,
) -> Transfer {
    let h = old_net.hidden;
    let sources = type_sources(new, old);
    let (files, ranks, boards) = to.board_shape();
    let (old_files, old_ranks, old_boards) = from.board_shape();
    let mut w1 = vec![0.0f32; to.num_features() * h];
    for rel in 0..2 {
        for (ty, (_, _, olds)) in sources.iter().enumerate() {
            for board in 0..boards {
                for rank in 0..ranks {
                    for file in 0..files {
                        let f = to.board_feature(rel, ty, board, file, rank);
                        let col = &mut w1[f * h..(f + 1) * h];
                        for &old_ty in olds {
                            let g = from.board_feature(
                                rel,
                                old_ty,
                                board.min(old_boards - 1),
                                centred(file, files, old_files),
                                centred(rank, ranks, old_ranks),
                            );
                            for (w, o) in col.iter_mut().zip(&old_net.w1[g * h..(g + 1) * h]) {
                                *w += o;
                            }
                        }
                    }
                }
            }
        }
    }
    mean_columns_in_hand(
        &mut w1,
        h,
        to,
        sources.iter().map(|(_, _, o)| !o.is_empty()),
    );
    let net = FloatNet {
        inputs: to.num_features(),
        hidden: h,
        w1,
        ..old_net.clone()
    };
    let mut net = net.rebucketed(from, to);
    net.clip();
    Transfer {
        net,
        origins: sources.into_iter().map(|(c, o, _)| (c, o)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::W1_LIMIT;
    use chimera_engine::registry::builtin;
    use chimera_engine::Position;

    #[test]
    fn capablanca_from_chess_maps_letters_and_compounds() {
        let chess = builtin("chess").unwrap();
        let capa = builtin("capablanca").unwrap();
        let (from, to) = (Layout::of(&chess), Layout::of(&capa));
        let old = FloatNet::new(&from, 32, 7);
        let t = transfer(&old, &chess, &from, &capa, &to);
        assert_eq!(t.net.inputs, to.num_features());
        assert_eq!(t.net.hidden, old.hidden);
        let origin = |c: char| t.origins.iter().find(|(l, _)| *l == c).unwrap().1.clone();
        assert_eq!(origin('N'), Origin::Same);
        assert_eq!(origin('K'), Origin::Same);
        assert_eq!(origin('A'), Origin::Compound(vec!['B', 'N']));
        assert_eq!(origin('C'), Origin::Compound(vec!['R', 'N']));

        // A position with chess's men on the middle eight files of Capablanca's board (the
        // a- and j-files empty) gets exactly the chess net's first-layer sums and output.
        let chess_pos = Position::from_fen(
            &chess,
            "r3k2r/ppp2ppp/2n5/3qp3/3P4/2N1B3/PPP2PPP/R2QK2R w - - 0 1",
        )
        .unwrap();
        let capa_pos = Position::from_fen(
            &capa,
            "1r3k2r1/1ppp2ppp1/3n6/4qp4/4P5/3N1B4/1PPP2PPP1/1R2QK2R1 w - - 0 1",
        )
        .unwrap();
        let feats = |l: &Layout, p: &Position, c: Color| {
            let mut f = Vec::new();
            l.features(p, c, &mut f);
            f
        };
        let a = old.evaluate(
            &feats(&from, &chess_pos, Color::White),
            &feats(&from, &chess_pos, Color::Black),
            0,
        );
        let b = t.net.evaluate(
            &feats(&to, &capa_pos, Color::White),
            &feats(&to, &capa_pos, Color::Black),
            0,
        );
        assert!((a - b).abs() < 1e-3, "{a} against {b}");

        // An archbishop's column is a bishop's plus a knight's on the same square.
        let h = t.net.hidden;
        let [ty_a, ty_b, ty_n] =
            ['A', 'B', 'N'].map(|c| capa.pieces().iter().position(|p| p.letter == c).unwrap());
        let col = |net: &FloatNet, f: usize| net.w1[f * h..(f + 1) * h].to_vec();
        let fa = to.board_feature(1, ty_a, 0, 4, 3);
        let fb = to.board_feature(1, ty_b, 0, 4, 3);
        let fn_ = to.board_feature(1, ty_n, 0, 4, 3);
        let sum: Vec<f32> = col(&t.net, fb)
            .iter()
            .zip(col(&t.net, fn_))
            .map(|(x, y)| x + y)
            .collect();
        let got = col(&t.net, fa);
        assert!(got
            .iter()
            .zip(&sum)
            .all(|(x, y)| (x - y.clamp(-W1_LIMIT, W1_LIMIT)).abs() < 1e-5));
    }

    #[test]
    fn pawns_that_move_otherwise_start_as_pawns() {
        let chess = builtin("chess").unwrap();
        let vault = builtin("pawnvault").unwrap();
        let (from, to) = (Layout::of(&chess), Layout::of(&vault));
        let old = FloatNet::new(&from, 16, 3);
        let t = transfer(&old, &chess, &from, &vault, &to);
        let origin = |c: char| t.origins.iter().find(|(l, _)| *l == c).unwrap().1.clone();
        // Both vaulting pawns and the castellan (a pawn type there) start from chess's pawn:
        // the white vaulting pawn's unconditional moves are a chess pawn's.
        assert_eq!(origin('P'), Origin::Moves('P'));
        assert_eq!(origin('O'), Origin::Pawn('P'));
        assert_eq!(origin('T'), Origin::Pawn('P'));
        assert_eq!(origin('D'), Origin::Compound(vec!['B', 'N']));
        assert_eq!(origin('H'), Origin::Compound(vec!['R', 'N']));
        assert_eq!(origin('K'), Origin::Same);
        // The king is royal: never a pawn's column, even where it would be a pawn type.
        assert!(t
            .origins
            .iter()
            .all(|(l, o)| *l != 'K' || *o == Origin::Same));
        // The berolina pawn's column is chess's pawn's, square by square.
        let h = t.net.hidden;
        let ty = |v: &Variant, c: char| v.pieces().iter().position(|p| p.letter == c).unwrap();
        let f_new = to.board_feature(0, ty(&vault, 'O'), 0, 3, 4);
        let f_old = from.board_feature(0, ty(&chess, 'P'), 0, 3, 4);
        assert_eq!(
            t.net.w1[f_new * h..(f_new + 1) * h],
            old.w1[f_old * h..(f_old + 1) * h]
        );
        // A dragon in hand, any of them, is the mean of the dragon's board columns.
        let d = PieceId(ty(&vault, 'D') as u8);
        let mean0: f32 = (0..8)
            .flat_map(|r| (0..8).map(move |f| (f, r)))
            .map(|(f, r)| t.net.w1[to.board_feature(1, d.index(), 0, f, r) * h])
            .sum::<f32>()
            / 64.0;
        for k in 0..2 {
            let f = to.hand_feature(Color::White, Color::Black, d, k).unwrap();
            assert!((t.net.w1[f * h] - mean0).abs() < 1e-5);
        }
    }

    #[test]
    fn men_are_matched_by_their_moves_not_their_spelling() {
        let capa = builtin("capablanca").unwrap();
        let origins = |name: &str| {
            let new = builtin(name).unwrap();
            let (from, to) = (Layout::of(&capa), Layout::of(&new));
            let old = FloatNet::new(&from, 8, 1);
            transfer(&old, &capa, &from, &new, &to).origins
        };
        // Janus's janus is Capablanca's archbishop under another letter.
        let janus = origins("janus");
        assert!(janus.contains(&('J', Origin::Moves('A'))), "{janus:?}");
        // Every man of the 10x8 variants with Capablanca's men has a counterpart.
        for name in ["gothic", "embassy", "janus", "modern", "chancellor"] {
            let o = origins(name);
            assert!(o.iter().all(|(_, o)| *o != Origin::New), "{name}: {o:?}");
        }
        // A wazir is near no man of Capablanca's (it reaches four squares): it starts at zero;
        // a ferz-and-wazir (a non-royal king's moves) is near none either.
        let shatranj = builtin("shatranj").unwrap();
        let moves = |c: char| shatranj.move_vectors(shatranj.piece_by_letter(c).unwrap());
        assert_eq!(
            nearest(&moves('q'), &old_men(&capa)),
            None,
            "the ferz is not a bishop"
        );
        // A rook limited to seven steps reaches what a rook reaches from the middle.
        let rook = capa.move_vectors(capa.piece_by_letter('r').unwrap());
        let r7: Vec<MoveVector> = rook.iter().map(|m| MoveVector { range: 7, ..*m }).collect();
        let t = nearest(&r7, &old_men(&capa)).unwrap();
        assert_eq!(capa.pieces()[t].letter, 'R');
    }

    #[test]
    fn squares_off_the_old_board_take_the_nearest() {
        assert_eq!(centred(0, 10, 8), 0);
        assert_eq!(centred(1, 10, 8), 0);
        assert_eq!(centred(5, 10, 8), 4);
        assert_eq!(centred(9, 10, 8), 7);
        assert_eq!(centred(3, 8, 8), 3);
        assert_eq!(centred(0, 8, 10), 1);
    }
}
