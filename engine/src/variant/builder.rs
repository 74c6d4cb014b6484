//! From a resolved INI section to a built [`Variant`]: each key parsed by its type, checks
//! across keys, piece moves compiled for the geometry, and every key that was never read
//! reported as unknown. All errors name the file, line and key.

use std::sync::Arc;

use super::boards::{CaptureRules, TransferRules};
use super::compile::compile_piece;
use super::config::{
    parse_bool, parse_file_letter_or_number, parse_piece_char_map, parse_piece_letters,
    parse_piece_value_list, parse_rank, parse_square_list, parse_template, parse_uint, parse_value,
    ConfigError, GameValue, SectionConfig,
};
use super::setup::{self, Setup};
use super::tables::{AttackTables, CheckReach, PieceMask, EN_PASSANT};
use super::turns::TurnRules;
use super::zobrist::Zobrist;
use super::{
    CastlingRules, DropRule, GatingRules, PieceDef, PromotionRules, ReserveRules, Variant,
    VariantRef,
};
use crate::types::{Cell, Color, Geometry, PieceId, MAX_PIECE_TYPES};

/// A problem in a variant definition, located at a file, line and key.
pub type VariantError = ConfigError;

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

/// Every rule key the builder reads (piece names and `customPieceN` aside).
const RULE_KEYS: &[&str] = &[
    "maxFile",
    "boards",
    "boardTransfer",
    "captureTypes",
    "captureSupportTypes",
    "turnParts",
    "firstTurnParts",
    "promotionChoices",
    "maxRank",
    "startFen",
    "doubleStep",
    "pawnTypes",
    "promotionPawnTypes",
    "enPassantTypes",
    "nMoveRuleTypes",
    "promotionPieceTypes",
    "promotionPieceTypesWhite",
    "promotionPieceTypesBlack",
    "promotionRegionWhite",
    "promotionRegionBlack",
    "mandatoryPawnPromotion",
    "immobilityIllegal",
    "promotionLimit",
    "castling",
    "castlingKingsideFile",
    "castlingQueensideFile",
    "castlingRank",
    "castlingKingFile",
    "castlingKingPiece",
    "castlingRookPieces",
    "castlingRookPiece",
    "gating",
    "seirawanGating",
    "gatingBlocksCheck",
    "gatingRank",
    "gatingPieceTypes",
    "gatedPieceTypes",
    "gatingLastCompulsory",
    "gatingForfeit",
    "dropPieceTypes",
    "dropRule",
    "dropRuleValuable",
    "hurdleTypes",
    "bareKingStalemateValue",
    "reservePieceType",
    "reserveCount",
    "reserveKingRookExclusive",
    "pieceDrops",
    "capturesToHand",
    "checking",
    "nMoveRule",
    "nFoldRule",
    "stalemateValue",
    "checkmateValue",
    "variantTemplate",
    "pieceToCharTable",
    "pocketSize",
    "pieceValueMg",
    "pieceValueEg",
    "promotionTargets",
    "succession",
    "extinctionPieceTypes",
    "extinctionValue",
    "extinctionPseudoRoyal",
];

/// True for a key the builder knows (a rule key, a piece name or a custom piece slot).
fn is_known_key(key: &str) -> bool {
    RULE_KEYS.contains(&key)
        || PREDEFINED.iter().any(|(name, _)| *name == key)
        || key
            .strip_prefix("customPiece")
            .and_then(|n| n.parse::<usize>().ok())
            .is_some_and(|n| (1..=CUSTOM_SLOTS).contains(&n))
}

/// The number of `customPieceN` slots.
const CUSTOM_SLOTS: usize = 25;

struct Errors(Vec<VariantError>);

impl Errors {
    fn take<T>(&mut self, r: Result<T, VariantError>) -> Option<T> {
        match r {
            Ok(v) => Some(v),
            Err(e) => {
                self.0.push(e);
                None
            }
        }
    }
}

/// Builds a variant from its resolved section. `source` names where it came from.
pub fn build(section: &SectionConfig, source: &str) -> Result<VariantRef, Vec<VariantError>> {
    section.reset_consumed();
    let mut errs = Errors(Vec::new());
    let v = build_inner(section, source, &mut errs);
    // A key the builder does not know is an error. A known key left unread is one that has no
    // effect in this variant; that is reported too, but only when the build got that far (an
    // early error leaves later keys unread).
    for entry in section.unconsumed() {
        if !is_known_key(&entry.key) {
            errs.0.push(entry.error("unknown key"));
        } else if v.is_some() {
            errs.0.push(entry.error("has no effect in this variant"));
        }
    }
    match v {
        Some(v) if errs.0.is_empty() => Ok(v),
        _ => {
            if errs.0.is_empty() {
                errs.0.push(section.error("the variant could not be built"));
            }
            errs.0.sort_by_key(|e| (e.file.clone(), e.line));
            Err(errs.0)
        }
    }
}

fn build_inner(s: &SectionConfig, source: &str, errs: &mut Errors) -> Option<VariantRef> {
    // Everything else depends on the board size, so a bad size ends the build here.
    let files = errs
        .take(s.get_with("maxFile", parse_file_letter_or_number))?
        .map_or(8, |f| f + 1);
    let ranks = errs
        .take(s.get_with("maxRank", parse_rank))?
        .map_or(8, |r| r + 1);
    let boards = errs.take(s.get_with("boards", parse_uint))?.unwrap_or(1);
    let geometry = match Geometry::new(files as u8, ranks as u8, boards.min(255) as u8) {
        Ok(g) => g,
        Err(e) => {
            let at = s.peek("boards").or(s.peek("maxFile")).or(s.peek("maxRank"));
            errs.0.push(match at {
                Some(entry) => entry.error(e),
                None => s.error(e),
            });
            return None;
        }
    };

    let double_step = errs
        .take(s.get_with("doubleStep", parse_bool))
        .flatten()
        .unwrap_or(true);
    let pieces = collect_pieces(s, &geometry, double_step, errs)?;
    // A piece set given in the file must name existing pieces; a default keeps the letters
    // this variant has (a variant without pawns has no pawn types).
    let letter_set = |key: &str, default: &str, errs: &mut Errors| -> Option<PieceMask> {
        let (letters, entry) = match s.get(key) {
            None => (parse_piece_letters(default).unwrap_or_default(), None),
            Some(e) => (
                errs.take(parse_piece_letters(&e.value).map_err(|r| e.error(r)))?,
                Some(e),
            ),
        };
        let mut mask = 0;
        for l in letters {
            match pieces
                .iter()
                .position(|p| p.letter == l.to_ascii_uppercase())
            {
                Some(i) => mask |= 1 << i,
                None => {
                    if let Some(e) = entry {
                        errs.0.push(e.error(format!("no piece '{l}'")));
                    }
                }
            }
        }
        Some(mask)
    };

    let transfer = build_transfer(s, &geometry, errs);
    let captures = CaptureRules {
        capturers: match s.peek("captureTypes") {
            Some(_) => letter_set("captureTypes", "", errs).unwrap_or(0),
            None => PieceMask::MAX,
        },
        supporters: letter_set("captureSupportTypes", "", errs).unwrap_or(0),
    };
    let turns = match s.peek("turnParts") {
        None => None,
        Some(entry) => {
            // Parts are separated by spaces, so each is read as its own letter set.
            let part_masks = |key: &str, errs: &mut Errors| -> Vec<PieceMask> {
                let Some(e) = s.get(key) else {
                    return Vec::new();
                };
                let mut out = Vec::new();
                for word in e.value.split_whitespace() {
                    let mut mask = 0;
                    for l in word.chars() {
                        match pieces
                            .iter()
                            .position(|p| p.letter == l.to_ascii_uppercase())
                        {
                            Some(i) => mask |= 1 << i,
                            None => errs.0.push(e.error(format!("no piece '{l}'"))),
                        }
                    }
                    out.push(mask);
                }
                out
            };
            let parts = part_masks("turnParts", errs);
            let opening = part_masks("firstTurnParts", errs);
            errs.take(TurnRules::new(parts, opening).map_err(|r| entry.error(r)))
        }
    };
    let pawn_types = letter_set("pawnTypes", "p", errs).unwrap_or(0);
    let promo_pawns = match s.peek("promotionPawnTypes") {
        Some(_) => letter_set("promotionPawnTypes", "", errs).unwrap_or(0),
        None => pawn_types,
    };
    let ep_capturers = match s.peek("enPassantTypes") {
        Some(_) => letter_set("enPassantTypes", "", errs).unwrap_or(0),
        None => pawn_types,
    };
    let n_move_types = match s.peek("nMoveRuleTypes") {
        Some(_) => letter_set("nMoveRuleTypes", "", errs).unwrap_or(0),
        None => pawn_types,
    };
    let drop_types = match s.peek("dropPieceTypes") {
        Some(_) => letter_set("dropPieceTypes", "", errs).unwrap_or(0),
        None => u32::MAX,
    };
    let drop_valuable = letter_set("dropRuleValuable", "", errs).unwrap_or(0);
    let extinction_types = match s.peek("extinctionPieceTypes") {
        Some(_) => letter_set("extinctionPieceTypes", "", errs).unwrap_or(0),
        None => 0,
    };
    let mut pieces = pieces;
    if let Some(e) = s.get("hurdleTypes") {
        // `p:ot o:pt`: a piece letter, then the letters of the men it may hop over.
        for token in e.value.split_whitespace() {
            let parsed = token.split_once(':').and_then(|(who, over)| {
                let hopper = letter_ids(&pieces, &who.chars().collect::<Vec<_>>()).ok()?;
                let screens = letter_ids(&pieces, &over.chars().collect::<Vec<_>>()).ok()?;
                Some((hopper, screens))
            });
            match parsed {
                Some((hopper, screens)) if hopper.len() == 1 => {
                    pieces[hopper[0].index()].hurdles =
                        screens.iter().fold(0, |m, id| m | 1 << id.0);
                }
                _ => errs
                    .0
                    .push(e.error(format!("'{token}' is not piece:letters of existing pieces"))),
            }
        }
    }
    for (i, p) in pieces.iter_mut().enumerate() {
        if ep_capturers & (1 << i) == 0 {
            for m in p.moves.iter_mut() {
                for l in m.leaps.iter_mut() {
                    l.mode &= !EN_PASSANT;
                }
                for r in m.rays.iter_mut() {
                    r.mode &= !EN_PASSANT;
                }
            }
        }
    }

    // Pairs of piece letters (`p:n s:h`) as pairs of piece ids.
    let id_pairs = |key: &str, errs: &mut Errors| -> Vec<(PieceId, PieceId)> {
        let Some(e) = s.get(key) else {
            return Vec::new();
        };
        let Some(pairs) = errs.take(parse_piece_char_map(&e.value).map_err(|r| e.error(r))) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (a, b) in pairs {
            match letter_ids(&pieces, &[a, b]) {
                Ok(ids) => out.push((ids[0], ids[1])),
                Err(reason) => errs.0.push(e.error(reason)),
            }
        }
        out
    };
    let targets = id_pairs("promotionTargets", errs);
    let succession = id_pairs("succession", errs);
    let extinction_value = errs
        .take(s.get_with("extinctionValue", parse_value))
        .flatten()
        .unwrap_or(GameValue::None);
    let extinction_royals = errs
        .take(s.get_with("extinctionPseudoRoyal", parse_bool))
        .flatten()
        .unwrap_or(false);
    if extinction_royals {
        for (i, p) in pieces.iter_mut().enumerate() {
            p.royal |= extinction_types & (1 << i) != 0;
        }
    }
    let target_pawns = targets.iter().fold(0u32, |m, (p, _)| m | 1 << p.0);
    let mut promotion = build_promotion(s, &geometry, &pieces, promo_pawns | target_pawns, errs)?;
    for (pawn, target) in targets {
        promotion.targets[pawn.index()] = Some(target);
    }
    let castling = build_castling(s, &geometry, &pieces, errs);
    let gating = build_gating(s, &pieces, errs);
    let drops = errs
        .take(s.get_with("pieceDrops", parse_bool))
        .flatten()
        .unwrap_or(false);
    let captures_to_hand = errs
        .take(s.get_with("capturesToHand", parse_bool))
        .flatten()
        .unwrap_or(false);
    let checking = errs
        .take(s.get_with("checking", parse_bool))
        .flatten()
        .unwrap_or(true);
    let n_move_rule = errs
        .take(s.get_with("nMoveRule", parse_uint))
        .flatten()
        .unwrap_or(50);
    let n_fold_rule = errs
        .take(s.get_with("nFoldRule", parse_uint))
        .flatten()
        .unwrap_or(3);
    let stalemate_value = errs
        .take(s.get_with("stalemateValue", parse_value))
        .flatten()
        .unwrap_or(GameValue::Draw);
    let checkmate_value = errs
        .take(s.get_with("checkmateValue", parse_value))
        .flatten()
        .unwrap_or(GameValue::Loss);
    let drop_rule = match s.get("dropRule") {
        None => DropRule::Free,
        Some(e) => match e.value.as_str() {
            "none" => DropRule::Free,
            "pawnvault" => DropRule::PawnVault,
            "pawnvault-loose" => DropRule::PawnVaultLoose,
            other => {
                errs.0.push(e.error(format!(
                    "unknown drop rule '{other}' (none, pawnvault, pawnvault-loose)"
                )));
                DropRule::Free
            }
        },
    };
    let reserve = match s.get("reservePieceType") {
        None => None,
        Some(e) => {
            let id = parse_piece_letters(&e.value)
                .and_then(|l| letter_ids(&pieces, &l))
                .map_err(|r| e.error(r))
                .and_then(|ids| match ids.as_slice() {
                    [one] => Ok(*one),
                    _ => Err(e.error("give one piece letter")),
                });
            let count = errs
                .take(s.get_with("reserveCount", parse_uint))
                .flatten()
                .unwrap_or(1);
            let exclusive = errs
                .take(s.get_with("reserveKingRookExclusive", parse_bool))
                .flatten()
                .unwrap_or(true);
            match (errs.take(id), count) {
                (Some(piece), 1 | 2) => Some(ReserveRules {
                    piece,
                    count: count as u8,
                    king_rook_exclusive: exclusive,
                }),
                (Some(_), _) => {
                    if let Some(c) = s.peek("reserveCount") {
                        errs.0.push(c.error("1 or 2 reserve men"));
                    }
                    None
                }
                (None, _) => None,
            }
        }
    };
    let bare_king_stalemate = errs
        .take(s.get_with("bareKingStalemateValue", parse_value))
        .flatten()
        .unwrap_or(GameValue::None);
    let template = errs
        .take(s.get_with("variantTemplate", parse_template))
        .flatten()
        .unwrap_or_else(|| "fairy".to_string());
    let piece_to_char_table = s.value("pieceToCharTable").map(str::to_string);
    let pocket_size = errs
        .take(s.get_with("pocketSize", parse_uint))
        .flatten()
        .unwrap_or(0);
    let mg = errs
        .take(s.get_with("pieceValueMg", parse_piece_value_list))
        .flatten()
        .unwrap_or_default();
    let eg = errs
        .take(s.get_with("pieceValueEg", parse_piece_value_list))
        .flatten()
        .unwrap_or_default();
    let mut piece_values: Vec<(char, Option<i32>, Option<i32>)> = Vec::new();
    for (l, v) in mg {
        piece_values.push((l, Some(v), eg.iter().find(|e| e.0 == l).map(|e| e.1)));
    }
    for (l, v) in eg {
        if !piece_values.iter().any(|p| p.0 == l) {
            piece_values.push((l, None, Some(v)));
        }
    }

    let start_fen_entry = s.get("startFen");
    let start_fen = start_fen_entry
        .map(|e| e.value.clone())
        .unwrap_or_else(|| "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_string());
    let has_hand = drops || captures_to_hand || gating.is_some() || start_fen.contains('[');

    // Virginity matters for initial moves and, in gating variants, for the gating rights.
    let virgin_keyed = if gating.is_some() {
        u32::MAX
    } else {
        pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.has_initial_moves)
            .fold(0u32, |m, (i, _)| m | 1 << i)
    };
    let royal_mask = pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| p.royal)
        .fold(0u32, |m, (i, _)| m | 1 << i);
    let white: Vec<_> = pieces.iter().map(|p| &p.moves[0]).collect();
    let black: Vec<_> = pieces.iter().map(|p| &p.moves[1]).collect();
    let attacks = [AttackTables::build(&white), AttackTables::build(&black)];
    let simple_attacks = attacks.iter().all(|a| a.general == 0);
    let board_rules = transfer.is_some() || turns.is_some() || captures.restricted();
    // Checks are judged by the mover's type and squares only where attacks are plain leaps
    // and slides on one board and no rule adds to what a move does (succession does: a
    // capture may turn an enemy man into a type with other attacks).
    let unmade_checks = simple_attacks && checking && geometry.boards == 1 && !board_rules;
    let check_reach = if unmade_checks && succession.is_empty() {
        CheckReach::build(&attacks[0], &geometry)
            .zip(CheckReach::build(&attacks[1], &geometry))
            .map(|(w, b)| [w, b])
    } else {
        None
    };
    let ep_attacks = [
        ep_attack_table(&pieces, Color::White),
        ep_attack_table(&pieces, Color::Black),
    ];
    let ep_two_squares = pieces.iter().enumerate().any(|(i, p)| {
        pawn_types & (1 << i) != 0
            && p.moves[0]
                .double_steps
                .iter()
                .any(|d| d.delta % geometry.stride() as i16 != 0)
    });
    let mut empty_board = vec![Cell::OFF; geometry.num_cells()];
    for sq in geometry.squares() {
        empty_board[sq.index()] = Cell::EMPTY;
    }

    let variant = Variant {
        name: s.name.clone(),
        zobrist: Zobrist::new(geometry.num_cells()),
        geometry,
        pieces,
        start_fen,
        castling,
        promotion,
        ep_types: pawn_types,
        gating,
        reserve,
        board_rules,
        transfer,
        captures,
        turns,
        drops,
        drop_types,
        drop_rule,
        drop_valuable,
        bare_king_stalemate,
        captures_to_hand,
        has_hand,
        virgin_keyed,
        succession,
        extinction_royals,
        extinction_types,
        extinction_value,
        royal_mask,
        checking,
        n_move_rule: 2 * n_move_rule,
        n_fold_rule,
        stalemate_value,
        checkmate_value,
        pawn_like: n_move_types,
        attacks,
        ep_attacks,
        ep_two_squares,
        simple_attacks,
        check_reach,
        start_board: Vec::new(),
        empty_board,
        source: source.to_string(),
        template,
        piece_to_char_table,
        pocket_size,
        piece_values,
    };
    // The start position is checked against the finished rules; with an error already found
    // it would only report that error's consequences.
    if !errs.0.is_empty() {
        return None;
    }
    let mut variant = variant;
    let placement =
        Setup::parse(&variant.start_fen).and_then(|setup| setup::placement(&variant, &setup));
    match placement {
        Ok((men, _)) => {
            variant.start_board = variant.empty_board.clone();
            for (sq, piece) in men {
                variant.start_board[sq.index()] = Cell::new(piece, false);
            }
        }
        Err(e) => {
            let at = start_fen_entry.map_or_else(
                || s.error(format!("start position: {e}")),
                |en| en.error(e.to_string()),
            );
            errs.0.push(at);
            return None;
        }
    }
    // The registry sets the start position up on a board, to see that the rules can play it.
    Some(Arc::new(variant))
}

/// Every piece assignment of the section, in order: predefined names and `customPieceN` slots,
/// `name = letter` or `name = letter:betza`; `name = -` removes an inherited piece.
fn collect_pieces(
    s: &SectionConfig,
    g: &Geometry,
    double_step: bool,
    errs: &mut Errors,
) -> Option<Vec<PieceDef>> {
    let mut out: Vec<PieceDef> = Vec::new();
    let keys: Vec<String> = s.keys().map(str::to_string).collect();
    for key in keys {
        let predefined = PREDEFINED.iter().find(|(n, _)| *n == key).map(|(_, b)| *b);
        let custom = key
            .strip_prefix("customPiece")
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|n| (1..=CUSTOM_SLOTS).contains(n));
        if predefined.is_none() && custom.is_none() {
            continue;
        }
        let Some(entry) = s.get(&key) else { continue };
        let value = entry.value.trim();
        if value == "-" || value.is_empty() {
            continue;
        }
        let (letter_text, betza) = match value.split_once(':') {
            Some((l, b)) => (l.trim(), b.trim().to_string()),
            None if custom.is_some() => {
                errs.0
                    .push(entry.error("a custom piece needs 'letter:betza'"));
                continue;
            }
            None => {
                let base = predefined.unwrap_or_default().to_string();
                let base = if key == "pawn" && double_step {
                    format!("{base}ifmnD")
                } else {
                    base
                };
                (value, base)
            }
        };
        let mut chars = letter_text.chars();
        let letter = match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_alphabetic() => c.to_ascii_uppercase(),
            _ => {
                errs.0
                    .push(entry.error(format!("'{letter_text}' is not a single piece letter")));
                continue;
            }
        };
        if let Some(other) = out.iter().find(|p| p.letter == letter) {
            errs.0.push(entry.error(format!(
                "letter '{}' is already used by {}",
                letter.to_ascii_lowercase(),
                other.name
            )));
            continue;
        }
        if out.len() == MAX_PIECE_TYPES - 1 {
            errs.0
                .push(entry.error(format!("more than {} piece types", MAX_PIECE_TYPES - 1)));
            continue;
        }
        match compile_piece(&betza, g) {
            Ok(compiled) => out.push(PieceDef {
                name: key.clone(),
                letter,
                betza,
                royal: key == "king",
                moves: compiled.moves,
                has_initial_moves: compiled.has_initial_moves,
                hurdles: u32::MAX,
            }),
            Err(e) => errs.0.push(entry.error(e)),
        }
    }
    if out.is_empty() {
        errs.0.push(s.error("the variant defines no pieces"));
        return None;
    }
    Some(out)
}

fn letter_ids(pieces: &[PieceDef], letters: &[char]) -> Result<Vec<PieceId>, String> {
    letters
        .iter()
        .map(|l| {
            pieces
                .iter()
                .position(|p| p.letter == l.to_ascii_uppercase())
                .map(|i| PieceId(i as u8))
                .ok_or_else(|| format!("no piece '{l}'"))
        })
        .collect()
}

/// The transfer map of a multi-board variant (`boardTransfer`), required with several boards
/// and meaningless with one.
fn build_transfer(s: &SectionConfig, g: &Geometry, errs: &mut Errors) -> Option<TransferRules> {
    let entry = s.get("boardTransfer");
    match (entry, g.boards) {
        (None, 1) => None,
        (None, _) => {
            errs.0.push(s.error("several boards need boardTransfer"));
            None
        }
        (Some(e), 1) => {
            errs.0
                .push(e.error("one board: there is nowhere to transfer to"));
            None
        }
        (Some(e), n) => {
            errs.take(TransferRules::parse(&e.value, n as usize).map_err(|r| e.error(r)))
        }
    }
}

fn build_promotion(
    s: &SectionConfig,
    g: &Geometry,
    pieces: &[PieceDef],
    pawn_types: PieceMask,
    errs: &mut Errors,
) -> Option<PromotionRules> {
    let mut rules = PromotionRules {
        pawn_types,
        ..PromotionRules::default()
    };
    let shared = s.get_with("promotionPieceTypes", |v| {
        parse_piece_letters(v).and_then(|l| letter_ids(pieces, &l))
    });
    let shared = errs.take(shared).flatten();
    for (i, key) in ["promotionPieceTypesWhite", "promotionPieceTypesBlack"]
        .iter()
        .enumerate()
    {
        let own = errs
            .take(s.get_with(key, |v| {
                parse_piece_letters(v).and_then(|l| letter_ids(pieces, &l))
            }))
            .flatten();
        // The default, "qrbn", keeps only the letters this variant has.
        rules.choices[i] = own.or_else(|| shared.clone()).unwrap_or_else(|| {
            ['q', 'r', 'b', 'n']
                .iter()
                .filter_map(|&l| letter_ids(pieces, &[l]).ok())
                .flatten()
                .collect()
        });
    }
    for (i, (key, default_rank)) in [
        ("promotionRegionWhite", g.ranks as usize - 1),
        ("promotionRegionBlack", 0),
    ]
    .iter()
    .enumerate()
    {
        let mut zone = vec![false; g.num_cells()];
        let squares = match s.get(key) {
            None => (0..g.files as usize).map(|f| (f, *default_rank)).collect(),
            Some(e) => errs.take(
                parse_square_list(&e.value, g.files as usize, g.ranks as usize)
                    .map_err(|r| e.error(r)),
            )?,
        };
        // The zone is the same on every board (pawns promote where they end their move).
        for (f, r) in squares {
            for b in 0..g.boards as usize {
                zone[g.square(b, f, r).index()] = true;
            }
        }
        rules.zone[i] = zone;
    }
    if let Some(e) = s.get("promotionChoices") {
        // `p:qrbn f:dtlsg`: a pawn letter, then the letters it may become.
        for token in e.value.split_whitespace() {
            let parsed = token.split_once(':').and_then(|(who, into)| {
                let pawn = letter_ids(pieces, &who.chars().collect::<Vec<_>>()).ok()?;
                let choices = letter_ids(pieces, &into.chars().collect::<Vec<_>>()).ok()?;
                (pawn.len() == 1 && !choices.is_empty()).then(|| (pawn[0], choices))
            });
            match parsed {
                Some(pair) => rules.by_pawn.push(pair),
                None => errs
                    .0
                    .push(e.error(format!("'{token}' is not pawn:choices of existing pieces"))),
            }
        }
    }
    rules.mandatory = errs
        .take(s.get_with("mandatoryPawnPromotion", parse_bool))
        .flatten()
        .unwrap_or(true);
    rules.immobility_illegal = errs
        .take(s.get_with("immobilityIllegal", parse_bool))
        .flatten()
        .unwrap_or(false);
    if let Some(e) = s.get("promotionLimit") {
        let list = errs.take(parse_piece_value_list(&e.value).map_err(|r| e.error(r)))?;
        for (l, n) in list {
            match letter_ids(pieces, &[l]) {
                Ok(ids) if (1..=255).contains(&n) => rules.limit[ids[0].index()] = n as u8,
                Ok(_) => errs
                    .0
                    .push(e.error(format!("limit {n} for '{l}' is out of range"))),
                Err(r) => errs.0.push(e.error(r)),
            }
        }
    }
    Some(rules)
}

fn build_castling(
    s: &SectionConfig,
    g: &Geometry,
    pieces: &[PieceDef],
    errs: &mut Errors,
) -> Option<CastlingRules> {
    let enabled = errs
        .take(s.get_with("castling", parse_bool))
        .flatten()
        .unwrap_or(true);
    let kingside_file = errs
        .take(s.get_with("castlingKingsideFile", parse_file_letter_or_number))
        .flatten()
        .unwrap_or(6);
    let queenside_file = errs
        .take(s.get_with("castlingQueensideFile", parse_file_letter_or_number))
        .flatten()
        .unwrap_or(2);
    let rank = errs
        .take(s.get_with("castlingRank", parse_rank))
        .flatten()
        .unwrap_or(0);
    let king_file = errs
        .take(s.get_with("castlingKingFile", parse_file_letter_or_number))
        .flatten()
        .unwrap_or(4);
    let king_letters = errs
        .take(s.get_with("castlingKingPiece", parse_piece_letters))
        .flatten()
        .unwrap_or_else(|| vec!['k']);
    let rook_key = if s.contains_key("castlingRookPieces") {
        "castlingRookPieces"
    } else {
        "castlingRookPiece"
    };
    let rook_letters = errs
        .take(s.get_with(rook_key, parse_piece_letters))
        .flatten()
        .unwrap_or_else(|| vec!['r']);
    if !enabled {
        return None;
    }
    let files = g.files as usize;
    let checks = [
        (
            "castlingKingsideFile",
            kingside_file >= 1 && kingside_file < files,
        ),
        ("castlingQueensideFile", queenside_file + 1 < files),
        ("castlingKingFile", king_file < files),
        ("castlingRank", rank < g.ranks as usize),
    ];
    for (key, ok) in checks {
        if !ok {
            let e = s.peek(key).map_or_else(
                || s.error(format!("{key} does not fit the board")),
                |e| e.error("outside the board"),
            );
            errs.0.push(e);
            return None;
        }
    }
    // A letter written in the file must name a piece; the defaults (k, r) quietly switch
    // castling off in a variant that has no such pieces.
    let resolve = |key: &str, letters: &[char], errs: &mut Errors| match letter_ids(pieces, letters)
    {
        Ok(ids) => Some(ids),
        Err(reason) => {
            if let Some(e) = s.peek(key) {
                errs.0.push(e.error(reason));
            }
            None
        }
    };
    let king = resolve("castlingKingPiece", &king_letters, errs)?
        .first()
        .copied()?;
    let rooks = resolve(rook_key, &rook_letters, errs)?
        .iter()
        .fold(0u32, |m, id| m | 1 << id.0);
    if rooks == 0 {
        return None;
    }
    Some(CastlingRules {
        rank,
        kingside_file,
        queenside_file,
        king,
        king_file,
        rooks,
    })
}

fn build_gating(s: &SectionConfig, pieces: &[PieceDef], errs: &mut Errors) -> Option<GatingRules> {
    let gating = errs
        .take(s.get_with("gating", parse_bool))
        .flatten()
        .unwrap_or(false);
    let seirawan = errs
        .take(s.get_with("seirawanGating", parse_bool))
        .flatten()
        .unwrap_or(false);
    match (gating, seirawan) {
        (true, true) => {}
        (false, false) => return None,
        (true, false) => {
            if let Some(e) = s.peek("gating") {
                errs.0
                    .push(e.error("gating without seirawanGating is not supported"));
            }
            return None;
        }
        (false, true) => {
            if let Some(e) = s.peek("seirawanGating") {
                errs.0
                    .push(e.error("seirawanGating requires gating = true"));
            }
            return None;
        }
    }
    let flag = |key: &str, errs: &mut Errors| {
        errs.take(s.get_with(key, parse_bool))
            .flatten()
            .unwrap_or(false)
    };
    let blocks_check = flag("gatingBlocksCheck", errs);
    let last_compulsory = flag("gatingLastCompulsory", errs);
    let forfeit = flag("gatingForfeit", errs);
    let rank = errs
        .take(s.get_with("gatingRank", parse_rank))
        .flatten()
        .unwrap_or(0);
    let mask = |key: &str, errs: &mut Errors| -> PieceMask {
        let Some(e) = s.get(key) else { return u32::MAX };
        match parse_piece_letters(&e.value).and_then(|l| letter_ids(pieces, &l)) {
            Ok(ids) => ids.iter().fold(0, |m, id| m | 1 << id.0),
            Err(reason) => {
                errs.0.push(e.error(reason));
                u32::MAX
            }
        }
    };
    let openers = mask("gatingPieceTypes", errs);
    let gated = mask("gatedPieceTypes", errs);
    Some(GatingRules {
        rank,
        openers,
        gated,
        last_compulsory,
        forfeit,
        blocks_check,
    })
}

/// Where `color`'s e.p. capturers stand relative to the e.p. square, per piece type.
fn ep_attack_table(pieces: &[PieceDef], color: Color) -> Vec<(i16, PieceMask)> {
    let mut out: Vec<(i16, PieceMask)> = Vec::new();
    for (i, p) in pieces.iter().enumerate() {
        let m = &p.moves[color.index()];
        let deltas = m
            .leaps
            .iter()
            .filter(|l| l.mode & EN_PASSANT != 0)
            .map(|l| l.delta)
            .chain(
                m.rays
                    .iter()
                    .filter(|r| r.mode & EN_PASSANT != 0 && r.max == 1)
                    .map(|r| r.delta),
            );
        for d in deltas {
            match out.iter_mut().find(|e| e.0 == -d) {
                Some(e) => e.1 |= 1 << i,
                None => out.push((-d, 1 << i)),
            }
        }
    }
    out
}
