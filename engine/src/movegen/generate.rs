//! Pseudo-legal move generation from the compiled tables: plain leaps and slides on the fast
//! path, conditional rays (lame, hopping, initial, e.p.) on the general path, then castling,
//! gating and drops.

use super::list::SpillVec;
use crate::board::position::{Position, CASTLE_BITS};
use crate::types::{Cell, Color, Move, MoveKind, PieceId, Square};
use crate::variant::tables::{
    HopKind, PieceMask, PieceMoves, Ray, Route, CAPTURE, EN_PASSANT, QUIET,
};

/// How many moves a list holds on the stack before it moves to the heap: more than any
/// position of the built-in variants has, so that their search never allocates, and small
/// enough that a list in each of the search's frames (up to `MAX_PLY` of them) fits the 8 MB
/// stack of the main thread.
pub const INLINE_MOVES: usize = 1024;

/// A list of moves: on the stack up to [`INLINE_MOVES`], on the heap past that, so that no
/// variant's moves are cut off (a 16x16 board with drops of five types has over 1,200).
pub type MoveList = SpillVec<Move, INLINE_MOVES>;

/// Appends to a move list.
#[inline(always)]
fn push(list: &mut MoveList, mv: Move) {
    list.push(mv);
}

/// Where generated moves go: a list, or a counter when only their number matters (perft's
/// last ply).
pub trait MoveSink {
    /// Takes one move.
    fn add(&mut self, mv: Move);
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn add(&mut self, mv: Move) {
        push(self, mv);
    }
}

/// A sink that only counts.
#[derive(Copy, Clone, Debug, Default)]
pub struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn add(&mut self, _: Move) {
        self.0 += 1;
    }
}

impl Position {
    /// Appends every pseudo-legal move of the side to move.
    pub fn generate_pseudo_legal(&self, list: &mut MoveList) {
        if self.variant.needs_board_rules() {
            self.generate_board_rules(list);
            return;
        }
        let us = self.side;
        if self.variant.reserve().is_some() && self.reserve_pending(us) {
            self.generate_placements(list);
            return;
        }
        let mut pass = false;
        for i in 0..self.squares_of(us).len() {
            let from = self.squares_of(us)[i];
            pass |= self.generate_from(from, list);
        }
        if pass {
            push(list, Position::pass_move());
        }
        if self.variant.castling().is_some() && self.st.castling != 0 {
            self.generate_castling(list, None);
        }
        if self.variant.drops() {
            self.generate_drops(list);
            if self.variant.hands().sittuyin_promotion {
                self.generate_sittuyin_promotions(list);
            }
        }
    }

    /// Appends a superset of the pseudo-legal captures and promotions of the side to move, for
    /// quiescence: plain leapers and sliders give only those; men with other kinds of moves,
    /// gating men and positions with special turn rules give all their moves, which the caller
    /// filters like the rest. Drops, castling and passes never capture, so they are left out.
    pub fn generate_tactical(&self, list: &mut MoveList) {
        let us = self.side;
        if self.variant.needs_board_rules()
            || self.variant.reserve().is_some() && self.reserve_pending(us)
        {
            self.generate_pseudo_legal(list);
            return;
        }
        for i in 0..self.squares_of(us).len() {
            let from = self.squares_of(us)[i];
            let cell = self.cell_fast(from);
            let moves = &self.variant.pieces()[cell.id().index()].moves[us.index()];
            if moves.overlapping || !moves.rays.is_empty() || self.can_gate_from(from, cell) {
                self.generate_from(from, list);
            } else {
                self.generate_plain_of::<false, _>(from, cell, moves, list);
            }
        }
    }

    /// Appends the pseudo-legal moves of the side to move's man on `from`: the moves the full
    /// generators list for him, in the same order, so that the search can look for one move
    /// (the table's) without listing everyone's. Appends nothing when `from` holds none of his
    /// men, or when the position's moves cannot be listed and judged man by man
    /// ([`crate::variant::Variant::moves_judged_man_by_man`]; the filters that judge each
    /// move by itself are [`Position::passes_move_filters`]'s), or while a reserve file is to
    /// be chosen.
    pub fn generate_moves_of(&self, from: Square, list: &mut MoveList) {
        let us = self.side;
        if !self.variant.moves_judged_man_by_man()
            || self.variant.reserve().is_some() && self.reserve_pending(us)
            || !self.cell(from).is_color(us)
        {
            return;
        }
        self.generate_from(from, list);
    }

    /// Appends the pseudo-legal moves of the man on `from` (with their gating forms).
    /// Returns true when the man can pass (see [`Position::generate_piece_moves`]).
    pub(crate) fn generate_from(&self, from: Square, list: &mut MoveList) -> bool {
        let cell = self.cell_fast(from);
        let first = list.len();
        let pass = self.generate_piece_moves(from, cell, list);
        if self.can_gate_from(from, cell) {
            self.add_gating(from, first, list);
        }
        pass
    }

    /// The one pass move of a position where some man can pass.
    pub fn pass_move() -> Move {
        Move::with(
            Square::NONE,
            Square::NONE,
            MoveKind::Pass,
            Square::NONE,
            Move::NO_PIECE,
        )
    }

    /// True when a move of the man `cell` from `from` may gate a man from the hand.
    #[inline(always)]
    pub(crate) fn can_gate_from(&self, from: Square, cell: Cell) -> bool {
        self.variant.gating().is_some() && cell.is_virgin() && self.virgin_is_gate_right(from, cell)
    }

    /// The board moves of the man `cell` on `from` (without gating forms). Returns true when
    /// the man can pass (a leg program that brings him home having done nothing): the caller
    /// adds one pass for the whole position.
    #[inline(always)]
    pub(crate) fn generate_piece_moves<S: MoveSink>(
        &self,
        from: Square,
        cell: Cell,
        sink: &mut S,
    ) -> bool {
        // Looked up once here and handed down: the compiler does not merge the repeated
        // lookups by itself, and they cost as much as a knight's leaps at perft's last ply.
        let moves = &self.variant.pieces()[cell.id().index()].moves[self.side.index()];
        if moves.overlapping {
            return self.generate_deduplicated(from, cell, moves, sink);
        }
        self.generate_single_legs::<false, S>(from, cell, moves, sink);
        false
    }

    /// The single-leg moves (fast tables and general rays) of the man `cell` on `from`, whose
    /// move tables are `moves`. `TRIPLE` for men with a triple step, whose moves are marked
    /// overlapping so that only the deduplicating path pays for the test.
    #[inline(always)]
    fn generate_single_legs<const TRIPLE: bool, S: MoveSink>(
        &self,
        from: Square,
        cell: Cell,
        moves: &PieceMoves,
        sink: &mut S,
    ) {
        self.generate_plain_of::<true, S>(from, cell, moves, sink);
        for ray in &moves.rays {
            if ray.initial {
                if TRIPLE && ray.triple_step {
                    self.triple_step(from, cell, ray, sink);
                    continue;
                }
                if !cell.is_virgin() {
                    continue;
                }
            }
            self.walk_ray(from, cell, ray, sink);
        }
    }

    /// A pawn's triple step (`tripleStepRegion*`): from the region, over two empty squares to
    /// an empty one. It leaves e.p. squares like a double step (`aux` names the square passed
    /// next to the landing square; make finds the other), except into the promotion zone.
    #[cold]
    #[inline(never)]
    fn triple_step<S: MoveSink>(&self, from: Square, cell: Cell, ray: &Ray, sink: &mut S) {
        let us = self.side;
        let v = &self.variant;
        if !v
            .triple_steps()
            .is_some_and(|r| r[us.index()][from.index()])
        {
            return;
        }
        let to = from.offset(ray.delta);
        if !self.cell_fast(to).is_empty() || !self.step_open(from, ray) {
            return;
        }
        let near = ray.routes[0].squares()[1];
        let bit = 1 << cell.id().0;
        let promotes = v.promotion().pawn_types & bit != 0 && v.in_promotion_zone(us, to);
        let (kind, aux) = if v.ep_types() & bit != 0 && !promotes {
            (MoveKind::DoubleStep, from.offset(near))
        } else {
            (MoveKind::Normal, Square::NONE)
        };
        self.push_board_move(from, to, cell, kind, aux, sink);
    }

    /// A man whose moves overlap (leg programs, or a step and a slide the same way): all his
    /// moves, with the duplicates that different paths give removed, since one move is one move
    /// however it is found.
    #[inline(never)]
    fn generate_deduplicated<S: MoveSink>(
        &self,
        from: Square,
        cell: Cell,
        moves: &PieceMoves,
        sink: &mut S,
    ) -> bool {
        let mut local = MoveList::new();
        self.generate_single_legs::<true, _>(from, cell, moves, &mut local);
        self.generate_programs(from, cell, &mut local);
        local.sort_unstable_by_key(|m| (m.to.0, m.aux.0, m.kind as u8, m.piece));
        let mut pass = false;
        let mut last: Option<Move> = None;
        // A man of the shogi rules is marked overlapping: his moves are expanded here.
        let shogi = self.variant.shogi().movers & (1 << cell.id().0) != 0;
        for &m in local.iter() {
            if last == Some(m) {
                continue;
            }
            last = Some(m);
            if m.kind == MoveKind::Pass {
                pass = true;
            } else if shogi {
                self.push_shogi_move(m.from, m.to, cell, m.kind, m.aux, sink);
            } else {
                sink.add(m);
            }
        }
        pass
    }

    /// [`Position::generate_plain`] for the man `cell` on `from` (move tables `moves`), with
    /// `PROMOTES` set for the types that promote.
    #[inline(always)]
    fn generate_plain_of<const QUIETS: bool, S: MoveSink>(
        &self,
        from: Square,
        cell: Cell,
        moves: &PieceMoves,
        sink: &mut S,
    ) {
        if self.variant.promotion().promotes(cell.id(), self.side) {
            self.generate_plain::<true, QUIETS, S>(from, cell, moves, sink);
        } else {
            self.generate_plain::<false, QUIETS, S>(from, cell, moves, sink);
        }
    }

    /// The fast path: plain leaps and slides of the man `cell` on `from`. `PROMOTES` is true
    /// for the types that promote, whose moves into the zone are expanded into the choices.
    /// Without `QUIETS`, only captures and promotions are generated.
    #[inline(always)]
    fn generate_plain<const PROMOTES: bool, const QUIETS: bool, S: MoveSink>(
        &self,
        from: Square,
        cell: Cell,
        moves: &PieceMoves,
        list: &mut S,
    ) {
        let us = self.side;
        let us_bit = us.cell_bit();
        let zone = &self.variant.promotion().zone[us.index()];
        // A quiet move is kept when quiet moves are wanted or when it promotes.
        let keep_quiet = |to: Square| QUIETS || PROMOTES && zone[to.index()];
        let add = |list: &mut S, to: Square| {
            if PROMOTES && zone[to.index()] {
                self.push_board_move(from, to, cell, MoveKind::Normal, Square::NONE, list);
            } else {
                list.add(Move::normal(from, to));
            }
        };
        for leap in &moves.leaps {
            let to = from.offset(leap.delta);
            let c = self.cell_fast(to).0;
            // Border cells carry both colour bits, so this one test keeps empty and enemy squares.
            if c & us_bit == 0 {
                if leap.mode == QUIET | CAPTURE {
                    if c != 0 || keep_quiet(to) {
                        add(list, to);
                    }
                    continue;
                }
                // A move onto the e.p. square by a man who may capture e.p. there is always
                // the e.p. capture (one move, not a quiet move beside it).
                if c == 0 && leap.mode & EN_PASSANT != 0 && to == self.st.ep {
                    self.push_board_move(
                        from,
                        to,
                        cell,
                        MoveKind::EnPassant,
                        self.st.ep_victim,
                        list,
                    );
                } else if leap.mode & if c == 0 { QUIET } else { CAPTURE } != 0
                    && (c != 0 || keep_quiet(to))
                {
                    add(list, to);
                }
            }
        }
        if (QUIETS || PROMOTES) && !moves.double_steps.is_empty() && cell.is_virgin() {
            let leaves_ep = self.variant.ep_types() & (1 << cell.id().0) != 0;
            for ds in &moves.double_steps {
                let (passed, to) = (from.offset(ds.passed), from.offset(ds.delta));
                if self.cell_fast(passed).is_empty() && self.cell_fast(to).is_empty() {
                    let (kind, aux) = if leaves_ep {
                        (MoveKind::DoubleStep, passed)
                    } else {
                        (MoveKind::Normal, Square::NONE)
                    };
                    // Outside the zone a double step is one move: pushed here without
                    // `push_board_move`'s promotion lookups (a pawn's most common move).
                    if PROMOTES && zone[to.index()] {
                        // A double step into the zone is an ordinary move (the promotion is
                        // carried by ordinary moves only) and leaves no e.p. square, as in
                        // Fairy-Stockfish (epicatomic's zone begins two ranks ahead).
                        self.push_board_move(from, to, cell, MoveKind::Normal, Square::NONE, list);
                    } else {
                        list.add(Move::with(from, to, kind, aux, Move::NO_PIECE));
                    }
                }
            }
        }
        for slide in &moves.slides {
            let mut to = from;
            let mut steps = 0u8;
            loop {
                to = to.offset(slide.delta);
                let c = self.cell_fast(to).0;
                if c == 0 {
                    if slide.mode & QUIET != 0 && keep_quiet(to) {
                        add(list, to);
                    }
                    steps += 1;
                    if steps == slide.max {
                        break;
                    }
                    continue;
                }
                if c & us_bit == 0 && slide.mode & CAPTURE != 0 {
                    add(list, to);
                }
                break;
            }
        }
    }

    /// True when a step from `s` along `ray` is not blocked by its lameness condition.
    #[inline]
    fn step_open(&self, s: Square, ray: &Ray) -> bool {
        if ray.routes.is_empty() {
            return true;
        }
        let clear = |route: &Route| {
            route
                .squares()
                .iter()
                .all(|&d| self.cell_fast(s.offset(d)).is_empty())
        };
        if ray.must_jump {
            // `j` on a leaper: the square jumped over must be occupied.
            return ray.routes.iter().all(|route| {
                route
                    .squares()
                    .iter()
                    .any(|&d| self.cell_fast(s.offset(d)).is_piece())
            });
        }
        ray.routes.iter().any(clear)
    }

    fn walk_ray<S: MoveSink>(&self, from: Square, cell: Cell, ray: &Ray, list: &mut S) {
        let us = self.side;
        let us_bit = us.cell_bit();
        let enemy = |c: Cell| c.0 != 0 && c.0 & us_bit == 0;
        let mut s = from;
        let mut steps = 0u8;
        let mut screened = ray.hop == HopKind::None;
        loop {
            if !self.step_open(s, ray) {
                return;
            }
            s = s.offset(ray.delta);
            steps += 1;
            let c = self.cell_fast(s);
            if c.is_off() {
                return;
            }
            let limit_reached = ray.max != 0 && steps >= ray.max;
            if ray.skip_first && steps == 1 {
                if limit_reached {
                    return;
                }
                continue;
            }
            if !screened {
                // Looking for the screen of a hopper (only the types it may hop over).
                if c.is_piece() {
                    if self.variant.pieces()[cell.id().index()].hurdles & (1 << c.id().0) == 0 {
                        return;
                    }
                    screened = true;
                    if ray.hop == HopKind::Grasshopper {
                        let land = s.offset(ray.delta);
                        let lc = self.cell_fast(land);
                        if lc.is_empty() && ray.mode & QUIET != 0
                            || enemy(lc) && ray.mode & CAPTURE != 0
                        {
                            self.push_board_move(
                                from,
                                land,
                                cell,
                                MoveKind::Normal,
                                Square::NONE,
                                list,
                            );
                        }
                        return;
                    }
                }
                if limit_reached {
                    return;
                }
                continue;
            }
            if c.is_empty() {
                if ray.mode & EN_PASSANT != 0 && (s == self.st.ep || s == self.st.ep2) {
                    self.push_board_move(
                        from,
                        s,
                        cell,
                        MoveKind::EnPassant,
                        self.st.ep_victim,
                        list,
                    );
                } else if ray.mode & QUIET != 0 {
                    self.push_board_move(from, s, cell, MoveKind::Normal, Square::NONE, list);
                }
                if limit_reached {
                    return;
                }
                continue;
            }
            if enemy(c) && ray.mode & CAPTURE != 0 {
                self.push_board_move(from, s, cell, MoveKind::Normal, Square::NONE, list);
            }
            return;
        }
    }

    /// Pushes a board move, expanded into its promotion choices where the mover promotes.
    pub(crate) fn push_board_move<S: MoveSink>(
        &self,
        from: Square,
        to: Square,
        cell: Cell,
        kind: MoveKind,
        aux: Square,
        list: &mut S,
    ) {
        let us = self.side;
        let v = &self.variant;
        let promo = &v.promotion();
        let enters_zone = promo.promotes(cell.id(), us) && v.in_promotion_zone(us, to);
        // Fairy-Stockfish's e.p. capture never promotes, even into a zone where promotion is
        // compulsory (Shogun's pawn taking e.p. onto his sixth rank, Shinobi+'s onto his
        // third); its reading of initial moves by region marks a variant read in its dialect.
        let ep_plain = kind == MoveKind::EnPassant && v.initial_region().is_some();
        if !enters_zone || ep_plain {
            list.add(Move::with(from, to, kind, aux, Move::NO_PIECE));
            return;
        }
        for &choice in promo.choices_for(cell.id(), us) {
            if self.limit_reached(us, choice) {
                continue;
            }
            list.add(Move::with(from, to, kind, aux, choice.0));
        }
        let last_rank = v.geometry().relative_rank(to, us) == v.geometry().ranks as usize - 1;
        // Staying unpromoted is allowed unless promotion is compulsory, or the pawn would be
        // stuck on its last rank where the variant forbids immobile men.
        let may_stay = !(promo.is_mandatory(cell.id()) || promo.immobility_illegal && last_rank);
        if may_stay {
            list.add(Move::with(from, to, kind, aux, Move::NO_PIECE));
        }
    }

    /// Adds the gating forms of the moves generated since `first` (by the man on `from`): one
    /// per type in hand that may be gated. Where the last man able to open a gate must bring a
    /// gated man in, his moves without one are removed.
    fn add_gating(&self, from: Square, first: usize, list: &mut MoveList) {
        let us = self.side;
        let Some(rules) = &self.variant.gating() else {
            return;
        };
        let end = list.len();
        let mut gated_any = false;
        for id in 0..self.variant.num_pieces() {
            if self.hands[us.index()][id] == 0
                || rules.gated & (1 << id) == 0
                || !self.may_gate_onto(PieceId(id as u8), from)
            {
                continue;
            }
            for i in first..end {
                let m = list[i];
                let gated = match m.kind {
                    MoveKind::Normal if m.piece == Move::NO_PIECE => {
                        Move::with(m.from, m.to, MoveKind::Gate, m.from, id as u8)
                    }
                    MoveKind::DoubleStep => {
                        Move::with(m.from, m.to, MoveKind::DoubleStepGate, m.aux, id as u8)
                    }
                    _ => continue,
                };
                push(list, gated);
                gated_any = true;
            }
        }
        if gated_any && rules.last_compulsory && self.last_gate_opener(from) {
            list.remove_range(first..end);
        }
    }

    /// True when a man of type `id` of the side to move may be gated onto `gate`: gating puts
    /// him down from the hand, so the drop rules hold (as in Fairy-Stockfish): a pawn not on
    /// his first rank nor in his promotion zone unless drops may go there, and only within
    /// the drop region. Only variants with pawns in hand (S-House) can be refused.
    fn may_gate_onto(&self, id: PieceId, gate: Square) -> bool {
        let v = &self.variant;
        let us = self.side;
        if v.drop_region(us).is_some_and(|r| !r[gate.index()]) {
            return false;
        }
        if !v.is_drop_pawn(id, us) {
            return true;
        }
        let (first_rank, zone) = v.pawn_drops_allowed();
        (first_rank || v.geometry().relative_rank(gate, us) != 0)
            && (zone || !v.in_promotion_zone(us, gate))
    }

    /// True when the man on `from` is the side to move's only man left who can open a gate.
    fn last_gate_opener(&self, from: Square) -> bool {
        self.squares_of(self.side).iter().all(|&s| {
            let c = self.cell_fast(s);
            s == from || !(c.is_virgin() && self.virgin_is_gate_right(s, c))
        })
    }

    /// Appends the castling moves whose path is clear and not attacked. `in_check` is the
    /// mover's check status when the caller already knows it.
    pub(crate) fn generate_castling(&self, list: &mut MoveList, in_check: Option<bool>) {
        let us = self.side;
        let Some(rules) = &self.variant.castling() else {
            return;
        };
        // Most positions below the root have rights of the other side only: nothing to look at.
        let ours = CASTLE_BITS[us.index()][0] | CASTLE_BITS[us.index()][1];
        if self.st.castling & ours == 0 {
            return;
        }
        let mut in_check = in_check;
        for bit in CASTLE_BITS[us.index()] {
            if self.st.castling & bit == 0 {
                continue;
            }
            let Some(path) = &self.castle_paths[bit.trailing_zeros() as usize] else {
                continue;
            };
            // A blocked path is the usual reason not to castle: tested first.
            if path.empty.iter().any(|&s| !self.cell_fast(s).is_empty()) {
                continue;
            }
            let king = self.cell_fast(path.king_from);
            let rook = self.cell_fast(path.rook_from);
            if !king.is_color(us)
                || king.id() != rules.king
                || !rook.is_color(us)
                || rules.rooks & (1 << rook.id().0) == 0
            {
                continue;
            }
            // Only a royal king may not castle out of, through or into check (a commoner who
            // castles in giveaway or extinction chess may, as in Fairy-Stockfish).
            if rules.path_guarded {
                if *in_check.get_or_insert_with(|| self.is_attacked(path.king_from, us.opposite()))
                {
                    return;
                }
                if path
                    .safe
                    .iter()
                    .any(|&s| self.is_attacked(s, us.opposite()))
                {
                    continue;
                }
            } else if rules.path_pseudo_royal
                && !self.walls_judged_per_move()
                && !self.pseudo_royal_castle_path_safe(path)
            {
                // Where each move is judged with its wall, the path is too (the wall may
                // block an attack on it, the duck leaving may open one).
                continue;
            }
            let (from, to, aux) = (path.king_from, path.king_to, path.rook_from);
            push(
                list,
                Move::with(from, to, MoveKind::Castle, aux, Move::NO_PIECE),
            );
            if let Some(gating) = &self.variant.gating() {
                for id in 0..self.variant.num_pieces() {
                    if self.hands[us.index()][id] == 0 || gating.gated & (1 << id) == 0 {
                        continue;
                    }
                    let gated = PieceId(id as u8);
                    if king.is_virgin()
                        && self.virgin_is_gate_right(from, king)
                        && self.may_gate_onto(gated, from)
                    {
                        push(
                            list,
                            Move::with(from, to, MoveKind::CastleGateKing, aux, id as u8),
                        );
                    }
                    if rook.is_virgin()
                        && self.virgin_is_gate_right(aux, rook)
                        && self.may_gate_onto(gated, aux)
                    {
                        push(
                            list,
                            Move::with(from, to, MoveKind::CastleGateRook, aux, id as u8),
                        );
                    }
                }
            }
        }
    }

    /// The choices of the files the side to move's reserve men will wait behind: one file, or
    /// two different files (with two men), never the king's file together with a rook's when
    /// the variant forbids it. These are the side's only moves until it has chosen.
    pub(crate) fn generate_placements(&self, list: &mut MoveList) {
        let Some(rules) = &self.variant.reserve() else {
            return;
        };
        let us = self.side;
        let files = self.variant.geometry().files;
        let square = |f: u8| self.reserve_square(us, f);
        let king_file = self.castle_king[us.index()];
        let rook_files: Vec<Square> = self
            .castle_rook
            .iter()
            .copied()
            .filter(|&r| r != Square::NONE && self.cell_fast(r).is_color(us))
            .collect();
        // The men standing on the first rank at the start: king and rooks by their squares.
        let king_or_rook = |a: Square, b: Square| {
            let is_king = |s: Square| s == king_file || self.start_man_is(s, us, true);
            let is_rook = |s: Square| rook_files.contains(&s) || self.start_man_is(s, us, false);
            is_king(a) && is_rook(b) || is_king(b) && is_rook(a)
        };
        for a in 0..files {
            if rules.count == 1 {
                push(
                    list,
                    Move::with(
                        square(a),
                        square(a),
                        MoveKind::Place,
                        Square::NONE,
                        rules.piece.0,
                    ),
                );
                continue;
            }
            for b in a + 1..files {
                if rules.king_rook_exclusive && king_or_rook(square(a), square(b)) {
                    continue;
                }
                push(
                    list,
                    Move::with(
                        square(a),
                        square(b),
                        MoveKind::Place,
                        Square::NONE,
                        rules.piece.0,
                    ),
                );
            }
        }
    }

    /// True when the start position has `color`'s castling king (`king`) or one of its castling
    /// rooks (`!king`) on `sq`.
    fn start_man_is(&self, sq: Square, color: Color, king: bool) -> bool {
        let Some(rules) = &self.variant.castling() else {
            return false;
        };
        let c = self
            .variant
            .start_board()
            .get(sq.index())
            .copied()
            .unwrap_or(Cell::EMPTY);
        c.is_color(color)
            && if king {
                c.id() == rules.king
            } else {
                rules.rooks & (1 << c.id().0) != 0
            }
    }

    /// True when `sq` is attacked by a man of colour `by` (pins ignored; e.p. not counted).
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        let general = self.variant.attacks()[by.index()].general;
        self.attacked_by_plain(sq, by, PieceMask::MAX)
            || general != 0 && self.attacked_by_general(sq, by, general)
    }

    /// The fast part of the attack test: the plain leaps and slides of the attack tables,
    /// counting only men whose types are in `types` (border cells carry the id no type has).
    #[inline(always)]
    pub(crate) fn attacked_by_plain(&self, sq: Square, by: Color, types: PieceMask) -> bool {
        let t = &self.variant.attacks()[by.index()];
        let bit = by.cell_bit();
        for la in &t.leaps {
            let c = self.cell_fast(sq.offset(la.delta));
            if c.0 & bit != 0 && la.mask & types & (1 << c.id().0) != 0 {
                return true;
            }
        }
        for sa in &t.slides {
            let mut s = sq;
            let mut k = 0u8;
            loop {
                s = s.offset(sa.delta);
                k = k.saturating_add(1);
                let c = self.cell_fast(s);
                if c.is_empty() {
                    continue;
                }
                let id_bit = 1u32 << c.id().0;
                if c.0 & bit != 0 && types & id_bit != 0 && sa.reaches(id_bit, k) {
                    return true;
                }
                break;
            }
        }
        false
    }

    /// The slow part of the attack test: runs the capture rays of `by`'s men whose types are in
    /// `mask` and looks for one that reaches `sq`.
    pub(crate) fn attacked_by_general(&self, sq: Square, by: Color, mask: u32) -> bool {
        let reach = self.variant.general_reach().map(|r| &r[by.index()]);
        self.squares_of(by).iter().any(|&from| {
            let cell = self.cell_fast(from);
            let bit = 1 << cell.id().0;
            mask & bit != 0
                && reach.is_none_or(|r| r.attackers(from, sq) & bit != 0)
                && self.general_attack_reaches(from, cell, by, sq)
        })
    }

    /// The general attack test for one man: the man `cell` of colour `by` on `from` (whatever
    /// the board holds there) attacks `sq` by a capture ray, a leg program, the palace rules
    /// or, for a type confined to a mobility region, his plain moves, inside his region.
    /// Always inlined, so that its callees are inlined into the hot attack test as if it were
    /// their only caller.
    #[inline(always)]
    pub(crate) fn general_attack_reaches(
        &self,
        from: Square,
        cell: Cell,
        by: Color,
        sq: Square,
    ) -> bool {
        let v = &self.variant;
        let palace = v.palace().is_some();
        let confined = v.attacks()[by.index()].confined & (1 << cell.id().0) != 0;
        (!v.has_regional_attacks() || self.region_allows(cell, by, sq))
            && (self.capture_ray_reaches(from, cell, by, sq)
                || self.program_captures(from, cell, by, sq)
                || palace && self.palace_attacks(from, cell, by, sq)
                || confined && self.plain_attack_reaches(from, cell, by, sq))
    }

    /// True when a conditional capture ray of the man `cell` (of colour `by`) on `from` reaches
    /// `target`, treating the target as capturable whatever stands there.
    fn capture_ray_reaches(&self, from: Square, cell: Cell, by: Color, target: Square) -> bool {
        let moves = &self.variant.pieces()[cell.id().index()].moves[by.index()];
        for ray in &moves.rays {
            if ray.mode & CAPTURE == 0 || ray.initial && !cell.is_virgin() {
                continue;
            }
            let mut s = from;
            let mut steps = 0u8;
            let mut screened = ray.hop == HopKind::None;
            loop {
                if !self.step_open(s, ray) {
                    break;
                }
                s = s.offset(ray.delta);
                steps += 1;
                let c = self.cell_fast(s);
                if c.is_off() {
                    break;
                }
                let limit = ray.max != 0 && steps >= ray.max;
                if ray.skip_first && steps == 1 {
                    if limit {
                        break;
                    }
                    continue;
                }
                if !screened {
                    if c.is_piece() || s == target {
                        let hurdles = self.variant.pieces()[cell.id().index()].hurdles;
                        if s == target || hurdles & (1 << c.id().0) == 0 {
                            break;
                        }
                        screened = true;
                        if ray.hop == HopKind::Grasshopper {
                            if s.offset(ray.delta) == target {
                                return true;
                            }
                            break;
                        }
                    }
                    if limit {
                        break;
                    }
                    continue;
                }
                if s == target {
                    return true;
                }
                if c.is_piece() || limit {
                    break;
                }
            }
        }
        false
    }

    /// The type of the man on `sq`, if any.
    pub fn piece_id_at(&self, sq: Square) -> Option<PieceId> {
        let c = self.cell_fast(sq);
        c.is_piece().then(|| c.id())
    }
}
