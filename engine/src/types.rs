//! The vocabulary every layer shares: colours, squares, board geometry, piece identities,
//! board cells and moves. Kept at the bottom of the crate so that no dependency runs upwards.

use std::fmt;

/// The two players. Black is the second player in every variant (Blue in Alice Guard).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The first player.
    White = 0,
    /// The second player.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];
    /// The number of colours.
    pub const NUM: usize = 2;

    /// The other player.
    #[inline(always)]
    pub fn opposite(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline(always)]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The colour bit this player's men carry in a board [`Cell`].
    #[inline(always)]
    pub fn cell_bit(self) -> u8 {
        Cell::WHITE_BIT << (self as u8)
    }

    /// `'w'` or `'b'`, as FEN writes the side to move.
    pub fn fen_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

/// The eight directions of a king's step as (files, ranks): the four orthogonal ones first,
/// then the diagonals (rules that look at orthogonal neighbours only take the first four).
pub const KING_STEPS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// The size of per-piece-type tables; a variant may define up to 31 types (ids 0..30), since
/// id 31 marks the border.
pub const MAX_PIECE_TYPES: usize = 32;

/// A piece type: an index into the variant's piece table. Pieces are data, not an enum.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceId(pub u8);

impl PieceId {
    /// The index into per-piece tables.
    #[inline(always)]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A man of one colour and one type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its owner.
    pub color: Color,
    /// Its type in the variant's piece table.
    pub id: PieceId,
}

/// The content of one mailbox cell, packed in a byte.
///
/// ```text
///  bit 7    bit 6    bit 5     bits 4..0
///  black    white    virgin    piece id (0..31)
/// ```
/// `0` is an empty square; a value with both colour bits is off the board. Off-board cells
/// look like a man of either side to the bit tests of the move generator ("not own and not
/// empty" is an enemy; "own" stops every move), so border checks cost nothing; their id, 31,
/// is never a real piece type.
/// The virgin bit marks a man that has never moved (initial moves, castling partners,
/// gating squares); it travels with the man and is lost when he first moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Cell(pub u8);

impl Cell {
    /// An empty square.
    pub const EMPTY: Cell = Cell(0);
    /// A square of the border around the board(s).
    pub const OFF: Cell = Cell(0xDF);
    /// A wall on the board (Fairy-Stockfish's `*`): to moves it is a border square, which no
    /// man enters or passes.
    pub const WALL: Cell = Cell(0xDE);
    /// The colour bit of White's men.
    pub const WHITE_BIT: u8 = 0x40;
    /// The colour bit of Black's men.
    pub const BLACK_BIT: u8 = 0x80;
    /// Both colour bits.
    pub const COLOR_BITS: u8 = 0xC0;
    /// The never-moved flag.
    pub const VIRGIN: u8 = 0x20;
    /// The piece id bits.
    pub const ID_MASK: u8 = 0x1F;

    /// A cell holding `piece`, virgin or not.
    #[inline(always)]
    pub fn new(piece: Piece, virgin: bool) -> Cell {
        Cell(piece.color.cell_bit() | piece.id.0 | if virgin { Cell::VIRGIN } else { 0 })
    }

    /// True for an empty square.
    #[inline(always)]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True for a square holding a man of either colour.
    #[inline(always)]
    pub fn is_piece(self) -> bool {
        let bits = self.0 & Cell::COLOR_BITS;
        bits != 0 && bits != Cell::COLOR_BITS
    }

    /// True for a border square.
    #[inline(always)]
    pub fn is_off(self) -> bool {
        self.0 & Cell::COLOR_BITS == Cell::COLOR_BITS
    }

    /// True when the cell holds a man of colour `c`.
    #[inline(always)]
    pub fn is_color(self, c: Color) -> bool {
        self.0 & Cell::COLOR_BITS == c.cell_bit()
    }

    /// The owner of the man here; `None` for empty or border squares.
    #[inline(always)]
    pub fn color(self) -> Option<Color> {
        match self.0 & Cell::COLOR_BITS {
            Cell::WHITE_BIT => Some(Color::White),
            Cell::BLACK_BIT => Some(Color::Black),
            _ => None,
        }
    }

    /// The piece type here (meaningful only when [`Cell::is_piece`]).
    #[inline(always)]
    pub fn id(self) -> PieceId {
        PieceId(self.0 & Cell::ID_MASK)
    }

    /// The man here, if any.
    #[inline(always)]
    pub fn piece(self) -> Option<Piece> {
        self.color().map(|color| Piece {
            color,
            id: self.id(),
        })
    }

    /// True when the man here has never moved.
    #[inline(always)]
    pub fn is_virgin(self) -> bool {
        self.0 & Cell::VIRGIN != 0 && self.is_piece()
    }

    /// The same man, marked as having moved.
    #[inline(always)]
    pub fn moved(self) -> Cell {
        Cell(self.0 & !Cell::VIRGIN)
    }

    /// Index 0..64 of (colour, id), for tables keyed by coloured piece.
    #[inline(always)]
    pub fn colored_index(self) -> usize {
        ((self.0 >> 7) as usize) * MAX_PIECE_TYPES + (self.0 & Cell::ID_MASK) as usize
    }
}

/// An index into the padded mailbox of a [`Geometry`]. Several boards share one array.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Square(pub u16);

impl Square {
    /// A placeholder for "no square".
    pub const NONE: Square = Square(u16::MAX);

    /// The index into the mailbox array.
    #[inline(always)]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The square `delta` cells away in the padded array.
    #[inline(always)]
    pub fn offset(self, delta: i16) -> Square {
        Square(self.0.wrapping_add(delta as u16))
    }
}

/// The padding around each board: wide enough for the longest single atom, (3,3).
pub const PAD: usize = 3;

/// The largest board side.
pub const MAX_BOARD_SIDE: usize = 16;

/// The largest number of boards in one game.
pub const MAX_BOARDS: usize = 3;

/// The shape of the playing area: `boards` boards of `files` x `ranks` squares each, laid out in
/// one padded mailbox array. Rows are `files + PAD` cells wide (the padding at the end of one
/// row also guards the start of the next); boards are stacked with `PAD` border rows between
/// them and around them, plus one extra row at the bottom for leftward leaps that wrap.
///
/// For names and FEN the boards are shown side by side as one wide board: board `b`, file `f`
/// is written as file `b * files + f`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Files per board.
    pub files: u8,
    /// Ranks per board.
    pub ranks: u8,
    /// Number of boards.
    pub boards: u8,
}

impl Geometry {
    /// A geometry, or an error when a dimension is out of range.
    pub fn new(files: u8, ranks: u8, boards: u8) -> Result<Geometry, String> {
        if !(1..=MAX_BOARD_SIDE as u8).contains(&files)
            || !(1..=MAX_BOARD_SIDE as u8).contains(&ranks)
        {
            return Err(format!("board size {files}x{ranks} is outside 1x1..16x16"));
        }
        if !(1..=MAX_BOARDS as u8).contains(&boards) {
            return Err(format!(
                "{boards} boards: between 1 and {MAX_BOARDS} are supported"
            ));
        }
        if files as usize * boards as usize > 26 {
            return Err(format!(
                "{boards} boards of {files} files need more than 26 file letters"
            ));
        }
        Ok(Geometry {
            files,
            ranks,
            boards,
        })
    }

    /// Cells per row of the padded array.
    #[inline(always)]
    pub fn stride(&self) -> usize {
        self.files as usize + PAD
    }

    /// The first row of board `b` in the padded array.
    #[inline(always)]
    fn first_row(&self, board: usize) -> usize {
        PAD + 1 + board * (self.ranks as usize + PAD)
    }

    /// Total cells of the padded array.
    pub fn num_cells(&self) -> usize {
        (self.first_row(self.boards as usize) + PAD) * self.stride()
    }

    /// Number of real squares on all boards.
    pub fn num_squares(&self) -> usize {
        self.files as usize * self.ranks as usize * self.boards as usize
    }

    /// Files of the wide display board (all boards side by side).
    pub fn display_files(&self) -> usize {
        self.files as usize * self.boards as usize
    }

    /// The square at (board, file, rank), all 0-based.
    #[inline(always)]
    pub fn square(&self, board: usize, file: usize, rank: usize) -> Square {
        Square(((self.first_row(board) + rank) * self.stride() + file) as u16)
    }

    /// The (board, file, rank) of a real square.
    pub fn coords(&self, sq: Square) -> (usize, usize, usize) {
        let row = sq.index() / self.stride();
        let file = sq.index() % self.stride();
        let rel = row - (PAD + 1);
        let band = self.ranks as usize + PAD;
        (rel / band, file, rel % band)
    }

    /// True when `sq` is a real square of one of the boards.
    pub fn contains(&self, sq: Square) -> bool {
        let i = sq.index();
        if i >= self.num_cells() {
            return false;
        }
        let row = i / self.stride();
        let file = i % self.stride();
        if file >= self.files as usize || row < PAD + 1 {
            return false;
        }
        let rel = row - (PAD + 1);
        let band = self.ranks as usize + PAD;
        rel / band < self.boards as usize && rel % band < self.ranks as usize
    }

    /// The file index (0-based, per board) of a real square.
    #[inline(always)]
    pub fn file_of(&self, sq: Square) -> usize {
        sq.index() % self.stride()
    }

    /// The rank index (0-based) of a real square.
    #[inline(always)]
    pub fn rank_of(&self, sq: Square) -> usize {
        self.coords(sq).2
    }

    /// The board index of a real square.
    #[inline(always)]
    pub fn board_of(&self, sq: Square) -> usize {
        self.coords(sq).0
    }

    /// The square with the same file and rank as `sq` on board `to_board`; `sq` is on
    /// `from_board`. Boards are a fixed number of cells apart, so this is one addition.
    #[inline(always)]
    pub fn same_square_on(&self, sq: Square, from_board: usize, to_board: usize) -> Square {
        let band = ((self.ranks as usize + PAD) * self.stride()) as i32;
        Square((sq.0 as i32 + (to_board as i32 - from_board as i32) * band) as u16)
    }

    /// The rank counted from `color`'s side (0 = its first rank).
    pub fn relative_rank(&self, sq: Square, color: Color) -> usize {
        let r = self.rank_of(sq);
        match color {
            Color::White => r,
            Color::Black => self.ranks as usize - 1 - r,
        }
    }

    /// The array offset of a leap of `dx` files and `dy` ranks (White's point of view).
    #[inline(always)]
    pub fn delta(&self, dx: i32, dy: i32) -> i16 {
        (dy * self.stride() as i32 + dx) as i16
    }

    /// Every real square, board by board, rank by rank from rank 1, file a first.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.boards as usize).flat_map(move |b| {
            (0..self.ranks as usize)
                .flat_map(move |r| (0..self.files as usize).map(move |f| self.square(b, f, r)))
        })
    }

    /// The display file (on the wide board) of a real square.
    pub fn display_file(&self, sq: Square) -> usize {
        let (b, f, _) = self.coords(sq);
        b * self.files as usize + f
    }

    /// The square at a display file (on the wide board) and rank.
    pub fn display_square(&self, display_file: usize, rank: usize) -> Option<Square> {
        if display_file >= self.display_files() || rank >= self.ranks as usize {
            return None;
        }
        let files = self.files as usize;
        Some(self.square(display_file / files, display_file % files, rank))
    }

    /// The square's name: display file letter and 1-based rank (`a1`, `p16`).
    pub fn name(&self, sq: Square) -> String {
        if !self.contains(sq) {
            return "??".to_string();
        }
        let f = self.display_file(sq);
        format!("{}{}", (b'a' + f as u8) as char, self.rank_of(sq) + 1)
    }

    /// Parses a square name (`e4`, `j10`); `None` when it names no square of this geometry.
    pub fn parse_square(&self, text: &str) -> Option<Square> {
        let (file, rank) = split_square(text)?;
        self.display_square(file, rank)
    }
}

/// Splits a square name into a 0-based display file and a 0-based rank, without a geometry.
pub fn split_square(text: &str) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    if bytes.len() < 2 || !bytes[0].is_ascii_lowercase() {
        return None;
    }
    let file = (bytes[0] - b'a') as usize;
    let digits = &text[1..];
    if digits.is_empty()
        || digits.len() > 2
        || !digits.bytes().all(|b| b.is_ascii_digit())
        || digits.starts_with('0')
    {
        return None;
    }
    let rank: usize = digits.parse().ok()?;
    Some((file, rank - 1))
}

/// What a move does besides carrying a man from `from` to `to`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MoveKind {
    /// A plain move or capture; `piece` holds the promotion type, if any.
    Normal,
    /// A lame leap that leaves an en passant square behind: `aux` is the square passed over.
    DoubleStep,
    /// An en passant capture: `aux` is the square of the captured man.
    EnPassant,
    /// Castling: `from`/`to` are the king's squares, `aux` the castling rook's square.
    Castle,
    /// Castling that also gates `piece` onto the king's vacated square.
    CastleGateKing,
    /// Castling that also gates `piece` onto the rook's vacated square (`aux`).
    CastleGateRook,
    /// A move that gates `piece` from the hand onto the vacated square `aux` (= `from`).
    Gate,
    /// A double step that also gates `piece` onto `from`; `aux` is the square passed over.
    DoubleStepGate,
    /// A man put onto `to` from the hand: `piece` is its type, `from` equals `to`.
    Drop,
    /// A pass: nothing moves (`from` = `to` names a man whose move returns him home).
    Pass,
    /// A locust capture: the man on `aux` is captured on the way, then the mover goes on to
    /// `to` (capturing there too if it is occupied). `to` may equal `from` (a rifle capture).
    Locust,
    /// A capture of every enemy man strictly between `from` and `to` on their line, and of the
    /// man on `to` if any (a rider that runs over its victims).
    Sweep,
    /// The mover and the friendly man on `to` exchange places.
    Swap,
    /// The choice of the files the reserve men wait behind: `from` and `to` are the chosen
    /// files' first-rank squares (equal with one reserve man); `piece` is the reserve type.
    Place,
    /// A move between boards (Alice): the man moves on his own board from `from` to `aux`,
    /// capturing a man there if any, then goes to `to`, the same square on another board;
    /// `piece` holds the promotion type, if any.
    Transfer,
    /// A plain move (`piece`: promotion) that then puts a wall on `aux` (`wallingRule`).
    Walled,
    /// A double step that puts a wall on `aux`; the square passed over is midway.
    WalledDoubleStep,
    /// An en passant capture that puts a wall on `aux`; the victim is the position's.
    WalledEnPassant,
    /// Castling that puts a wall on `aux`; the rook is the one of the king's path.
    WalledCastle,
}

/// One move (one ply): a small copyable value.
///
/// `from`/`to` are the mover's squares; `aux` is an extra square whose meaning depends on
/// `kind` (the square passed over, the e.p. victim, the castling rook, the gating square);
/// `piece` is a piece id (promotion, drop or gated type) or [`Move::NO_PIECE`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Where the mover starts (equal to `to` for drops and passes).
    pub from: Square,
    /// Where the mover ends.
    pub to: Square,
    /// The extra square (see [`MoveKind`]), or [`Square::NONE`].
    pub aux: Square,
    /// What kind of move this is.
    pub kind: MoveKind,
    /// Promotion, drop or gating piece id, or [`Move::NO_PIECE`].
    pub piece: u8,
}

const _: () = assert!(std::mem::size_of::<Move>() == 8);

impl Move {
    /// The `piece` value for "no piece".
    pub const NO_PIECE: u8 = 0xFF;

    /// A plain move.
    #[inline(always)]
    pub fn normal(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            aux: Square::NONE,
            kind: MoveKind::Normal,
            piece: Move::NO_PIECE,
        }
    }

    /// A move of `kind` with an extra square and piece.
    #[inline(always)]
    pub fn with(from: Square, to: Square, kind: MoveKind, aux: Square, piece: u8) -> Move {
        Move {
            from,
            to,
            aux,
            kind,
            piece,
        }
    }

    /// The promotion type of a board move, the dropped type of a drop, the gated type of a gate.
    pub fn piece_id(self) -> Option<PieceId> {
        (self.piece != Move::NO_PIECE).then_some(PieceId(self.piece))
    }

    /// The promotion type, if this move promotes.
    pub fn promotion(self) -> Option<PieceId> {
        match self.kind {
            MoveKind::Normal
            | MoveKind::EnPassant
            | MoveKind::Locust
            | MoveKind::Sweep
            | MoveKind::Transfer
            | MoveKind::Walled => self.piece_id(),
            _ => None,
        }
    }

    /// The type gated in by this move, if any.
    pub fn gated(self) -> Option<PieceId> {
        match self.kind {
            MoveKind::Gate
            | MoveKind::DoubleStepGate
            | MoveKind::CastleGateKing
            | MoveKind::CastleGateRook => self.piece_id(),
            _ => None,
        }
    }

    /// The same move without its gating part (the move itself for a move that does not gate).
    pub fn without_gate(self) -> Move {
        let kind = match self.kind {
            MoveKind::Gate => return Move::normal(self.from, self.to),
            MoveKind::DoubleStepGate => MoveKind::DoubleStep,
            MoveKind::CastleGateKing | MoveKind::CastleGateRook => MoveKind::Castle,
            _ => return self,
        };
        Move {
            kind,
            piece: Move::NO_PIECE,
            ..self
        }
    }

    /// The square the gated man enters, if any.
    pub fn gate_square(self) -> Option<Square> {
        match self.kind {
            MoveKind::Gate | MoveKind::CastleGateRook => Some(self.aux),
            MoveKind::CastleGateKing | MoveKind::DoubleStepGate => Some(self.from),
            _ => None,
        }
    }

    /// True for castling of any kind.
    pub fn is_castle(self) -> bool {
        matches!(
            self.kind,
            MoveKind::Castle | MoveKind::CastleGateKing | MoveKind::CastleGateRook
        )
    }

    /// The square of the wall this move places, if it places one.
    pub fn wall(self) -> Option<Square> {
        matches!(
            self.kind,
            MoveKind::Walled
                | MoveKind::WalledDoubleStep
                | MoveKind::WalledEnPassant
                | MoveKind::WalledCastle
        )
        .then_some(self.aux)
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_round_trip_through_coordinates_and_names() {
        for (files, ranks, boards) in [(8, 8, 1), (10, 10, 1), (16, 16, 1), (8, 8, 3)] {
            let g = Geometry::new(files, ranks, boards).unwrap();
            let mut seen = std::collections::HashSet::new();
            for sq in g.squares() {
                assert!(g.contains(sq));
                assert!(seen.insert(sq));
                let (b, f, r) = g.coords(sq);
                assert_eq!(g.square(b, f, r), sq);
                assert_eq!(g.parse_square(&g.name(sq)), Some(sq));
            }
            assert_eq!(seen.len(), g.num_squares());
        }
    }

    #[test]
    fn the_border_catches_every_atom_from_every_square() {
        let g = Geometry::new(16, 16, 1).unwrap();
        let real: std::collections::HashSet<_> = g.squares().collect();
        for sq in g.squares() {
            for dx in -3..=3 {
                for dy in -3..=3 {
                    let to = sq.index() as i32 + g.delta(dx, dy) as i32;
                    assert!(to >= 0 && (to as usize) < g.num_cells());
                    let (_, f, r) = g.coords(sq);
                    let inside =
                        (0..16).contains(&(f as i32 + dx)) && (0..16).contains(&(r as i32 + dy));
                    assert_eq!(real.contains(&Square(to as u16)), inside);
                }
            }
        }
    }

    #[test]
    fn cells_pack_colour_virginity_and_id() {
        let p = Piece {
            color: Color::Black,
            id: PieceId(17),
        };
        let c = Cell::new(p, true);
        assert!(
            c.is_piece() && c.is_virgin() && c.is_color(Color::Black) && !c.is_color(Color::White)
        );
        assert_eq!(c.piece(), Some(p));
        assert!(!c.moved().is_virgin());
        assert!(Cell::OFF.is_off() && !Cell::OFF.is_piece() && !Cell::EMPTY.is_off());
        assert!(!Cell::OFF.is_color(Color::White) && !Cell::OFF.is_color(Color::Black));
    }

    #[test]
    fn square_names_reject_junk() {
        let g = Geometry::new(8, 8, 1).unwrap();
        for bad in ["", "e", "e0", "e9", "i1", "E4", "e04", "e4x", "4e"] {
            assert_eq!(g.parse_square(bad), None, "{bad}");
        }
    }
}
