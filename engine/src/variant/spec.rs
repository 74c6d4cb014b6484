//! Stage one of building a variant: every line of a resolved section read into a plain
//! [`VariantSpec`], each value parsed by the type of its key and kept with the place that
//! wrote it. One table, [`KEYS`], binds each key name to the field it fills, so a key's name is
//! written once. Nothing here resolves a piece letter or looks at the board size: that is the
//! next stage's job (`conclude`).

use super::config::{
    parse_bool, parse_file_letter_or_number, parse_piece_char_map, parse_piece_letters,
    parse_piece_value_list, parse_rank, parse_template, parse_uint, parse_value, ConfigError,
    Dialect, Entry, GameValue, SectionConfig,
};
use super::counting::CountingRule;
use super::ends::MaterialCounting;
use super::walls::{EnclosingRule, WallingRule};
use super::DropRule;
use crate::types::MAX_PIECE_TYPES;

/// A problem in a variant definition, located at a file, line and key.
pub type VariantError = ConfigError;

/// Where a value was written: file, line and key (no key for the section header).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Place {
    file: String,
    line: usize,
    key: Option<String>,
    /// The dialect of the file that wrote it: what the line means.
    pub dialect: Dialect,
}

impl Place {
    fn of(entry: &Entry) -> Place {
        Place {
            file: entry.file.clone(),
            line: entry.line,
            key: Some(entry.key.clone()),
            dialect: entry.dialect,
        }
    }

    /// True when the line is in one of Chimera's own built-in files.
    pub(crate) fn in_builtin_file(&self) -> bool {
        self.file.starts_with("built-in")
    }

    /// An error located here.
    pub(crate) fn error(&self, message: impl Into<String>) -> VariantError {
        ConfigError {
            file: self.file.clone(),
            line: self.line,
            key: self.key.clone(),
            message: message.into(),
        }
    }
}

/// A value and the place that wrote it, so that a later stage can report a problem with it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Located<T> {
    pub value: T,
    pub at: Place,
}

/// A key's value when the section sets it.
pub(crate) type Given<T> = Option<Located<T>>;

/// The value of a key, or `default` when the section does not set it.
pub(crate) fn or<T: Clone>(given: &Given<T>, default: T) -> T {
    given.as_ref().map_or(default, |g| g.value.clone())
}

/// One piece assignment (`knight = n`, `customPiece1 = a:mNcK`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PieceSpec {
    /// The key: a predefined piece name or `customPieceN`.
    pub name: String,
    /// The FEN letter, upper case.
    pub letter: char,
    /// The moves in XBetza; `None` for a predefined piece's own moves.
    pub betza: Option<String>,
    pub at: Place,
}

impl PieceSpec {
    /// The dialect the piece's moves are read in: that of the line that wrote them, or for a
    /// predefined piece's own moves that of the variant being built (each dialect reads its
    /// predefined pieces its own way).
    pub(crate) fn dialect(&self, variant: Dialect) -> Dialect {
        if self.betza.is_some() {
            self.at.dialect
        } else {
            variant
        }
    }

    /// The piece's moves: its own, or its predefined ones (the pawn with its double step unless
    /// `doubleStep = false`).
    pub(crate) fn moves(&self, double_step: bool) -> String {
        if let Some(own) = &self.betza {
            return own.clone();
        }
        let base = predefined_moves(&self.name).unwrap_or_default();
        if self.name == "pawn" && double_step {
            format!("{base}ifmnD")
        } else {
            base.to_string()
        }
    }
}

/// A variant as its definition writes it: one field per key, typed, unresolved.
#[derive(Clone, Debug, Default)]
pub(crate) struct VariantSpec {
    /// The variant's name (lower case).
    pub name: String,
    /// The section header, for problems that concern no single key.
    pub header: Place,
    /// The file of the section's chain's first section ([`SectionConfig::root_file`]).
    pub root_file: String,
    /// The dialect of the section's own file: rules no line decides follow it (each line is
    /// read in its own writer's dialect, [`Place::dialect`]).
    pub dialect: Dialect,
    /// The dialect of the chain's first section.
    pub root_dialect: Dialect,
    /// Piece assignments in the order written (inherited ones first).
    pub pieces: Vec<PieceSpec>,

    pub max_file: Given<usize>,
    pub max_rank: Given<usize>,
    pub boards: Given<u32>,
    pub board_transfer: Given<String>,
    pub capture_types: Given<Vec<char>>,
    pub capture_support_types: Given<Vec<char>>,
    pub turn_parts: Given<Vec<Vec<char>>>,
    pub first_turn_parts: Given<Vec<Vec<char>>>,
    pub start_fen: Given<String>,
    pub double_step: Given<bool>,
    pub double_step_region_by_color: [Given<String>; 2],
    pub en_passant_region: Given<String>,
    pub en_passant_region_by_color: [Given<String>; 2],
    pub pawn_types: Given<Vec<char>>,
    pub promotion_pawn_types: Given<Vec<char>>,
    pub en_passant_types: Given<Vec<char>>,
    pub n_move_rule_types: Given<Vec<char>>,
    pub promotion_pawn_types_by_color: [Given<Vec<char>>; 2],
    pub en_passant_types_by_color: [Given<Vec<char>>; 2],
    pub n_move_rule_types_by_color: [Given<Vec<char>>; 2],
    pub promotion_piece_types: Given<Vec<char>>,
    pub promotion_piece_types_by_color: [Given<Vec<char>>; 2],
    pub promotion_region_by_color: [Given<String>; 2],
    pub promotion_choices: Given<Vec<(char, Vec<char>)>>,
    pub mandatory_pawn_promotion: Given<bool>,
    pub immobility_illegal: Given<bool>,
    pub promotion_limit: Given<Vec<(char, i32)>>,
    pub promotion_targets: Given<Vec<(char, char)>>,
    pub castling: Given<bool>,
    pub castling_kingside_file: Given<usize>,
    pub castling_queenside_file: Given<usize>,
    pub castling_rank: Given<usize>,
    pub castling_king_file: Given<usize>,
    pub castling_king_piece: Given<Vec<char>>,
    pub castling_rook_pieces: Given<Vec<char>>,
    /// The older singular spelling, read only when `castlingRookPieces` is not given.
    pub castling_rook_piece: Given<Vec<char>>,
    pub gating: Given<bool>,
    pub seirawan_gating: Given<bool>,
    pub gating_blocks_check: Given<bool>,
    pub gating_rank: Given<usize>,
    pub gating_piece_types: Given<Vec<char>>,
    pub gated_piece_types: Given<Vec<char>>,
    pub gating_last_compulsory: Given<bool>,
    pub gating_forfeit: Given<bool>,
    pub piece_drops: Given<bool>,
    pub drop_piece_types: Given<Vec<char>>,
    pub drop_rule: Given<DropRule>,
    pub drop_rule_valuable: Given<Vec<char>>,
    pub captures_to_hand: Given<bool>,
    pub hurdle_types: Given<Vec<(char, Vec<char>)>>,
    pub reserve_piece_type: Given<char>,
    pub reserve_count: Given<u32>,
    pub reserve_king_rook_exclusive: Given<bool>,
    pub succession: Given<Vec<(char, char)>>,
    pub extinction_piece_types: Given<Vec<char>>,
    pub extinction_value: Given<GameValue>,
    pub extinction_pseudo_royal: Given<bool>,
    pub extinction_piece_count: Given<u32>,
    pub extinction_opponent_piece_count: Given<u32>,
    pub extinction_claim: Given<bool>,
    pub flag_piece: Given<Vec<char>>,
    pub flag_piece_by_color: [Given<Vec<char>>; 2],
    pub flag_region: Given<String>,
    pub flag_region_by_color: [Given<String>; 2],
    pub flag_piece_count: Given<u32>,
    pub flag_piece_blocked_win: Given<bool>,
    pub flag_move: Given<bool>,
    pub flag_piece_safe: Given<bool>,
    pub checking: Given<bool>,
    pub drop_checks: Given<bool>,
    pub drop_region_by_color: [Given<String>; 2],
    pub first_rank_pawn_drops: Given<bool>,
    pub promotion_zone_pawn_drops: Given<bool>,
    pub flying_general: Given<bool>,
    pub pass: Given<bool>,
    pub pass_by_color: [Given<bool>; 2],
    pub pass_on_stalemate: Given<bool>,
    pub pass_on_stalemate_by_color: [Given<bool>; 2],
    pub connect_n: Given<u32>,
    pub connect_piece_types: Given<Vec<char>>,
    pub connect_horizontal: Given<bool>,
    pub connect_vertical: Given<bool>,
    pub connect_diagonal: Given<bool>,
    pub connect_value: Given<GameValue>,
    /// `mobilityRegionWhiteKing = ...`: (colour, piece key name, squares).
    pub mobility_regions: Vec<(usize, String, Located<String>)>,
    pub must_capture: Given<bool>,
    pub n_move_rule: Given<u32>,
    pub n_fold_rule: Given<u32>,
    pub n_fold_value: Given<GameValue>,
    pub n_fold_value_absolute: Given<bool>,
    pub perpetual_check_illegal: Given<bool>,
    pub material_counting: Given<MaterialCounting>,
    pub stalemate_piece_count: Given<bool>,
    pub stalemate_value: Given<GameValue>,
    pub checkmate_value: Given<GameValue>,
    pub bare_king_stalemate_value: Given<GameValue>,
    pub variant_template: Given<String>,
    pub piece_to_char_table: Given<String>,
    pub pocket_size: Given<u32>,
    pub piece_value_mg: Given<Vec<(char, i32)>>,
    // Board games (walls, the duck, reversi and ataxx drops).
    pub walling_rule: Given<Option<WallingRule>>,
    pub walling_region_by_color: [Given<String>; 2],
    pub walling_region: Given<String>,
    pub wall_or_move: Given<bool>,
    pub enclosing_drop: Given<Option<EnclosingRule>>,
    pub enclosing_drop_start: Given<String>,
    pub flip_enclosed_pieces: Given<Option<EnclosingRule>>,
    pub adjudicate_full_board: Given<bool>,
    pub free_drops: Given<bool>,
    /// The two regions a chain of men must join, White's then Black's (`connectRegion1White`,
    /// `connectRegion2White`, `connectRegion1Black`, `connectRegion2Black`).
    pub connect_region: [Given<String>; 4],
    pub connect_nxn: Given<u32>,
    pub collinear_n: Given<u32>,
    pub piece_value_eg: Given<Vec<(char, i32)>>,
    // Shogi family: promotion to a fixed type per piece, drops' restrictions.
    /// Every `promotedPieceType` line, inherited ones first: Fairy-Stockfish applies them in
    /// turn, each setting the types it names. Fairy-Stockfish's map is by piece type, so an
    /// inherited line's letters are read as the pieces they named where it was written.
    pub promoted_piece_type: Vec<Located<Vec<(PieceRef, PieceRef)>>>,
    pub mandatory_piece_promotion: Given<bool>,
    pub piece_promotion_on_capture: Given<bool>,
    pub piece_demotion: Given<bool>,
    pub drop_promoted: Given<bool>,
    pub drop_no_doubled: Given<Vec<char>>,
    pub drop_no_doubled_count: Given<u32>,
    pub shogi_pawn_drop_mate_illegal: Given<bool>,
    // Hands family (crazyhouse, bughouse, placement, sittuyin, n-check): `variant::hands`.
    pub drop_loop: Given<bool>,
    pub two_boards: Given<bool>,
    pub must_drop: Given<bool>,
    pub must_drop_type: Given<Vec<char>>,
    pub drop_opposite_colored_bishop: Given<bool>,
    pub castling_dropped_piece: Given<bool>,
    pub sittuyin_rook_drop: Given<bool>,
    pub sittuyin_promotion: Given<bool>,
    pub check_counting: Given<bool>,

    // Chess-like family (Fairy-Stockfish's chess-like and atomic built-ins).
    pub chess960: Given<bool>,
    pub castling_rook_kingside_file: Given<usize>,
    pub castling_rook_queenside_file: Given<usize>,
    pub blast_on_capture: Given<bool>,
    pub blast_immune_types: Given<Vec<char>>,
    pub mutually_immune_types: Given<Vec<char>>,
    pub duple_check: Given<bool>,
    // Petrify family (`variant::petrify`): capturers turned into walls.
    pub petrify_on_capture_types: Given<Vec<char>>,
    pub petrify_blast_pieces: Given<bool>,
    // Xiangqi and janggi (`variant::palace`).
    pub soldier_promotion_rank: Given<usize>,
    pub diagonal_lines: Given<String>,
    pub bikjang_rule: Given<bool>,
    pub king_type: Given<String>,
    // The makruk family's rules.
    pub counting_rule: Given<CountingRule>,
    pub makpong_rule: Given<bool>,
    pub cambodian_moves: Given<bool>,
    pub shatar_mate_rule: Given<bool>,
    // Castling and pawn steps (`variant::castle_rules`, `variant::triple_step`).
    pub triple_step_region_by_color: [Given<String>; 2],
    pub castling_wins: Given<u8>,
    pub opposite_castling: Given<bool>,
    // Xiangqi's and janggi's repetition rules (`variant::chasing`).
    pub chasing_rule: Given<bool>,
    pub move_repetition_illegal: Given<bool>,
}

impl VariantSpec {
    /// True when seirawan-style gating is switched on (both keys), the only gating there is.
    pub(crate) fn gates(&self) -> bool {
        or(&self.gating, false) && or(&self.seirawan_gating, false)
    }
}

/// One rule key: its name, how its value fills the spec, and when it has an effect.
struct Key {
    name: &'static str,
    read: fn(&mut VariantSpec, &str, Place) -> Result<(), String>,
    /// False when other keys make this one meaningless (reported, so that a typo in the key
    /// it depends on does not go unnoticed).
    effective: fn(&VariantSpec) -> bool,
}

fn always(_: &VariantSpec) -> bool {
    true
}

fn when_gating(s: &VariantSpec) -> bool {
    s.gates()
}

fn when_reserve(s: &VariantSpec) -> bool {
    s.reserve_piece_type.is_some()
}

fn when_drops(s: &VariantSpec) -> bool {
    or(&s.piece_drops, false)
}

fn when_connect(s: &VariantSpec) -> bool {
    or(&s.connect_n, 0) > 0
        || or(&s.connect_nxn, 0) > 0
        || or(&s.collinear_n, 0) > 0
        || s.connect_region.iter().any(Option::is_some)
}

fn when_extinction(s: &VariantSpec) -> bool {
    s.extinction_value.is_some()
}

fn when_flag(s: &VariantSpec) -> bool {
    s.flag_region.is_some() || s.flag_region_by_color.iter().any(Option::is_some)
}

/// `name => field: parser` (the field may be one colour's slot, `field[0]`), optionally
/// `if condition`: a key bound to its field.
macro_rules! key {
    ($name:literal => $field:ident $([$i:literal])? : $parse:expr) => {
        key!($name => $field $([$i])? : $parse, if always)
    };
    ($name:literal => $field:ident $([$i:literal])? : $parse:expr, if $when:expr) => {
        Key {
            name: $name,
            read: |spec, value, at| {
                spec.$field $([$i])? = Some(Located { value: $parse(value)?, at });
                Ok(())
            },
            effective: $when,
        }
    };
}

fn text(value: &str) -> Result<String, String> {
    Ok(value.to_string())
}

/// Space-separated words of piece letters (`turnParts = K Q`).
fn letter_words(value: &str) -> Result<Vec<Vec<char>>, String> {
    Ok(value
        .split_whitespace()
        .map(|word| word.chars().collect())
        .collect())
}

/// `p:qrbn f:dt`: a piece letter, then the letters it maps to; `what` names the form.
fn letter_to_letters(value: &str, what: &str) -> Result<Vec<(char, Vec<char>)>, String> {
    value
        .split_whitespace()
        .map(|token| {
            let pair = token.split_once(':').and_then(|(who, into)| {
                let mut who = who.chars();
                match (who.next(), who.next()) {
                    (Some(c), None) if !into.is_empty() => Some((c, into.chars().collect())),
                    _ => None,
                }
            });
            pair.ok_or_else(|| format!("'{token}' is not {what} of existing pieces"))
        })
        .collect()
}

fn single_letter(value: &str) -> Result<char, String> {
    match parse_piece_letters(value)?.as_slice() {
        [one] => Ok(*one),
        _ => Err("give one piece letter".to_string()),
    }
}

/// One side of a `promotedPieceType` pair: a piece named by the section's own line (by its
/// letter, resolved once every piece is known), an inherited line's piece (by its key name),
/// or none (`-`, or a letter that named no piece where the inherited line was written).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum PieceRef {
    Letter(char),
    Name(String),
    None,
}

/// `p:g s:g r:-`: each piece letter and the letter of the type it promotes to, `-` for none
/// (as `'-'`).
fn parse_promoted_types(value: &str) -> Result<Vec<(char, char)>, String> {
    let mut out = Vec::new();
    for token in value.split_whitespace() {
        let mut chars = token.chars();
        match (chars.next(), chars.next(), chars.next(), chars.next()) {
            (Some(a), Some(':'), Some(b), None)
                if a.is_ascii_alphabetic() && (b.is_ascii_alphabetic() || b == '-') =>
            {
                out.push((a.to_ascii_lowercase(), b.to_ascii_lowercase()))
            }
            _ => return Err(format!("'{token}' is not piece:promoted-piece")),
        }
    }
    Ok(out)
}

fn drop_rule(value: &str) -> Result<DropRule, String> {
    match value {
        "none" => Ok(DropRule::Free),
        "pawnvault" => Ok(DropRule::PawnVault),
        "pawnvault-loose" => Ok(DropRule::PawnVaultLoose),
        other => Err(format!(
            "unknown drop rule '{other}' (none, pawnvault, pawnvault-loose)"
        )),
    }
}

/// Every rule key (piece names and `customPieceN` are read as pieces).
const KEYS: &[Key] = &[
    key!("maxFile" => max_file: parse_file_letter_or_number),
    key!("maxRank" => max_rank: parse_rank),
    key!("boards" => boards: parse_uint),
    key!("boardTransfer" => board_transfer: text),
    key!("captureTypes" => capture_types: parse_piece_letters),
    key!("captureSupportTypes" => capture_support_types: parse_piece_letters),
    key!("turnParts" => turn_parts: letter_words),
    key!("firstTurnParts" => first_turn_parts: letter_words, if |s| s.turn_parts.is_some()),
    key!("startFen" => start_fen: text),
    key!("doubleStep" => double_step: parse_bool),
    key!("doubleStepRegionWhite" => double_step_region_by_color[0]: text),
    key!("doubleStepRegionBlack" => double_step_region_by_color[1]: text),
    key!("enPassantRegion" => en_passant_region: text),
    key!("enPassantRegionWhite" => en_passant_region_by_color[0]: text),
    key!("enPassantRegionBlack" => en_passant_region_by_color[1]: text),
    key!("pawnTypes" => pawn_types: parse_piece_letters),
    key!("promotionPawnTypes" => promotion_pawn_types: parse_piece_letters),
    key!("enPassantTypes" => en_passant_types: parse_piece_letters),
    key!("nMoveRuleTypes" => n_move_rule_types: parse_piece_letters),
    key!("promotionPieceTypes" => promotion_piece_types: parse_piece_letters),
    key!("promotionPieceTypesWhite" => promotion_piece_types_by_color[0]: parse_piece_letters),
    key!("promotionPieceTypesBlack" => promotion_piece_types_by_color[1]: parse_piece_letters),
    key!("promotionRegionWhite" => promotion_region_by_color[0]: text),
    key!("promotionRegionBlack" => promotion_region_by_color[1]: text),
    key!("promotionChoices" => promotion_choices: |v| letter_to_letters(v, "pawn:choices")),
    key!("mandatoryPawnPromotion" => mandatory_pawn_promotion: parse_bool),
    key!("immobilityIllegal" => immobility_illegal: parse_bool),
    key!("promotionLimit" => promotion_limit: parse_piece_value_list),
    key!("promotionTargets" => promotion_targets: parse_piece_char_map),
    key!("castling" => castling: parse_bool),
    key!("castlingKingsideFile" => castling_kingside_file: parse_file_letter_or_number),
    key!("castlingQueensideFile" => castling_queenside_file: parse_file_letter_or_number),
    key!("castlingRank" => castling_rank: parse_rank),
    key!("castlingKingFile" => castling_king_file: parse_file_letter_or_number),
    key!("castlingKingPiece" => castling_king_piece: parse_piece_letters),
    key!("castlingRookPieces" => castling_rook_pieces: parse_piece_letters),
    key!("castlingRookPiece" => castling_rook_piece: parse_piece_letters,
        if |s| s.castling_rook_pieces.is_none()),
    key!("gating" => gating: parse_bool),
    key!("seirawanGating" => seirawan_gating: parse_bool),
    key!("gatingBlocksCheck" => gating_blocks_check: parse_bool, if when_gating),
    key!("gatingRank" => gating_rank: parse_rank, if when_gating),
    key!("gatingPieceTypes" => gating_piece_types: parse_piece_letters, if when_gating),
    key!("gatedPieceTypes" => gated_piece_types: parse_piece_letters, if when_gating),
    key!("gatingLastCompulsory" => gating_last_compulsory: parse_bool, if when_gating),
    key!("gatingForfeit" => gating_forfeit: parse_bool, if when_gating),
    key!("pieceDrops" => piece_drops: parse_bool),
    key!("dropPieceTypes" => drop_piece_types: parse_piece_letters),
    key!("dropRule" => drop_rule: drop_rule),
    key!("dropRuleValuable" => drop_rule_valuable: parse_piece_letters),
    key!("capturesToHand" => captures_to_hand: parse_bool),
    key!("hurdleTypes" => hurdle_types: |v| letter_to_letters(v, "piece:letters")),
    key!("reservePieceType" => reserve_piece_type: single_letter),
    key!("reserveCount" => reserve_count: parse_uint, if when_reserve),
    key!("reserveKingRookExclusive" => reserve_king_rook_exclusive: parse_bool, if when_reserve),
    key!("succession" => succession: parse_piece_char_map),
    key!("extinctionPieceTypes" => extinction_piece_types: parse_piece_letters),
    key!("extinctionValue" => extinction_value: parse_value),
    key!("extinctionPseudoRoyal" => extinction_pseudo_royal: parse_bool),
    key!("extinctionPieceCount" => extinction_piece_count: parse_uint, if when_extinction),
    key!("extinctionOpponentPieceCount" => extinction_opponent_piece_count: parse_uint,
        if when_extinction),
    key!("extinctionClaim" => extinction_claim: parse_bool, if when_extinction),
    key!("flagPiece" => flag_piece: parse_piece_letters, if when_flag),
    key!("flagPieceWhite" => flag_piece_by_color[0]: parse_piece_letters, if when_flag),
    key!("flagPieceBlack" => flag_piece_by_color[1]: parse_piece_letters, if when_flag),
    key!("flagRegion" => flag_region: text),
    key!("flagRegionWhite" => flag_region_by_color[0]: text),
    key!("flagRegionBlack" => flag_region_by_color[1]: text),
    key!("flagPieceCount" => flag_piece_count: parse_uint, if when_flag),
    key!("flagPieceBlockedWin" => flag_piece_blocked_win: parse_bool, if when_flag),
    key!("flagMove" => flag_move: parse_bool, if when_flag),
    key!("flagPieceSafe" => flag_piece_safe: parse_bool, if when_flag),
    key!("checking" => checking: parse_bool),
    key!("dropChecks" => drop_checks: parse_bool, if when_drops),
    key!("mustCapture" => must_capture: parse_bool),
    key!("dropRegionWhite" => drop_region_by_color[0]: text, if when_drops),
    key!("dropRegionBlack" => drop_region_by_color[1]: text, if when_drops),
    key!("firstRankPawnDrops" => first_rank_pawn_drops: parse_bool, if when_drops),
    key!("promotionZonePawnDrops" => promotion_zone_pawn_drops: parse_bool, if when_drops),
    key!("flyingGeneral" => flying_general: parse_bool),
    key!("pass" => pass: parse_bool),
    key!("passWhite" => pass_by_color[0]: parse_bool),
    key!("passBlack" => pass_by_color[1]: parse_bool),
    key!("passOnStalemate" => pass_on_stalemate: parse_bool),
    key!("passOnStalemateWhite" => pass_on_stalemate_by_color[0]: parse_bool),
    key!("passOnStalemateBlack" => pass_on_stalemate_by_color[1]: parse_bool),
    key!("connectN" => connect_n: parse_uint),
    key!("connectPieceTypes" => connect_piece_types: parse_piece_letters, if when_connect),
    key!("connectHorizontal" => connect_horizontal: parse_bool, if when_connect),
    key!("connectVertical" => connect_vertical: parse_bool, if when_connect),
    key!("connectDiagonal" => connect_diagonal: parse_bool, if when_connect),
    key!("connectValue" => connect_value: parse_value, if when_connect),
    key!("nMoveRule" => n_move_rule: parse_uint),
    key!("nFoldRule" => n_fold_rule: parse_uint),
    key!("nFoldValue" => n_fold_value: parse_value),
    key!("nFoldValueAbsolute" => n_fold_value_absolute: parse_bool),
    key!("perpetualCheckIllegal" => perpetual_check_illegal: parse_bool),
    key!("materialCounting" => material_counting: MaterialCounting::parse),
    key!("stalematePieceCount" => stalemate_piece_count: parse_bool),
    key!("stalemateValue" => stalemate_value: parse_value),
    key!("checkmateValue" => checkmate_value: parse_value),
    key!("bareKingStalemateValue" => bare_king_stalemate_value: parse_value),
    key!("variantTemplate" => variant_template: parse_template),
    key!("pieceToCharTable" => piece_to_char_table: text),
    key!("pocketSize" => pocket_size: parse_uint),
    key!("pieceValueMg" => piece_value_mg: parse_piece_value_list),
    key!("pieceValueEg" => piece_value_eg: parse_piece_value_list),
    // Shogi family (variant::shogi).
    key!("mandatoryPiecePromotion" => mandatory_piece_promotion: parse_bool),
    key!("piecePromotionOnCapture" => piece_promotion_on_capture: parse_bool),
    key!("pieceDemotion" => piece_demotion: parse_bool),
    key!("dropPromoted" => drop_promoted: parse_bool),
    key!("dropNoDoubled" => drop_no_doubled: parse_piece_letters),
    key!("dropNoDoubledCount" => drop_no_doubled_count: parse_uint),
    key!("shogiPawnDropMateIllegal" => shogi_pawn_drop_mate_illegal: parse_bool),
    // Hands family (crazyhouse, bughouse, placement, sittuyin, n-check): `variant::hands`.
    key!("dropLoop" => drop_loop: parse_bool),
    key!("twoBoards" => two_boards: parse_bool),
    key!("mustDrop" => must_drop: parse_bool),
    key!("mustDropType" => must_drop_type: parse_piece_letters, if |s| or(&s.must_drop, false)),
    key!("dropOppositeColoredBishop" => drop_opposite_colored_bishop: parse_bool),
    key!("castlingDroppedPiece" => castling_dropped_piece: parse_bool),
    key!("sittuyinRookDrop" => sittuyin_rook_drop: parse_bool),
    key!("sittuyinPromotion" => sittuyin_promotion: parse_bool),
    key!("checkCounting" => check_counting: parse_bool),
    // Chess-like family: Chess960 castling, castling rooks off the corners, atomic
    // explosions and immunities, duple check.
    key!("chess960" => chess960: parse_bool),
    key!("castlingRookKingsideFile" => castling_rook_kingside_file: parse_file_letter_or_number),
    key!("castlingRookQueensideFile" => castling_rook_queenside_file: parse_file_letter_or_number),
    key!("blastOnCapture" => blast_on_capture: parse_bool),
    key!("blastImmuneTypes" => blast_immune_types: parse_piece_letters,
        if |s| or(&s.blast_on_capture, false)),
    key!("mutuallyImmuneTypes" => mutually_immune_types: parse_piece_letters),
    key!("dupleCheck" => duple_check: parse_bool, if |s| or(&s.extinction_pseudo_royal, false)),
    // Petrify family: a capturer of these types turns into a wall (`variant::petrify`).
    key!("petrifyOnCaptureTypes" => petrify_on_capture_types: parse_piece_letters),
    key!("petrifyBlastPieces" => petrify_blast_pieces: parse_bool),
    // Xiangqi and janggi.
    key!("soldierPromotionRank" => soldier_promotion_rank: parse_rank),
    key!("diagonalLines" => diagonal_lines: text),
    key!("bikjangRule" => bikjang_rule: parse_bool),
    key!("kingType" => king_type: predefined_piece_name),
    // Board games: walls, the duck, reversi and ataxx drops.
    key!("wallingRule" => walling_rule: WallingRule::parse),
    key!("wallingRegionWhite" => walling_region_by_color[0]: text),
    key!("wallingRegionBlack" => walling_region_by_color[1]: text),
    key!("wallingRegion" => walling_region: text),
    key!("wallOrMove" => wall_or_move: parse_bool),
    key!("enclosingDrop" => enclosing_drop: EnclosingRule::parse),
    key!("enclosingDropStart" => enclosing_drop_start: text),
    key!("flipEnclosedPieces" => flip_enclosed_pieces: EnclosingRule::parse),
    key!("adjudicateFullBoard" => adjudicate_full_board: parse_bool),
    // Fairy-Stockfish's ataxx drops need no man in hand; its file has no key for it (sections
    // inherit it from the built-in `ataxx`), so this one is Chimera's.
    key!("freeDrops" => free_drops: parse_bool),
    // Connect games: chains between regions, squares of men, men on one line.
    key!("connectRegion1White" => connect_region[0]: text),
    key!("connectRegion2White" => connect_region[1]: text),
    key!("connectRegion1Black" => connect_region[2]: text),
    key!("connectRegion2Black" => connect_region[3]: text),
    key!("connectNxN" => connect_nxn: parse_uint),
    key!("collinearN" => collinear_n: parse_uint),
    // The makruk family (makruk, cambodian, asean, shatar).
    key!("countingRule" => counting_rule: CountingRule::parse),
    key!("makpongRule" => makpong_rule: parse_bool),
    key!("cambodianMoves" => cambodian_moves: parse_bool),
    key!("shatarMateRule" => shatar_mate_rule: parse_bool),
    // Per-colour piece sets (khans, spartan-like armies): a colour's key overrides the plain
    // one for that colour, as in Fairy-Stockfish's parser.
    key!("promotionPawnTypesWhite" => promotion_pawn_types_by_color[0]: parse_piece_letters),
    key!("promotionPawnTypesBlack" => promotion_pawn_types_by_color[1]: parse_piece_letters),
    key!("enPassantTypesWhite" => en_passant_types_by_color[0]: parse_piece_letters),
    key!("enPassantTypesBlack" => en_passant_types_by_color[1]: parse_piece_letters),
    key!("nMoveRuleTypesWhite" => n_move_rule_types_by_color[0]: parse_piece_letters),
    key!("nMoveRuleTypesBlack" => n_move_rule_types_by_color[1]: parse_piece_letters),
    // Castling and pawn steps: triple steps (wildebeest), castling that wins (castle chess),
    // castling to the wing the opponent did not take (opposite castling).
    key!("tripleStepRegionWhite" => triple_step_region_by_color[0]: text),
    key!("tripleStepRegionBlack" => triple_step_region_by_color[1]: text),
    key!("castlingWins" => castling_wins: super::castle_rules::parse_rights),
    key!("oppositeCastling" => opposite_castling: parse_bool),
    // Xiangqi's and janggi's repetition rules: perpetual chases, a man moved back and forth.
    key!("chasingRule" => chasing_rule: super::chasing::parse_chasing_rule),
    key!("moveRepetitionIllegal" => move_repetition_illegal: parse_bool),
];

/// A predefined piece's name (`kingType = wazir`).
fn predefined_piece_name(value: &str) -> Result<String, String> {
    let v = value.trim();
    match predefined_moves(v) {
        Some(_) => Ok(v.to_string()),
        None => Err(format!("'{v}' is not a predefined piece")),
    }
}

/// The predefined piece names of the variants.ini format and their moves in XBetza.
/// The pawn's double step is added separately (key `doubleStep`).
const PREDEFINED: &[(&str, &str)] = &[
    ("pawn", "fmWfceF"),
    ("knight", "N"),
    ("bishop", "B"),
    ("rook", "R"),
    ("queen", "Q"),
    ("fers", "F"),
    ("alfil", "A"),
    ("fersAlfil", "FA"),
    ("silver", "FfW"),
    ("aiwok", "RNF"),
    ("bers", "RF"),
    ("archbishop", "BN"),
    ("chancellor", "RN"),
    ("amazon", "QN"),
    ("knibis", "mNcB"),
    ("biskni", "mBcN"),
    ("kniroo", "mNcR"),
    ("rookni", "mRcN"),
    ("shogiPawn", "fW"),
    ("lance", "fR"),
    ("shogiKnight", "fN"),
    ("gold", "WfF"),
    ("dragonHorse", "BW"),
    ("clobber", "cW"),
    ("breakthrough", "fmWfF"),
    ("immobile", ""),
    ("cannon", "mRcpR"),
    ("janggiCannon", "pR"),
    ("soldier", "fsW"),
    ("horse", "nN"),
    ("elephant", "nA"),
    ("janggiElephant", "nZ"),
    ("banner", "RcpRnN"),
    ("wazir", "W"),
    ("commoner", "K"),
    ("centaur", "KN"),
    ("king", "K"),
];

/// The number of `customPieceN` slots.
const CUSTOM_SLOTS: usize = 25;

pub(crate) fn predefined_moves(name: &str) -> Option<&'static str> {
    PREDEFINED.iter().find(|(n, _)| *n == name).map(|(_, b)| *b)
}

/// Where the predefined piece `name` stands in [`PREDEFINED`], which is Fairy-Stockfish's
/// order of its piece types (pawn first, king last).
pub(crate) fn predefined_index(name: &str) -> Option<usize> {
    PREDEFINED.iter().position(|(n, _)| *n == name)
}

fn is_custom_slot(key: &str) -> bool {
    key.strip_prefix("customPiece")
        .and_then(|n| n.parse::<usize>().ok())
        .is_some_and(|n| (1..=CUSTOM_SLOTS).contains(&n))
}

/// `mobilityRegionWhiteKing` names White's king region: the colour and the piece key
/// (`king`, `customPiece3`, `janggiElephant`), when the piece name is one.
fn mobility_key(key: &str) -> Option<(usize, String)> {
    let rest = key.strip_prefix("mobilityRegion")?;
    let (color, name) = if let Some(n) = rest.strip_prefix("White") {
        (0, n)
    } else {
        (1, rest.strip_prefix("Black")?)
    };
    let mut chars = name.chars();
    let first = chars.next()?.to_ascii_lowercase();
    let piece = format!("{first}{}", chars.as_str());
    (predefined_moves(&piece).is_some() || is_custom_slot(&piece)).then_some((color, piece))
}

/// Reads every line of `section` into a spec. Each value that does not parse, each unknown key
/// and each bad piece assignment is an error; the spec holds every value that did parse.
pub(crate) fn read(section: &SectionConfig) -> (VariantSpec, Vec<VariantError>) {
    let mut spec = VariantSpec {
        name: section.name.clone(),
        header: Place {
            file: section.file.clone(),
            line: section.line,
            key: None,
            dialect: section.dialect,
        },
        dialect: section.dialect,
        root_dialect: section.root_dialect,
        root_file: section.root_file.clone(),
        ..VariantSpec::default()
    };
    let mut errors = Vec::new();
    for entry in section.entries() {
        let at = Place::of(entry);
        if entry.key == "promotedPieceType" {
            match parse_promoted_types(&entry.value) {
                Ok(pairs) => {
                    let own = entry.section == section.name;
                    let side = |c: char| match (c, own) {
                        ('-', _) => PieceRef::None,
                        (c, true) => PieceRef::Letter(c),
                        (c, false) => spec
                            .pieces
                            .iter()
                            .find(|p| p.letter == c.to_ascii_uppercase())
                            .map_or(PieceRef::None, |p| PieceRef::Name(p.name.clone())),
                    };
                    let value = pairs.iter().map(|&(a, b)| (side(a), side(b))).collect();
                    spec.promoted_piece_type.push(Located { value, at });
                }
                Err(reason) => errors.push(at.error(reason)),
            }
        } else if let Some(key) = KEYS.iter().find(|k| k.name == entry.key) {
            let value = if entry.dialect == Dialect::FairyStockfish
                && entry.section != section.name
                && LETTER_SET_KEYS.contains(&key.name)
            {
                letters_by_type(section, entry)
            } else {
                entry.value.clone()
            };
            if let Err(reason) = (key.read)(&mut spec, &value, at.clone()) {
                errors.push(at.error(reason));
            }
        } else if let Some((color, piece)) = mobility_key(&entry.key) {
            spec.mobility_regions.push((
                color,
                piece,
                Located {
                    value: entry.value.clone(),
                    at,
                },
            ));
        } else if predefined_moves(&entry.key).is_some() || is_custom_slot(&entry.key) {
            if let Err(reason) = read_piece(&mut spec, entry, at.clone()) {
                errors.push(at.error(reason));
            }
        } else {
            errors.push(at.error("unknown key"));
        }
    }
    (spec, errors)
}

/// The keys whose values are sets of piece letters. Fairy-Stockfish reads them as sets of
/// piece types: a child section that gives a piece another letter (or removes it) changes what
/// an inherited set holds.
const LETTER_SET_KEYS: &[&str] = &[
    "captureTypes",
    "captureSupportTypes",
    "pawnTypes",
    "promotionPawnTypes",
    "enPassantTypes",
    "nMoveRuleTypes",
    "promotionPieceTypes",
    "promotionPieceTypesWhite",
    "promotionPieceTypesBlack",
    "castlingKingPiece",
    "castlingRookPieces",
    "castlingRookPiece",
    "gatingPieceTypes",
    "gatedPieceTypes",
    "dropPieceTypes",
    "dropRuleValuable",
    "extinctionPieceTypes",
    "flagPiece",
    "flagPieceWhite",
    "flagPieceBlack",
    "connectPieceTypes",
    "promotionPawnTypesWhite",
    "promotionPawnTypesBlack",
    "enPassantTypesWhite",
    "enPassantTypesBlack",
    "nMoveRuleTypesWhite",
    "nMoveRuleTypesBlack",
];

/// True for a line whose reading differs between the dialects (docs/variant-files.md,
/// "Dialects"): a piece with moves of its own (lame oblique leaps, initial moves), the check,
/// pseudo-royal and double-step rules, promotion regions, sets of piece letters, a start
/// position (castling rights, `*`). A predefined piece named with no moves (`pawn = p`) is
/// read as each dialect reads that piece, so it is not one.
fn dialect_sensitive(entry: &Entry) -> bool {
    const KEYS: &[&str] = &[
        "checking",
        "extinctionPseudoRoyal",
        "dupleCheck",
        "doubleStep",
        "doubleStepRegionWhite",
        "doubleStepRegionBlack",
        "promotionRegionWhite",
        "promotionRegionBlack",
        "startFen",
    ];
    KEYS.contains(&entry.key.as_str())
        || LETTER_SET_KEYS.contains(&entry.key.as_str())
        || is_piece_key(&entry.key) && entry.value.contains(':')
}

/// The ancestors of `section` written in another dialect than its own that give an inherited
/// line a reading that differs between the dialects, nearest first, each with its dialect:
/// the section keeps their meaning for those lines (what `chimera check` warns of).
pub fn other_dialect_parents(section: &SectionConfig) -> Vec<(String, Dialect)> {
    let mut out: Vec<(String, Dialect)> = Vec::new();
    for name in section.lineage.iter().skip(1) {
        let lines = || {
            section
                .entries()
                .iter()
                .chain(&section.shadowed)
                .filter(|e| e.section == *name && e.dialect != section.dialect)
        };
        if let Some(first) = lines().find(|e| dialect_sensitive(e)) {
            out.push((name.clone(), first.dialect));
        }
    }
    out
}

/// True for a key that assigns a piece (`knight`, `customPiece3`).
fn is_piece_key(key: &str) -> bool {
    predefined_moves(key).is_some() || is_custom_slot(key)
}

/// The letter a piece assignment gives (`None` for a removal).
fn assigned_letter(value: &str) -> Option<char> {
    let letter = value.trim().split(':').next()?.trim();
    let mut chars = letter.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => Some(c.to_ascii_lowercase()),
        _ => None,
    }
}

/// An inherited letter set as Fairy-Stockfish means it: each letter names the piece that had
/// it in the section that wrote the set, and stands for that piece's letter in `section`
/// (left out when `section` has removed the piece). Letters no piece had there stay.
fn letters_by_type(section: &SectionConfig, entry: &Entry) -> String {
    let Some(writer) = section.lineage.iter().position(|n| *n == entry.section) else {
        return entry.value.clone();
    };
    let depth = |e: &Entry| section.lineage.iter().position(|n| *n == e.section);
    // The piece assignments the writer saw: per piece key, the nearest at or above it.
    let mut seen: Vec<(&str, usize, Option<char>)> = Vec::new();
    for e in section.entries().iter().chain(&section.shadowed) {
        let Some(d) = depth(e).filter(|&d| d >= writer && is_piece_key(&e.key)) else {
            continue;
        };
        match seen.iter_mut().find(|s| s.0 == e.key) {
            Some(s) if s.1 <= d => {}
            Some(s) => *s = (&e.key, d, assigned_letter(&e.value)),
            None => seen.push((&e.key, d, assigned_letter(&e.value))),
        }
    }
    let value = entry.value.trim();
    if value.is_empty() || value == "-" {
        return entry.value.clone();
    }
    let mut out = String::new();
    for c in value.chars().filter(|c| !c.is_whitespace()) {
        let lower = c.to_ascii_lowercase();
        let Some(&(key, _, _)) = seen.iter().find(|s| s.2 == Some(lower)) else {
            out.push(c);
            continue;
        };
        if let Some(now) = section.get(key).and_then(|e| assigned_letter(&e.value)) {
            out.push(now);
        }
    }
    if out.is_empty() {
        "-".to_string()
    } else {
        out
    }
}

/// `name = letter` or `name = letter:betza`; `name = -` (or empty) removes an inherited piece.
fn read_piece(spec: &mut VariantSpec, entry: &Entry, at: Place) -> Result<(), String> {
    let value = entry.value.trim();
    if value == "-" || value.is_empty() {
        return Ok(());
    }
    let (letter_text, betza) = match value.split_once(':') {
        Some((l, b)) => (l.trim(), Some(b.trim().to_string())),
        None if is_custom_slot(&entry.key) => {
            return Err("a custom piece needs 'letter:betza'".to_string())
        }
        None => (value, None),
    };
    let mut chars = letter_text.chars();
    let letter = match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => c.to_ascii_uppercase(),
        _ => return Err(format!("'{letter_text}' is not a single piece letter")),
    };
    if at.dialect == Dialect::FairyStockfish {
        // Fairy-Stockfish replaces the piece that had the letter.
        spec.pieces.retain(|p| p.letter != letter);
    } else if let Some(other) = spec.pieces.iter().find(|p| p.letter == letter) {
        return Err(format!(
            "letter '{}' is already used by {}",
            letter.to_ascii_lowercase(),
            other.name
        ));
    }
    if spec.pieces.len() == MAX_PIECE_TYPES - 1 {
        return Err(format!("more than {} piece types", MAX_PIECE_TYPES - 1));
    }
    spec.pieces.push(PieceSpec {
        name: entry.key.clone(),
        letter,
        betza,
        at,
    });
    Ok(())
}

/// One "has no effect in this variant" error for each key that other keys make meaningless.
pub(crate) fn ineffective_keys(spec: &VariantSpec, section: &SectionConfig) -> Vec<VariantError> {
    section
        .entries()
        .iter()
        .filter(|e| {
            KEYS.iter()
                .find(|k| k.name == e.key)
                .is_some_and(|k| !(k.effective)(spec))
        })
        .map(|e| e.error("has no effect in this variant"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_bound_once() {
        for (i, k) in KEYS.iter().enumerate() {
            assert!(
                KEYS[i + 1..].iter().all(|other| other.name != k.name),
                "{} is bound twice",
                k.name
            );
            assert!(predefined_moves(k.name).is_none() && !is_custom_slot(k.name));
        }
    }
}
