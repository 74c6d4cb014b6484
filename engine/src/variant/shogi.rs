//! Shogi-style promotion and drops, Fairy-Stockfish's keys read with its meanings:
//! `promotedPieceType` (each type promotes to one fixed type, on a move that starts or ends in
//! the promotion zone, optional unless `mandatoryPiecePromotion`), `piecePromotionOnCapture`
//! (only capturing moves promote), `pieceDemotion` (a promoted man may demote again, Kyoto
//! shogi), `dropPromoted` (a man may be dropped promoted), `dropNoDoubled` and
//! `dropNoDoubledCount` (nifu), `shogiPawnDropMateIllegal` (uchifuzume) and
//! `immobilityIllegal` (no move or drop may leave a man where he could never move again).
//!
//! A promoted man is a type of his own (`+X`, written so in FEN), which moves as the type he
//! promotes to and goes back to the hand as `X` when captured: the promoted form is known from
//! the type alone, so moves, captures and drops need no per-square record of what a man was.

use super::spec::{Located, PieceRef, VariantError, VariantSpec};
use super::tables::{PieceMask, QUIET};
use super::{PieceDef, PromotionRules};
use crate::types::{Color, Geometry, PieceId, MAX_PIECE_TYPES};

/// The shogi rules of a variant ([`super::Variant::shogi`]).
#[derive(Clone, Debug, Default)]
pub struct ShogiRules {
    /// Per type, the promoted type it may become (`promotedPieceType`).
    pub promoted: [Option<PieceId>; MAX_PIECE_TYPES],
    /// Per promoted type, the type it was (and goes back to the hand as).
    pub unpromoted: [Option<PieceId>; MAX_PIECE_TYPES],
    /// Per promoted type, the type whose moves it has.
    pub targets: [Option<PieceId>; MAX_PIECE_TYPES],
    /// Per type, the other types counted as one with it (see [`ShogiRules::kind`]); zero
    /// where there are none.
    pub kinds: [PieceMask; MAX_PIECE_TYPES],
    /// The types whose moves go through [`ShogiRules`]: those that promote, demote, or may
    /// land where they could never move again. Their moves are marked overlapping, so that
    /// move generation lists them apart from the fast path and expands them there.
    pub movers: PieceMask,
    /// Promotion is compulsory where it is possible (`mandatoryPiecePromotion`).
    pub mandatory: bool,
    /// Only captures promote (`piecePromotionOnCapture`).
    pub on_capture: bool,
    /// A promoted man may demote on a move, as a promotion (`pieceDemotion`).
    pub demotion: bool,
    /// A man in hand may be dropped promoted (`dropPromoted`).
    pub drop_promoted: bool,
    /// The type that may not be dropped on a file holding `no_doubled_count` of one's own
    /// (`dropNoDoubled`, `dropNoDoubledCount`).
    pub no_doubled: Option<(PieceId, u8)>,
    /// Mate by dropping this type loses (`shogiPawnDropMateIllegal`: the shogi pawn).
    pub pawn_drop_mate: Option<PieceId>,
    /// Per type and colour, the squares where a man could never move again; empty unless
    /// `immobilityIllegal`.
    pub dead: Vec<[Vec<bool>; 2]>,
}

impl ShogiRules {
    /// True when the variant uses any of these rules.
    pub fn active(&self) -> bool {
        self.movers != 0 || self.no_doubled.is_some() || self.pawn_drop_mate.is_some()
    }

    /// The type a captured man of type `id` goes to the hand as.
    #[inline(always)]
    pub fn hand_type(&self, id: PieceId) -> PieceId {
        self.unpromoted[id.index()].unwrap_or(id)
    }

    /// True when a man of type `id` and colour `color` could never move from `sq` (only where
    /// `immobilityIllegal` says so).
    #[inline]
    pub fn is_dead(&self, id: PieceId, color: Color, sq: usize) -> bool {
        self.dead
            .get(id.index())
            .is_some_and(|d| d[color.index()].get(sq) == Some(&true))
    }

    /// The types counted as one with `id` where the rules count men by type (pseudo-royalty,
    /// extinction): his own, the type a promoted `+X` moves as, and every promoted type that
    /// moves as that one; Fairy-Stockfish's promoted man is of his new type, so Sho shogi's
    /// crown prince (`+e`) is one more king.
    #[inline(always)]
    pub fn kind(&self, id: PieceId) -> PieceMask {
        self.kinds[id.index()] | 1 << id.0
    }

    /// Adds `+X` for each type whose promoted type `Y` is in `mask`: the promoted man counts
    /// as his new type for the rules that name types (royalty, extinction, flags).
    pub fn spread(&self, mask: PieceMask) -> PieceMask {
        (0..MAX_PIECE_TYPES).fold(mask, |m, i| match self.targets[i] {
            Some(t) if mask & (1 << t.0) != 0 => m | 1 << i,
            _ => m,
        })
    }
}

impl ShogiRules {
    /// Marks the movers' moves overlapping (see [`ShogiRules::movers`]).
    pub(crate) fn mark_movers(&self, pieces: &mut [PieceDef]) {
        for (i, p) in pieces.iter_mut().enumerate() {
            if self.movers & (1 << i) != 0 {
                for m in p.moves.iter_mut() {
                    m.overlapping = true;
                }
            }
        }
    }

    /// Gives each promoted type the per-type data of the type whose moves it has (its
    /// `mobilityRegion`, as Fairy-Stockfish's promoted man is of that type).
    pub(crate) fn copy_to_promoted<T: Clone>(&self, per_type: &mut [T]) {
        for (i, target) in self.targets.iter().enumerate() {
            if let (Some(t), true) = (target, i < per_type.len()) {
                per_type[i] = per_type[t.index()].clone();
            }
        }
    }
}

/// The index of the piece lettered `letter` among `pieces` (the types defined in the file).
fn by_letter(pieces: &[PieceDef], letter: char) -> Option<usize> {
    let upper = letter.to_ascii_uppercase();
    pieces
        .iter()
        .position(|p| p.letter == upper && p.promoted_from.is_none())
}

/// Appends a promoted type `+X` to `pieces` for every `promotedPieceType` pair `x:y` and
/// returns the rules, less what needs the other keys resolved (see [`finish`]).
pub(crate) fn add_promoted_types(
    spec: &VariantSpec,
    pieces: &mut Vec<PieceDef>,
    errs: &mut Vec<VariantError>,
) -> ShogiRules {
    let mut rules = ShogiRules::default();
    // Each line sets the types it names, in turn. A pair whose piece the variant does not
    // have is passed over (an inherited line may name a piece the section has removed); a
    // piece of the section's own line must exist, and so must the type it promotes to.
    let mut map: Vec<(usize, Option<usize>)> = Vec::new();
    for Located { value, at } in &spec.promoted_piece_type {
        for (x, y) in value {
            let find = |r: &PieceRef| match r {
                PieceRef::Letter(c) => by_letter(pieces, *c).map(Some).ok_or(*c),
                PieceRef::Name(n) => Ok(pieces
                    .iter()
                    .position(|p| &p.name == n && p.promoted_from.is_none())),
                PieceRef::None => Ok(None),
            };
            match (find(x), find(y)) {
                (Ok(Some(f)), Ok(t)) => {
                    map.retain(|(o, _)| *o != f);
                    map.push((f, t));
                }
                (Err(c), _) | (_, Err(c)) => errs.push(at.error(format!("no piece '{c}'"))),
                (Ok(None), _) => {}
            }
        }
    }
    let mut targets = [None; MAX_PIECE_TYPES];
    for (from, to) in map {
        let Some(to) = to else { continue };
        if pieces.len() >= MAX_PIECE_TYPES - 1 {
            errs.push(spec.header.error(format!(
                "more than {} piece types with the promoted ones",
                MAX_PIECE_TYPES - 1
            )));
            break;
        }
        let base = &pieces[from];
        let model = &pieces[to];
        let promoted = PieceDef {
            name: format!("+{}", base.name),
            letter: base.letter,
            betza: model.betza.clone(),
            royal: model.royal,
            moves: model.moves.clone(),
            has_initial_moves: model.has_initial_moves,
            fsf: model.fsf,
            initial_by_region: model.initial_by_region,
            hurdles: model.hurdles,
            promoted_from: Some(PieceId(from as u8)),
        };
        let id = pieces.len();
        pieces.push(promoted);
        rules.promoted[from] = Some(PieceId(id as u8));
        rules.unpromoted[id] = Some(PieceId(from as u8));
        targets[id] = Some(PieceId(to as u8));
    }
    rules.targets = targets;
    let base = |i: usize| targets[i].map_or(i, |t| t.index());
    for i in 0..pieces.len() {
        for j in 0..pieces.len() {
            if i != j && base(i) == base(j) {
                rules.kinds[i] |= 1 << j;
            }
        }
    }
    rules
}

/// Completes the rules once the board and the other keys are known: the flags, the nifu and
/// uchifuzume types, the squares where men could never move again, and which types' moves go
/// through the shogi rules (the chess pawns of `promotion` promote as chess pawns do and are
/// left to that code, with their promoted type as one more choice).
pub(crate) fn finish(
    rules: &mut ShogiRules,
    spec: &VariantSpec,
    g: &Geometry,
    pieces: &[PieceDef],
    promotion: &mut PromotionRules,
    errs: &mut Vec<VariantError>,
) {
    let pawns = promotion.pawn_types;
    use super::spec::or;
    rules.mandatory = or(&spec.mandatory_piece_promotion, false);
    rules.on_capture = or(&spec.piece_promotion_on_capture, false);
    rules.demotion = or(&spec.piece_demotion, false);
    rules.drop_promoted = or(&spec.drop_promoted, false);
    if let Some(given) = &spec.drop_no_doubled {
        match given.value.as_slice() {
            [] => {}
            [one] => match by_letter(pieces, *one) {
                Some(id) => {
                    let count = or(&spec.drop_no_doubled_count, 1).min(255) as u8;
                    rules.no_doubled = Some((PieceId(id as u8), count));
                }
                None => errs.push(given.at.error(format!("no piece '{one}'"))),
            },
            _ => errs.push(given.at.error("give one piece letter")),
        }
    }
    if or(&spec.shogi_pawn_drop_mate_illegal, false) {
        rules.pawn_drop_mate = pieces
            .iter()
            .position(|p| p.name == "shogiPawn")
            .map(|i| PieceId(i as u8));
    }
    let mut movers = 0;
    for i in 0..pieces.len() {
        if rules.promoted[i].is_some() || rules.demotion && rules.unpromoted[i].is_some() {
            movers |= 1 << i;
        }
    }
    if or(&spec.immobility_illegal, false) {
        rules.dead = pieces
            .iter()
            .map(|p| Color::ALL.map(|c| dead_squares(p, c, g)))
            .collect();
        for (i, d) in rules.dead.iter().enumerate() {
            if d.iter().flatten().any(|&x| x) {
                movers |= 1 << i;
            }
        }
    }
    rules.movers = movers & !pawns;
    add_pawn_choices(rules, promotion);
}

/// A chess pawn with a promoted type (`promotedPieceType = p:c`) may also promote to it, as
/// one more choice where his promotion is otherwise that of a chess pawn (Fairy-Stockfish's
/// pawn promotions, and a piece promotion beside them).
fn add_pawn_choices(rules: &ShogiRules, promotion: &mut PromotionRules) {
    for pawn in 0..MAX_PIECE_TYPES {
        let Some(promoted) = rules.promoted[pawn] else {
            continue;
        };
        if promotion.pawn_types & (1 << pawn) == 0 {
            continue;
        }
        let id = PieceId(pawn as u8);
        let mut choices = promotion.choices_for(id, Color::White).to_vec();
        choices.push(promoted);
        promotion.targets[pawn] = None;
        promotion.by_pawn.retain(|(p, _)| *p != id);
        promotion.by_pawn.push((id, choices));
    }
}

/// The squares (mailbox cells) from which a man of `piece` and `color` has no move on the
/// empty board (Fairy-Stockfish's test: no quiet move of the piece's own leaps and rides).
fn dead_squares(piece: &PieceDef, color: Color, g: &Geometry) -> Vec<bool> {
    let moves = &piece.moves[color.index()];
    let mut dead = vec![false; g.num_cells()];
    if !moves.programs.is_empty() {
        return dead;
    }
    for sq in g.squares() {
        let on = |d: i16| g.contains(sq.offset(d));
        let alive = moves.leaps.iter().any(|l| l.quiet() && on(l.delta))
            || moves.slides.iter().any(|s| s.quiet() && on(s.delta))
            || moves
                .rays
                .iter()
                .any(|r| r.mode & QUIET != 0 && on(r.delta))
            || moves.double_steps.iter().any(|d| on(d.delta));
        dead[sq.index()] = !alive;
    }
    dead
}
