//! Legality: which pseudo-legal moves leave the mover's royal man safe. A fast path decides most
//! moves without making them (single royal, plain leaps and slides only: pins are found by
//! walking lines from the royal man); everything else is made, tested and unmade. For the
//! search, the tests of the royal man's and pinned men's moves can be left until each move is
//! about to be made.

use arrayvec::ArrayVec;

use super::generate::{MoveCounter, MoveList, MoveSink};
use crate::board::position::Position;
use crate::types::{Cell, Color, Move, MoveKind, PieceId, Square};
use crate::variant::tables::CheckReach;

/// What the fast legality test needs to know about the position, computed once per node.
#[derive(Debug)]
struct Guard {
    /// The mover's only royal man, when the fast path applies.
    royal: Square,
    in_check: bool,
    pinned: ArrayVec<Square, 32>,
    /// The men giving check (distinct squares; more than two only count as "several").
    checkers: ArrayVec<Square, 2>,
    /// When one man gives check: his square and the squares between him and the royal man,
    /// where a move of any other man that is not pinned ends the check.
    blocks: ArrayVec<Square, 32>,
}

impl Guard {
    /// Records a man giving check from `sq` (once, however many attack lines find him).
    fn add_checker(&mut self, sq: Square) {
        self.in_check = true;
        if !self.checkers.contains(&sq) {
            let _ = self.checkers.try_push(sq);
        }
    }

    /// True for a move that the deferred generation leaves untested: one of the royal man or
    /// of a pinned man (castling is always tested when generated).
    #[inline]
    fn deferred_move(&self, mv: Move) -> bool {
        !matches!(
            mv.kind,
            MoveKind::Castle | MoveKind::CastleGateKing | MoveKind::CastleGateRook
        ) && (mv.from == self.royal || self.pinned.contains(&mv.from))
    }

    /// True when a plain move or drop to `to` by a man that is neither the royal man nor pinned
    /// leaves the royal man safe: always out of check; in check, only by taking the one man
    /// giving it or stepping between.
    fn unpinned_move_legal(&self, to: Square) -> bool {
        !self.in_check || self.checkers.len() == 1 && self.blocks.contains(&to)
    }
}

/// The men whose moves [`Position::generate_legal_deferred`] listed without testing them:
/// the royal man and the pinned men, when the side to move is not in check. Most nodes of a
/// search are cut after a move or two, so most of these tests are never needed; the search
/// makes the test when it comes to the move ([`Position::passes_deferred_test`]).
#[derive(Debug)]
pub struct DeferredLegality {
    /// The position's guard (out of check), or `None` when nothing was deferred.
    guard: Option<Guard>,
}

impl DeferredLegality {
    /// Nothing deferred: every listed move is legal.
    pub const NONE: DeferredLegality = DeferredLegality { guard: None };

    /// True when `mv` was listed without its legality test (castling never is).
    #[inline]
    pub fn needs_test(&self, mv: Move) -> bool {
        self.guard.as_ref().is_some_and(|g| g.deferred_move(mv))
    }
}

impl Position {
    /// True when the check rule protects `color`'s royal men: always when it has one; with
    /// several, only when the variant protects each of them (not under extinction royalty,
    /// where only a sole royal man may not be left attacked).
    #[inline]
    pub fn royals_protected(&self, color: Color) -> bool {
        self.variant.checking()
            && match self.royal_count(color) {
                0 => false,
                1 => true,
                // Fairy-Stockfish's pseudo-royalty decides man by man (`chesslike`).
                _ => !self.variant.extinction_royals() || self.variant.pseudo_royal().is_some(),
            }
    }

    /// True when the side that just moved (`color`) has left a protected royal man capturable.
    pub fn royal_in_danger(&self, color: Color) -> bool {
        if !self.royals_protected(color) {
            // No royal man to guard, but atomic's own king may have blown up, or atomar's
            // king taken the other.
            return self.variant.chesslike_legality() && self.chesslike_danger(color);
        }
        let them = color.opposite();
        if self.variant.extinction_royals() {
            if self.variant.chesslike_legality() {
                return self.chesslike_danger(color);
            }
            if self.variant.royal_mask() != 0 && self.royal_count(them) == 0 {
                // The move took the opponent's last royal man: the game is over, he cannot
                // reply.
                return false;
            }
        }
        match self.royal_count(color) {
            1 => self.is_attacked(self.royal_sq[color.index()], them),
            _ => self
                .royal_squares(color)
                .iter()
                .any(|&s| self.is_attacked(s, them)),
        }
    }

    /// True when `mv`, a pseudo-legal move of the side to move made while it is not in check,
    /// surely leaves its royal man safe, judged without making it. Arriving somewhere never
    /// exposes the royal man; leaving a square can only uncover an enemy rider on the one line
    /// through that square and the royal man, so a man other than the royal one is safe to
    /// move when the square is on no such line, or when the line holds no enemy rider that
    /// would reach the royal man once the square is empty. Only where the variant's
    /// [`CheckReach`] tables exist (plain leaps and slides
    /// on one board, no rule adding to what a move does); false means "make it and test".
    #[inline]
    pub fn leaves_royal_safe_unmade(&self, mv: Move) -> bool {
        let Some(reach) = &self.variant.check_reach() else {
            return false;
        };
        let us = self.side;
        if self.royal_count(us) != 1 {
            return false;
        }
        match mv.kind {
            MoveKind::Drop => true,
            MoveKind::Normal | MoveKind::DoubleStep => {
                let royal = self.royal_sq[us.index()];
                if mv.from == royal {
                    return false;
                }
                let r = &reach[us.opposite().index()];
                match r.line_slide[r.index(mv.from, royal)] {
                    CheckReach::NO_LINE => true,
                    CheckReach::SEVERAL_LINES => false,
                    slide => self.line_stays_shut(mv, royal, slide),
                }
            }
            _ => false,
        }
    }

    /// True when the line of the enemy slide attack `slide` (an index into his attack tables)
    /// from `royal` through `mv.from` still carries no attack on him after `mv`: a man stands
    /// between him and the square, `mv` arrives on the line before any enemy beyond it, or the
    /// first man beyond it does not attack along the line from that far.
    fn line_stays_shut(&self, mv: Move, royal: Square, slide: u8) -> bool {
        let them = self.side.opposite();
        let sa = &self.variant.attacks()[them.index()].slides[slide as usize];
        let mut s = royal;
        let mut k = 0u8;
        let mut beyond = false;
        loop {
            s = s.offset(sa.delta);
            k = k.saturating_add(1);
            if s == mv.to {
                return true;
            }
            if s == mv.from {
                beyond = true;
                continue;
            }
            let c = self.cell_fast(s);
            if c.is_empty() {
                continue;
            }
            return !(beyond && c.is_color(them) && sa.reaches(1 << c.id().0, k));
        }
    }

    /// True when the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.royal_in_danger(self.side)
    }

    /// The fast-path facts, or `None` when every move must be tested by making it.
    fn guard(&self) -> Option<Guard> {
        let us = self.side;
        if !self.has_fast_path(us) {
            return None;
        }
        let royal = self.royal_sq[us.index()];
        let them = us.opposite();
        let attacks = &self.variant.attacks()[them.index()];
        let them_bit = them.cell_bit();
        let mut guard = Guard {
            royal,
            in_check: false,
            pinned: ArrayVec::new(),
            checkers: ArrayVec::new(),
            blocks: ArrayVec::new(),
        };
        for la in &attacks.leaps {
            let s = royal.offset(la.delta);
            let c = self.cell_fast(s);
            if c.0 & them_bit != 0 && la.mask & (1 << c.id().0) != 0 {
                guard.add_checker(s);
                if guard.checkers.len() == 1 && guard.blocks.is_empty() {
                    guard.blocks.push(s);
                }
            }
        }
        // One walk per slide direction finds both checks (an enemy slider first) and pins (a
        // friendly man first, then the enemy slider).
        let us_bit = us.cell_bit();
        for sa in &attacks.slides {
            let mut s = royal;
            let mut k = 0u8;
            let mut shield = Square::NONE;
            loop {
                s = s.offset(sa.delta);
                k = k.saturating_add(1);
                let c = self.cell_fast(s);
                if c.is_empty() {
                    continue;
                }
                if c.is_off() {
                    break;
                }
                if c.0 & us_bit != 0 {
                    if shield != Square::NONE {
                        break;
                    }
                    shield = s;
                    continue;
                }
                if sa.reaches(1u32 << c.id().0, k) {
                    if shield != Square::NONE {
                        let _ = guard.pinned.try_push(shield);
                    } else if !guard.checkers.contains(&s) {
                        guard.add_checker(s);
                        if guard.checkers.len() == 1 {
                            guard.blocks.clear();
                            let mut b = royal;
                            while b != s {
                                b = b.offset(sa.delta);
                                let _ = guard.blocks.try_push(b);
                            }
                        }
                    }
                }
                break;
            }
        }
        Some(guard)
    }

    /// Makes the move, asks whether the mover's royal man is safe, and unmakes it. Where the
    /// variant says a gated man does not count (S-Chess), the move must also be legal without
    /// its gating part.
    pub fn is_legal_by_making(&mut self, mv: Move) -> bool {
        let us = self.side;
        let ungated = mv.without_gate();
        if ungated != mv
            && !self.variant.gating().is_some_and(|g| g.blocks_check)
            && !self.is_legal_by_making(ungated)
        {
            return false;
        }
        self.make_move(mv);
        let ok = !self.move_left_royal_in_danger(us);
        self.unmake_move();
        ok
    }

    /// True when the move `us` has just made left a protected royal man of `us` capturable
    /// ([`Position::royal_in_danger`], with the few walls Fairy-Stockfish's test sees
    /// through).
    #[inline(always)]
    pub fn move_left_royal_in_danger(&mut self, us: Color) -> bool {
        if self.variant.legality_sees_through_walls() {
            return self.danger_seeing_through(us);
        }
        self.royal_in_danger(us)
    }

    /// True when `mv`, a pseudo-legal move of the side to move, leaves its royal man safe:
    /// judged without making it where [`Position::leaves_royal_safe_unmade`] can (out of
    /// check), by making it otherwise. `in_check` is the side to move's check.
    pub fn is_pseudo_legal_move_legal(&mut self, mv: Move, in_check: bool) -> bool {
        // Without protected royal men every pseudo-legal move is legal (but for the
        // chess-like family's rules about explosions and immunity).
        if !self.royals_protected(self.side) {
            return !self.variant.chesslike_legality() || self.is_legal_by_making(mv);
        }
        if !in_check && self.leaves_royal_safe_unmade(mv) {
            return true;
        }
        if self.royal_steps(mv) {
            return self.royal_step_safe(mv.from, mv.to);
        }
        self.is_legal_by_making(mv)
    }

    /// True when `mv` is a plain move of the side to move's only royal man, under the rules
    /// where [`Position::royal_step_safe`] decides its legality (the fast path's; the caller
    /// has seen that the royal man is protected).
    fn royal_steps(&self, mv: Move) -> bool {
        let us = self.side;
        matches!(mv.kind, MoveKind::Normal | MoveKind::DoubleStep)
            && self.has_fast_path(us)
            && mv.from == self.royal_sq[us.index()]
    }

    /// True when `us`'s moves may be judged by the fast path's tests ([`Guard`]): attacks
    /// that are plain leaps and slides, and a single royal man. Not under succession, where a
    /// capture can turn an enemy man into another type with other attacks.
    fn has_fast_path(&self, us: Color) -> bool {
        self.variant.simple_attacks()
            && self.royal_count(us) == 1
            && self.variant.succession().is_empty()
    }

    /// True when the royal man moving from `from` to `to` would be safe there. The square he
    /// leaves is empty then, or holds the reserve man who enters there as part of the move
    /// (Pioneer), who may block a line to `to`.
    fn royal_step_safe(&mut self, from: Square, to: Square) -> bool {
        let them = self.side.opposite();
        let cell = self.board[from.index()];
        self.board[from.index()] = self.man_entering_on(from).unwrap_or(Cell::EMPTY);
        let safe = !self.is_attacked(to, them);
        self.board[from.index()] = cell;
        safe
    }

    fn legal_with_guard(&mut self, mv: Move, guard: &Guard) -> bool {
        match mv.kind {
            MoveKind::Normal | MoveKind::DoubleStep => {
                if mv.from == guard.royal {
                    self.royal_step_safe(mv.from, mv.to)
                } else if guard.pinned.contains(&mv.from) {
                    self.is_legal_by_making(mv)
                } else {
                    guard.unpinned_move_legal(mv.to)
                }
            }
            MoveKind::Drop => guard.unpinned_move_legal(mv.to),
            _ => self.is_legal_by_making(mv),
        }
    }

    /// Appends every legal move of the side to move.
    pub fn generate_legal(&mut self, list: &mut MoveList) {
        self.generate_legal_or_deferred(list, false);
    }

    /// Appends the moves of the side to move like [`Position::generate_legal`], except that,
    /// out of check, the moves of the royal man and of pinned men may be listed untested: the
    /// returned [`DeferredLegality`] names them, and each must pass
    /// [`Position::passes_deferred_test`] before it is made. At least one listed move is legal
    /// whenever any is listed, so an empty list still means no legal move.
    pub fn generate_legal_deferred(&mut self, list: &mut MoveList) -> DeferredLegality {
        self.generate_legal_or_deferred(list, true)
    }

    /// The legality test of a move that [`Position::generate_legal_deferred`] left untested.
    #[inline]
    pub fn passes_deferred_test(&mut self, mv: Move, deferred: &DeferredLegality) -> bool {
        match &deferred.guard {
            Some(guard) => self.legal_with_guard(mv, guard),
            None => true,
        }
    }

    /// Both generators: with `defer`, the fast path out of check leaves the royal man's and
    /// pinned men's moves untested.
    fn generate_legal_or_deferred(&mut self, list: &mut MoveList, defer: bool) -> DeferredLegality {
        if self.variant.special_legality() {
            return self.generate_legal_special(list, defer);
        }
        self.generate_legal_unfiltered(list, defer)
    }

    /// Legal generation where a position end comes first and filters after (kept out of line:
    /// the common variants never come here).
    #[cold]
    #[inline(never)]
    fn generate_legal_special(&mut self, list: &mut MoveList, defer: bool) -> DeferredLegality {
        if self.position_end().is_some() {
            return DeferredLegality::NONE;
        }
        let board_game = self.variant.walls().is_some() || self.variant.enclosing().is_some();
        if self.variant.chesslike_legality() {
            // Explosions and pseudo-royal men: every move is made and tested (then given its
            // wall, in atomic duck chess).
            let start = list.len();
            self.generate_pseudo_legal(list);
            if self.walls_judged_per_move() {
                // The wall may block an attack: each move is judged with its wall.
                self.keep_legal_walled(list, start);
            } else {
                self.keep_legal(list, start, None);
                if board_game {
                    self.board_game_moves(list, start);
                }
            }
            if self.variant.has_move_filters() {
                self.apply_filters_and_stalemate_pass(list, start);
            }
            return DeferredLegality::NONE;
        }
        if !self.variant.has_move_filters() && !board_game {
            return self.generate_legal_unfiltered(list, defer);
        }
        let start = list.len();
        self.generate_legal_unfiltered(list, false);
        if board_game {
            self.board_game_moves(list, start);
        }
        if self.variant.cambodian_moves() {
            self.add_cambodian_moves(list);
        }
        self.strike_filtered(list, start);
        DeferredLegality::NONE
    }

    /// Strikes off `list[start..]` the moves the variant's filters forbid (Makpong's king in
    /// check, then [`Position::apply_move_filters`]), one way for the full list and for a move
    /// judged alone ([`Position::passes_move_filters`]).
    fn strike_filtered(&mut self, list: &mut MoveList, start: usize) {
        if self.variant.makpong() {
            self.keep_makpong_king_moves(list, start);
        }
        if self.variant.has_move_filters() {
            self.apply_filters_and_stalemate_pass(list, start);
        }
    }

    /// Legal generation before the variant's move filters.
    #[inline(always)]
    fn generate_legal_unfiltered(&mut self, list: &mut MoveList, defer: bool) -> DeferredLegality {
        if self.variant.needs_board_rules() {
            self.generate_legal_board_rules(list);
            return DeferredLegality::NONE;
        }
        if !self.royals_protected(self.side)
            || self.variant.reserve().is_some() && self.reserve_pending(self.side)
        {
            self.generate_pseudo_legal(list);
            return DeferredLegality::NONE;
        }
        let start = list.len();
        let Some(guard) = self.guard() else {
            self.generate_pseudo_legal(list);
            self.keep_legal(list, start, None);
            return DeferredLegality::NONE;
        };
        let defer = defer && !guard.in_check;
        self.generate_guarded(list, &guard, !defer);
        if !defer {
            return DeferredLegality::NONE;
        }
        if list[start..].iter().all(|&mv| guard.deferred_move(mv)) {
            // Only the royal man and pinned men can move: test them now, so that an empty list
            // keeps meaning mate or stalemate.
            self.keep_legal(list, start, Some(&guard));
            return DeferredLegality::NONE;
        }
        DeferredLegality { guard: Some(guard) }
    }

    /// Legal generation on the fast path: the moves of a man who is neither royal nor pinned,
    /// when not in check, are legal without a test, except en passant captures. With
    /// `test_all` false, the royal man's and pinned men's moves are left untested (out of
    /// check only; see [`Position::generate_legal_deferred`]).
    fn generate_guarded(&mut self, list: &mut MoveList, guard: &Guard, test_all: bool) {
        let us = self.side;
        let ep_possible = self.st.ep != Square::NONE;
        let mut pass = false;
        for i in 0..self.squares_of(us).len() {
            let from = self.squares_of(us)[i];
            let start = list.len();
            pass |= self.generate_from(from, list);
            // The royal man's and pinned men's moves (their en passant captures included)
            // are tested with the guard, or all left to the caller.
            let guarded_man = from == guard.royal || guard.pinned.contains(&from);
            if guard.in_check || guarded_man && test_all {
                self.keep_legal(list, start, Some(guard));
            } else if !guarded_man
                && ep_possible
                && list[start..].iter().any(|m| m.kind == MoveKind::EnPassant)
            {
                self.keep_legal(list, start, None);
            }
        }
        if self.variant.castling().is_some() && self.st.castling != 0 && !guard.in_check {
            let start = list.len();
            self.generate_castling(list, Some(false));
            self.keep_legal(list, start, None);
        }
        if self.variant.drops() {
            let start = list.len();
            // A drop vacates nothing, so in check the guard judges it as it judges an unpinned
            // man's move: legal only as the block of a single check.
            if !guard.in_check || guard.checkers.len() == 1 {
                self.generate_drops(list);
            }
            if guard.in_check {
                self.keep_legal(list, start, Some(guard));
            }
            if self.variant.hands().sittuyin_promotion {
                let start = list.len();
                self.generate_sittuyin_promotions(list);
                self.keep_legal(list, start, None);
            }
        }
        if pass && !guard.in_check {
            list.add(Position::pass_move());
        }
    }

    /// The number of legal moves, counted without listing the moves of men whose moves are all
    /// legal (perft's last ply).
    pub fn count_legal(&mut self) -> u64 {
        if self.variant.special_legality() {
            return self.count_legal_special();
        }
        if self.variant.needs_board_rules() {
            return self.legal_moves().len() as u64;
        }
        if self.variant.reserve().is_some() && self.reserve_pending(self.side) {
            return self.legal_moves().len() as u64;
        }
        let guard = match self.guard() {
            Some(g)
                if self.variant.checking() && !g.in_check && self.variant.gating().is_none() =>
            {
                g
            }
            _ => return self.legal_moves().len() as u64,
        };
        let us = self.side;
        let mut counter = MoveCounter(0);
        let mut list = MoveList::new();
        let ep_types = if self.st.ep != Square::NONE {
            self.variant.ep_attacks()[us.index()]
                .iter()
                .fold(0, |m, e| m | e.1)
        } else {
            0
        };
        let mut pass = false;
        for i in 0..self.squares_of(us).len() {
            let from = self.squares_of(us)[i];
            let cell = self.cell_fast(from);
            let risky = from == guard.royal
                || guard.pinned.contains(&from)
                || ep_types & (1 << cell.id().0) != 0;
            if risky {
                let start = list.len();
                pass |= self.generate_piece_moves(from, cell, &mut list);
                let ep = list[start..].iter().any(|m| m.kind == MoveKind::EnPassant);
                if from == guard.royal || guard.pinned.contains(&from) {
                    self.keep_legal(&mut list, start, Some(&guard));
                } else if ep {
                    self.keep_legal(&mut list, start, None);
                }
            } else {
                pass |= self.generate_piece_moves(from, cell, &mut counter);
            }
        }
        if self.variant.castling().is_some() && self.st.castling != 0 {
            let start = list.len();
            self.generate_castling(&mut list, Some(false));
            self.keep_legal(&mut list, start, None);
        }
        if self.variant.drops() {
            self.generate_drops(&mut list);
        }
        // Not in check here, so a pass is legal.
        counter.0 + list.len() as u64 + pass as u64
    }

    /// [`Position::count_legal`] where legal generation is special: by listing.
    #[cold]
    #[inline(never)]
    fn count_legal_special(&mut self) -> u64 {
        self.legal_moves().len() as u64
    }

    /// Strikes off `list[start..]` the legal moves that the variant's filters forbid: those
    /// giving check where that is illegal (all moves, or drops only), and the non-captures
    /// when a capture is compulsory and there is one.
    fn apply_move_filters(&mut self, list: &mut MoveList, start: usize) {
        let v = self.variant.clone();
        if v.forbids_checks() || !v.drop_checks() {
            let mut kept = start;
            for i in start..list.len() {
                let mv = list[i];
                let ok =
                    !(v.forbids_checks() || mv.kind == MoveKind::Drop) || !self.gives_check(mv);
                if ok {
                    list[kept] = mv;
                    kept += 1;
                }
            }
            list.truncate(kept);
        }
        if v.palace().is_some() {
            self.apply_palace_rules(list, start);
        }
        // Bikjang: kings that face each other must part (or the side passes).
        let bikjang = self.in_bikjang();
        let facing_illegal = v.flying_general() || bikjang;
        if facing_illegal || v.drop_region(self.side).is_some() || v.has_mobility_regions() {
            let us = self.side;
            let mut kept = start;
            for i in start..list.len() {
                let mv = list[i];
                let ok = self.within_regions(mv, us)
                    && !(facing_illegal && self.generals_face_after(mv));
                if ok {
                    list[kept] = mv;
                    kept += 1;
                }
            }
            list.truncate(kept);
        }
        self.apply_hand_filters(list, start);
        // Fairy-Stockfish's passing: any time (`pass`), a non-capture like any other, or only
        // when nothing else is legal (`passOnStalemate`); never in check (except in bikjang),
        // nor without a man.
        let (pass, _) = v.passing(self.side);
        let may_pass =
            |pos: &Self| !pos.squares_of(pos.side).is_empty() && (bikjang || !pos.in_check());
        if pass && may_pass(self) {
            list.push(Position::pass_move());
        }
        if v.must_capture() && list[start..].iter().any(|&mv| self.is_capture(mv)) {
            let mut kept = start;
            for i in start..list.len() {
                let mv = list[i];
                if self.is_capture(mv) {
                    list[kept] = mv;
                    kept += 1;
                }
            }
            list.truncate(kept);
        }
    }

    /// Whether the pseudo-legal, otherwise legal `mv` survives the variant's move filters
    /// (checks forbidden, regions, facing generals, palace rules, Makpong's king in check...),
    /// judged by itself: for a
    /// move found without the full list, as the search's table move is. The filters that judge
    /// a move against the others (compulsory captures and drops) cannot be judged so; the
    /// search lists every move in those variants ([`Position::generate_moves_of`]).
    pub fn passes_move_filters(&mut self, mv: Move) -> bool {
        if !self.variant.has_move_filters() && !self.variant.makpong() {
            return true;
        }
        let mut list = MoveList::new();
        list.push(mv);
        self.strike_filtered(&mut list, 0);
        list.contains(&mv)
    }

    /// [`Position::apply_move_filters`], then the pass of a side that may pass only when it has
    /// no other move.
    fn apply_filters_and_stalemate_pass(&mut self, list: &mut MoveList, start: usize) {
        self.apply_move_filters(list, start);
        let (pass, on_stalemate) = self.variant.passing(self.side);
        if on_stalemate
            && !pass
            && list.len() == start
            && !self.squares_of(self.side).is_empty()
            && !self.in_check()
        {
            list.push(Position::pass_move());
        }
    }

    /// True when `mv` ends where its man may stand (`mobilityRegion...`) and, for a drop, where
    /// drops are allowed (`dropRegion...`). A man who promotes on the move is bounded by the
    /// region of the type he moves as, not of the one he becomes, as in Fairy-Stockfish (chak's
    /// king leaving his zone promotes onto a square his new type could not step to).
    fn within_regions(&self, mv: Move, us: Color) -> bool {
        let v = &self.variant;
        let id = match mv.kind {
            MoveKind::Drop => {
                if v.drop_region(us).is_some_and(|r| !r[mv.to.index()]) {
                    return false;
                }
                PieceId(mv.piece)
            }
            MoveKind::Normal | MoveKind::DoubleStep | MoveKind::EnPassant => {
                self.cell(mv.from).id()
            }
            _ => return true,
        };
        v.mobility_region(id, us).is_none_or(|r| r[mv.to.index()])
    }

    /// True when, after `mv`, the two royal men stand on one file or rank with nothing between
    /// them (Fairy-Stockfish's rook line from one king to the other).
    fn generals_face_after(&mut self, mv: Move) -> bool {
        self.make_move(mv);
        let face = self.generals_face();
        self.unmake_move();
        face
    }

    /// True when the legal move `mv` checks the opponent.
    pub(crate) fn gives_check(&mut self, mv: Move) -> bool {
        self.make_move(mv);
        let check = self.in_check();
        self.unmake_move();
        check
    }

    /// Removes the illegal moves from `list[start..]`, testing with the guard when given and
    /// by making the move otherwise.
    fn keep_legal(&mut self, list: &mut MoveList, start: usize, guard: Option<&Guard>) {
        let mut kept = start;
        for i in start..list.len() {
            let mv = list[i];
            let ok = match guard {
                Some(g) => self.legal_with_guard(mv, g),
                None => self.is_legal_by_making(mv),
            };
            if ok {
                list[kept] = mv;
                kept += 1;
            }
        }
        list.truncate(kept);
    }

    /// The legal moves of the side to move.
    pub fn legal_moves(&mut self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        list
    }

    /// True when `mv` is one of the legal moves here.
    pub fn is_legal(&mut self, mv: Move) -> bool {
        self.legal_moves().contains(&mv)
    }
}
