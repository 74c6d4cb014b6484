//! Variant definitions: the INI configuration format (`config`), the XBetza parser (`betza`),
//! compiling XBetza to move tables (`compile`, `tables`), the typed builder (`builder`), the rule
//! data beyond piece moves (`turns`, `boards`), each piece's reach on the empty board (`reach`),
//! a FEN's text read for a variant (`setup`), the built-in variant file (`builtin/`), and the
//! immutable [`Variant`] that every position shares through a [`VariantRef`]. Nothing here
//! knows the board: the registry above it builds variants and sets their start positions up.

pub mod betza;
pub(crate) mod boards;
pub(crate) mod builder;
mod compile;
pub mod config;
pub mod diagram;
mod legs;
mod reach;
pub mod setup;
pub mod tables;
pub(crate) mod turns;
mod zobrist;

use std::sync::Arc;

use crate::types::{Cell, Color, Geometry, PieceId, Square, MAX_PIECE_TYPES};
use tables::{AttackTables, CheckReach, PieceMask, PieceMoves};
use zobrist::Zobrist;

pub use builder::VariantError;

/// The most royal men of one side that the board code follows (`Position::royal_squares`).
pub const MAX_ROYALS: usize = 8;

/// A shared, immutable variant.
pub type VariantRef = Arc<Variant>;

/// One piece type of a variant.
#[derive(Clone, Debug)]
pub struct PieceDef {
    /// The name used in the variant file (`knight`, `customPiece1`, ...).
    pub name: String,
    /// The upper-case FEN letter (White's); Black's is the lower-case form.
    pub letter: char,
    /// The XBetza description as written.
    pub betza: String,
    /// True for a royal piece (its loss, or check against it, decides the game).
    pub royal: bool,
    /// Compiled moves for White and for Black.
    pub moves: [PieceMoves; 2],
    /// True when some move is only for a man that has never moved.
    pub has_initial_moves: bool,
    /// The types of men this piece may hop over (`hurdleTypes`; all by default).
    pub hurdles: PieceMask,
}

/// Where and into what the pawns promote.
#[derive(Clone, Debug, Default)]
pub struct PromotionRules {
    /// Piece types that promote on reaching the zone.
    pub pawn_types: PieceMask,
    /// The types they may become, per colour, in the order the choices are listed.
    pub choices: [Vec<PieceId>; 2],
    /// The zone per colour: `zone[c][sq]` is true on a promotion square.
    pub zone: [Vec<bool>; 2],
    /// Promotion is compulsory on entering the zone.
    pub mandatory: bool,
    /// A pawn may not stay unpromoted on its last rank (where it could never move again).
    pub immobility_illegal: bool,
    /// Most men of a type one may have after promoting to it (`promotionLimit`); 0 = no limit.
    pub limit: [u8; MAX_PIECE_TYPES],
    /// Per type, a fixed and compulsory promotion target (`promotionTargets`, the Interactive
    /// Diagram's `morph`), which replaces the choices for that type.
    pub targets: [Option<PieceId>; MAX_PIECE_TYPES],
    /// Per pawn type, its own list of choices (`promotionChoices`), which replaces the colour's
    /// list for that type (Alice Guard: each set promotes within itself).
    pub by_pawn: Vec<(PieceId, Vec<PieceId>)>,
}

impl PromotionRules {
    /// The types a man of type `id` and colour `color` may promote to.
    #[inline]
    pub fn choices_for(&self, id: PieceId, color: Color) -> &[PieceId] {
        match &self.targets[id.index()] {
            Some(t) => std::slice::from_ref(t),
            None => match self.by_pawn.iter().find(|(p, _)| *p == id) {
                Some((_, own)) => own,
                None => &self.choices[color.index()],
            },
        }
    }

    /// True when a man of type `id` must promote on entering the zone.
    #[inline]
    pub fn is_mandatory(&self, id: PieceId) -> bool {
        self.mandatory || self.targets[id.index()].is_some()
    }
}

/// Castling in its general form: the king and rook squares come from the variant (defaults)
/// or from the FEN; only the destination files are fixed.
#[derive(Clone, Debug)]
pub struct CastlingRules {
    /// The rank (from each side's own point of view, 0-based).
    pub rank: usize,
    /// The king's destination file for kingside (towards the last file) castling.
    pub kingside_file: usize,
    /// The king's destination file for queenside castling.
    pub queenside_file: usize,
    /// The king type that castles.
    pub king: PieceId,
    /// The file where the castling king starts (used to read `KQkq`).
    pub king_file: usize,
    /// The rook types that castle.
    pub rooks: PieceMask,
}

/// Reserve men (Pioneer Chess): each side keeps one or two men of one type off the board, each
/// waiting behind a file chosen by the side's first move; a man enters on his file's first-rank
/// square, as part of the move, when the man standing there first leaves it (castling included),
/// and is lost when that man is captured there first.
#[derive(Clone, Debug)]
pub struct ReserveRules {
    /// The reserve men's type (`reservePieceType`).
    pub piece: PieceId,
    /// Reserve men per side, 1 or 2 (`reserveCount`).
    pub count: u8,
    /// With two: the king's file may not be chosen together with a rook's file
    /// (`reserveKingRookExclusive`).
    pub king_rook_exclusive: bool,
}

/// A named restriction on drops (`dropRule`), for rules no declarative key covers.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DropRule {
    /// Any empty square (pawns not on their first rank nor in their promotion zone).
    Free,
    /// Pawn Vault's dragon: no attack, no rescue, no interposition (RULES.md 1.4).
    PawnVault,
    /// The looser reading of the same (RULES.md 1.10, ambiguity 9).
    PawnVaultLoose,
}

/// S-Chess style gating: a man leaving his original square on the gating rank may bring a man
/// from the hand onto the square he vacated, as part of the same move.
#[derive(Clone, Debug)]
pub struct GatingRules {
    /// The rank (from each side's own point of view, 0-based) whose squares can be gated. On
    /// the first rank the FEN's castling field lists the files that may still gate (S-Chess);
    /// elsewhere a man on his start square has never moved and may still open a gate.
    pub rank: usize,
    /// Types whose first move from the gating rank opens a gate (`gatingPieceTypes`).
    pub openers: PieceMask,
    /// Types in hand that may be gated (`gatedPieceTypes`).
    pub gated: PieceMask,
    /// The last man able to open a gate must bring a gated man in (`gatingLastCompulsory`).
    pub last_compulsory: bool,
    /// When no man can open a gate any more (the last was captured on his square), the men
    /// waiting to be gated leave the hand (`gatingForfeit`).
    pub forfeit: bool,
    /// The gated man counts when judging the move's legality (he may block a check on the
    /// mover's king). S-Chess says he does not: the move must be legal without him.
    pub blocks_check: bool,
}

impl GatingRules {
    /// True when the FEN's castling field carries the gating rights (first-rank gating).
    pub fn rights_in_fen(&self) -> bool {
        self.rank == 0
    }
}

pub use config::GameValue;

/// A built variant: immutable, shared by every position of the game through an `Arc`.
#[derive(Clone, Debug)]
pub struct Variant {
    /// The variant's name (lower case).
    pub name: String,
    /// The board(s).
    pub geometry: Geometry,
    /// Piece types, indexed by [`PieceId`].
    pub pieces: Vec<PieceDef>,
    /// The start position.
    pub start_fen: String,
    /// Castling, if the variant has it.
    pub castling: Option<CastlingRules>,
    /// Promotion.
    pub promotion: PromotionRules,
    /// Types whose lame non-capturing double step leaves an e.p. square.
    pub ep_types: PieceMask,
    /// Gating from the hand (S-Chess), if the variant has it.
    pub gating: Option<GatingRules>,
    /// Reserve men that wait behind a file (Pioneer), if the variant has them.
    pub reserve: Option<ReserveRules>,
    /// Where men go after moving on their own board, in a variant with several boards.
    pub transfer: Option<boards::TransferRules>,
    /// Which types may capture, and the support a capture needs.
    pub captures: boards::CaptureRules,
    /// The parts of a turn, when a turn is more than one move.
    pub turns: Option<turns::TurnRules>,
    /// Any of the three above is in force: generation takes the general path (`movegen::
    /// boards`); one flag, so the one-board fast path pays a single test.
    pub board_rules: bool,
    /// Men in hand may be dropped as a whole move.
    pub drops: bool,
    /// The types that may be dropped (`dropPieceTypes`; all by default).
    pub drop_types: PieceMask,
    /// The restriction on drops (`dropRule`).
    pub drop_rule: DropRule,
    /// Types the loose drop rule counts as worth more than the dropped man (`dropRuleValuable`).
    pub drop_valuable: PieceMask,
    /// The result for a side with a bare royal man (nothing else on the board or in hand) that
    /// is stalemated (`bareKingStalemateValue`; `None` = as any stalemate).
    pub bare_king_stalemate: GameValue,
    /// Captured men go to the capturer's hand.
    pub captures_to_hand: bool,
    /// The position has holdings (shown as `[...]` in FEN).
    pub has_hand: bool,
    /// Types whose never-moved flag is part of the hash (it changes what they may do).
    pub virgin_keyed: PieceMask,
    /// Succession: (type, heir): when a side's last man of the type is captured, one of its men
    /// of the heir type becomes that type (`succession`).
    pub succession: Vec<(PieceId, PieceId)>,
    /// While a side has two or more royal men, none of them is protected by the check rule:
    /// only a sole royal man may not be left attacked, and a side with none has lost
    /// (`extinctionPseudoRoyal`).
    pub extinction_royals: bool,
    /// Types whose extinction ends the game (`extinctionPieceTypes`).
    pub extinction_types: PieceMask,
    /// The result for a side that has lost all its men of the extinction types
    /// (`extinctionValue`; `None` = no such rule).
    pub extinction_value: GameValue,
    /// Royal piece types.
    pub royal_mask: PieceMask,
    /// Check rules apply (a move may not leave the royal piece attacked).
    pub checking: bool,
    /// Plies without capture or pawn move after which the game is drawn (0 = never): `2 * nMoveRule`.
    pub n_move_rule: u32,
    /// Repetitions that end the game.
    pub n_fold_rule: u32,
    /// Result for the side to move when it has no legal move and is not in check.
    pub stalemate_value: GameValue,
    /// Result for the side to move when it is checkmated.
    pub checkmate_value: GameValue,
    /// Per piece type: resets the n-move counter when it moves.
    pub pawn_like: PieceMask,
    /// Attack tables per colour (how that colour attacks a square).
    pub attacks: [AttackTables; 2],
    /// Per colour: (offset from the e.p. square to a capturer, types that capture e.p. that way).
    pub ep_attacks: [Vec<(i16, PieceMask)>; 2],
    /// True when e.p. needs both squares in FEN (double steps that are not straight ahead).
    pub ep_two_squares: bool,
    /// True when every capture of every piece is a plain leap or slide, so that pins can be
    /// found by walking lines from the royal piece.
    pub simple_attacks: bool,
    /// Per colour, the filter of moves that cannot give check, when the variant's rules let
    /// a move's checks be judged from the mover's type and squares alone.
    pub check_reach: Option<[CheckReach; 2]>,
    /// The empty mailbox: [`Cell::OFF`] on the border, [`Cell::EMPTY`] on real squares.
    pub empty_board: Vec<Cell>,
    /// The men of the start position, per mailbox cell (never-moved flags clear).
    pub start_board: Vec<Cell>,
    /// Hash keys.
    pub zobrist: Zobrist,
    /// Where the definition came from (`built-in` or a file name).
    pub source: String,
    /// The XBoard parent variant (`variantTemplate`).
    pub template: String,
    /// The XBoard piece-to-image table (`pieceToCharTable`), if given.
    pub piece_to_char_table: Option<String>,
    /// Holdings slots shown by XBoard (`pocketSize`).
    pub pocket_size: u32,
    /// Piece values given by the file (`pieceValueMg`, `pieceValueEg`): (letter, mg, eg).
    pub piece_values: Vec<(char, Option<i32>, Option<i32>)>,
}

impl Variant {
    /// True when generation must take the general path for boards, turn parts or capture
    /// restrictions (the one-board fast path knows none of them).
    #[inline(always)]
    pub fn needs_board_rules(&self) -> bool {
        self.board_rules
    }

    /// The plies of search one ordinary turn takes: 1, or the number of parts of a turn.
    pub fn plies_per_turn(&self) -> i32 {
        self.turns.as_ref().map_or(1, |t| t.parts.len() as i32)
    }

    /// The number of piece types.
    pub fn num_pieces(&self) -> usize {
        self.pieces.len()
    }

    /// The piece type with FEN letter `c` (either case), if any.
    pub fn piece_by_letter(&self, c: char) -> Option<PieceId> {
        let upper = c.to_ascii_uppercase();
        self.pieces
            .iter()
            .position(|p| p.letter == upper)
            .map(|i| PieceId(i as u8))
    }

    /// The FEN letter of a piece of colour `color`.
    pub fn letter(&self, id: PieceId, color: Color) -> char {
        let l = self.pieces[id.index()].letter;
        match color {
            Color::White => l,
            Color::Black => l.to_ascii_lowercase(),
        }
    }

    /// True when `id` is royal.
    #[inline(always)]
    pub fn is_royal(&self, id: PieceId) -> bool {
        self.royal_mask & (1 << id.0) != 0
    }

    /// True when the start position has `piece` on `sq`. A man standing on his start square is
    /// taken as never moved when a FEN is read, and a man dropped there counts as never moved.
    #[inline]
    pub fn starts_on(&self, sq: Square, piece: crate::types::Piece) -> bool {
        self.start_board.get(sq.index()) == Some(&Cell::new(piece, false))
    }

    /// [`Variant::starts_on`] at the same file and rank of any board: how a FEN's man is read as
    /// never moved in a multi-board variant, where a pawn on his second rank of either board
    /// still has his double step (as in Fairy-Stockfish's Alice Chess).
    pub fn starts_on_any_board(&self, sq: Square, piece: crate::types::Piece) -> bool {
        let g = &self.geometry;
        if g.boards == 1 {
            return self.starts_on(sq, piece);
        }
        let here = g.board_of(sq);
        (0..g.boards as usize).any(|b| self.starts_on(g.same_square_on(sq, here, b), piece))
    }

    /// The type a man of type `id` and colour `color` becomes on reaching `sq`, when his
    /// promotion there is compulsory with a single choice.
    pub fn fixed_promotion(&self, id: PieceId, color: Color, sq: Square) -> Option<PieceId> {
        let p = &self.promotion;
        if p.pawn_types & (1 << id.0) == 0
            || !self.in_promotion_zone(color, sq)
            || !p.is_mandatory(id)
        {
            return None;
        }
        match p.choices_for(id, color) {
            [one] => Some(*one),
            _ => None,
        }
    }

    /// True when a man of type `id` may be in a hand: the hand is where men wait to be
    /// dropped or gated, and where captures put men in a variant whose captures go to hand;
    /// anything else there could never leave it. A royal type only when it can be dropped, or
    /// be captured into a hand (where the check rule does not protect every royal man), so that
    /// no royal man comes onto the board behind the check rule's back.
    pub fn may_hold_in_hand(&self, id: PieceId) -> bool {
        let bit = 1 << id.0;
        if self.drops && self.drop_types & bit != 0 {
            return true;
        }
        let royal = self.is_royal(id);
        let gated = self.gating.as_ref().is_some_and(|g| g.gated & bit != 0);
        let captured = self.captures_to_hand && (!royal || !self.royals_all_protected());
        captured || (gated && !royal)
    }

    /// True when the check rule protects every royal man of a side, however many it has.
    pub fn royals_all_protected(&self) -> bool {
        self.checking && !self.extinction_royals && self.royal_mask != 0
    }

    /// The most royal men one side may have on the board, where the check rule applies: the
    /// largest number one side has in the start position (at least 1). No game can add a royal
    /// man there unless a promotion, a drop or a reserve man brings one in; then the bound is
    /// only what the board code follows ([`MAX_ROYALS`]). `None` without the check rule, where
    /// a royal man is just a man whose loss decides.
    pub fn royal_limit(&self) -> Option<usize> {
        if !self.checking || self.royal_mask == 0 {
            return None;
        }
        let p = &self.promotion;
        let promotes_to_royal = p.pawn_types != 0
            && (p.choices.iter().flatten().any(|&id| self.is_royal(id))
                || p.by_pawn
                    .iter()
                    .flat_map(|b| &b.1)
                    .any(|&id| self.is_royal(id)))
            || p.targets.iter().flatten().any(|&id| self.is_royal(id));
        let dropped = self.drops && self.drop_types & self.royal_mask != 0;
        let reserve = self
            .reserve
            .as_ref()
            .is_some_and(|r| self.is_royal(r.piece));
        if promotes_to_royal || dropped || reserve {
            return Some(MAX_ROYALS);
        }
        let mut start = [0usize; 2];
        for c in &self.start_board {
            if let Some(color) = c.color() {
                start[color.index()] += self.is_royal(c.id()) as usize;
            }
        }
        Some(start[0].max(start[1]).clamp(1, MAX_ROYALS))
    }

    /// True when a man of `color` promotes on `sq`.
    #[inline(always)]
    pub fn in_promotion_zone(&self, color: Color, sq: Square) -> bool {
        self.promotion.zone[color.index()][sq.index()]
    }
}
