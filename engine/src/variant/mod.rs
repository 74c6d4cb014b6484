//! Variant definitions: the INI configuration format (`config`), the XBetza parser (`betza`),
//! compiling XBetza to move tables (`compile`, `tables`), the typed builder (`builder`), the rule
//! data beyond piece moves (`turns`, `boards`), each piece's reach on the empty board (`reach`),
//! a FEN's text read for a variant (`setup`), the built-in variant file (`builtin/`), and the
//! immutable [`Variant`] that every position shares through a [`VariantRef`]. Nothing here
//! knows the board: the registry above it builds variants and sets their start positions up.

pub mod betza;
pub(crate) mod boards;
pub(crate) mod builder;
pub mod castle_rules;
pub mod chasing;
pub mod chesslike;
mod compile;
mod conclude;
pub mod config;
pub mod counting;
pub mod diagram;
pub mod ends;
pub mod hands;
mod kinship;
mod legs;
pub mod palace;
pub mod petrify;
mod reach;
mod resolve;
pub mod setup;
pub mod shogi;
mod spec;
pub(crate) use spec::other_dialect_parents;
pub mod tables;
mod triple_step;
pub(crate) mod turns;
pub mod walls;
mod zobrist;

use std::sync::Arc;

use crate::types::{Cell, Color, Geometry, PieceId, Square, MAX_PIECE_TYPES};
use tables::{AttackTables, CheckReach, GeneralReach, PieceMask, PieceMoves};
use zobrist::Zobrist;

pub use builder::VariantError;
pub use kinship::MoveVector;
pub use reach::{EmptyBoardReach, PlainMoves};

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
    /// True when the piece's moves are read in Fairy-Stockfish's dialect (the line that wrote
    /// them is; a predefined piece's own moves follow the variant's file).
    pub fsf: bool,
    /// True when his initial moves go by the variant's initial region (Fairy-Stockfish's
    /// reading, or a region the file gives) rather than by his never having moved.
    pub initial_by_region: bool,
    /// The types of men this piece may hop over (`hurdleTypes`; all by default).
    pub hurdles: PieceMask,
    /// For a promoted type (`+X`, see [`shogi`]), the type it promoted from.
    pub promoted_from: Option<PieceId>,
}

/// Where and into what the pawns promote.
#[derive(Clone, Debug, Default)]
pub struct PromotionRules {
    /// Piece types that promote on reaching the zone, for either colour.
    pub pawn_types: PieceMask,
    /// The same per colour (`promotionPawnTypesWhite`, `...Black`): what the move generator reads.
    pub pawns_by_color: [PieceMask; 2],
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
    /// True when a man of type `id` and colour `color` promotes on reaching the zone.
    #[inline(always)]
    pub fn promotes(&self, id: PieceId, color: Color) -> bool {
        self.pawns_by_color[color.index()] & (1 << id.0) != 0
    }

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
    /// Where `K` and `Q` look for their rook first, kingside then queenside
    /// (`castlingRookKingsideFile`, `...QueensideFile`); otherwise the outermost rook.
    pub rook_files: [Option<usize>; 2],
    /// The king may not castle out of, through or into check: a royal king (a commoner who
    /// castles in giveaway or extinction chess may, as in Fairy-Stockfish).
    pub path_guarded: bool,
    /// The king is of a pseudo-royal type (Fairy-Stockfish's reading), whose path is judged
    /// by `movegen::chesslike`.
    pub path_pseudo_royal: bool,
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
    /// Pawn Vault's dragon: no attack, no rescue, no interposition (docs/rules.md §1.4).
    PawnVault,
    /// The looser reading of the same (docs/rules.md §1.10, ambiguity 9).
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

/// A built variant: immutable, shared by every position of the game through an `Arc`. Its
/// rules (what the definition says, concluded) and its tables (derived from the rules for
/// speed) are read through the accessors below.
#[derive(Clone, Debug)]
pub struct Variant {
    rules: conclude::Rules,
    tables: builder::Tables,
}

impl Variant {
    /// The variant of `rules`, with its tables compiled.
    fn compile(rules: conclude::Rules) -> Variant {
        let tables = builder::Tables::compile(&rules);
        Variant { rules, tables }
    }

    /// The variant's name (lower case).
    #[inline(always)]
    pub fn name(&self) -> &str {
        &self.rules.name
    }

    /// The board(s).
    #[inline(always)]
    pub fn geometry(&self) -> &Geometry {
        &self.rules.geometry
    }

    /// Piece types, indexed by [`PieceId`].
    #[inline(always)]
    pub fn pieces(&self) -> &[PieceDef] {
        &self.rules.pieces
    }

    /// The start position.
    #[inline(always)]
    pub fn start_fen(&self) -> &str {
        &self.rules.start_fen
    }

    /// Castling, if the variant has it.
    #[inline(always)]
    pub fn castling(&self) -> Option<&CastlingRules> {
        self.rules.castling.as_ref()
    }

    /// Promotion.
    #[inline(always)]
    pub fn promotion(&self) -> &PromotionRules {
        &self.rules.promotion
    }

    /// Shogi-style promotion, demotion and drop rules ([`shogi`]).
    #[inline(always)]
    pub fn shogi(&self) -> &shogi::ShogiRules {
        &self.rules.shogi
    }

    /// The type a man of type `id` written with a `+` in FEN stands for: his promoted type,
    /// or himself when he has none.
    pub fn promoted_form(&self, id: PieceId) -> PieceId {
        self.rules.shogi.promoted[id.index()].unwrap_or(id)
    }

    /// Types whose lame non-capturing double step leaves an e.p. square.
    #[inline(always)]
    pub fn ep_types(&self) -> PieceMask {
        self.rules.ep_types
    }

    /// Types whose double step is written in the e.p. field with its landing square, as
    /// Fairy-Stockfish writes any man's but its predefined pawn's.
    pub fn ep_landing_marked(&self) -> PieceMask {
        self.rules.ep_landing_marked
    }

    /// Gating from the hand (S-Chess), if the variant has it.
    #[inline(always)]
    pub fn gating(&self) -> Option<&GatingRules> {
        self.rules.gating.as_ref()
    }

    /// Reserve men that wait behind a file (Pioneer), if the variant has them.
    #[inline(always)]
    pub fn reserve(&self) -> Option<&ReserveRules> {
        self.rules.reserve.as_ref()
    }

    /// Where men go after moving on their own board, in a variant with several boards.
    #[inline(always)]
    pub fn transfer(&self) -> Option<&boards::TransferRules> {
        self.rules.transfer.as_ref()
    }

    /// Which types may capture, and the support a capture needs.
    #[inline(always)]
    pub fn captures(&self) -> &boards::CaptureRules {
        &self.rules.captures
    }

    /// The parts of a turn, when a turn is more than one move.
    #[inline(always)]
    pub fn turns(&self) -> Option<&turns::TurnRules> {
        self.rules.turns.as_ref()
    }

    /// The drop/hand family's rules and n-check (crazyhouse, bughouse, placement, sittuyin,
    /// three-check).
    #[inline(always)]
    pub fn hands(&self) -> &hands::HandRules {
        &self.rules.hands
    }

    /// The wall each move places (`wallingRule`), if any.
    #[inline]
    pub fn walls(&self) -> Option<&walls::WallRules> {
        self.rules.walls.as_ref()
    }

    /// True when `*` in a FEN's placement field is a wall (Fairy-Stockfish's board games), not
    /// Chimera's mark of a man that has moved.
    #[inline]
    pub fn fen_walls(&self) -> bool {
        self.rules.fen_walls
    }

    /// Reversi and ataxx drops and flips, if any.
    #[inline]
    pub fn enclosing(&self) -> Option<&walls::EnclosingRules> {
        self.rules.enclosing.as_ref()
    }

    /// Drops take no man from a hand (ataxx).
    #[inline]
    pub fn free_drops(&self) -> bool {
        self.rules.drops.free
    }

    /// A full board ends the game by material count (`adjudicateFullBoard`).
    #[inline]
    pub fn adjudicate_full_board(&self) -> bool {
        self.rules.ends.adjudicate_full_board
    }

    /// Men in hand may be dropped as a whole move.
    #[inline(always)]
    pub fn drops(&self) -> bool {
        self.rules.drops.allowed
    }

    /// The types that may be dropped (`dropPieceTypes`; all by default).
    #[inline(always)]
    pub fn drop_types(&self) -> PieceMask {
        self.rules.drops.types
    }

    /// The restriction on drops (`dropRule`).
    #[inline(always)]
    pub fn drop_rule(&self) -> DropRule {
        self.rules.drops.rule
    }

    /// Types the loose drop rule counts as worth more than the dropped man (`dropRuleValuable`).
    #[inline(always)]
    pub fn drop_valuable(&self) -> PieceMask {
        self.rules.drops.valuable
    }

    /// The result for a side with a bare royal man (nothing else on the board or in hand) that
    /// is stalemated (`bareKingStalemateValue`; `None` = as any stalemate).
    #[inline(always)]
    pub fn bare_king_stalemate(&self) -> GameValue {
        self.rules.ends.bare_king_stalemate
    }

    /// Captured men go to the capturer's hand.
    #[inline(always)]
    pub fn captures_to_hand(&self) -> bool {
        self.rules.captures_to_hand
    }

    /// The position has holdings (shown as `[...]` in FEN).
    #[inline(always)]
    pub fn has_hand(&self) -> bool {
        self.rules.has_hand
    }

    /// Types whose never-moved flag is part of the hash (it changes what they may do).
    #[inline(always)]
    pub fn virgin_keyed(&self) -> PieceMask {
        self.rules.virgin_keyed
    }

    /// Succession: (type, heir): when a side's last man of the type is captured, one of its men
    /// of the heir type becomes that type (`succession`).
    #[inline(always)]
    pub fn succession(&self) -> &[(PieceId, PieceId)] {
        &self.rules.succession
    }

    /// While a side has two or more royal men, none of them is protected by the check rule:
    /// only a sole royal man may not be left attacked, and a side with none has lost
    /// (`extinctionPseudoRoyal`).
    #[inline(always)]
    pub fn extinction_royals(&self) -> bool {
        self.rules.extinction_royals
    }

    /// Chess960 castling notation: the castling field names the rooks' files and UCI
    /// writes castling as king takes rook (`chess960`).
    #[inline]
    pub fn chess960(&self) -> bool {
        self.rules.chess960
    }

    /// True when a move does more once the mover has landed: reserve men enter (Pioneer),
    /// captures explode (atomic), men turn over (reversi, ataxx), the makruk family counts;
    /// worked out once, as every move asks.
    #[inline(always)]
    pub fn has_after_move_rules(&self) -> bool {
        self.tables.after_move
    }

    /// Explosions on capture (`blastOnCapture`), if the variant has them.
    #[inline]
    pub fn blast(&self) -> Option<&chesslike::BlastRules> {
        self.rules.chesslike.blast.as_ref()
    }

    /// Petrification of capturers (`petrifyOnCaptureTypes`), if the variant has it.
    #[inline]
    pub fn petrify(&self) -> Option<&petrify::PetrifyRules> {
        self.rules.petrify.as_ref()
    }

    /// True when the legality test must see through a wall the move has just made, as
    /// Fairy-Stockfish's does (`movegen::chesslike`): a capturer petrified by his explosion,
    /// or the duck set down on the square of a man taken en passant.
    #[inline(always)]
    pub fn legality_sees_through_walls(&self) -> bool {
        self.tables.sees_through_walls
    }

    /// Types that may not capture a man of their own type (`mutuallyImmuneTypes`).
    #[inline]
    pub fn mutually_immune(&self) -> PieceMask {
        self.rules.chesslike.mutually_immune
    }

    /// Fairy-Stockfish's pseudo-royal men (`extinctionPieceTypes` under
    /// `extinctionPseudoRoyal`, in its dialect), if the variant has them.
    #[inline]
    pub fn pseudo_royal(&self) -> Option<&chesslike::PseudoRoyalRules> {
        self.rules.chesslike.pseudo_royal.as_ref()
    }

    /// True when legality is judged by the chess-like family's own test
    /// ([`chesslike`]): explosions, pseudo-royal men or mutual immunity.
    #[inline]
    pub fn chesslike_legality(&self) -> bool {
        self.rules.chesslike.blast.is_some()
            || self.rules.chesslike.pseudo_royal.is_some()
            || self.rules.chesslike.mutually_immune != 0
    }

    /// Types whose extinction ends the game (`extinctionPieceTypes`).
    #[inline(always)]
    pub fn extinction_types(&self) -> PieceMask {
        self.rules.extinction_types
    }

    /// True when some legal moves are struck off after generation: giving check forbidden
    /// (Fairy-Stockfish's `checking = false`), checking drops forbidden (`dropChecks = false`),
    /// captures compulsory (`mustCapture`).
    #[inline(always)]
    pub fn has_move_filters(&self) -> bool {
        self.tables.move_filters
    }

    /// Whether `color` may pass (`pass`), and whether only when it has no other legal move
    /// (`passOnStalemate`).
    #[inline]
    pub fn passing(&self, color: Color) -> (bool, bool) {
        (
            self.rules.pass[color.index()],
            self.rules.pass_on_stalemate[color.index()],
        )
    }

    /// The xiangqi and janggi rules (soldiers, janggi cannons, palace diagonals, bikjang),
    /// when the variant has one of them.
    #[inline]
    pub fn palace(&self) -> Option<&palace::PalaceRules> {
        self.rules.palace.as_ref()
    }

    /// The kings may not face each other on a file with nothing between (`flyingGeneral`).
    #[inline]
    pub fn flying_general(&self) -> bool {
        self.rules.flying_general
    }

    /// Per colour, where drops are allowed (`dropRegionWhite`/`Black`); `None`: anywhere.
    #[inline]
    pub fn drop_region(&self, color: Color) -> Option<&[bool]> {
        self.rules.drops.region[color.index()].as_deref()
    }

    /// Where a man of `color` may land capturing en passant (`enPassantRegion...`); `None`:
    /// anywhere.
    #[inline]
    pub fn ep_region(&self, color: Color) -> Option<&[bool]> {
        self.rules.ep_region[color.index()].as_deref()
    }

    /// True when a man of type `id` and colour `color` is a pawn for the drop rules.
    #[inline]
    pub fn is_drop_pawn(&self, id: PieceId, color: Color) -> bool {
        self.rules.drops.pawns[color.index()] & (1 << id.0) != 0
    }

    /// Whether pawns (see [`Variant::is_drop_pawn`]) may be dropped on the first rank and in
    /// the promotion zone.
    #[inline]
    pub fn pawn_drops_allowed(&self) -> (bool, bool) {
        (
            self.rules.drops.first_rank_pawns,
            self.rules.drops.promotion_zone_pawns,
        )
    }

    /// Where a man of type `id` and colour `color` may go (`mobilityRegion...`); `None`:
    /// anywhere.
    #[inline]
    pub fn mobility_region(&self, id: PieceId, color: Color) -> Option<&[bool]> {
        self.rules.mobility[id.index()][color.index()].as_deref()
    }

    /// True when the general attack test must bound a man's attacks by his mobility region
    /// (`mobilityRegion...`, or the palace rules): Fairy-Stockfish's men attack only where
    /// they may go. Worked out once; the attack test asks it for every man it runs.
    #[inline(always)]
    pub fn has_regional_attacks(&self) -> bool {
        self.tables.regional_attacks
    }

    /// True when some piece type has a mobility region.
    #[inline]
    pub fn has_mobility_regions(&self) -> bool {
        self.rules.mobility.iter().flatten().any(Option::is_some)
    }

    /// Connect-N (`connectN`), if the variant has it.
    #[inline]
    pub fn connect(&self) -> Option<&ends::ConnectRules> {
        self.rules.ends.connect.as_ref()
    }

    /// Giving check is illegal (Fairy-Stockfish's `checking = false`).
    #[inline]
    pub fn forbids_checks(&self) -> bool {
        self.rules.forbid_checks
    }

    /// A drop may give check (`dropChecks`, true by default).
    #[inline]
    pub fn drop_checks(&self) -> bool {
        self.rules.drops.checks
    }

    /// Captures are compulsory (`mustCapture`).
    #[inline]
    pub fn must_capture(&self) -> bool {
        self.rules.must_capture
    }

    /// Fairy-Stockfish's reading of initial moves: per colour, the squares where a man may make
    /// them (`doubleStepRegion*`); `None` in Chimera's reading (a man on his start square).
    #[inline]
    pub fn initial_region(&self) -> Option<&[Vec<bool>; 2]> {
        self.rules.initial_region.as_ref()
    }

    /// Where pawns may make a triple step, per colour (`tripleStepRegion*`), if anywhere.
    #[inline]
    pub fn triple_steps(&self) -> Option<&[Vec<bool>; 2]> {
        self.rules.triple_steps.as_ref()
    }

    /// Castling that wins (`castlingWins`) and castling to the opponent's wing barred
    /// (`oppositeCastling`).
    #[inline]
    pub fn castle_rules(&self) -> castle_rules::CastleRules {
        self.rules.castle_rules
    }

    /// True when legal generation has more to do than the moves' own legality: a position end
    /// to ask for first ([`Variant::has_position_ends`]) or moves to strike off afterwards
    /// ([`Variant::has_move_filters`]). One test on the fast path for both.
    #[inline(always)]
    pub fn special_legality(&self) -> bool {
        self.tables.special_legality
    }

    /// How repetition ends the game (`nFoldValue`, `perpetualCheckIllegal`).
    pub fn repetition(&self) -> &ends::RepetitionRules {
        &self.rules.ends.repetition
    }

    /// Who wins a game otherwise drawn (`materialCounting`).
    pub fn material_counting(&self) -> ends::MaterialCounting {
        self.rules.ends.material_counting
    }

    /// A stalemate is scored by the men left: fewer wins (`stalematePieceCount`).
    pub fn stalemate_piece_count(&self) -> bool {
        self.rules.ends.stalemate_piece_count
    }

    /// Capture the flag (`flagRegion*`), if the variant has it.
    #[inline]
    pub fn flag(&self) -> Option<&ends::FlagRules> {
        self.rules.ends.flag.as_ref()
    }

    /// Extinction by counts (`extinctionValue` without pseudo-royalty), if the variant has it.
    #[inline]
    pub fn extinction(&self) -> Option<&ends::ExtinctionRules> {
        self.rules.ends.extinction.as_ref()
    }

    /// True when the position alone may end the game (flag, extinction by counts, connect-N,
    /// two passes in a row): legal
    /// generation then first asks whether it has.
    #[inline(always)]
    pub fn has_position_ends(&self) -> bool {
        self.tables.position_ends
    }

    /// The result for a side that has lost all its men of the extinction types
    /// (`extinctionValue`; `None` = no such rule).
    #[inline(always)]
    pub fn extinction_value(&self) -> GameValue {
        self.rules.ends.extinction_value
    }

    /// Royal piece types.
    #[inline(always)]
    pub fn royal_mask(&self) -> PieceMask {
        self.rules.royal_mask
    }

    /// Check rules apply (a move may not leave the royal piece attacked).
    #[inline(always)]
    pub fn checking(&self) -> bool {
        self.rules.checking
    }

    /// Plies without capture or pawn move after which the game is drawn (0 = never): `2 * nMoveRule`.
    #[inline(always)]
    pub fn n_move_rule(&self) -> u32 {
        self.rules.ends.n_move_rule
    }

    /// Repetitions that end the game.
    #[inline(always)]
    pub fn n_fold_rule(&self) -> u32 {
        self.rules.ends.n_fold_rule
    }

    /// Result for the side to move when it has no legal move and is not in check.
    #[inline(always)]
    pub fn stalemate_value(&self) -> GameValue {
        self.rules.ends.stalemate_value
    }

    /// Result for the side to move when it is checkmated.
    #[inline(always)]
    pub fn checkmate_value(&self) -> GameValue {
        self.rules.ends.checkmate_value
    }

    /// The counting rule of makruk, cambodian or ASEAN chess (`countingRule`), if any.
    #[inline(always)]
    pub fn counting(&self) -> Option<&counting::CountingRules> {
        self.rules.counting.as_ref()
    }

    /// True when a move has more to do under the makruk family's rules (a count to keep, a
    /// leaping right to take away).
    #[inline(always)]
    pub fn has_makruk_rules(&self) -> bool {
        self.tables.makruk_rules
    }

    /// Makpong: a king in check may not move except to take the man giving check
    /// (`makpongRule`).
    #[inline(always)]
    pub fn makpong(&self) -> bool {
        self.rules.makpong
    }

    /// Ouk Chatrang's first moves (`cambodianMoves`): a king that has not moved nor been
    /// checked by a rook may leap as a knight to the rank in front of it, a met that has not
    /// moved may step two squares straight ahead; neither captures, and the king not out of
    /// check.
    #[inline(always)]
    pub fn cambodian_moves(&self) -> bool {
        self.rules.cambodian
    }

    /// Shatar's mates (`shatarMateRule`): a mate by knights alone does not win (the mated side
    /// wins), and a mate wins only when one of the series of checks that led to it was a
    /// shak (a check by a knight, rook or bers); otherwise it is a draw.
    #[inline(always)]
    pub fn shatar_mate(&self) -> bool {
        self.rules.shatar_mate
    }

    /// Per piece type: resets the n-move counter when it moves.
    #[inline(always)]
    pub fn pawn_like(&self, color: Color) -> PieceMask {
        self.rules.pawn_like[color.index()]
    }

    /// Where the definition came from (`built-in` or a file name).
    #[inline(always)]
    pub fn source(&self) -> &str {
        &self.rules.source
    }

    /// The XBoard parent variant (`variantTemplate`).
    #[inline(always)]
    pub fn template(&self) -> &str {
        &self.rules.template
    }

    /// The XBoard piece-to-image table (`pieceToCharTable`), if given.
    #[inline(always)]
    pub fn piece_to_char_table(&self) -> Option<&str> {
        self.rules.piece_to_char_table.as_deref()
    }

    /// Holdings slots shown by XBoard (`pocketSize`).
    #[inline(always)]
    pub fn pocket_size(&self) -> u32 {
        self.rules.pocket_size
    }

    /// Piece values given by the file (`pieceValueMg`, `pieceValueEg`): (letter, mg, eg).
    #[inline(always)]
    pub fn piece_values(&self) -> &[(char, Option<i32>, Option<i32>)] {
        &self.rules.piece_values
    }

    /// Attack tables per colour (how that colour attacks a square).
    #[inline(always)]
    pub fn attacks(&self) -> &[AttackTables; 2] {
        &self.tables.attacks
    }

    /// Per colour: (offset from the e.p. square to a capturer, types that capture e.p. that way).
    #[inline(always)]
    pub fn ep_attacks(&self) -> &[Vec<(i16, PieceMask)>; 2] {
        &self.tables.ep_attacks
    }

    /// True when e.p. needs both squares in FEN (double steps that are not straight ahead).
    #[inline(always)]
    pub fn ep_two_squares(&self) -> bool {
        self.tables.ep_two_squares
    }

    /// True when every capture of every piece is a plain leap or slide, so that pins can be
    /// found by walking lines from the royal piece.
    #[inline(always)]
    pub fn simple_attacks(&self) -> bool {
        self.tables.simple_attacks
    }

    /// Per colour, the filter of moves that cannot give check, when the variant's rules let
    /// a move's checks be judged from the mover's type and squares alone.
    #[inline(always)]
    pub fn check_reach(&self) -> Option<&[CheckReach; 2]> {
        self.tables.check_reach.as_ref()
    }

    /// Per colour, where the men whose attacks the general attack test runs could attack a
    /// square from (an over-estimate it filters by); `None` for several boards or no such men.
    #[inline]
    pub fn general_reach(&self) -> Option<&[GeneralReach; 2]> {
        self.tables.general_reach.as_ref()
    }

    /// The empty mailbox: [`Cell::OFF`] on the border, [`Cell::EMPTY`] on real squares.
    #[inline(always)]
    pub fn empty_board(&self) -> &[Cell] {
        &self.tables.empty_board
    }

    /// The men of the start position, per mailbox cell (never-moved flags clear).
    #[inline(always)]
    pub fn start_board(&self) -> &[Cell] {
        &self.tables.start_board
    }

    /// Hash keys.
    #[inline(always)]
    pub fn zobrist(&self) -> &Zobrist {
        &self.tables.zobrist
    }
}

impl Variant {
    /// True when generation must take the general path for boards, turn parts or capture
    /// restrictions (the one-board fast path knows none of them).
    #[inline(always)]
    pub fn needs_board_rules(&self) -> bool {
        self.tables.board_rules
    }

    /// True when one man's moves can be listed apart from the others' and each judged by
    /// itself, as the search does with its table move (`Position::generate_moves_of`): not
    /// under board rules, where every move places a wall or turns men over, nor where a
    /// move's legality depends on the others (compulsory captures or drops).
    #[inline]
    pub fn moves_judged_man_by_man(&self) -> bool {
        self.tables.man_by_man
    }

    /// The plies of search one ordinary turn takes: 1, or the number of parts of a turn.
    pub fn plies_per_turn(&self) -> i32 {
        self.rules
            .turns
            .as_ref()
            .map_or(1, |t| t.parts.len() as i32)
    }

    /// The number of piece types.
    pub fn num_pieces(&self) -> usize {
        self.rules.pieces.len()
    }

    /// The piece type with FEN letter `c` (either case), if any (never a promoted type,
    /// which is written `+` and its unpromoted letter).
    pub fn piece_by_letter(&self, c: char) -> Option<PieceId> {
        let upper = c.to_ascii_uppercase();
        self.rules
            .pieces
            .iter()
            .position(|p| p.letter == upper && p.promoted_from.is_none())
            .map(|i| PieceId(i as u8))
    }

    /// The FEN letter of a piece of colour `color`.
    pub fn letter(&self, id: PieceId, color: Color) -> char {
        let l = self.rules.pieces[id.index()].letter;
        match color {
            Color::White => l,
            Color::Black => l.to_ascii_lowercase(),
        }
    }

    /// True when `id` is royal.
    #[inline(always)]
    pub fn is_royal(&self, id: PieceId) -> bool {
        self.rules.royal_mask & (1 << id.0) != 0
    }

    /// True when the start position has `piece` on `sq`. A man standing on his start square is
    /// taken as never moved when a FEN is read, and a man dropped there counts as never moved.
    #[inline]
    pub fn starts_on(&self, sq: Square, piece: crate::types::Piece) -> bool {
        self.tables.start_board.get(sq.index()) == Some(&Cell::new(piece, false))
    }

    /// [`Variant::starts_on`] at the same file and rank of any board: how a FEN's man is read as
    /// never moved in a multi-board variant, where a pawn on his second rank of either board
    /// still has his double step (as in Fairy-Stockfish's Alice Chess).
    pub fn starts_on_any_board(&self, sq: Square, piece: crate::types::Piece) -> bool {
        let g = &self.rules.geometry;
        if g.boards == 1 {
            return self.starts_on(sq, piece);
        }
        let here = g.board_of(sq);
        (0..g.boards as usize).any(|b| self.starts_on(g.same_square_on(sq, here, b), piece))
    }

    /// The type a man of type `id` and colour `color` becomes on reaching `sq`, when his
    /// promotion there is compulsory with a single choice.
    pub fn fixed_promotion(&self, id: PieceId, color: Color, sq: Square) -> Option<PieceId> {
        let p = &self.rules.promotion;
        if !p.promotes(id, color) || !self.in_promotion_zone(color, sq) || !p.is_mandatory(id) {
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
        if self.rules.drops.allowed && self.rules.drops.types & bit != 0 {
            return true;
        }
        let royal = self.is_royal(id);
        let gated = self
            .rules
            .gating
            .as_ref()
            .is_some_and(|g| g.gated & bit != 0);
        let captured = self.rules.captures_to_hand && (!royal || !self.royals_all_protected());
        captured || (gated && !royal)
    }

    /// True when the check rule protects every royal man of a side, however many it has.
    pub fn royals_all_protected(&self) -> bool {
        self.rules.checking && !self.rules.extinction_royals && self.rules.royal_mask != 0
    }

    /// The most royal men one side may have on the board, where the check rule applies: the
    /// largest number one side has in the start position (at least 1). No game can add a royal
    /// man there unless a promotion, a drop or a reserve man brings one in; then the bound is
    /// only what the board code follows ([`MAX_ROYALS`]). `None` without the check rule, where
    /// a royal man is just a man whose loss decides.
    pub fn royal_limit(&self) -> Option<usize> {
        if !self.rules.checking || self.rules.royal_mask == 0 {
            return None;
        }
        let p = &self.rules.promotion;
        let promotes_to_royal = p.pawn_types != 0
            && (p.choices.iter().flatten().any(|&id| self.is_royal(id))
                || p.by_pawn
                    .iter()
                    .flat_map(|b| &b.1)
                    .any(|&id| self.is_royal(id)))
            || p.targets.iter().flatten().any(|&id| self.is_royal(id))
            || self
                .rules
                .shogi
                .promoted
                .iter()
                .flatten()
                .any(|&id| self.is_royal(id));
        let dropped =
            self.rules.drops.allowed && self.rules.drops.types & self.rules.royal_mask != 0;
        let reserve = self
            .reserve()
            .as_ref()
            .is_some_and(|r| self.is_royal(r.piece));
        if promotes_to_royal || dropped || reserve {
            return Some(MAX_ROYALS);
        }
        let mut start = [0usize; 2];
        for c in &self.tables.start_board {
            if let Some(color) = c.color() {
                start[color.index()] += self.is_royal(c.id()) as usize;
            }
        }
        Some(start[0].max(start[1]).clamp(1, MAX_ROYALS))
    }

    /// True when a man of `color` promotes on `sq`.
    #[inline(always)]
    pub fn in_promotion_zone(&self, color: Color, sq: Square) -> bool {
        self.rules.promotion.zone[color.index()][sq.index()]
    }
}
