//! The legend's move diagrams, from the engine's own move generator: each piece type stands
//! alone (beside the two kings the rules need) in the middle of the variant's first board, and
//! the squares his pseudo-legal moves reach are listed; then an enemy man is put on each square
//! around him in turn, and the squares where some move takes him are listed. So the diagram
//! shows what the compiled XBetza does, multi-leg moves, lame leaps and hoppers' captures
//! included, as the Interactive Diagram shows a piece. JSON out only.

use chimera_engine::types::{Color, PieceId, Square};
use chimera_engine::{MoveList, Position, Registry, VariantRef};
use serde_json::{json, Value};

use crate::view::key;

/// How far from the piece the diagram looks, each way.
const RADIUS: i32 = 4;

/// `{"type":"legend","variant":V,"pieces":[{key, moves, captures, extent}]}`: per piece type,
/// the (files, ranks) steps from White's side of the squares he moves to and captures on, and
/// the board's extent around the middle square (`[left, right, down, up]`); `null` for a type
/// no diagram could be made of (a position the rules refuse).
pub fn legend(registry: &Registry, name: &str) -> Value {
    let Some(v) = registry.get(name) else {
        return json!({ "type": "legend", "variant": name, "pieces": [] });
    };
    let list: Vec<Value> = (0..v.num_pieces())
        .map(|i| piece(&v, PieceId(i as u8)).unwrap_or(Value::Null))
        .collect();
    json!({ "type": "legend", "variant": name, "pieces": list })
}

/// One type's diagram.
fn piece(v: &VariantRef, id: PieceId) -> Option<Value> {
    let g = v.geometry();
    let (files, ranks) = (g.files as i32, g.ranks as i32);
    let centre = (files / 2, ranks / 2);
    let on_board = |f: i32, r: i32| f >= 0 && r >= 0 && f < files && r < ranks;
    let step = |sq: Square| {
        (
            g.file_of(sq) as i32 - centre.0,
            g.rank_of(sq) as i32 - centre.1,
        )
    };
    let near = |(dx, dy): (i32, i32)| dx.abs() <= RADIUS && dy.abs() <= RADIUS;
    let base = lone(v, id, centre, None)?;
    let from = g.square(0, centre.0 as usize, centre.1 as usize);
    let mut moves: Vec<(i32, i32)> = pseudo_moves(&base, from)
        .iter()
        .filter(|m| m.to != from && g.board_of(m.to) == 0)
        .map(|m| step(m.to))
        .filter(|&d| near(d))
        .collect();
    moves.sort_unstable();
    moves.dedup();
    let mut captures = Vec::new();
    for dy in -RADIUS..=RADIUS {
        for dx in -RADIUS..=RADIUS {
            let (f, r) = (centre.0 + dx, centre.1 + dy);
            if (dx, dy) == (0, 0) || !on_board(f, r) {
                continue;
            }
            let Some(mut pos) = lone(v, id, centre, Some((f, r))) else {
                continue;
            };
            let target = g.square(0, f as usize, r as usize);
            let enemy = pos.cell(target);
            if enemy.piece().is_none_or(|p| p.color != Color::Black) {
                continue;
            }
            let takes = pseudo_moves(&pos, from).iter().any(|&mv| {
                pos.make_move(mv);
                let taken = pos.cell(target) != enemy;
                pos.unmake_move();
                taken
            });
            if takes {
                captures.push((dx, dy));
            }
        }
    }
    let extent = [
        centre.0.min(RADIUS),
        (files - 1 - centre.0).min(RADIUS),
        centre.1.min(RADIUS),
        (ranks - 1 - centre.1).min(RADIUS),
    ];
    Some(json!({
        "key": key(v, id, Color::White),
        "moves": moves.iter().map(|&(x, y)| [x, y]).collect::<Vec<_>>(),
        "captures": captures.iter().map(|&(x, y)| [x, y]).collect::<Vec<_>>(),
        "extent": extent,
    }))
}

/// The pseudo-legal moves of the man on `from`.
fn pseudo_moves(pos: &Position, from: Square) -> MoveList {
    let mut list = MoveList::new();
    pos.generate_moves_of(from, &mut list);
    list
}

/// A position with White's man of type `id` on `centre` of the first board, an enemy man on
/// `enemy` if given, and each side's royal men where the rules accept them (tried square by
/// square, the farthest from the middle first), White to move.
fn lone(
    v: &VariantRef,
    id: PieceId,
    centre: (i32, i32),
    enemy: Option<(i32, i32)>,
) -> Option<Position> {
    let g = v.geometry();
    let (files, ranks) = (g.files as usize * g.boards as usize, g.ranks as usize);
    let start = Position::startpos(v);
    let royal = (0..v.num_pieces())
        .map(|i| PieceId(i as u8))
        .find(|&r| v.is_royal(r));
    let foe = enemy_type(v, id)?;
    let mut grid: Vec<Vec<String>> = (0..ranks)
        .map(|r| {
            (0..files)
                .map(|f| {
                    let sq = g.square(f / g.files as usize, f % g.files as usize, r);
                    if start.cell(sq).is_off() {
                        "*".to_string()
                    } else {
                        String::new()
                    }
                })
                .collect()
        })
        .collect();
    grid[centre.1 as usize][centre.0 as usize] = key(v, id, Color::White);
    if let Some((f, r)) = enemy {
        grid[r as usize][f as usize] = key(v, foe, Color::Black);
    }
    let Some(royal) = royal else {
        return parse(v, &grid);
    };
    // The kings' squares, the farthest from the middle first.
    let mut spots: Vec<(usize, usize)> = (0..ranks)
        .flat_map(|r| (0..files).map(move |f| (f, r)))
        .filter(|&(f, r)| grid[r][f].is_empty())
        .collect();
    let far =
        |&(f, r): &(usize, usize)| -((f as i32 - centre.0).abs().max((r as i32 - centre.1).abs()));
    spots.sort_by_key(far);
    // A royal piece is White's royal man himself.
    let white = if v.is_royal(id) {
        (centre.0 as usize, centre.1 as usize)
    } else {
        let w = spots.first().copied()?;
        grid[w.1][w.0] = key(v, royal, Color::White);
        w
    };
    for &(f, r) in spots.iter().filter(|&&s| s != white).take(40) {
        if (f as i32 - white.0 as i32).abs() <= 1 && (r as i32 - white.1 as i32).abs() <= 1 {
            continue;
        }
        grid[r][f] = key(v, royal, Color::Black);
        if let Some(pos) = parse(v, &grid) {
            return Some(pos);
        }
        grid[r][f].clear();
    }
    None
}

/// The enemy man of the capture diagrams: a man of the piece's own type where he is not royal,
/// else the first type that is not.
fn enemy_type(v: &VariantRef, id: PieceId) -> Option<PieceId> {
    if !v.is_royal(id) && v.pieces()[id.index()].promoted_from.is_none() {
        return Some(id);
    }
    (0..v.num_pieces())
        .map(|i| PieceId(i as u8))
        .find(|&p| !v.is_royal(p) && v.pieces()[p.index()].promoted_from.is_none())
}

/// The position of a board grid (rank by rank from the first, keys or `*`), White to move.
fn parse(v: &VariantRef, grid: &[Vec<String>]) -> Option<Position> {
    let rows: Vec<String> = grid
        .iter()
        .rev()
        .map(|row| {
            let mut out = String::new();
            let mut empty = 0;
            for c in row {
                if c.is_empty() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    out += &empty.to_string();
                    empty = 0;
                }
                out += c;
            }
            if empty > 0 {
                out += &empty.to_string();
            }
            out
        })
        .collect();
    let hands = if v.has_hand() { "[]" } else { "" };
    let fen = format!("{}{hands} w - - 0 1", rows.join("/"));
    Position::from_fen(v, &fen).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagrams_follow_the_engines_moves() {
        let registry = Registry::new();
        let chess = legend(&registry, "chess");
        let knight = &chess["pieces"][1];
        assert_eq!(knight["key"], "N");
        assert_eq!(knight["moves"].as_array().unwrap().len(), 8, "{knight}");
        assert_eq!(knight["captures"].as_array().unwrap().len(), 8, "{knight}");
        // A pawn moves straight and takes aslant (and has his double step on no start square).
        let pawn = &chess["pieces"][0];
        assert_eq!(pawn["moves"], json!([[0, 1]]), "{pawn}");
        assert_eq!(pawn["captures"], json!([[-1, 1], [1, 1]]), "{pawn}");
        // Vanguard's Berserker (KNADcaKmcabK): his double captures reach two steps away.
        let vanguard = legend(&registry, "vanguard");
        let z = vanguard["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["key"] == "Z")
            .unwrap();
        assert!(z["moves"].as_array().unwrap().len() >= 24, "{z}");
        // Every seed game and shogi have a diagram of every piece.
        for name in ["vanguard", "pawnvault", "pioneer", "shogi", "xiangqi"] {
            let l = legend(&registry, name);
            for p in l["pieces"].as_array().unwrap() {
                assert!(!p.is_null(), "{name}: {l}");
            }
        }
    }
}
