//! The position: the mailbox, the piece lists, the hands, the rights and counters of the game
//! state, the incremental hash, and the primitive square edits that make/unmake are built from.

use arrayvec::ArrayVec;

use crate::types::{Cell, Color, Move, Piece, PieceId, Square, MAX_PIECE_TYPES};
use crate::variant::{VariantRef, MAX_ROYALS};

/// Castling right bits: White kingside, White queenside, Black kingside, Black queenside.
pub const CASTLE_BITS: [[u8; 2]; 2] = [[1, 2], [4, 8]];

/// Everything about one castling right that does not change during the game: where king and
/// rook go, which squares must be empty and which the king crosses.
#[derive(Clone, Debug)]
pub(crate) struct CastlePath {
    pub king_from: Square,
    pub king_to: Square,
    pub rook_from: Square,
    pub rook_to: Square,
    /// Squares between the outermost of the four that must be empty (king and rook excepted).
    pub empty: ArrayVec<Square, 16>,
    /// Squares the king passes or reaches (its start excepted), which must not be attacked.
    pub safe: ArrayVec<Square, 16>,
}

/// The squares of one colour's men, with O(1) insert and remove. Unmake puts the list back in
/// the order it had before the move: moves are generated in this order, so the search must not
/// see it changed by moves that were only made to test them.
#[derive(Clone, Debug)]
pub struct PieceList {
    squares: Vec<Square>,
    index: Vec<u16>,
}

impl PieceList {
    fn new(cells: usize) -> PieceList {
        PieceList {
            squares: Vec::with_capacity(128),
            index: vec![u16::MAX; cells],
        }
    }

    #[inline(always)]
    fn add(&mut self, sq: Square) {
        self.index[sq.index()] = self.squares.len() as u16;
        self.squares.push(sq);
    }

    #[inline(always)]
    fn remove(&mut self, sq: Square) {
        let i = self.index[sq.index()] as usize;
        let last = self
            .squares
            .pop()
            .expect("piece list out of step with the board");
        if i < self.squares.len() {
            self.squares[i] = last;
            self.index[last.index()] = i as u16;
        }
    }

    /// Where `sq` stands in the list.
    #[inline(always)]
    fn place_of(&self, sq: Square) -> u16 {
        self.index[sq.index()]
    }

    /// Puts `sq` at `place`: where [`PieceList::remove`] took it from (the exact inverse of
    /// that removal, so that taking a move back leaves the list in the order it had), or at the
    /// end.
    #[inline(always)]
    fn restore(&mut self, sq: Square, place: u16) {
        let i = place as usize;
        if i == self.squares.len() {
            self.add(sq);
            return;
        }
        let moved = self.squares[i];
        self.index[moved.index()] = self.squares.len() as u16;
        self.squares.push(moved);
        self.squares[i] = sq;
        self.index[sq.index()] = place;
    }

    #[inline(always)]
    fn relocate(&mut self, from: Square, to: Square) {
        let i = self.index[from.index()];
        self.squares[i as usize] = to;
        self.index[to.index()] = i;
    }

    /// The squares, in no particular order.
    #[inline(always)]
    pub fn squares(&self) -> &[Square] {
        &self.squares
    }
}

/// The part of the game state that make/unmake saves and restores as a whole.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// The Zobrist key of the whole position.
    pub hash: u64,
    /// Castling rights (`CASTLE_BITS`).
    pub castling: u8,
    /// The square passed over by the last double step, if an e.p. capture is possible there.
    pub ep: Square,
    /// The square of the man that made that double step.
    pub ep_victim: Square,
    /// After a triple step (`tripleStepRegion*`) where both squares passed over may be taken
    /// e.p., the second one (`ep` is the first); `Square::NONE` otherwise, always when `ep` is.
    pub ep2: Square,
    /// Plies since the last capture, pawn move or drop.
    pub halfmove: u16,
    /// The part of a multi-part turn that is next (0 in ordinary variants).
    pub phase: u8,
    /// Per colour and slot, the reserve man waiting to enter (Pioneer): the file he waits
    /// behind, `RESERVE_PENDING` before it is chosen, `RESERVE_NONE` when there is none.
    pub reserves: [[u8; 2]; 2],
    /// Checks each side still has to give (n-check; unused otherwise).
    pub checks: [u8; 2],
    /// Keys of parts of the position, kept beside the full hash for tables keyed by
    /// structure (the search's correction history): [`STRUCTURE_PAWNS`], the pawn-type men
    /// of both colours, then each colour's other men on the board and in hand.
    pub structure: [u64; 3],
}

/// The slot in [`State::structure`] of the pawn-type men's key; slot `1 + colour` keys that
/// colour's other men.
pub const STRUCTURE_PAWNS: usize = 0;

/// A reserve slot whose file is still to be chosen.
pub const RESERVE_PENDING: u8 = 0xFE;
/// An empty reserve slot (none, entered, or forfeited).
pub const RESERVE_NONE: u8 = 0xFF;

/// One reversible edit of the board or the hands, recorded so unmake can undo it.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Change {
    /// A man (cell) was put on an empty square.
    Put(Square, Cell),
    /// The man (cell) on a square was taken off, from this place in his colour's piece list.
    Took(Square, Cell, u16),
    /// The man on `from` went to the empty `to`; `from` held the old cell, `to` holds the new.
    Shifted(Square, Square, Cell, Cell),
    /// One man of a coloured type (cell index) went into the hand.
    HandAdd(Color, PieceId),
    /// One man of a coloured type left the hand.
    HandSub(Color, PieceId),
    /// The promoted mark of a square changed; it was this before.
    Mark(Square, bool),
    /// A castling square changed (0-3: the rook of that right, 4-5: the king of that
    /// colour); it was this before (a king or rook dropped on his square, `board::hands`).
    CastleSquare(u8, Square),
    /// A wall was put on (true) or taken off (false) a square.
    Wall(Square, bool),
    /// The counting rule's limit and count were these (`board::makruk`).
    Count([u16; 2]),
}

/// What unmake needs to take a move back.
#[derive(Clone, Debug)]
pub(crate) struct Undo {
    pub mv: Move,
    pub state: State,
    /// The length of the position's journal of edits before this move.
    pub journal_len: u32,
    /// The side that made the move (with turns of several parts, the side to move does not
    /// always change).
    pub side: Color,
}

/// A game position of some variant.
#[derive(Clone, Debug)]
pub struct Position {
    pub(crate) variant: VariantRef,
    pub(crate) board: Vec<Cell>,
    pub(crate) lists: [PieceList; 2],
    pub(crate) counts: [[u8; MAX_PIECE_TYPES]; 2],
    pub(crate) hands: [[u8; MAX_PIECE_TYPES]; 2],
    pub(crate) royal_count: [u8; 2],
    pub(crate) royal_sq: [Square; 2],
    pub(crate) side: Color,
    pub(crate) st: State,
    pub(crate) fullmove: u32,
    /// Rook origin per castling right (index as the bit number), king origin per colour.
    pub(crate) castle_rook: [Square; 4],
    pub(crate) castle_king: [Square; 2],
    /// Castling bits lost when a move starts or ends on the square.
    pub(crate) rights_mask: Vec<u8>,
    /// The path of each castling right (index as the bit number).
    pub(crate) castle_paths: [Option<CastlePath>; 4],
    pub(crate) history: Vec<Undo>,
    /// Every edit made by the moves on the undo stack, oldest first.
    pub(crate) journal: Vec<Change>,
    /// Per cell, a promoted man who demotes when captured (FEN `~`); empty in variants that
    /// do not mark promoted men (`board::hands`).
    pub(crate) promoted: Vec<bool>,
    /// The counting rule's limit in plies (0 while no count runs) and the plies counted
    /// (`countingRule`, `board::makruk`); kept out of [`State`], which every move copies, and
    /// taken back through the journal.
    pub(crate) count: [u16; 2],
}

impl Position {
    /// An empty board of `variant`, White to move, no rights.
    pub fn empty(variant: &VariantRef) -> Position {
        let cells = variant.geometry().num_cells();
        Position {
            variant: variant.clone(),
            board: variant.empty_board().to_vec(),
            lists: [PieceList::new(cells), PieceList::new(cells)],
            counts: [[0; MAX_PIECE_TYPES]; 2],
            hands: [[0; MAX_PIECE_TYPES]; 2],
            royal_count: [0; 2],
            royal_sq: [Square::NONE; 2],
            side: Color::White,
            st: State {
                hash: 0,
                castling: 0,
                ep: Square::NONE,
                ep_victim: Square::NONE,
                ep2: Square::NONE,
                halfmove: 0,
                phase: 0,
                reserves: [[RESERVE_NONE; 2]; 2],
                checks: [0; 2],
                structure: [0; 3],
            },
            count: [0; 2],
            fullmove: 1,
            castle_rook: [Square::NONE; 4],
            castle_king: [Square::NONE; 2],
            rights_mask: vec![0; cells],
            castle_paths: [None, None, None, None],
            history: Vec::with_capacity(256),
            journal: Vec::with_capacity(1024),
            promoted: if variant.hands().marks_promoted {
                vec![false; cells]
            } else {
                Vec::new()
            },
        }
    }

    /// The variant this position belongs to.
    #[inline(always)]
    pub fn variant(&self) -> &VariantRef {
        &self.variant
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The cell at `sq`.
    #[inline(always)]
    pub fn cell(&self, sq: Square) -> Cell {
        self.board.get(sq.index()).copied().unwrap_or(Cell::OFF)
    }

    /// The cell at `sq`, without a bounds check: for the move generator, which only looks at
    /// real squares and at squares one atom (at most 3 files and 3 ranks) away from a real
    /// square, all of which lie inside the padded array by construction of [`Geometry`].
    ///
    /// [`Geometry`]: crate::types::Geometry
    #[inline(always)]
    pub(crate) fn cell_fast(&self, sq: Square) -> Cell {
        debug_assert!(sq.index() < self.board.len(), "square outside the mailbox");
        // SAFETY: callers pass a real square or a square at most one atom away from a real
        // square; the geometry pads every board with PAD >= 3 border cells on every side (the
        // border rows, plus the extra bottom row for leftward wraps), so the index is in bounds.
        unsafe { *self.board.get_unchecked(sq.index()) }
    }

    /// The man on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()].piece()
    }

    /// The squares of `color`'s men.
    #[inline(always)]
    pub fn squares_of(&self, color: Color) -> &[Square] {
        self.lists[color.index()].squares()
    }

    /// How many men of a type `color` has on the board.
    #[inline(always)]
    pub fn count(&self, color: Color, id: PieceId) -> u8 {
        self.counts[color.index()][id.index()]
    }

    /// How many men of `id`'s kind (his type with the promoted types that move as it, see
    /// [`crate::variant::shogi::ShogiRules::kind`]) `color` has on the board.
    pub fn count_kind(&self, color: Color, id: PieceId) -> u32 {
        let kind = self.variant.shogi().kind(id);
        if kind == 1 << id.0 {
            return u32::from(self.count(color, id));
        }
        (0..self.variant.num_pieces())
            .filter(|&i| kind & (1 << i) != 0)
            .map(|i| u32::from(self.counts[color.index()][i]))
            .sum()
    }

    /// How many men of a type `color` holds in hand.
    #[inline(always)]
    pub fn in_hand(&self, color: Color, id: PieceId) -> u8 {
        self.hands[color.index()][id.index()]
    }

    /// The Zobrist key.
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.st.hash
    }

    /// Castling rights bits.
    pub fn castling_rights(&self) -> u8 {
        self.st.castling
    }

    /// The e.p. square (passed over), if any.
    pub fn ep_square(&self) -> Option<Square> {
        (self.st.ep != Square::NONE).then_some(self.st.ep)
    }

    /// Plies since the last irreversible move.
    pub fn halfmove_clock(&self) -> u16 {
        self.st.halfmove
    }

    /// The move number (starts at 1, goes up after Black's move).
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// The number of moves made since the position was set up.
    pub fn game_ply(&self) -> usize {
        self.history.len()
    }

    /// The moves made since the position was set up, oldest first.
    pub fn moves_played(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|u| u.mv)
    }

    /// The square of `color`'s royal man when it has exactly one; `None` otherwise.
    #[inline(always)]
    pub fn royal_square(&self, color: Color) -> Option<Square> {
        (self.royal_count[color.index()] == 1).then_some(self.royal_sq[color.index()])
    }

    /// The squares of all of `color`'s royal men.
    pub fn royal_squares(&self, color: Color) -> ArrayVec<Square, MAX_ROYALS> {
        let mut out = ArrayVec::new();
        if self.royal_count[color.index()] == 1 {
            out.push(self.royal_sq[color.index()]);
        } else if self.royal_count[color.index()] > 1 {
            for &sq in self.squares_of(color) {
                if self.variant.is_royal(self.cell(sq).id()) && !out.is_full() {
                    out.push(sq);
                }
            }
        }
        out
    }

    /// The square where `color`'s reserve man waiting behind `file` enters: that file's square
    /// on `color`'s first rank.
    pub fn reserve_square(&self, color: Color, file: u8) -> Square {
        let g = &self.variant.geometry();
        let rank = if color == Color::White {
            0
        } else {
            g.ranks as usize - 1
        };
        g.square(0, file as usize, rank)
    }

    /// The reserve man of the side to move who enters on `sq` when the man standing there
    /// leaves it (the square of a file a reserve man waits behind), if any.
    #[inline]
    pub(crate) fn man_entering_on(&self, sq: Square) -> Option<Cell> {
        let rules = self.variant.reserve()?;
        let us = self.side;
        self.st.reserves[us.index()]
            .iter()
            .any(|&file| file < RESERVE_PENDING && self.reserve_square(us, file) == sq)
            .then(|| {
                Cell::new(
                    Piece {
                        color: us,
                        id: rules.piece,
                    },
                    false,
                )
            })
    }

    /// Sets a reserve slot, keeping the hash in step.
    pub(crate) fn set_reserve(&mut self, color: Color, slot: usize, value: u8) {
        let z = &self.variant.zobrist();
        let old = self.st.reserves[color.index()][slot];
        self.st.hash ^= z.reserve(color.index(), slot, old) ^ z.reserve(color.index(), slot, value);
        self.st.reserves[color.index()][slot] = value;
    }

    /// How many reserve men `color` still has waiting (their file chosen or not): each will
    /// enter the game unless forfeited.
    pub fn reserves_waiting(&self, color: Color) -> usize {
        self.st.reserves[color.index()]
            .iter()
            .filter(|&&r| r != RESERVE_NONE)
            .count()
    }

    /// True when `color` still has to choose where its reserve men wait.
    #[inline]
    pub fn reserve_pending(&self, color: Color) -> bool {
        self.st.reserves[color.index()].contains(&RESERVE_PENDING)
    }

    /// The number of `color`'s royal men on the board.
    pub fn royal_count(&self, color: Color) -> u8 {
        self.royal_count[color.index()]
    }

    fn hash_cell(&self, sq: Square, cell: Cell) -> u64 {
        self.variant.zobrist().piece(cell, sq) ^ self.virgin_key(sq, cell)
    }

    /// The key of the never-moved mark of the man in `cell` on `sq`, where his type keys it.
    #[inline(always)]
    fn virgin_key(&self, sq: Square, cell: Cell) -> u64 {
        if cell.0 & Cell::VIRGIN != 0 && self.variant.virgin_keyed() & (1 << cell.id().0) != 0 {
            self.variant.zobrist().virgin(sq)
        } else {
            0
        }
    }

    /// The slot of [`State::structure`] that keys the man in `cell`.
    #[inline(always)]
    fn structure_slot(&self, cell: Cell) -> usize {
        let color = cell.color().unwrap_or(Color::White);
        if self.variant.pawn_like(color) & (1 << cell.id().index()) != 0 {
            STRUCTURE_PAWNS
        } else {
            1 + color.index()
        }
    }

    /// Adds the man in `cell` on `sq` to the hash and the structure keys, or takes him out.
    #[inline(always)]
    fn key_cell(&mut self, sq: Square, cell: Cell) {
        let k = self.variant.zobrist().piece(cell, sq);
        let slot = self.structure_slot(cell);
        self.st.hash ^= k ^ self.virgin_key(sq, cell);
        self.st.structure[slot] ^= k;
    }

    /// The structure keys ([`State::structure`]).
    #[inline(always)]
    pub fn structure_keys(&self) -> [u64; 3] {
        self.st.structure
    }

    /// True when a never-moved man on `sq` holds a gating right there (gating variants).
    pub(crate) fn virgin_is_gate_right(&self, sq: Square, cell: Cell) -> bool {
        match (&self.variant.gating(), cell.color()) {
            (Some(g), Some(c)) => {
                g.openers & (1 << cell.id().0) != 0
                    && self.variant.geometry().relative_rank(sq, c) == g.rank
            }
            _ => false,
        }
    }

    fn track_royal_add(&mut self, sq: Square, cell: Cell) {
        if self.variant.is_royal(cell.id()) {
            let c = cell.color().map_or(0, |c| c.index());
            self.royal_count[c] += 1;
            self.royal_sq[c] = sq;
        }
    }

    fn track_royal_remove(&mut self, cell: Cell) {
        if self.variant.is_royal(cell.id()) {
            let c = cell.color().map_or(0, |c| c.index());
            self.royal_count[c] -= 1;
            if self.royal_count[c] == 1 {
                let color = cell.color().unwrap_or(Color::White);
                self.royal_sq[c] = self.royal_squares_slow(color);
            }
        }
    }

    fn royal_squares_slow(&self, color: Color) -> Square {
        self.squares_of(color)
            .iter()
            .copied()
            .find(|&s| self.variant.is_royal(self.cell(s).id()))
            .unwrap_or(Square::NONE)
    }

    /// Puts `cell` on the empty square `sq` (last in its colour's piece list).
    #[inline(always)]
    pub(crate) fn put(&mut self, sq: Square, cell: Cell) {
        let color = cell.color().unwrap_or(Color::White);
        let end = self.lists[color.index()].squares.len() as u16;
        self.put_back(sq, cell, end);
        self.key_cell(sq, cell);
    }

    /// Puts a wall on the empty square `sq` (true) or takes the wall there off (false),
    /// keeping the hash in step.
    pub(crate) fn set_wall(&mut self, sq: Square, on: bool) {
        self.board[sq.index()] = if on { Cell::WALL } else { Cell::EMPTY };
        self.st.hash ^= self.variant.zobrist().wall(sq);
    }

    /// True when a wall stands on `sq`.
    #[inline]
    pub fn is_wall(&self, sq: Square) -> bool {
        self.cell(sq) == Cell::WALL && self.variant.geometry().contains(sq)
    }

    /// Where the man on `sq` stands in his colour's piece list.
    #[inline(always)]
    pub(crate) fn list_place(&self, sq: Square) -> u16 {
        let color = self.board[sq.index()].color().unwrap_or(Color::White);
        self.lists[color.index()].place_of(sq)
    }

    /// Puts `cell` on the empty square `sq` at `place` of its colour's piece list, without
    /// touching the hash (unmake restores the saved hash).
    #[inline(always)]
    pub(crate) fn put_back(&mut self, sq: Square, cell: Cell, place: u16) {
        debug_assert!(self.board[sq.index()].is_empty() && cell.is_piece());
        let color = cell.color().unwrap_or(Color::White);
        self.board[sq.index()] = cell;
        self.lists[color.index()].restore(sq, place);
        self.counts[color.index()][cell.id().index()] += 1;
        self.track_royal_add(sq, cell);
    }

    /// Takes the man off `sq` and returns his cell.
    #[inline(always)]
    pub(crate) fn take(&mut self, sq: Square) -> Cell {
        self.take_hashed::<true>(sq)
    }

    /// [`Position::take`], updating the hash only when `HASH`.
    #[inline(always)]
    pub(crate) fn take_hashed<const HASH: bool>(&mut self, sq: Square) -> Cell {
        let cell = self.board[sq.index()];
        debug_assert!(cell.is_piece());
        let color = cell.color().unwrap_or(Color::White);
        self.board[sq.index()] = Cell::EMPTY;
        self.lists[color.index()].remove(sq);
        self.counts[color.index()][cell.id().index()] -= 1;
        if HASH {
            self.key_cell(sq, cell);
        }
        self.track_royal_remove(cell);
        cell
    }

    /// Moves the man on `from` to the empty `to`, where he becomes `new_cell` (same colour;
    /// the type may change by promotion). `to` may be `from`: a promotion in place.
    #[inline(always)]
    pub(crate) fn shift(&mut self, from: Square, to: Square, new_cell: Cell) {
        self.shift_hashed::<true>(from, to, new_cell);
    }

    /// [`Position::shift`], updating the hash only when `HASH`.
    #[inline(always)]
    pub(crate) fn shift_hashed<const HASH: bool>(
        &mut self,
        from: Square,
        to: Square,
        new_cell: Cell,
    ) {
        let old = self.board[from.index()];
        debug_assert!(old.is_piece() && (self.board[to.index()].is_empty() || from == to));
        let color = old.color().unwrap_or(Color::White);
        self.board[from.index()] = Cell::EMPTY;
        self.board[to.index()] = new_cell;
        self.lists[color.index()].relocate(from, to);
        if HASH {
            self.key_cell(from, old);
            self.key_cell(to, new_cell);
        }
        if old.id() != new_cell.id() {
            self.counts[color.index()][old.id().index()] -= 1;
            self.counts[color.index()][new_cell.id().index()] += 1;
            if self.variant.is_royal(old.id()) || self.variant.is_royal(new_cell.id()) {
                self.track_royal_remove(old);
                self.track_royal_add(to, new_cell);
            }
        } else if self.variant.is_royal(old.id()) && self.royal_sq[color.index()] == from {
            self.royal_sq[color.index()] = to;
        }
    }

    /// Adds one man of type `id` to `color`'s hand.
    pub(crate) fn hand_add(&mut self, color: Color, id: PieceId) {
        let ci = Cell::new(Piece { color, id }, false).colored_index();
        let n = &mut self.hands[color.index()][id.index()];
        let z = self.variant.zobrist();
        let change = z.hand(ci, *n) ^ z.hand(ci, *n + 1);
        *n += 1;
        self.st.hash ^= change;
        self.st.structure[1 + color.index()] ^= change;
    }

    /// Removes one man of type `id` from `color`'s hand.
    pub(crate) fn hand_sub(&mut self, color: Color, id: PieceId) {
        let ci = Cell::new(Piece { color, id }, false).colored_index();
        let n = &mut self.hands[color.index()][id.index()];
        debug_assert!(*n > 0);
        let z = self.variant.zobrist();
        let change = z.hand(ci, *n) ^ z.hand(ci, *n - 1);
        *n -= 1;
        self.st.hash ^= change;
        self.st.structure[1 + color.index()] ^= change;
    }

    /// The key of `color`'s hand, from scratch.
    fn hand_key(&self, color: Color) -> u64 {
        let z = &self.variant.zobrist();
        (0..self.variant.num_pieces())
            .map(|id| {
                let id = PieceId(id as u8);
                let ci = Cell::new(Piece { color, id }, false).colored_index();
                z.hand(ci, self.hands[color.index()][id.index()])
            })
            .fold(0, |h, k| h ^ k)
    }

    /// The structure keys computed from scratch (tests compare them with the incremental
    /// ones).
    pub fn compute_structure_keys(&self) -> [u64; 3] {
        let z = &self.variant.zobrist();
        let mut keys = [0; 3];
        for sq in self.variant.geometry().squares() {
            let c = self.cell(sq);
            if c.is_piece() {
                keys[self.structure_slot(c)] ^= z.piece(c, sq);
            }
        }
        for color in Color::ALL {
            keys[1 + color.index()] ^= self.hand_key(color);
        }
        keys
    }

    /// The hash computed from scratch (tests compare it with the incremental one).
    pub fn compute_hash(&self) -> u64 {
        let z = &self.variant.zobrist();
        let mut h = 0;
        for sq in self.variant.geometry().squares() {
            let c = self.cell(sq);
            if c.is_piece() {
                h ^= self.hash_cell(sq, c);
            } else if c == Cell::WALL {
                h ^= z.wall(sq);
            }
        }
        for color in Color::ALL {
            h ^= self.hand_key(color);
        }
        if self.side == Color::Black {
            h ^= z.side;
        }
        h ^= z.castling(self.st.castling);
        if self.st.ep != Square::NONE {
            h ^= z.ep(self.st.ep) ^ z.ep(self.st.ep_victim);
        }
        if self.st.ep2 != Square::NONE {
            h ^= z.ep(self.st.ep2);
        }
        for color in Color::ALL {
            for (slot, &r) in self.st.reserves[color.index()].iter().enumerate() {
                h ^= z.reserve(color.index(), slot, r);
            }
        }
        h ^ z.phase(self.st.phase) ^ self.hands_hash()
    }

    /// Checks the internal invariants (piece lists, counts, royal tracking, hash) against the
    /// board; returns a description of the first inconsistency.
    pub fn validate(&self) -> Result<(), String> {
        let g = &self.variant.geometry();
        let mut counts = [[0u8; MAX_PIECE_TYPES]; 2];
        let mut listed = 0;
        for sq in g.squares() {
            let c = self.cell(sq);
            if c == Cell::WALL && !self.variant.fen_walls() && self.variant.walls().is_none() {
                return Err(format!(
                    "a wall on {} in a variant without walls",
                    g.name(sq)
                ));
            }
            if c.is_off() && c != Cell::WALL {
                return Err(format!("border cell on real square {}", g.name(sq)));
            }
            if let Some(color) = c.color() {
                counts[color.index()][c.id().index()] += 1;
                let i = self.lists[color.index()].index[sq.index()] as usize;
                if self.lists[color.index()].squares.get(i) != Some(&sq) {
                    return Err(format!("{} missing from the piece list", g.name(sq)));
                }
                listed += 1;
            }
        }
        if listed != self.lists[0].squares.len() + self.lists[1].squares.len() {
            return Err("piece lists hold stale squares".into());
        }
        if counts != self.counts {
            return Err("piece counts out of step".into());
        }
        for color in Color::ALL {
            let royals: Vec<Square> = self
                .squares_of(color)
                .iter()
                .copied()
                .filter(|&s| self.variant.is_royal(self.cell(s).id()))
                .collect();
            if royals.len() != self.royal_count[color.index()] as usize {
                return Err(format!("{color} royal count out of step"));
            }
            if royals.len() == 1 && royals[0] != self.royal_sq[color.index()] {
                return Err(format!("{color} royal square out of step"));
            }
        }
        if self.compute_hash() != self.st.hash {
            return Err("incremental hash differs from recomputation".into());
        }
        if self.compute_structure_keys() != self.st.structure {
            return Err("incremental structure keys differ from recomputation".into());
        }
        Ok(())
    }

    /// Recomputes the castling masks and paths from the castling squares.
    pub(crate) fn rebuild_castling(&mut self) {
        self.rights_mask.iter_mut().for_each(|m| *m = 0);
        self.castle_paths = [None, None, None, None];
        let Some(rules) = self.variant.castling() else {
            return;
        };
        let g = self.variant.geometry().clone();
        for color in Color::ALL {
            let king = self.castle_king[color.index()];
            for (side, bit) in CASTLE_BITS[color.index()].iter().copied().enumerate() {
                let index = bit.trailing_zeros() as usize;
                let rook = self.castle_rook[index];
                if rook == Square::NONE || king == Square::NONE {
                    continue;
                }
                self.rights_mask[rook.index()] |= bit;
                self.rights_mask[king.index()] |= bit;
                let (board, king_file, rank) = g.coords(king);
                let to_file = if side == 0 {
                    rules.kingside_file
                } else {
                    rules.queenside_file
                };
                let rook_to_file = if side == 0 {
                    to_file.wrapping_sub(1)
                } else {
                    to_file + 1
                };
                if rook_to_file >= g.files as usize {
                    continue;
                }
                let rook_file = g.file_of(rook);
                let files = [king_file, rook_file, to_file, rook_to_file];
                let (lo, hi) = (
                    files.iter().min().copied().unwrap_or(0),
                    files.iter().max().copied().unwrap_or(0),
                );
                let mut path = CastlePath {
                    king_from: king,
                    king_to: g.square(board, to_file, rank),
                    rook_from: rook,
                    rook_to: g.square(board, rook_to_file, rank),
                    empty: ArrayVec::new(),
                    safe: ArrayVec::new(),
                };
                for f in lo..=hi {
                    let s = g.square(board, f, rank);
                    if s != king && s != rook {
                        path.empty.push(s);
                    }
                }
                for f in king_file.min(to_file)..=king_file.max(to_file) {
                    let s = g.square(board, f, rank);
                    if s != king {
                        path.safe.push(s);
                    }
                }
                self.castle_paths[index] = Some(path);
            }
        }
    }

    /// True when both positions hold the same game state (board, hands, side, rights,
    /// counters). Piece-list order and move history are not compared.
    pub fn same_state(&self, other: &Position) -> bool {
        self.board == other.board
            && self.hands == other.hands
            && self.side == other.side
            && self.st == other.st
            && self.fullmove == other.fullmove
            && self.counts == other.counts
            && self.royal_count == other.royal_count
            && self.promoted == other.promoted
    }
}
