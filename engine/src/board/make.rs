//! Making and unmaking moves: every kind of move becomes a short list of primitive square and
//! hand edits, recorded on the undo stack together with the saved game state.

use super::position::{Change, Position, Undo, CASTLE_BITS, RESERVE_NONE, RESERVE_PENDING};
use crate::types::{Cell, Color, Move, MoveKind, Piece, PieceId, Square, KING_STEPS};

impl Position {
    pub(super) fn edit_take(&mut self, sq: Square) -> Cell {
        let place = self.list_place(sq);
        let cell = self.take(sq);
        self.journal.push(Change::Took(sq, cell, place));
        cell
    }

    fn edit_put(&mut self, sq: Square, cell: Cell) {
        self.put(sq, cell);
        self.journal.push(Change::Put(sq, cell));
    }

    fn edit_shift(&mut self, from: Square, to: Square, cell: Cell) {
        let old = self.cell_fast(from);
        self.shift(from, to, cell);
        self.journal.push(Change::Shifted(from, to, old, cell));
    }

    pub(crate) fn edit_wall(&mut self, sq: Square, on: bool) {
        self.set_wall(sq, on);
        self.journal.push(Change::Wall(sq, on));
    }

    /// Replaces the man on `sq` by `cell` (the same man with other flags).
    pub(super) fn edit_replace(&mut self, sq: Square, cell: Cell) {
        self.edit_take(sq);
        self.edit_put(sq, cell);
    }

    fn edit_hand_sub(&mut self, color: Color, id: PieceId) {
        self.hand_sub(color, id);
        self.journal.push(Change::HandSub(color, id));
    }

    pub(super) fn edit_hand_add(&mut self, color: Color, id: PieceId) {
        self.hand_add(color, id);
        self.journal.push(Change::HandAdd(color, id));
    }

    /// The man as he lands at the end of `mv` (a promotion that cannot be undone sets
    /// `irreversible`): the promoted type, or the mover himself, who has his initial moves
    /// where the variant's initial region (Fairy-Stockfish's `doubleStepRegion` reading) says
    /// so, even back there after moving (Pawnback's pawns step back), and otherwise counts as
    /// moved.
    #[inline(always)]
    fn arrived(&self, mover: Cell, mv: Move, us: Color, irreversible: &mut bool) -> Cell {
        match mv.promotion() {
            Some(id) => {
                *irreversible |= self.shogi_promotion_is_final(mover, mv);
                Cell::new(Piece { color: us, id }, false)
            }
            None => match self.variant.initial_region() {
                Some(r)
                    if r[us.index()][mv.to.index()]
                        && self.variant.pieces()[mover.id().index()].initial_by_region =>
                {
                    Cell(mover.0 | Cell::VIRGIN)
                }
                _ => mover.moved(),
            },
        }
    }

    /// True when `mv`, a move of `mover` with a piece (promotion or gating), is a shogi
    /// promotion that cannot be undone (men do not demote): it resets the halfmove clock.
    #[cold]
    fn shogi_promotion_is_final(&self, mover: Cell, mv: Move) -> bool {
        let shogi = self.variant.shogi();
        mv.kind == MoveKind::Normal && shogi.movers & (1 << mover.id().0) != 0 && !shogi.demotion
    }

    /// Captures the man on `sq` (sending him to the capturer's hand where the variant says so);
    /// a man of the mover's own side there is the mover, promoting in place, and stays.
    fn capture(&mut self, sq: Square) {
        if self.cell_fast(sq).is_color(self.side) {
            // The mover himself, promoting where he stands (sittuyin).
            return;
        }
        let victim = self.edit_take(sq);
        if self.variant.captures_to_hand() {
            let us = self.side;
            // A promoted man goes back to the hand as what he was: a marked one (crazyhouse)
            // as a pawn, his mark going after the move; a man of a promoted type (shogi) as
            // his unpromoted type.
            let id = self
                .variant
                .shogi()
                .hand_type(self.hand_type_of_victim(sq, victim));
            self.edit_hand_add(us, id);
        }
        self.succeed(victim);
        self.forfeit_gates(sq, victim);
        self.forfeit_reserve(sq, victim);
    }

    /// A reserve man waiting behind a file whose first-rank man is captured there, before he
    /// ever moved, can never enter.
    fn forfeit_reserve(&mut self, sq: Square, victim: Cell) {
        let Some(owner) = victim.color() else { return };
        if self.variant.reserve().is_none() || !victim.is_virgin() {
            return;
        }
        for slot in 0..2 {
            let file = self.st.reserves[owner.index()][slot];
            if file < RESERVE_PENDING && self.reserve_square(owner, file) == sq {
                self.set_reserve(owner, slot, RESERVE_NONE);
            }
        }
    }

    /// Brings in `us`'s reserve men whose entry square the move has just vacated (the man
    /// standing there left it for the first time, castling included).
    fn enter_reserves(&mut self, us: Color) {
        let Some(rules) = &self.variant.reserve() else {
            return;
        };
        let piece = Piece {
            color: us,
            id: rules.piece,
        };
        for slot in 0..2 {
            let file = self.st.reserves[us.index()][slot];
            if file >= RESERVE_PENDING {
                continue;
            }
            let sq = self.reserve_square(us, file);
            if self.cell_fast(sq).is_empty() {
                self.edit_put(sq, Cell::new(piece, false));
                self.set_reserve(us, slot, RESERVE_NONE);
            }
        }
    }

    /// When the man captured on `sq` was his side's last one able to open a gate, the men
    /// waiting in hand to be gated can never enter: they leave the hand.
    fn forfeit_gates(&mut self, sq: Square, victim: Cell) {
        let Some(rules) = &self.variant.gating() else {
            return;
        };
        let Some(owner) = victim.color() else { return };
        if !rules.forfeit || !victim.is_virgin() || !self.virgin_is_gate_right(sq, victim) {
            return;
        }
        let openers_left = self.squares_of(owner).iter().any(|&s| {
            let c = self.cell_fast(s);
            c.is_virgin() && self.virgin_is_gate_right(s, c)
        });
        if openers_left {
            return;
        }
        let gated = rules.gated;
        for id in 0..self.variant.num_pieces() {
            if gated & (1 << id) != 0 {
                while self.in_hand(owner, PieceId(id as u8)) > 0 {
                    self.edit_hand_sub(owner, PieceId(id as u8));
                }
            }
        }
    }

    /// Succession: when the last man of a type with an heir is captured, one of the owner's men
    /// of the heir type becomes that type on his square, as part of the capturing move.
    fn succeed(&mut self, victim: Cell) {
        let Some(owner) = victim.color() else { return };
        let Some(&(_, heir)) = self
            .variant
            .succession()
            .iter()
            .find(|(lost, _)| *lost == victim.id())
        else {
            return;
        };
        if self.count(owner, victim.id()) > 0 || self.count(owner, heir) == 0 {
            return;
        }
        let Some(sq) = self
            .squares_of(owner)
            .iter()
            .copied()
            .find(|&s| self.cell_fast(s).id() == heir)
        else {
            return;
        };
        self.edit_take(sq);
        self.edit_put(
            sq,
            Cell::new(
                Piece {
                    color: owner,
                    id: victim.id(),
                },
                false,
            ),
        );
    }

    /// What some variants add to every move, kept out of the way of the others: explosions
    /// (atomic chess), reserve men entering (Pioneer), men turned over (reversi, ataxx) and
    /// the makruk family's count and first-move rights.
    #[cold]
    #[inline(never)]
    fn after_move(&mut self, mv: Move, us: Color, journal_start: usize) {
        // The moves that land a man on `to` by a plain step, leap or slide, with or without
        // a wall: the ones whose captures explode or petrify. A move that places a wall sets
        // it down before the blast, on a square empty before the move (`movegen::walls`), so
        // the blast never meets it.
        let lands = matches!(
            mv.kind,
            MoveKind::Normal
                | MoveKind::DoubleStep
                | MoveKind::Gate
                | MoveKind::DoubleStepGate
                | MoveKind::EnPassant
                | MoveKind::Walled
                | MoveKind::WalledDoubleStep
                | MoveKind::WalledEnPassant
        );
        if lands && self.variant.blast().is_some() {
            // A man promoted by this capture has no promoted mark yet (it follows the move),
            // but is blown up as the promoted man he is.
            let promoted = mv
                .promotion()
                .is_some_and(|id| self.variant.pieces()[id.index()].promoted_from.is_none());
            self.explode(mv.to, journal_start, promoted);
        } else if lands && self.variant.petrify().is_some() {
            self.petrify_capturer(mv, journal_start);
        }
        if self.variant.reserve().is_some() {
            self.enter_reserves(us);
        }
        if self.variant.enclosing().is_some() && mv.kind != MoveKind::Pass {
            self.flip_enclosed(mv);
        }
        if self.variant.has_makruk_rules() {
            self.after_makruk_move(mv, us, journal_start);
        }
    }

    /// Atomic chess: a capture (a man taken since `journal_start`) on `center` explodes, removing the capturer there and every
    /// man around it except the types the blast spares; immune types stay, even the capturer.
    /// A castling man blown up loses his castling rights.
    #[cold]
    #[inline(never)]
    fn explode(&mut self, center: Square, journal_start: usize, promoted_mover: bool) {
        let Some(blast) = self.variant.blast() else {
            return;
        };
        let captured = self.journal[journal_start..]
            .iter()
            .any(|c| matches!(c, Change::Took(..)));
        if !captured {
            return;
        }
        let (immune, spared) = (blast.immune, blast.spared);
        let g = self.variant.geometry().clone();
        for dy in -1..=1 {
            for dx in -1..=1 {
                let sq = center.offset(g.delta(dx, dy));
                let cell = self.cell_fast(sq);
                if !cell.is_piece() {
                    continue;
                }
                let bit = 1u32 << cell.id().0;
                if immune & bit != 0 || sq != center && spared & bit != 0 {
                    continue;
                }
                if self.variant.captures_to_hand() {
                    // As in Fairy-Stockfish, a man blown up goes to his opponent's hand, a
                    // promoted one as what he was (atomiczh: a pawn taking on b1 as a bishop
                    // goes back as a pawn).
                    if let Some(owner) = cell.color() {
                        let rules = self.variant.hands();
                        let id = if sq == center && promoted_mover && rules.demotes {
                            rules.demoted_type
                        } else {
                            self.hand_type_of_victim(sq, cell)
                        };
                        let id = self.variant.shogi().hand_type(id);
                        self.edit_hand_add(owner.opposite(), id);
                    }
                }
                self.edit_take(sq);
                if self.petrified_by_blast(sq == center, cell) {
                    self.edit_wall(sq, true);
                }
                let lost = self.rights_mask.get(sq.index()).copied().unwrap_or(0);
                self.st.castling &= !lost;
            }
        }
    }

    /// Makes `mv`, which must be pseudo-legal in this position (generated by the move
    /// generator, or checked by [`Position::try_play`]).
    pub fn make_move(&mut self, mv: Move) {
        let us = self.side;
        let state = self.st;
        let journal_len = self.journal.len() as u32;
        let z = &self.variant.zobrist();
        let mut hash_extra = z.side ^ z.castling(state.castling);
        if state.ep != Square::NONE {
            hash_extra ^= z.ep(state.ep) ^ z.ep(state.ep_victim);
            // Set only with `ep` (after a triple step): cleared here, off the common path.
            if state.ep2 != Square::NONE {
                hash_extra ^= z.ep(state.ep2);
                self.st.ep2 = Square::NONE;
            }
        }
        self.st.ep = Square::NONE;
        self.st.ep_victim = Square::NONE;
        let mut irreversible = false;

        match mv.kind {
            MoveKind::Normal
            | MoveKind::DoubleStep
            | MoveKind::Gate
            | MoveKind::DoubleStepGate
            | MoveKind::EnPassant => {
                let mover = self.cell_fast(mv.from);
                irreversible = self.variant.pawn_like(self.side) & (1 << mover.id().0) != 0;
                let victim_sq = if mv.kind == MoveKind::EnPassant {
                    mv.aux
                } else {
                    mv.to
                };
                // The man on the target square is a victim (or the mover himself, promoting
                // in place: sittuyin; `capture` leaves him).
                if self.cell_fast(victim_sq).is_piece() {
                    self.capture(victim_sq);
                    irreversible = true;
                }
                let arrived = self.arrived(mover, mv, us, &mut irreversible);
                self.edit_shift(mv.from, mv.to, arrived);
                // Gating does not reset the halfmove clock (nor does it in Fairy-Stockfish):
                // only captures, pawn moves and drops do.
                if let (Some(id), Some(gate)) = (mv.gated(), mv.gate_square()) {
                    self.edit_hand_sub(us, id);
                    self.edit_put(gate, Cell::new(Piece { color: us, id }, false));
                }
                let double_step =
                    matches!(mv.kind, MoveKind::DoubleStep | MoveKind::DoubleStepGate);
                if double_step {
                    if self.variant.triple_steps().is_some() {
                        self.leave_ep_squares(mv, us);
                    } else if self.ep_capture_possible(mv.aux, us.opposite()) {
                        self.st.ep = mv.aux;
                        self.st.ep_victim = mv.to;
                    }
                }
            }
            MoveKind::Castle | MoveKind::CastleGateKing | MoveKind::CastleGateRook => {
                let (king_to, rook_to) = self.castle_targets(mv);
                let king = self.edit_take(mv.from);
                let rook = self.edit_take(mv.aux);
                self.edit_put(king_to, king.moved());
                self.edit_put(rook_to, rook.moved());
                if let (Some(id), Some(gate)) = (mv.gated(), mv.gate_square()) {
                    self.edit_hand_sub(us, id);
                    self.edit_put(gate, Cell::new(Piece { color: us, id }, false));
                }
            }
            MoveKind::Drop => {
                let id = PieceId(mv.piece);
                let piece = Piece { color: us, id };
                // A man dropped promoted (`dropPromoted`) leaves the hand as what he was; an
                // ataxx drop takes no man from a hand.
                if !self.variant.free_drops() {
                    self.edit_hand_sub(us, self.variant.shogi().hand_type(id));
                }
                // A man dropped on a square where the game starts with such a man is taken as
                // never moved, the same reading FEN gives him (where initial moves go by
                // region, Fairy-Stockfish's reading, a man dropped in the region: Screen's
                // pawns dropped on the second rank step two); but a gate belongs to the man
                // who starts on it and is gone once he leaves, so a man dropped onto the gating
                // rank opens none (as in Fairy-Stockfish's S-House).
                let fresh = match self.variant.initial_region() {
                    Some(r) if self.variant.pieces()[id.index()].initial_by_region => {
                        r[us.index()][mv.to.index()]
                    }
                    _ => self.variant.starts_on(mv.to, piece),
                };
                let virgin = fresh && !self.virgin_is_gate_right(mv.to, Cell::new(piece, true));
                self.edit_put(mv.to, Cell::new(piece, virgin));
                irreversible = true;
            }
            MoveKind::Locust | MoveKind::Sweep => {
                let mover = self.cell_fast(mv.from);
                if mv.kind == MoveKind::Locust {
                    self.capture(mv.aux);
                } else {
                    for victim in self.sweep_victims(mv.from, mv.to) {
                        self.capture(victim);
                    }
                }
                if mv.to != mv.from {
                    if self.cell_fast(mv.to).is_piece() {
                        self.capture(mv.to);
                    }
                    let arrived = match mv.promotion() {
                        Some(id) => Cell::new(Piece { color: us, id }, false),
                        None => mover.moved(),
                    };
                    self.edit_shift(mv.from, mv.to, arrived);
                }
                irreversible = true;
            }
            MoveKind::Swap => {
                let mover = self.cell_fast(mv.from);
                let partner = self.edit_take(mv.to);
                self.edit_shift(mv.from, mv.to, mover.moved());
                // A pawn moved by a swap into its zone promotes when its promotion has only one
                // choice (a fixed target); it loses its first-move right either way.
                let partner_now = match self.variant.fixed_promotion(partner.id(), us, mv.from) {
                    Some(id) => Cell::new(Piece { color: us, id }, false),
                    None => partner.moved(),
                };
                self.edit_put(mv.from, partner_now);
                irreversible = self.variant.pawn_like(self.side)
                    & (1 << partner.id().0 | 1 << mover.id().0)
                    != 0;
            }
            MoveKind::Place => {
                self.set_reserve(us, 0, self.variant.geometry().file_of(mv.from) as u8);
                if mv.to != mv.from {
                    self.set_reserve(us, 1, self.variant.geometry().file_of(mv.to) as u8);
                }
            }
            MoveKind::Transfer => {
                // The man moves on his own board to `aux` (taking whoever stands there), then
                // goes across to the same square on another board.
                let mover = self.cell_fast(mv.from);
                irreversible = self.variant.pawn_like(self.side) & (1 << mover.id().0) != 0;
                if self.cell_fast(mv.aux).is_piece() {
                    self.capture(mv.aux);
                    irreversible = true;
                }
                let arrived = self.arrived(mover, mv, us, &mut irreversible);
                self.edit_shift(mv.from, mv.to, arrived);
            }
            MoveKind::Pass => {}
            MoveKind::Walled
            | MoveKind::WalledDoubleStep
            | MoveKind::WalledEnPassant
            | MoveKind::WalledCastle => {
                irreversible = self.make_walled(mv);
            }
        }
        // One test on the common path for the rules that act after the move itself.
        if self.variant.has_after_move_rules() {
            self.after_move(mv, us, journal_len as usize);
        }

        let lost = |sq: Square| self.rights_mask.get(sq.index()).copied().unwrap_or(0);
        if mv.kind != MoveKind::Place {
            self.st.castling &= !(lost(mv.from) | lost(mv.to));
        }
        if mv.kind == MoveKind::Transfer {
            // A rook captured on his own board loses his castling right there.
            self.st.castling &= !lost(mv.aux);
        }
        if mv.is_castle() {
            self.st.castling &= !(CASTLE_BITS[us.index()][0] | CASTLE_BITS[us.index()][1]);
            if self.variant.castle_rules().opposite {
                // The opponent may no longer castle to the wing just taken.
                if let Some(wing) = self.castled_wing(mv) {
                    self.st.castling &= !CASTLE_BITS[us.opposite().index()][wing];
                }
            }
        }
        self.st.halfmove = if irreversible {
            0
        } else {
            state.halfmove.saturating_add(1)
        };
        let z = &self.variant.zobrist();
        hash_extra ^= z.castling(self.st.castling);
        if self.st.ep != Square::NONE {
            hash_extra ^= z.ep(self.st.ep) ^ z.ep(self.st.ep_victim);
            if self.st.ep2 != Square::NONE {
                hash_extra ^= z.ep(self.st.ep2);
            }
        }
        self.st.hash ^= hash_extra;
        if self.advance_turn() {
            if us == Color::Black {
                self.fullmove += 1;
            }
            self.side = us.opposite();
        }
        if self.variant.hands().active() {
            self.hands_after_move(mv, us);
        }
        self.history.push(Undo {
            mv,
            state,
            journal_len,
            side: us,
        });
    }

    /// The moving part of a move that places a wall, then the wall (kept out of line: only the
    /// board games come here). Returns true when the move is irreversible (a capture or a
    /// pawn move).
    #[cold]
    #[inline(never)]
    fn make_walled(&mut self, mv: Move) -> bool {
        let us = self.side;
        let mut irreversible = false;
        if mv.from == mv.to {
            // Only a wall (`wallOrMove`): nothing moves.
        } else if mv.kind == MoveKind::WalledCastle {
            let rook = self.castle_rook_of(mv);
            if rook != Square::NONE {
                let base = Move::with(mv.from, mv.to, MoveKind::Castle, rook, Move::NO_PIECE);
                let (king_to, rook_to) = self.castle_targets(base);
                let king = self.edit_take(mv.from);
                let rook = self.edit_take(rook);
                self.edit_put(king_to, king.moved());
                self.edit_put(rook_to, rook.moved());
                self.st.castling &= !(CASTLE_BITS[us.index()][0] | CASTLE_BITS[us.index()][1]);
            }
        } else {
            let mover = self.cell_fast(mv.from);
            irreversible = self.variant.pawn_like(self.side) & (1 << mover.id().0) != 0;
            let victim_sq = if mv.kind == MoveKind::WalledEnPassant {
                // Fairy-Stockfish's e.p.: the victim stands beside the mover's start square.
                let g = self.variant.geometry();
                let back = g.delta(0, if us == Color::White { -1 } else { 1 }) as i32;
                Square((mv.to.0 as i32 + back) as u16)
            } else {
                mv.to
            };
            if self.cell_fast(victim_sq).is_piece() {
                self.capture(victim_sq);
                irreversible = true;
            }
            let arrived = self.arrived(mover, mv, us, &mut irreversible);
            self.edit_shift(mv.from, mv.to, arrived);
            if mv.kind == MoveKind::WalledDoubleStep {
                let passed = Square((mv.from.0 + mv.to.0) / 2);
                if passed != mv.aux && self.ep_capture_possible(passed, us.opposite()) {
                    self.st.ep = passed;
                    self.st.ep_victim = mv.to;
                }
            }
        }
        if self
            .variant
            .walls()
            .is_some_and(|w| w.rule == crate::variant::walls::WallingRule::Duck)
        {
            let g = self.variant.geometry().clone();
            for sq in g.squares() {
                if self.cell_fast(sq) == Cell::WALL {
                    self.edit_wall(sq, false);
                }
            }
        }
        self.edit_wall(mv.aux, true);
        irreversible
    }

    /// Turns over the enemy men that a man arriving on `to` encloses (`flipEnclosedPieces`):
    /// in reversi, each line of enemy men between `to` and a friendly man; in ataxx, every
    /// enemy man next to `to` (in quadwrangle, only when a friend stands next to `to` too, or
    /// the man arrived by a move rather than a drop).
    #[cold]
    #[inline(never)]
    fn flip_enclosed(&mut self, mv: Move) {
        let to = mv.to;
        use crate::variant::walls::EnclosingRule;
        let Some(rule) = self.variant.enclosing().and_then(|e| e.flip) else {
            return;
        };
        let us = self.side;
        if !self.cell_fast(to).is_color(us) {
            return;
        }
        let g = self.variant.geometry().clone();
        let dirs = KING_STEPS.map(|(x, y)| g.delta(x, y) as i32);
        let step = |sq: Square, d: i32| Square((sq.0 as i32 + d) as u16);
        let mut flips: Vec<Square> = Vec::new();
        match rule {
            EnclosingRule::Reversi => {
                for &d in &dirs {
                    let mut line = Vec::new();
                    let mut sq = step(to, d);
                    while self.cell(sq).is_color(us.opposite()) {
                        line.push(sq);
                        sq = step(sq, d);
                    }
                    if !line.is_empty() && self.cell(sq).is_color(us) {
                        flips.extend(line);
                    }
                }
            }
            EnclosingRule::Ataxx | EnclosingRule::Quadwrangle => {
                let dropped = mv.kind == MoveKind::Drop;
                let friend_near = dirs.iter().any(|&d| self.cell(step(to, d)).is_color(us));
                if rule == EnclosingRule::Ataxx || friend_near || !dropped {
                    for &d in &dirs {
                        let sq = step(to, d);
                        if self.cell(sq).is_color(us.opposite()) {
                            flips.push(sq);
                        }
                    }
                }
            }
            _ => {}
        }
        for sq in flips {
            let cell = self.edit_take(sq);
            let turned = Cell::new(
                Piece {
                    color: us,
                    id: cell.id(),
                },
                false,
            );
            self.edit_put(sq, turned);
        }
    }

    /// Takes back the last move made with [`Position::make_move`].
    pub fn unmake_move(&mut self) {
        let Some(undo) = self.history.pop() else {
            return;
        };
        while self.journal.len() > undo.journal_len as usize {
            let Some(change) = self.journal.pop() else {
                break;
            };
            match change {
                Change::Put(sq, _) => {
                    self.take_hashed::<false>(sq);
                }
                Change::Took(sq, cell, place) => self.put_back(sq, cell, place),
                Change::Shifted(from, to, old, _) => self.shift_hashed::<false>(to, from, old),
                Change::HandAdd(c, id) => self.hand_sub(c, id),
                Change::HandSub(c, id) => self.hand_add(c, id),
                Change::Mark(sq, was) => self.promoted[sq.index()] = was,
                Change::CastleSquare(slot, was) => self.restore_castle_square(slot, was),
                Change::Wall(sq, on) => {
                    self.board[sq.index()] = if on { Cell::EMPTY } else { Cell::WALL };
                }
                Change::Count(count) => self.count = count,
            }
        }
        if self.side != undo.side && undo.side == Color::Black {
            self.fullmove -= 1;
        }
        self.side = undo.side;
        self.st = undo.state;
    }

    /// The king's and the rook's destinations for a castling move. With several boards the
    /// king's destination may lie on another board than his path: then both men go across,
    /// the rook to his own destination square on the king's new board.
    pub(crate) fn castle_targets(&self, mv: Move) -> (Square, Square) {
        self.castle_paths
            .iter()
            .flatten()
            .find(|p| p.king_from == mv.from && p.rook_from == mv.aux)
            .map_or((mv.to, mv.aux), |p| {
                let across = mv.to.0 as i32 - p.king_to.0 as i32;
                (mv.to, Square((p.rook_to.0 as i32 + across) as u16))
            })
    }

    /// The rook of the castling whose king goes from `mv.from` to `mv.to` (a castling move
    /// that places a wall names its rook no other way); `Square::NONE` when there is none.
    pub(crate) fn castle_rook_of(&self, mv: Move) -> Square {
        self.castle_paths
            .iter()
            .flatten()
            .find(|p| p.king_from == mv.from && p.king_to == mv.to)
            .map_or(Square::NONE, |p| p.rook_from)
    }

    /// The e.p. squares a double or triple step leaves where a triple step is possible
    /// (`tripleStepRegion*`), as Fairy-Stockfish leaves them: each square passed over on which
    /// an enemy man could capture e.p., the one next to the landing square first.
    #[cold]
    #[inline(never)]
    fn leave_ep_squares(&mut self, mv: Move, us: Color) {
        let them = us.opposite();
        // `aux` is the square passed over next to the landing square; a triple step passed
        // one more square, as far again from `aux` as `aux` is from the landing square.
        let near = mv.aux;
        let far = Square((2 * near.0 as i32 - mv.to.0 as i32) as u16);
        let squares = [Some(near), (far != mv.from).then_some(far)];
        for sq in squares.into_iter().flatten() {
            if !self.ep_capture_possible(sq, them) {
                continue;
            }
            if self.st.ep == Square::NONE {
                self.st.ep = sq;
                self.st.ep_victim = mv.to;
            } else {
                self.st.ep2 = sq;
            }
        }
    }

    /// The wing of a castling move: 0 kingside, 1 queenside (the index into a colour's
    /// [`CASTLE_BITS`]); `None` when the move matches no castling path.
    pub(crate) fn castled_wing(&self, mv: Move) -> Option<usize> {
        let rook = if mv.kind == MoveKind::WalledCastle {
            self.castle_rook_of(mv)
        } else {
            mv.aux
        };
        self.castle_paths
            .iter()
            .position(|p| {
                p.as_ref()
                    .is_some_and(|p| p.king_from == mv.from && p.rook_from == rook)
            })
            .map(|i| i % 2)
    }

    /// True when a man of `by` could capture en passant on `passed` (a pseudo-legal test,
    /// which is what decides whether the e.p. square is recorded).
    pub(crate) fn ep_capture_possible(&self, passed: Square, by: Color) -> bool {
        if self
            .variant
            .ep_region(by)
            .is_some_and(|r| !r[passed.index()])
        {
            return false;
        }
        let bit = by.cell_bit();
        for (delta, mask) in self.variant.ep_attacks()[by.index()].iter().copied() {
            let c = self.cell_fast(passed.offset(delta));
            if c.0 & bit != 0 && mask & (1 << c.id().0) != 0 {
                return true;
            }
        }
        false
    }
}
