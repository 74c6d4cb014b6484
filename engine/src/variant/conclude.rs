//! Stage two of building a variant: a [`VariantSpec`] turned into [`Rules`]. The board size is
//! fixed first (everything else depends on it), piece moves are compiled for it, piece letters
//! become piece ids, defaults that depend on other keys are derived (promotion pawns default to
//! the pawn types, a hand exists when anything can enter or leave one, ...) and every check
//! across keys is made. Each problem is reported at the key that caused it.
//!
//! [`conclude`] dispatches: each rule family is concluded by a function of its own. It lives in
//! the family's module (`hands`, `palace`, `shogi`, `triple_step`, `chesslike`, `petrify`,
//! `boards`, `turns`) except where that module sits below the spec reader, which reads keys
//! into its types (`ends`, `walls`, `counting`, `castle_rules`), or where the family's data
//! lives with the [`super::Variant`] itself (promotion, castling, gating, reserve men): those
//! conclusions are here. What several families read (piece letters, square lists) is resolved
//! by `resolve`.

use super::boards::{conclude_captures, conclude_transfer, CaptureRules, TransferRules};
use super::castle_rules::CastleRules;
use super::chasing::ChaseRoles;
use super::chesslike::{conclude_chesslike, ChesslikeRules};
use super::compile::{compile_piece_in, LameOblique};
use super::config::{parse_square_list, Dialect, GameValue};
use super::counting::{CountingRule, CountingRules};
use super::ends::{
    ConnectRules, EndRules, ExtinctionRules, FlagRules, MaterialCounting, RepetitionRules,
};
use super::hands::{conclude_drops, conclude_hands, DropRules, HandRules};
use super::palace::{conclude_palace, PalaceRules};
use super::petrify::{conclude_petrify, PetrifyRules};
use super::resolve::{letter_ids, letter_pairs, letter_set, mask_of, named, present, region_table};
use super::shogi::{self, ShogiRules};
use super::spec::{or, predefined_moves, Given, Located, Place, VariantError, VariantSpec};
use super::tables::{PieceMask, EN_PASSANT};
use super::triple_step::conclude_triple_steps;
use super::turns::{conclude_turns, TurnRules};
use super::walls::{EnclosingRules, WallRules};
use super::{CastlingRules, GatingRules, PieceDef, PromotionRules, ReserveRules};
use crate::types::{Geometry, PieceId, MAX_BOARD_SIDE};

/// The standard start position, for a definition that gives none.
const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Every rule of a variant, concluded: what the definition means, before any lookup table
/// is compiled from it. The fields are documented at their accessors on [`super::Variant`].
#[derive(Clone, Debug)]
pub(crate) struct Rules {
    pub name: String,
    pub source: String,
    pub geometry: Geometry,
    pub pieces: Vec<PieceDef>,
    pub start_fen: String,
    pub royal_mask: PieceMask,
    pub virgin_keyed: PieceMask,
    pub succession: Vec<(PieceId, PieceId)>,
    pub extinction_royals: bool,
    pub extinction_types: PieceMask,
    pub promotion: PromotionRules,
    pub shogi: ShogiRules,
    pub ep_types: PieceMask,
    /// The types whose double step marks the landing square in the e.p. field too.
    pub ep_landing_marked: PieceMask,
    /// Per capturing colour, the squares an e.p. capture may land on (`enPassantRegion*`).
    pub ep_region: [Option<Vec<bool>>; 2],
    pub initial_region: Option<[Vec<bool>; 2]>,
    /// Per colour, where a pawn may step three squares (`tripleStepRegion*`).
    pub triple_steps: Option<[Vec<bool>; 2]>,
    pub pawn_like: [PieceMask; 2],
    pub castling: Option<CastlingRules>,
    pub castle_rules: CastleRules,
    pub gating: Option<GatingRules>,
    pub reserve: Option<ReserveRules>,
    pub transfer: Option<TransferRules>,
    pub captures: CaptureRules,
    pub turns: Option<TurnRules>,
    /// Which men may be dropped, and where (`variant::hands`).
    pub drops: DropRules,
    pub captures_to_hand: bool,
    pub has_hand: bool,
    /// The drop/hand family's rules and n-check (`variant::hands`).
    pub hands: HandRules,
    pub checking: bool,
    pub forbid_checks: bool,
    pub must_capture: bool,
    pub flying_general: bool,
    /// Per colour: a side may pass (`pass`), or may pass when it has no other move
    /// (`passOnStalemate`).
    pub pass: [bool; 2],
    pub pass_on_stalemate: [bool; 2],
    /// Per piece type and colour, the squares it may move to (`mobilityRegion...`).
    pub mobility: Vec<[Option<Vec<bool>>; 2]>,
    /// How the game ends (`variant::ends`).
    pub ends: EndRules,
    /// Explosions, immunity and pseudo-royal men (`variant::chesslike`).
    pub chesslike: ChesslikeRules,
    /// Capturers turned into walls (`variant::petrify`).
    pub petrify: Option<PetrifyRules>,
    /// Board games: the wall each move places, whether FEN `*` is a wall, reversi/ataxx drops.
    pub walls: Option<WallRules>,
    pub fen_walls: bool,
    pub enclosing: Option<EnclosingRules>,
    /// Xiangqi and janggi rules (soldiers, janggi cannons, palace diagonals, bikjang).
    pub palace: Option<PalaceRules>,
    pub counting: Option<CountingRules>,
    pub makpong: bool,
    pub cambodian: bool,
    pub shatar_mate: bool,
    pub chess960: bool,
    pub template: String,
    pub piece_to_char_table: Option<String>,
    pub pocket_size: u32,
    pub piece_values: Vec<(char, Option<i32>, Option<i32>)>,
}

/// Concludes the rules of `spec`; `source` names where the definition came from.
pub(crate) fn conclude(spec: &VariantSpec, source: &str) -> Result<Rules, Vec<VariantError>> {
    let mut errs = Vec::new();
    let rules = conclude_inner(spec, source, &mut errs);
    match rules {
        Some(rules) if errs.is_empty() => Ok(rules),
        _ => {
            if errs.is_empty() {
                errs.push(spec.header.error("the variant could not be built"));
            }
            Err(errs)
        }
    }
}

/// Where a key was given, if it was.
fn place<T>(given: &Given<T>) -> Option<Place> {
    given.as_ref().map(|g| g.at.clone())
}

/// The families one after the other, in the order their data depends on: the board, the
/// pieces and the type sets named before any promoted type exists, promotion (whose errors
/// end the build), then the rest. A family that reads another's conclusion comes after it.
fn conclude_inner(spec: &VariantSpec, source: &str, errs: &mut Vec<VariantError>) -> Option<Rules> {
    let geometry = conclude_geometry(spec, errs)?;
    let g = &geometry;
    let mut pieces = compile_pieces(spec, g, errs)?;
    let transfer = conclude_transfer(spec, g, errs);
    let captures = conclude_captures(spec, &pieces, errs);
    let turns = conclude_turns(spec, &pieces, errs);
    let sets = TypeSets::read(spec, &pieces, errs);
    apply_hurdle_types(spec, &mut pieces, errs);
    keep_en_passant_modes(&mut pieces, sets.en_passant);
    let triple_steps = conclude_triple_steps(spec, g, &mut pieces, errs);

    // Promoted types (`+X`) come after every type the file defines, so that letters name the
    // latter; a promoted man counts as the type he moves as where rules name types.
    let mut shogi = shogi::add_promoted_types(spec, &mut pieces, errs);
    let extinction_types = shogi.spread(sets.extinction);
    let targets = letter_pairs(&spec.promotion_targets, &pieces, errs);
    let succession = letter_pairs(&spec.succession, &pieces, errs);
    let extinction_royals = or(&spec.extinction_pseudo_royal, false);
    if extinction_royals {
        for (i, p) in pieces.iter_mut().enumerate() {
            p.royal |= extinction_types & (1 << i) != 0;
        }
    }
    let mut promotion = conclude_promotion(spec, g, &pieces, sets.promoting, &targets, errs)?;
    shogi::finish(&mut shogi, spec, g, &pieces, &mut promotion, errs);
    shogi.mark_movers(&mut pieces);

    let chesslike = conclude_chesslike(spec, &pieces, extinction_royals, errs);
    let pseudo_royals = chesslike
        .pseudo_royal
        .as_ref()
        .map_or(0, |_| extinction_types);
    let castling = conclude_castling(spec, g, &pieces, pseudo_royals, errs);
    let gating = conclude_gating(spec, &pieces, errs);
    let captures_to_hand = or(&spec.captures_to_hand, false);
    let reserve = conclude_reserve(spec, &pieces, errs);
    let start_fen = conclude_start_fen(spec, castling.is_some() || gating.is_some());
    let initial_region = conclude_initial_region(spec, g, &mut pieces, errs);
    let promoting = promotion.pawns_by_color;
    let drops = conclude_drops(
        spec,
        g,
        &pieces,
        sets.drops,
        sets.drop_valuable,
        promoting,
        errs,
    );
    let ep_region = conclude_ep_region(spec, g, errs);
    let mobility = conclude_mobility(spec, g, &pieces, &shogi, errs);
    let palace = conclude_palace(spec, &mobility, &mut pieces, g, errs);
    let ends = conclude_ends(
        spec,
        g,
        &pieces,
        extinction_types,
        &shogi,
        palace.as_ref(),
        errs,
    );
    let hands = conclude_hands(spec, &pieces, captures_to_hand, &mut promotion, errs);
    let (pass, pass_on_stalemate) = conclude_passing(spec);
    let walls = conclude_walls(spec, g, errs);
    let pseudo_royal = chesslike.pseudo_royal.is_some();
    let petrify = conclude_petrify(spec, &pieces, walls.as_ref(), pseudo_royal, errs);
    let enclosing = conclude_enclosing(spec, g, errs);

    // `checking = false`: Fairy-Stockfish forbids giving check; Chimera drops the check rule
    // (each as the line's file reads it).
    let checking_key = or(&spec.checking, true);
    let checking_fsf = line_dialect(&spec.checking, spec) == Dialect::FairyStockfish;
    // The start position's readings (castling rights, `*`) follow the file that wrote it.
    let fen_fsf = line_dialect(&spec.start_fen, spec) == Dialect::FairyStockfish;
    // Free drops (ataxx) take no man from a hand.
    let has_hand = drops.allowed && !drops.free
        || captures_to_hand
        || gating.is_some()
        || start_fen.contains('[');
    // Virginity matters for initial moves and, in gating variants, for the gating rights (and
    // for Ouk Chatrang's first moves, whose rights the castling field carries the same way).
    let virgin_keyed = if gating.is_some() || or(&spec.cambodian_moves, false) {
        u32::MAX
    } else {
        named(&pieces, |p| p.has_initial_moves)
    };
    // Fairy-Stockfish writes a wall as `*` in the placement field, where Chimera's own dialect
    // marks a man that has moved.
    let fen_walls =
        fen_fsf && (walls.is_some() || fen_board_has_star(&start_fen)) || petrify.is_some();
    Some(Rules {
        name: spec.name.clone(),
        source: source.to_string(),
        royal_mask: named(&pieces, |p| p.royal),
        virgin_keyed,
        geometry,
        start_fen,
        succession,
        extinction_royals,
        extinction_types,
        promotion,
        shogi,
        // Fairy-Stockfish leaves e.p. squares after any man's initial-only move (a wolf chess
        // sergeant's double step), its pawn's by the pawn rule, any other's by a rule that
        // marks the landing square too; Chimera's own dialect keeps e.p. to the pawn types.
        ep_types: named(&pieces, |p| p.fsf) | sets.pawns,
        ep_landing_marked: named(&pieces, |p| p.fsf && p.name != "pawn"),
        ep_region,
        initial_region,
        triple_steps,
        pawn_like: sets.n_move,
        castling,
        castle_rules: conclude_castle_rules(spec),
        gating,
        reserve,
        transfer,
        captures,
        turns,
        drops,
        captures_to_hand,
        has_hand,
        hands,
        checking: checking_key || checking_fsf,
        forbid_checks: !checking_key && checking_fsf,
        must_capture: or(&spec.must_capture, false),
        flying_general: or(&spec.flying_general, false),
        pass,
        pass_on_stalemate,
        mobility,
        ends,
        chesslike,
        petrify,
        walls,
        fen_walls,
        enclosing,
        palace,
        counting: conclude_counting(spec, &pieces),
        makpong: or(&spec.makpong_rule, false),
        cambodian: or(&spec.cambodian_moves, false),
        shatar_mate: or(&spec.shatar_mate_rule, false),
        chess960: or(&spec.chess960, false),
        template: or(&spec.variant_template, "fairy".to_string()),
        piece_to_char_table: spec.piece_to_char_table.as_ref().map(|t| t.value.clone()),
        pocket_size: or(&spec.pocket_size, 0),
        piece_values: read_piece_values(spec),
        pieces,
    })
}

/// The board size (`maxFile`, `maxRank`, `boards`). Everything else depends on it, so a bad
/// size ends the build.
fn conclude_geometry(spec: &VariantSpec, errs: &mut Vec<VariantError>) -> Option<Geometry> {
    let files = or(&spec.max_file, 7) + 1;
    let ranks = or(&spec.max_rank, 7) + 1;
    let boards = or(&spec.boards, 1);
    match Geometry::new(files as u8, ranks as u8, boards.min(255) as u8) {
        Ok(g) => Some(g),
        Err(e) => {
            let at = place(&spec.boards)
                .or_else(|| place(&spec.max_file))
                .or_else(|| place(&spec.max_rank))
                .unwrap_or_else(|| spec.header.clone());
            errs.push(at.error(e));
            None
        }
    }
}

/// Every piece's moves compiled for the board; `None` when the variant has no pieces.
fn compile_pieces(
    spec: &VariantSpec,
    g: &Geometry,
    errs: &mut Vec<VariantError>,
) -> Option<Vec<PieceDef>> {
    let double_step = or(&spec.double_step, true);
    let mut out = Vec::new();
    for p in &spec.pieces {
        let fsf = p.dialect(spec.dialect) == Dialect::FairyStockfish;
        let lame = if fsf {
            LameOblique::OrthogonalFirst
        } else {
            LameOblique::EitherRoute
        };
        // `kingType`: Fairy-Stockfish's king moves as another predefined piece.
        let king_type = spec
            .king_type
            .as_ref()
            .filter(|_| p.name == "king" && p.betza.is_none());
        let betza = match king_type.and_then(|t| predefined_moves(&t.value)) {
            Some(moves) => moves.to_string(),
            None => p.moves(double_step),
        };
        match compile_piece_in(&betza, g, lame) {
            Ok(compiled) => out.push(PieceDef {
                name: p.name.clone(),
                letter: p.letter,
                betza,
                royal: p.name == "king",
                moves: compiled.moves,
                has_initial_moves: compiled.has_initial_moves,
                fsf,
                initial_by_region: false,
                hurdles: u32::MAX,
                promoted_from: None,
            }),
            Err(e) => errs.push(p.at.error(e)),
        }
    }
    if out.is_empty() {
        errs.push(spec.header.error("the variant defines no pieces"));
        return None;
    }
    Some(out)
}

/// The piece-type sets that pawns and some other rules name, read before the promoted types
/// are added, so that `*` and the defaults cover the types the file defines and no more.
struct TypeSets {
    /// The types whose lame double steps leave an e.p. square (`pawnTypes`).
    pawns: PieceMask,
    /// Per colour, the types that promote (`promotionPawnTypes...`, the pawns by default).
    promoting: [PieceMask; 2],
    /// Per colour, the types that capture en passant (`enPassantTypes...`).
    en_passant: [PieceMask; 2],
    /// Per colour, the types whose moves reset the move-count rule (`nMoveRuleTypes...`).
    n_move: [PieceMask; 2],
    /// The types that may be dropped (`dropPieceTypes`; all by default).
    drops: PieceMask,
    /// The types the loose drop rule counts as worth more (`dropRuleValuable`).
    drop_valuable: PieceMask,
    /// The types whose extinction ends the game (`extinctionPieceTypes`).
    extinction: PieceMask,
}

impl TypeSets {
    fn read(spec: &VariantSpec, pieces: &[PieceDef], errs: &mut Vec<VariantError>) -> TypeSets {
        // Fairy-Stockfish's pawns are the men of its predefined pawn, whatever their letter,
        // and a custom piece with `e` in its moves captures en passant; Chimera's are the men
        // lettered p (each man as the dialect of his moves reads him).
        let default_pawns = named(pieces, |p| p.fsf && p.name == "pawn")
            | present(pieces, "p") & named(pieces, |p| !p.fsf);
        let pawns = letter_set(&spec.pawn_types, default_pawns, pieces, errs);
        let promoting = letter_set(&spec.promotion_pawn_types, pawns, pieces, errs);
        // A colour's own set (`promotionPawnTypesBlack`) overrides the plain one for that colour.
        let by_color = |own: &[Given<Vec<char>>; 2], shared: PieceMask, errs: &mut Vec<_>| {
            [0, 1].map(|c| letter_set(&own[c], shared, pieces, errs))
        };
        let promoting = by_color(&spec.promotion_pawn_types_by_color, promoting, errs);
        let default_ep = pawns
            | named(pieces, |p| {
                p.fsf && p.name.starts_with("customPiece") && p.betza.contains('e')
            });
        let en_passant = letter_set(&spec.en_passant_types, default_ep, pieces, errs);
        let en_passant = by_color(&spec.en_passant_types_by_color, en_passant, errs);
        let n_move = letter_set(&spec.n_move_rule_types, pawns, pieces, errs);
        let n_move = by_color(&spec.n_move_rule_types_by_color, n_move, errs);
        TypeSets {
            pawns,
            promoting,
            en_passant,
            n_move,
            drops: letter_set(&spec.drop_piece_types, PieceMask::MAX, pieces, errs),
            drop_valuable: letter_set(&spec.drop_rule_valuable, 0, pieces, errs),
            extinction: letter_set(&spec.extinction_piece_types, 0, pieces, errs),
        }
    }
}

/// The men each hopper may hop over (`hurdleTypes`: `p:ot o:pt`, a piece letter, then the
/// letters of the men it may hop over).
fn apply_hurdle_types(spec: &VariantSpec, pieces: &mut [PieceDef], errs: &mut Vec<VariantError>) {
    let Some(h) = &spec.hurdle_types else {
        return;
    };
    for (who, over) in &h.value {
        match (letter_ids(pieces, &[*who]), letter_ids(pieces, over)) {
            (Ok(hopper), Ok(screens)) => pieces[hopper[0].index()].hurdles = mask_of(&screens),
            _ => errs.push(h.at.error(format!(
                "'{who}:{}' is not piece:letters of existing pieces",
                over.iter().collect::<String>()
            ))),
        }
    }
}

/// Only the e.p. capturers (per colour, `capturers`) keep the e.p. mode of their moves.
fn keep_en_passant_modes(pieces: &mut [PieceDef], capturers: [PieceMask; 2]) {
    for (i, p) in pieces.iter_mut().enumerate() {
        for (c, m) in p.moves.iter_mut().enumerate() {
            if capturers[c] & (1 << i) == 0 {
                for l in m.leaps.iter_mut() {
                    l.mode &= !EN_PASSANT;
                }
                for r in m.rays.iter_mut() {
                    r.mode &= !EN_PASSANT;
                }
            }
        }
    }
}

/// Promotion: the pawns that promote (`promoting`, per colour, and each pawn type of a fixed
/// target in `targets`, `promotionTargets`), the choices, the zone, and the limits. `None`
/// when a zone is written wrong, which ends the build.
fn conclude_promotion(
    spec: &VariantSpec,
    g: &Geometry,
    pieces: &[PieceDef],
    promoting: [PieceMask; 2],
    targets: &[(PieceId, PieceId)],
    errs: &mut Vec<VariantError>,
) -> Option<PromotionRules> {
    let target_pawns = targets.iter().fold(0u32, |m, (p, _)| m | 1 << p.0);
    let pawn_types = promoting.map(|m| m | target_pawns);
    let mut rules = PromotionRules {
        pawn_types: pawn_types[0] | pawn_types[1],
        pawns_by_color: pawn_types,
        ..PromotionRules::default()
    };
    let ids = |given: &Given<Vec<char>>, errs: &mut Vec<VariantError>| -> Option<Vec<PieceId>> {
        let set = given.as_ref()?;
        letter_ids(pieces, &set.value)
            .map_err(|r| errs.push(set.at.error(r)))
            .ok()
    };
    let shared = ids(&spec.promotion_piece_types, errs);
    // Fairy-Stockfish starts a file's section with no parent from no pieces at all, and so
    // from no promotion types (maharajah's pawns do not promote, nor maharajah2's, its
    // child), unless it names a `variantTemplate`; its built-ins, which Chimera's own files
    // define, keep the chess default.
    let bare = spec.root_dialect == Dialect::FairyStockfish
        && !spec.root_file.starts_with("built-in")
        && spec.variant_template.is_none();
    for (i, own) in spec.promotion_piece_types_by_color.iter().enumerate() {
        let own = ids(own, errs);
        // The default, "qrbn", keeps only the letters this variant has, and only where the
        // letter still means chess's man: Fairy-Stockfish's default is a set of piece types,
        // and its file reader takes a type out of it when a `customPieceN` line takes the
        // type's letter over (dragon-chess's b, n and r, each with the king's step added, are
        // no promotions). Its built-ins name their promotions in code (nightrider's
        // nightrider is one), as Chimera's own files do, so their lines take nothing out.
        let taken_over: Vec<char> = spec
            .pieces
            .iter()
            .filter(|p| {
                p.name.starts_with("customPiece")
                    && p.at.dialect == Dialect::FairyStockfish
                    && !p.at.in_builtin_file()
            })
            .map(|p| p.letter)
            .collect();
        rules.choices[i] = own.or_else(|| shared.clone()).unwrap_or_else(|| {
            if bare {
                return Vec::new();
            }
            "qrbn"
                .chars()
                .filter_map(|l| letter_ids(pieces, &[l]).ok())
                .flatten()
                .filter(|id| !taken_over.contains(&pieces[id.0 as usize].letter))
                .collect()
        });
    }
    let default_ranks = [g.ranks as usize - 1, 0];
    for (i, given) in spec.promotion_region_by_color.iter().enumerate() {
        let squares: Vec<(usize, usize)> = match given {
            None => (0..g.files as usize)
                .map(|f| (f, default_ranks[i]))
                .collect(),
            Some(region) => {
                // Fairy-Stockfish reads squares off the board and ignores them (epicatomic
                // names ranks 9 and 10 on its eight).
                let fsf = region.at.dialect == Dialect::FairyStockfish;
                let (files, ranks) = if fsf {
                    (MAX_BOARD_SIDE, MAX_BOARD_SIDE)
                } else {
                    (g.files as usize, g.ranks as usize)
                };
                match parse_square_list(&region.value, files, ranks) {
                    Ok(squares) => squares
                        .into_iter()
                        .filter(|&(f, r)| f < g.files as usize && r < g.ranks as usize)
                        .collect(),
                    Err(r) => {
                        errs.push(region.at.error(r));
                        return None;
                    }
                }
            }
        };
        // The zone is the same on every board (pawns promote where they end their move).
        let mut zone = vec![false; g.num_cells()];
        for (f, r) in squares {
            for b in 0..g.boards as usize {
                zone[g.square(b, f, r).index()] = true;
            }
        }
        rules.zone[i] = zone;
    }
    if let Some(choices) = &spec.promotion_choices {
        // `p:qrbn f:dtlsg`: a pawn letter, then the letters it may become.
        for (who, into) in &choices.value {
            match (letter_ids(pieces, &[*who]), letter_ids(pieces, into)) {
                (Ok(pawn), Ok(into)) => rules.by_pawn.push((pawn[0], into)),
                _ => errs.push(choices.at.error(format!(
                    "'{who}:{}' is not pawn:choices of existing pieces",
                    into.iter().collect::<String>()
                ))),
            }
        }
    }
    rules.mandatory = or(&spec.mandatory_pawn_promotion, true);
    rules.immobility_illegal = or(&spec.immobility_illegal, false);
    if let Some(limits) = &spec.promotion_limit {
        for &(l, n) in &limits.value {
            match letter_ids(pieces, &[l]) {
                Ok(ids) if (1..=255).contains(&n) => rules.limit[ids[0].index()] = n as u8,
                Ok(_) => errs.push(
                    limits
                        .at
                        .error(format!("limit {n} for '{l}' is out of range")),
                ),
                Err(r) => errs.push(limits.at.error(r)),
            }
        }
    }
    for &(pawn, target) in targets {
        rules.targets[pawn.index()] = Some(target);
    }
    Some(rules)
}

/// Castling: the squares, the king and rook types, the rooks' files. `pseudo_royals` are the
/// types guarded as pseudo-royal men (a king among them is guarded as one on his path, not
/// by the check rule).
fn conclude_castling(
    spec: &VariantSpec,
    g: &Geometry,
    pieces: &[PieceDef],
    pseudo_royals: PieceMask,
    errs: &mut Vec<VariantError>,
) -> Option<CastlingRules> {
    if !or(&spec.castling, true) {
        return None;
    }
    let files = g.files as usize;
    // Each square setting must fit the board: (the key, its value, the test).
    let fits = |given: &Given<usize>, default: usize, ok: &dyn Fn(usize) -> bool| {
        let value = or(given, default);
        (value, ok(value), place(given))
    };
    let settings = [
        fits(&spec.castling_kingside_file, 6, &|f| f >= 1 && f < files),
        fits(&spec.castling_queenside_file, 2, &|f| f + 1 < files),
        fits(&spec.castling_king_file, 4, &|f| f < files),
        fits(&spec.castling_rank, 0, &|r| r < g.ranks as usize),
    ];
    for (_, ok, at) in &settings {
        if !ok {
            // A square the file gives must be on the board; a default that is not (files g and
            // c on a board of five files) quietly leaves the variant without castling, as in
            // Fairy-Stockfish reads it (several of its own small variants leave castling on).
            if let Some(at) = at {
                errs.push(at.error("outside the board"));
            }
            return None;
        }
    }
    let [kingside_file, queenside_file, king_file, rank] = settings.map(|(v, _, _)| v);
    // A letter written in the file must name a piece; the defaults (k, r) quietly switch
    // castling off in a variant that has no such pieces.
    let type_of =
        |given: &Given<Vec<char>>, default: char, errs: &mut Vec<VariantError>| match given {
            None => letter_ids(pieces, &[default]).ok(),
            Some(set) => letter_ids(pieces, &set.value)
                .map_err(|r| errs.push(set.at.error(r)))
                .ok(),
        };
    let king = *type_of(&spec.castling_king_piece, 'k', errs)?.first()?;
    let rook_letters = match &spec.castling_rook_pieces {
        Some(_) => &spec.castling_rook_pieces,
        None => &spec.castling_rook_piece,
    };
    let rooks = mask_of(&type_of(rook_letters, 'r', errs)?);
    if rooks == 0 {
        return None;
    }
    let pseudo_royal_king = pseudo_royals & (1 << king.0) != 0;
    let rook_file = |given: &Given<usize>, errs: &mut Vec<VariantError>| {
        let file = given.as_ref()?;
        if file.value >= files {
            errs.push(file.at.error("outside the board"));
            return None;
        }
        Some(file.value)
    };
    let rook_files = [
        rook_file(&spec.castling_rook_kingside_file, errs),
        rook_file(&spec.castling_rook_queenside_file, errs),
    ];
    Some(CastlingRules {
        rank,
        kingside_file,
        queenside_file,
        king,
        king_file,
        rooks,
        rook_files,
        path_guarded: pieces[king.index()].royal && !pseudo_royal_king,
        path_pseudo_royal: pseudo_royal_king,
    })
}

/// S-Chess gating (`gating` with `seirawanGating`).
fn conclude_gating(
    spec: &VariantSpec,
    pieces: &[PieceDef],
    errs: &mut Vec<VariantError>,
) -> Option<GatingRules> {
    match (&spec.gating, &spec.seirawan_gating) {
        _ if spec.gates() => {}
        // Ouk Chatrang's first-move rights are Fairy-Stockfish's gates (with nothing to gate).
        (Some(Located { value: true, .. }), _) if or(&spec.cambodian_moves, false) => return None,
        (Some(Located { value: true, at }), _) => {
            errs.push(at.error("gating without seirawanGating is not supported"));
            return None;
        }
        (_, Some(Located { value: true, at })) => {
            errs.push(at.error("seirawanGating requires gating = true"));
            return None;
        }
        _ => return None,
    }
    Some(GatingRules {
        rank: or(&spec.gating_rank, 0),
        openers: letter_set(&spec.gating_piece_types, u32::MAX, pieces, errs),
        gated: letter_set(&spec.gated_piece_types, u32::MAX, pieces, errs),
        last_compulsory: or(&spec.gating_last_compulsory, false),
        forfeit: or(&spec.gating_forfeit, false),
        blocks_check: or(&spec.gating_blocks_check, false),
    })
}

/// Reserve men (`reservePieceType`, one or two of them).
fn conclude_reserve(
    spec: &VariantSpec,
    pieces: &[PieceDef],
    errs: &mut Vec<VariantError>,
) -> Option<ReserveRules> {
    let given = spec.reserve_piece_type.as_ref()?;
    let piece = match letter_ids(pieces, &[given.value]) {
        Ok(ids) => ids[0],
        Err(r) => {
            errs.push(given.at.error(r));
            return None;
        }
    };
    let count = or(&spec.reserve_count, 1);
    if !(1..=2).contains(&count) {
        if let Some(c) = &spec.reserve_count {
            errs.push(c.at.error("1 or 2 reserve men"));
        }
        return None;
    }
    Some(ReserveRules {
        piece,
        count: count as u8,
        king_rook_exclusive: or(&spec.reserve_king_rook_exclusive, true),
    })
}

/// The start position (`startFen`, the standard one by default). Fairy-Stockfish ignores
/// castling rights in a variant where nothing castles (`castles` false: its files inherit
/// start positions that have them).
fn conclude_start_fen(spec: &VariantSpec, castles: bool) -> String {
    let start_fen = or(&spec.start_fen, CHESS_START.to_string());
    let fsf = line_dialect(&spec.start_fen, spec) == Dialect::FairyStockfish;
    if fsf && !castles && !or(&spec.cambodian_moves, false) {
        without_castling_rights(&start_fen)
    } else {
        start_fen
    }
}

/// The dialect a key's line is read in: its writer's, or the variant's file's when no line
/// sets it.
fn line_dialect<T>(given: &Given<T>, spec: &VariantSpec) -> Dialect {
    given.as_ref().map_or(spec.dialect, |g| g.at.dialect)
}

/// `fen` with its castling field, when it has one, replaced by `-`.
fn without_castling_rights(fen: &str) -> String {
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    let is_number = |f: &str| f.bytes().all(|b| b.is_ascii_digit());
    if fields.len() >= 3 && !is_number(fields[2]) && !fields[2].contains('+') {
        fields[2] = "-";
    }
    fields.join(" ")
}

/// True when the placement field of `fen` holds a `*`.
fn fen_board_has_star(fen: &str) -> bool {
    fen.split_whitespace()
        .next()
        .is_some_and(|b| b.split('[').next().unwrap_or("").contains('*'))
}

/// Fairy-Stockfish's `doubleStepRegionWhite` / `doubleStepRegionBlack`: where a man may make
/// his initial (`i`) moves, by default ranks 2 and 7; none at all with `doubleStep = false`.
/// Read for the men whose moves are read in Fairy-Stockfish's dialect, and for every man
/// where a region is given; `None` when no man's initial moves go by it (a man on his start
/// square makes them). Marks the men whose initial moves go by the region.
fn conclude_initial_region(
    spec: &VariantSpec,
    g: &Geometry,
    pieces: &mut [PieceDef],
    errs: &mut Vec<VariantError>,
) -> Option<[Vec<bool>; 2]> {
    let given = spec.double_step_region_by_color.iter().any(Option::is_some);
    for p in pieces.iter_mut() {
        p.initial_by_region = p.has_initial_moves && (given || p.fsf);
    }
    // A variant read wholly in Fairy-Stockfish's dialect has the region (its e.p. captures
    // never promote), a Chimera one only where a man's initial moves go by it.
    let all_fsf = pieces.iter().all(|p| p.fsf);
    if !given && !all_fsf && !pieces.iter().any(|p| p.initial_by_region) {
        return None;
    }
    let double_step = or(&spec.double_step, true);
    Some([0, 1].map(|c| {
        if !double_step {
            return vec![false; g.num_cells()];
        }
        match &spec.double_step_region_by_color[c] {
            Some(given) => region_table(given, g, errs),
            None => {
                let rank = [1, 6][c];
                let mut zone = vec![false; g.num_cells()];
                if rank < g.ranks as usize {
                    for b in 0..g.boards as usize {
                        for f in 0..g.files as usize {
                            zone[g.square(b, f, rank).index()] = true;
                        }
                    }
                }
                zone
            }
        }
    }))
}

/// Per capturing colour, where an e.p. capture may land (`enPassantRegionWhite`/`Black`,
/// else `enPassantRegion`); `None`: anywhere.
fn conclude_ep_region(
    spec: &VariantSpec,
    g: &Geometry,
    errs: &mut Vec<VariantError>,
) -> [Option<Vec<bool>>; 2] {
    [0, 1].map(|c| {
        spec.en_passant_region_by_color[c]
            .as_ref()
            .or(spec.en_passant_region.as_ref())
            .map(|r| region_table(r, g, errs))
    })
}

/// Per piece type and colour, where the men may go (`mobilityRegion...`); a promoted type
/// keeps the regions of the type he moves as.
fn conclude_mobility(
    spec: &VariantSpec,
    g: &Geometry,
    pieces: &[PieceDef],
    shogi: &ShogiRules,
    errs: &mut Vec<VariantError>,
) -> Vec<[Option<Vec<bool>>; 2]> {
    let mut mobility: Vec<[Option<Vec<bool>>; 2]> = vec![[None, None]; pieces.len()];
    for (color, name, region) in &spec.mobility_regions {
        // A region for a piece the variant does not have is Fairy-Stockfish's "no effect".
        if let Some(i) = pieces.iter().position(|p| &p.name == name) {
            mobility[i][*color] = Some(region_table(region, g, errs));
        }
    }
    shogi.copy_to_promoted(&mut mobility);
    mobility
}

/// Per colour, whether a side may pass (`pass`, `passWhite`/`Black`), and whether only when it
/// has no other move (`passOnStalemate`, likewise).
fn conclude_passing(spec: &VariantSpec) -> ([bool; 2], [bool; 2]) {
    let pass = [0, 1].map(|c| or(&spec.pass_by_color[c], or(&spec.pass, false)));
    let pass_on_stalemate = [0, 1].map(|c| {
        or(
            &spec.pass_on_stalemate_by_color[c],
            or(&spec.pass_on_stalemate, false),
        )
    });
    (pass, pass_on_stalemate)
}

/// The piece values the file gives (`pieceValueMg`, `pieceValueEg`), as (letter, mg, eg).
fn read_piece_values(spec: &VariantSpec) -> Vec<(char, Option<i32>, Option<i32>)> {
    let mut piece_values: Vec<(char, Option<i32>, Option<i32>)> = Vec::new();
    let mg = or(&spec.piece_value_mg, Vec::new());
    let eg = or(&spec.piece_value_eg, Vec::new());
    for &(l, v) in &mg {
        piece_values.push((l, Some(v), eg.iter().find(|e| e.0 == l).map(|e| e.1)));
    }
    for &(l, v) in &eg {
        if !piece_values.iter().any(|p| p.0 == l) {
            piece_values.push((l, None, Some(v)));
        }
    }
    piece_values
}

/// The end rules of `spec`, for its `pieces` on `g`: `extinction_types` are the types
/// `extinctionPieceTypes` names (promoted types included), `shogi` the promoted types that
/// count as the types they move as, `palace` the xiangqi rules the chase rule reads.
fn conclude_ends(
    spec: &VariantSpec,
    g: &Geometry,
    pieces: &[PieceDef],
    extinction_types: PieceMask,
    shogi: &ShogiRules,
    palace: Option<&PalaceRules>,
    errs: &mut Vec<VariantError>,
) -> EndRules {
    let extinction = conclude_extinction(spec, pieces, extinction_types, errs);
    let flag = conclude_flag(spec, g, pieces, errs).map(|mut f| {
        f.pieces = f.pieces.map(|m| shogi.spread(m));
        f
    });
    let connect = conclude_connect(spec, g, pieces, errs);
    let chasing = or(&spec.chasing_rule, false)
        .then(|| ChaseRoles::of(pieces, palace.map_or(0, |p| p.soldier_rank)));
    EndRules {
        checkmate_value: or(&spec.checkmate_value, GameValue::Loss),
        stalemate_value: or(&spec.stalemate_value, GameValue::Draw),
        stalemate_piece_count: or(&spec.stalemate_piece_count, false),
        bare_king_stalemate: or(&spec.bare_king_stalemate_value, GameValue::None),
        n_move_rule: or(&spec.n_move_rule, 50).saturating_mul(2),
        n_fold_rule: or(&spec.n_fold_rule, 3),
        repetition: RepetitionRules {
            value: or(&spec.n_fold_value, GameValue::Draw),
            absolute: or(&spec.n_fold_value_absolute, false),
            perpetual_check_illegal: or(&spec.perpetual_check_illegal, false),
            chasing,
            move_repetition_illegal: or(&spec.move_repetition_illegal, false),
        },
        material_counting: or(&spec.material_counting, MaterialCounting::None),
        extinction_value: or(&spec.extinction_value, GameValue::None),
        extinction,
        flag,
        connect,
        adjudicate_full_board: or(&spec.adjudicate_full_board, false),
    }
}

/// Extinction by counts, Fairy-Stockfish's rule: any `extinctionValue` except under
/// pseudo-royalty (where the last man of the types is guarded like a king instead).
fn conclude_extinction(
    spec: &VariantSpec,
    pieces: &[PieceDef],
    types: PieceMask,
    errs: &mut Vec<VariantError>,
) -> Option<ExtinctionRules> {
    let value = or(&spec.extinction_value, GameValue::None);
    // Under pseudo-royalty the last man is guarded like a king instead, unless captures
    // explode (atomic: the king can be blown up).
    let guarded = or(&spec.extinction_pseudo_royal, false) && !or(&spec.blast_on_capture, false);
    if value == GameValue::None || guarded {
        return None;
    }
    let all = spec
        .extinction_piece_types
        .as_ref()
        .is_some_and(|t| t.value.contains(&'*'));
    let types = if all {
        // `*` counts all men together, not each type.
        let named: Vec<char> = spec
            .extinction_piece_types
            .as_ref()
            .map(|t| t.value.iter().copied().filter(|&c| c != '*').collect())
            .unwrap_or_default();
        letter_ids(pieces, &named).map_or(0, |ids| mask_of(&ids))
    } else {
        types
    };
    if types == 0 && !all {
        if let Some(v) = &spec.extinction_value {
            errs.push(v.at.error("extinctionValue needs extinctionPieceTypes"));
        }
        return None;
    }
    Some(ExtinctionRules {
        types,
        all,
        count: or(&spec.extinction_piece_count, 0),
        opponent_count: or(&spec.extinction_opponent_piece_count, 0),
        claim: or(&spec.extinction_claim, false),
        value,
    })
}

/// Capture the flag: per colour, a region (`flagRegion`, overridden by `flagRegionWhite` /
/// `flagRegionBlack`) and the flag men (`flagPiece`, likewise; every man by default).
fn conclude_flag(
    spec: &VariantSpec,
    g: &Geometry,
    pieces: &[PieceDef],
    errs: &mut Vec<VariantError>,
) -> Option<FlagRules> {
    let regions: [Option<&Located<String>>; 2] = [0, 1].map(|c| {
        spec.flag_region_by_color[c]
            .as_ref()
            .or(spec.flag_region.as_ref())
    });
    if regions.iter().all(Option::is_none) {
        return None;
    }
    let region = regions.map(|r| match r {
        Some(given) => region_table(given, g, errs),
        None => vec![false; g.num_cells()],
    });
    let royal = pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| p.royal)
        .fold(0, |m, (i, _)| m | 1 << i);
    let mut piece_masks = [PieceMask::MAX; 2];
    let mut is_king = [false; 2];
    for c in 0..2 {
        let Some(given) = spec.flag_piece_by_color[c]
            .as_ref()
            .or(spec.flag_piece.as_ref())
        else {
            continue;
        };
        if given.value.contains(&'*') {
            continue;
        }
        match letter_ids(pieces, &given.value) {
            Ok(ids) => {
                piece_masks[c] = mask_of(&ids);
                is_king[c] = royal != 0 && piece_masks[c] == royal;
            }
            Err(r) => errs.push(given.at.error(r)),
        }
    }
    let count = or(&spec.flag_piece_count, 1);
    if count == 0 {
        if let Some(c) = &spec.flag_piece_count {
            errs.push(c.at.error("at least one flag man"));
        }
    }
    Some(FlagRules {
        pieces: piece_masks,
        is_king,
        region,
        count: count.max(1),
        blocked_win: or(&spec.flag_piece_blocked_win, false),
        extra_move: or(&spec.flag_move, false),
        safe: or(&spec.flag_piece_safe, false),
    })
}

/// Connect-N (`connectN` and its direction and type keys).
fn conclude_connect(
    spec: &VariantSpec,
    g: &Geometry,
    pieces: &[PieceDef],
    errs: &mut Vec<VariantError>,
) -> Option<ConnectRules> {
    let n = or(&spec.connect_n, 0);
    let nxn = or(&spec.connect_nxn, 0);
    let collinear = or(&spec.collinear_n, 0);
    let regions =
        [0, 1].map(
            |c| match (&spec.connect_region[2 * c], &spec.connect_region[2 * c + 1]) {
                (Some(a), Some(b)) => Some((region_table(a, g, errs), region_table(b, g, errs))),
                _ => None,
            },
        );
    if n == 0 && nxn == 0 && collinear == 0 && regions.iter().all(Option::is_none) {
        return None;
    }
    let mut directions = Vec::new();
    if or(&spec.connect_horizontal, true) {
        directions.push(g.delta(1, 0));
    }
    if or(&spec.connect_vertical, true) {
        directions.push(g.delta(0, 1));
    }
    if or(&spec.connect_diagonal, true) {
        directions.push(g.delta(1, 1));
        directions.push(g.delta(1, -1));
    }
    Some(ConnectRules {
        n,
        types: letter_set(&spec.connect_piece_types, PieceMask::MAX, pieces, errs),
        directions,
        value: or(&spec.connect_value, GameValue::Win),
        regions,
        nxn,
        collinear,
    })
}

/// The wall a move places (`wallingRule`, `wallingRegion...`).
fn conclude_walls(
    spec: &VariantSpec,
    g: &Geometry,
    errs: &mut Vec<VariantError>,
) -> Option<WallRules> {
    let rule = or(&spec.walling_rule, None)?;
    let region = [0, 1].map(|c| {
        spec.walling_region_by_color[c]
            .as_ref()
            .or(spec.walling_region.as_ref())
            .map(|r| region_table(r, g, errs))
    });
    let or_move = or(&spec.wall_or_move, false);
    Some(WallRules {
        rule,
        region,
        or_move,
    })
}

/// Reversi and ataxx drops and flips (`enclosingDrop`, `enclosingDropStart`,
/// `flipEnclosedPieces`).
fn conclude_enclosing(
    spec: &VariantSpec,
    g: &Geometry,
    errs: &mut Vec<VariantError>,
) -> Option<EnclosingRules> {
    let drop = or(&spec.enclosing_drop, None);
    let flip = or(&spec.flip_enclosed_pieces, None);
    if drop.is_none() && flip.is_none() {
        return None;
    }
    let start = spec
        .enclosing_drop_start
        .as_ref()
        .map(|r| region_table(r, g, errs));
    Some(EnclosingRules { drop, start, flip })
}

/// The counting rule (`countingRule`) with its piece types, if the variant counts.
fn conclude_counting(spec: &VariantSpec, pieces: &[PieceDef]) -> Option<CountingRules> {
    match or(&spec.counting_rule, CountingRule::None) {
        CountingRule::None => None,
        rule => Some(CountingRules {
            rule,
            pawns: named(pieces, |p| p.name == "pawn"),
            rooks: named(pieces, |p| p.name == "rook"),
            khons: named(pieces, |p| p.name == "silver"),
            knights: named(pieces, |p| p.name == "knight"),
        }),
    }
}

/// The castling that wins (`castlingWins`) and the wing the opponent's castling bars
/// (`oppositeCastling`).
fn conclude_castle_rules(spec: &VariantSpec) -> CastleRules {
    CastleRules {
        wins: or(&spec.castling_wins, 0),
        opposite: or(&spec.opposite_castling, false),
    }
}
