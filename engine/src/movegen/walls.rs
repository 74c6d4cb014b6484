//! Legal moves of Fairy-Stockfish's board games (the rule data is `variant::walls`): every
//! move that places a wall is listed once per square its wall may take (`wallingRule`), and
//! drops are kept only where the reversi or ataxx rule allows them (`enclosingDrop`). These
//! run only for the variants that have such rules, after the ordinary legal generation.

use super::generate::MoveList;
use crate::board::position::Position;
use crate::types::{Cell, Move, MoveKind, Square, KING_STEPS};
use crate::variant::walls::{EnclosingRule, WallingRule};

impl Position {
    /// Applies the board-game rules to the legal moves `list[start..]`: drops filtered by the
    /// enclosing rule, then every move that must place a wall listed with each of its walls.
    pub(crate) fn board_game_moves(&mut self, list: &mut MoveList, start: usize) {
        if self.variant.enclosing().is_some_and(|e| e.drop.is_some()) {
            let mut kept = start;
            for i in start..list.len() {
                let mv = list[i];
                if mv.kind != MoveKind::Drop || self.enclosing_drop_allowed(mv.to) {
                    list[kept] = mv;
                    kept += 1;
                }
            }
            list.truncate(kept);
        }
        if self.variant.walls().is_some_and(|w| w.or_move) {
            self.wall_only_moves(list);
        } else if self.variant.walls().is_some() {
            let base: Vec<Move> = list[start..].to_vec();
            list.truncate(start);
            let mut walls = Vec::new();
            for mv in base {
                let Some(kind) = walled_kind(mv.kind) else {
                    list.push(mv);
                    continue;
                };
                walls.clear();
                self.wall_squares(mv, &mut walls);
                for &w in &walls {
                    list.push(Move::with(mv.from, mv.to, kind, w, mv.piece));
                }
            }
        }
    }

    /// True when legal generation judges each move with its wall ([`Self::keep_legal_walled`]):
    /// every move places a wall and the board game's own rules do not replace legality.
    pub(crate) fn walls_judged_per_move(&self) -> bool {
        self.variant.walls().is_some_and(|w| !w.or_move) && self.variant.enclosing().is_none()
    }

    /// Chess-like legality with walls (atomic duck chess): every pseudo-legal move in
    /// `list[start..]` that must place a wall is listed once per square its wall may take
    /// where the move, wall and all, leaves the mover's royal men safe (the new wall may
    /// block an attack). Each move is first judged without its wall: when that is safe and
    /// the enemy's attacks are plain leaps and slides (a wall only takes attacks away), every
    /// wall square is; otherwise each is tried.
    pub(crate) fn keep_legal_walled(&mut self, list: &mut MoveList, start: usize) {
        let base: Vec<Move> = list[start..].to_vec();
        list.truncate(start);
        let us = self.side;
        let plain = self.variant.attacks()[us.opposite().index()].general == 0;
        let mut walls = Vec::new();
        for mv in base {
            let Some(kind) = walled_kind(mv.kind) else {
                if self.is_legal_by_making(mv) {
                    list.push(mv);
                }
                continue;
            };
            walls.clear();
            self.wall_squares(mv, &mut walls);
            let walled = |w: Square| Move::with(mv.from, mv.to, kind, w, mv.piece);
            if mv.kind == MoveKind::Castle {
                // The pseudo-royal king's path, judged as Fairy-Stockfish judges it: the duck
                // gone from his old square, the new wall standing.
                walls.retain(|&w| self.castle_path_safe_with_wall(mv, w));
            }
            let Some(&first) = walls.first() else {
                continue;
            };
            self.make_move(walled(first));
            self.board[first.index()] = Cell::EMPTY;
            let open_safe = !self.royal_in_danger(us);
            self.board[first.index()] = Cell::WALL;
            self.unmake_move();
            for &w in &walls {
                if open_safe && plain || self.is_legal_by_making(walled(w)) {
                    list.push(walled(w));
                }
            }
        }
    }

    /// True when the castling `mv` leaves a pseudo-royal king's path unattacked once its wall
    /// stands on `wall` and, under the duck rule, the duck has left his old square.
    fn castle_path_safe_with_wall(&mut self, mv: Move, wall: Square) -> bool {
        if !self.variant.castling().is_some_and(|c| c.path_pseudo_royal) {
            return true;
        }
        let Some(path) = self
            .castle_paths
            .iter()
            .flatten()
            .find(|p| p.king_from == mv.from && p.rook_from == mv.aux)
            .cloned()
        else {
            return true;
        };
        let duck = self
            .variant
            .walls()
            .is_some_and(|w| w.rule == WallingRule::Duck);
        let old: Vec<Square> = if duck {
            let g = self.variant.geometry();
            g.squares().filter(|&s| self.is_wall(s)).collect()
        } else {
            Vec::new()
        };
        for &s in &old {
            self.board[s.index()] = Cell::EMPTY;
        }
        // A wall on the king's or the rook's square (both left by the castling) blocks what
        // the man standing there blocks while the path is tested.
        let open = self.cell(wall).is_empty();
        if open {
            self.board[wall.index()] = Cell::WALL;
        }
        let safe = self.pseudo_royal_castle_path_safe(&path);
        if open {
            self.board[wall.index()] = Cell::EMPTY;
        }
        for &s in &old {
            self.board[s.index()] = Cell::WALL;
        }
        safe
    }

    /// `wallOrMove`: a side may place a wall instead of moving, written as Fairy-Stockfish
    /// writes it, as a move of its first man (lowest square) onto his own square, then the
    /// wall. Such a turn must leave no royal man attacked, and a side in check has none:
    /// Fairy-Stockfish generates no wall-only move among the evasions, so a wall may not
    /// block a check (atlantis: a rook on h1 checking the king on e1 may not be walled off
    /// on f1 or g1).
    fn wall_only_moves(&mut self, list: &mut MoveList) {
        if self.in_check() {
            return;
        }
        let Some(&anchor) = self.squares_of(self.side).iter().min() else {
            return;
        };
        let stay = Move::with(anchor, anchor, MoveKind::Pass, Square::NONE, Move::NO_PIECE);
        let mut walls = Vec::new();
        self.wall_squares(stay, &mut walls);
        for w in walls {
            let mv = Move::with(anchor, anchor, MoveKind::Walled, w, Move::NO_PIECE);
            if self.is_legal_by_making(mv) {
                list.push(mv);
            }
        }
    }

    /// The squares where the wall of the move `mv` (one without its wall) may go: empty after
    /// the move, inside the mover's walling region, and where the rule allows. As in
    /// Fairy-Stockfish, a square is empty after the move when it was before, or the mover
    /// left it, or the man taken en passant stood there: never one an explosion clears (the
    /// wall is set down before the blast) nor the capture square.
    fn wall_squares(&mut self, mv: Move, out: &mut Vec<Square>) {
        let Some(rules) = self.variant.walls().cloned() else {
            return;
        };
        let us = self.side;
        let g = self.variant.geometry().clone();
        let captures = mv.kind == MoveKind::EnPassant
            || mv.kind == MoveKind::Normal && self.cell(mv.to).is_piece();
        let blasted: Vec<Square> = if self.variant.blast().is_some() && captures {
            let ep_victim = (mv.kind == MoveKind::EnPassant).then_some(mv.aux);
            // The capture square too: empty before an e.p. capture, and after the blast.
            g.squares()
                .filter(|&s| {
                    self.cell(s).is_piece() && s != mv.from && Some(s) != ep_victim || s == mv.to
                })
                .collect()
        } else {
            Vec::new()
        };
        self.make_move(mv);
        let mut reach = Vec::new();
        if rules.rule == WallingRule::Arrow {
            // The squares the man could now move to, as if it were his move again.
            let side = self.side;
            self.side = us;
            let mut moves = MoveList::new();
            let cell = self.cell(mv.to);
            self.generate_piece_moves(mv.to, cell, &mut moves);
            self.side = side;
            reach.extend(
                moves
                    .iter()
                    .filter(|m| m.from == mv.to && self.cell(m.to).is_empty())
                    .map(|m| m.to),
            );
        }
        let region = rules.region[us.index()].as_ref();
        for sq in g.squares() {
            if !self.cell(sq).is_empty()
                || region.is_some_and(|r| !r[sq.index()])
                || blasted.contains(&sq)
            {
                continue;
            }
            let ok = match rules.rule {
                WallingRule::Arrow => reach.contains(&sq),
                WallingRule::Past => sq == mv.from,
                WallingRule::Edge => {
                    let (_, f, r) = g.coords(sq);
                    f == 0
                        || r == 0
                        || f + 1 == g.files as usize
                        || r + 1 == g.ranks as usize
                        || KING_STEPS[..4].iter().any(|&(x, y)| {
                            let n = Square((sq.0 as i32 + g.delta(x, y) as i32) as u16);
                            self.is_wall(n)
                        })
                }
                WallingRule::Duck | WallingRule::Static => true,
            };
            if ok {
                out.push(sq);
            }
        }
        self.unmake_move();
    }

    /// True when the enclosing rule lets the side to move drop a man on the empty `sq`.
    fn enclosing_drop_allowed(&self, sq: Square) -> bool {
        let Some(rules) = self.variant.enclosing() else {
            return true;
        };
        let g = self.variant.geometry();
        if let Some(start) = &rules.start {
            let start_open = g
                .squares()
                .any(|s| start[s.index()] && self.cell(s).is_empty());
            if start_open {
                return start[sq.index()];
            }
        }
        let us = self.side;
        let them = us.opposite();
        let step =
            |s: Square, (x, y): (i32, i32)| Square((s.0 as i32 + g.delta(x, y) as i32) as u16);
        match rules.drop {
            // Next to an enemy man, with a friend at the end of a line of enemy men.
            // Fairy-Stockfish's test sees through walls here (not when it turns the men
            // over), so a wall may stand in the line.
            Some(EnclosingRule::Reversi) => {
                KING_STEPS
                    .iter()
                    .any(|&d| self.cell(step(sq, d)).is_color(them))
                    && KING_STEPS.iter().any(|&d| {
                        let mut s = step(sq, d);
                        let mut between = 0;
                        while self.cell(s).is_color(them) || self.cell(s) == Cell::WALL {
                            between += 1;
                            s = step(s, d);
                        }
                        between > 0 && self.cell(s).is_color(us)
                    })
            }
            Some(EnclosingRule::Ataxx) => KING_STEPS
                .iter()
                .any(|&d| self.cell(step(sq, d)).is_color(us)),
            Some(EnclosingRule::Snort) => !KING_STEPS[..4]
                .iter()
                .any(|&d| self.cell(step(sq, d)).is_color(them)),
            // Connect four: on the first rank or on top of a man (or wall).
            Some(EnclosingRule::Top) => {
                g.rank_of(sq) == 0 || !self.cell(step(sq, (0, -1))).is_empty()
            }
            Some(EnclosingRule::Anyside) => self.pushed_in(sq),
            _ => true,
        }
    }

    /// Connect four from any side (`enclosingDrop = anyside`): a man pushed in along a rank
    /// or a file whose first square is empty stops on `sq`. Fairy-Stockfish's reading: from
    /// each side, the lowest empty square (by file along a rank, by rank along a file) that
    /// has a man beyond it in the push's direction, or lies on the far edge.
    fn pushed_in(&self, sq: Square) -> bool {
        let g = self.variant.geometry();
        let (_, file, rank) = g.coords(sq);
        let (files, ranks) = (g.files as usize, g.ranks as usize);
        let empty = |f: usize, r: usize| self.cell(g.square(0, f, r)).is_empty();
        // Along the rank: from the a-file (stops before a man to the east, or on the last
        // file) and from the last file (before a man to the west, or on the a-file).
        let from_west = empty(0, rank)
            && (0..files).find(|&f| empty(f, rank) && (f + 1 == files || !empty(f + 1, rank)))
                == Some(file);
        let from_east = empty(files - 1, rank)
            && (0..files).find(|&f| empty(f, rank) && (f == 0 || !empty(f - 1, rank)))
                == Some(file);
        // Along the file, likewise from the first rank and from the last.
        let from_south = empty(file, 0)
            && (0..ranks).find(|&r| empty(file, r) && (r + 1 == ranks || !empty(file, r + 1)))
                == Some(rank);
        let from_north = empty(file, ranks - 1)
            && (0..ranks).find(|&r| empty(file, r) && (r == 0 || !empty(file, r - 1)))
                == Some(rank);
        from_west || from_east || from_south || from_north
    }

    /// True when no square of the board is empty (`adjudicateFullBoard`).
    pub(crate) fn board_full(&self) -> bool {
        let g = self.variant.geometry();
        g.squares().all(|s| !self.cell(s).is_empty())
    }
}

/// The kind of a move that also places a wall, for a move of `kind`; `None` for the kinds
/// that place none.
fn walled_kind(kind: MoveKind) -> Option<MoveKind> {
    match kind {
        MoveKind::Normal => Some(MoveKind::Walled),
        MoveKind::DoubleStep => Some(MoveKind::WalledDoubleStep),
        MoveKind::EnPassant => Some(MoveKind::WalledEnPassant),
        MoveKind::Castle => Some(MoveKind::WalledCastle),
        _ => None,
    }
}
