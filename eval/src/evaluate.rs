//! The evaluation function: material and square tables, mobility, royal safety (attacks on the
//! royal man's neighbourhood and the pawn shield in front of him), passed pawns, pairs of
//! colour-bound pieces and a tempo bonus, tapered between middlegame and endgame by the
//! material left on the board; on top of these, threats on men worth more than their attacker,
//! orthogonal riders on open files and pawn structure (`threats`, `pawns`). Everything is
//! generic over the variant's pieces and geometry.

use arrayvec::ArrayVec;

use chimera_engine::search::{EvalCache, Evaluator, Value};
use chimera_engine::types::{Color, Square};
use chimera_engine::{PieceId, Position, VariantRef};

use crate::pawn_cache::{PawnCache, PawnEntry, PawnKeys, MAX_PASSERS};
use crate::pawns::{self, FileCounts};
use crate::tables::{Tables, Weights};
use crate::terms::Terms;

/// How far the score of material, square tables and pairs may be from the full evaluation in
/// practice (mobility, royal safety, passed pawns): beyond this distance from the window, the
/// lazy evaluation stops early.
pub(crate) const LAZY_MARGIN: i32 = 450;
/// Hand men count at this share (percent) of their value: they can enter anywhere, but have
/// not yet.
const HAND_SHARE: i32 = 85;
/// Reserve men waiting behind a file count at this share (percent) of their value: they will
/// enter unless the man in front of them is captured on his square first.
const RESERVE_SHARE: i32 = 80;

/// The evaluation's working memory on one thread: made once per search thread (through
/// [`Evaluator::new_cache`]) and passed to each evaluation, instead of living in thread-local
/// storage, so that it belongs to the searcher that uses it.
#[derive(Default)]
pub struct EvalScratch {
    /// Per mailbox cell, which sides attack it (bit 1 White, bit 2 Black), so that men
    /// attacked and not defended can be found and a passer's path judged, and whose royal
    /// man's neighbourhood the cell is in ([`zone_bit`]) and which sides' pawn-type men attack it
    /// ([`pawn_bit`]); reused between evaluations.
    attacked: Vec<u8>,
    /// Recent pawn formations (empty, and then unused, for a one-off evaluation).
    pawns: PawnCache,
}

impl EvalScratch {
    /// Working memory for a search thread, with a pawn-structure cache.
    pub fn for_search() -> EvalScratch {
        EvalScratch {
            attacked: Vec::new(),
            pawns: PawnCache::new(),
        }
    }

    /// The scratch in `cache`, which is replaced by a new one when it is another evaluator's.
    fn of(cache: &mut EvalCache) -> &mut EvalScratch {
        if !cache.is::<EvalScratch>() {
            *cache = Box::new(EvalScratch::for_search());
        }
        cache.downcast_mut().expect("an evaluation scratch")
    }
}

/// The bit for `color` in the attack map ([`EvalScratch::attacked`]).
#[inline(always)]
fn side_bit(color: Color) -> u8 {
    1 << color.index()
}

/// `rank` (0 = White's first) counted from `color`'s own side of a board of `ranks` ranks.
#[inline(always)]
fn relative_rank(color: Color, rank: i32, ranks: i32) -> i32 {
    if color == Color::White {
        rank
    } else {
        ranks - 1 - rank
    }
}

/// The bit in the attack map of the cells next to `color`'s royal man (and his own).
#[inline(always)]
fn zone_bit(color: Color) -> u8 {
    4 << color.index()
}

/// The bit in the attack map of the cells `color`'s pawn-type men attack.
#[inline(always)]
fn pawn_bit(color: Color) -> u8 {
    16 << color.index()
}

/// White's and Black's (middlegame, endgame) sums.
type Sums = [(i32, i32); 2];

/// The evaluator of one variant: its tables plus what the evaluation needs about the rules.
#[derive(Clone, Debug)]
pub struct VariantEval {
    tables: Tables,
    terms: Terms,
    variant: VariantRef,
    /// The mailbox offsets of the eight neighbours and of the square itself.
    zone: [i16; 9],
    /// Per mailbox cell: (board, file on its board, rank, file on the wide display board), so
    /// that the evaluation never divides to find coordinates.
    coords: Vec<(u8, u8, u8, u8)>,
    /// Per piece type: its average empty-board mobility, rounded.
    avg_mobility: Vec<i32>,
    /// Per piece type: true for orthogonal riders that slide the whole file (rook-like men),
    /// which gain from files free of their own pawn-type men.
    file_rider: Vec<bool>,
    /// One rank forward for White in mailbox offsets (Black's is the negation).
    rank_step: i16,
    /// Per rank counted from the owner's side: the pawn-structure bonuses of a pawn-type man
    /// there, worked out once.
    pawn_ranks: Vec<PawnRank>,
    /// The keys of pawn formations in the pawn-structure cache.
    pawn_keys: PawnKeys,
}

/// What a pawn-type man's rank is worth in the pawn-structure terms.
#[derive(Clone, Copy, Debug)]
struct PawnRank {
    /// The square of the share of the way to the last rank that the man has come.
    progress2: f64,
    /// The (mg, eg) bonus of a connected man.
    connected: (i32, i32),
    /// The (mg, eg) bonus of a passed man before blockers and royal men are counted.
    passed: (i32, i32),
}

impl PawnRank {
    /// The bonuses for rank `rel` of `ranks` (counted from the owner's side) under `terms`.
    fn new(rel: usize, ranks: usize, terms: &Terms) -> PawnRank {
        let span = (ranks as f64 - 1.0).max(1.0);
        let p2 = (rel as f64 / span).powi(2);
        PawnRank {
            progress2: p2,
            connected: (
                terms.connected_base.0 + (terms.connected_gain.0 as f64 * p2) as i32,
                terms.connected_base.1 + (terms.connected_gain.1 as f64 * p2) as i32,
            ),
            passed: (
                (terms.passed.0 as f64 * p2) as i32,
                (terms.passed.1 as f64 * p2) as i32,
            ),
        }
    }
}

impl VariantEval {
    /// Builds the evaluation of `variant` (once per variant).
    pub fn new(variant: &VariantRef) -> VariantEval {
        VariantEval::with_weights(variant, &Weights::default(), &Terms::default())
    }

    /// An evaluation whose tables are built with `weights` and whose positional terms weigh
    /// `terms` (for tuning).
    pub fn with_weights(variant: &VariantRef, weights: &Weights, terms: &Terms) -> VariantEval {
        let tables = Tables::with_weights(variant, weights);
        let g = &variant.geometry();
        let stride = g.stride() as i32;
        let mut zone = [0i16; 9];
        for (i, offset) in zone.iter_mut().enumerate() {
            let (dy, dx) = (i as i32 / 3 - 1, i as i32 % 3 - 1);
            *offset = (dy * stride + dx) as i16;
        }
        let mut coords = vec![(0, 0, 0, 0); g.num_cells()];
        for sq in g.squares() {
            let (b, f, r) = g.coords(sq);
            coords[sq.index()] = (b as u8, f as u8, r as u8, g.display_file(sq) as u8);
        }
        let avg_mobility = tables
            .pieces
            .iter()
            .map(|p| p.mobility().round() as i32)
            .collect();
        let file_rider = variant
            .pieces()
            .iter()
            .enumerate()
            .map(|(id, _)| {
                variant
                    .plain_moves(PieceId(id as u8), Color::White)
                    .slides
                    .iter()
                    .any(|s| {
                        s.delta.unsigned_abs() as i32 == stride
                            && (s.range() == 0 || s.range() as usize + 1 >= g.ranks as usize)
                    })
            })
            .collect();
        VariantEval {
            tables,
            terms: terms.clone(),
            variant: variant.clone(),
            zone,
            coords,
            avg_mobility,
            file_rider,
            rank_step: stride as i16,
            pawn_ranks: (0..g.ranks as usize)
                .map(|rel| PawnRank::new(rel, g.ranks as usize, terms))
                .collect(),
            pawn_keys: PawnKeys::new(variant.pieces().len(), g.num_cells()),
        }
    }

    /// The tables this evaluation uses.
    pub fn tables(&self) -> &Tables {
        &self.tables
    }

    /// The evaluation split into White's and Black's (mg, eg) sums, the phase (256 = all
    /// middlegame material on the board), and per side the non-pawn material and pawn count.
    /// With `window` = (alpha, beta) from the mover's point of view, the work stops after
    /// material and square tables when their score is more than [`LAZY_MARGIN`] outside it;
    /// the last field is false when it did.
    fn terms(
        &self,
        pos: &Position,
        window: Option<(Value, Value)>,
        scratch: &mut EvalScratch,
    ) -> (Sums, i32, [i32; 2], [i32; 2], bool) {
        let v = &*self.variant;
        let t = &self.tables;
        let np = t.pieces.len();
        let mut score = [(0i32, 0i32); 2];
        let mut phase_mat = 0;
        let mut pawn_key = self.pawn_keys.empty;
        let mut cb_colours = [[0u8; 32]; 2];
        let royal = [
            pos.royal_square(Color::White),
            pos.royal_square(Color::Black),
        ];
        let mut mat = [0i32; 2];
        let mut pawns = [0i32; 2];

        for color in Color::ALL {
            let c = color.index();
            for &sq in pos.squares_of(color) {
                let id = pos.cell(sq).id().index();
                if id >= np {
                    continue;
                }
                let (mg, eg) = t.psq(color, id, sq);
                score[c].0 += mg as i32;
                score[c].1 += eg as i32;
                let info = &t.pieces[id];
                let (_, f, r, _) = self.coords[sq.index()];
                if info.pawn {
                    pawn_key ^= self.pawn_keys.man(color, id, sq);
                    pawns[c] += 1;
                } else if !info.royal {
                    phase_mat += info.value_mg;
                    mat[c] += info.value_eg;
                }
                if info.colour_bound {
                    cb_colours[c][id.min(31)] |= 1 << ((f + r) & 1);
                }
            }
            if v.has_hand() {
                for (id, info) in t.pieces.iter().enumerate() {
                    let n = pos.in_hand(color, PieceId(id as u8)) as i32;
                    if n > 0 {
                        score[c].0 += n * info.value_mg * HAND_SHARE / 100;
                        score[c].1 += n * info.value_eg * HAND_SHARE / 100;
                        if !info.pawn && !info.royal {
                            phase_mat += n * info.value_mg;
                        }
                    }
                }
            }
            if let Some(reserve) = &v.reserve() {
                // A reserve man still to enter (Pioneer) is worth most of his value; one that
                // was forfeited has left the count and is worth nothing.
                let n = pos.reserves_waiting(color) as i32;
                let info = &t.pieces[reserve.piece.index()];
                score[c].0 += n * info.value_mg * RESERVE_SHARE / 100;
                score[c].1 += n * info.value_eg * RESERVE_SHARE / 100;
                phase_mat += n * info.value_mg;
            }
            if cb_colours[c].contains(&3) {
                score[c].0 += self.terms.pair.0;
                score[c].1 += self.terms.pair.1;
            }
        }

        if let Some((alpha, beta)) = window {
            let phase = (phase_mat * 256 / t.phase_total).min(256);
            let v = self.combine(pos, &score, phase, &mat, &pawns);
            if v - LAZY_MARGIN >= beta || v + LAZY_MARGIN <= alpha {
                return (score, phase, mat, pawns, false);
            }
        }

        let EvalScratch {
            attacked,
            pawns: formations,
        } = scratch;
        formations.with(
            pawn_key,
            || self.pawn_structure(pos, pawn_key),
            |pawn| {
                for (side, cached) in score.iter_mut().zip(pawn.score) {
                    side.0 += cached.0;
                    side.1 += cached.1;
                }
                self.activity(pos, royal, &pawn.file_pawns, &mut score, attacked);
                self.shelter_and_passers(pos, royal, &pawn.passers, attacked, &mut score);
            },
        );

        let phase = (phase_mat * 256 / t.phase_total).min(256);
        (score, phase, mat, pawns, true)
    }

    /// Mobility, attacks on the enemy royal's neighbourhood, threats on enemy men worth more
    /// than their attacker, riders on open files and men left hanging, added to `score`; all
    /// from the plain leaps and slides of each man (conditional moves are left out: they are
    /// rare and slow to walk).
    fn activity(
        &self,
        pos: &Position,
        royal: [Option<Square>; 2],
        file_pawns: &[FileCounts; 2],
        score: &mut Sums,
        attacked: &mut Vec<u8>,
    ) {
        let v = &*self.variant;
        let g = &v.geometry();
        let t = &self.tables;
        let np = t.pieces.len();
        let ranks = g.ranks as i32;
        {
            attacked.clear();
            attacked.resize(g.num_cells(), 0);
            for color in Color::ALL {
                if let Some(k) = royal[color.index()] {
                    for &offset in &self.zone {
                        if let Some(cell) = attacked.get_mut(k.offset(offset).index()) {
                            *cell |= zone_bit(color);
                        }
                    }
                }
            }
            // Pawn-type men first, so that the cells they attack are known before any
            // mobility is counted: a man that goes there is lost to a pawn, so such a cell is
            // not mobility. Only their captures threaten; their mobility is in the square
            // tables.
            for color in Color::ALL {
                let c = color.index();
                let bits = pawn_bit(color) | side_bit(color);
                let them = color.opposite();
                for &sq in pos.squares_of(color) {
                    let id = pos.cell(sq).id().index();
                    let Some(info) = t.pieces.get(id).filter(|p| p.pawn) else {
                        continue;
                    };
                    let moves = v.plain_moves(PieceId(id as u8), color);
                    // A royal pawn-type man only defends, as the royal men below do.
                    let threatens = !info.royal && v.captures().may_capture(PieceId(id as u8));
                    for l in moves.leaps.iter().filter(|l| l.captures()) {
                        let to = sq.offset(l.delta);
                        attacked[to.index()] |= bits;
                        let cell = pos.cell(to);
                        if threatens && cell.is_color(them) {
                            self.add_threat(&mut score[c], info.value_mg, true, cell.id());
                        }
                    }
                }
            }
            for color in Color::ALL {
                let c = color.index();
                let them = color.opposite();
                let bit = side_bit(color);
                let pawn_guarded = pawn_bit(them);
                let us_bit = color.cell_bit();
                let enemy_royal = royal[them.index()];
                let enemy_zone = zone_bit(them);
                let mut units = 0;
                let mut attackers = 0;
                for &sq in pos.squares_of(color) {
                    let id = pos.cell(sq).id().index();
                    if id >= np {
                        continue;
                    }
                    let info = &t.pieces[id];
                    if info.pawn && !info.royal {
                        // Walked above.
                        continue;
                    }
                    let moves = v.plain_moves(PieceId(id as u8), color);
                    // Men that may never capture (Alice Guard's Home set) threaten nothing.
                    let threatens = v.captures().may_capture(PieceId(id as u8));
                    if info.royal {
                        // The royal man defends what he touches.
                        for l in moves.leaps.iter().filter(|l| l.captures()) {
                            let to = sq.offset(l.delta);
                            attacked[to.index()] |= bit;
                        }
                        continue;
                    }
                    let mut mob = 0;
                    let mut hits = 0;
                    for l in moves.leaps {
                        let to = sq.offset(l.delta);
                        let cell = pos.cell(to);
                        if l.captures() {
                            attacked[to.index()] |= bit;
                        }
                        if cell.0 & us_bit == 0 {
                            mob += (attacked[to.index()] & pawn_guarded == 0) as i32;
                            if threatens && l.captures() {
                                if attacked[to.index()] & enemy_zone != 0 {
                                    hits += 1;
                                }
                                if cell.is_color(them) {
                                    self.add_threat(&mut score[c], info.value_mg, false, cell.id());
                                }
                            }
                        }
                    }
                    for s in moves.slides {
                        if threatens && s.range() == 0 && s.quiet() && s.captures() {
                            // The common rider, moving and capturing without a range limit:
                            // the same walk as below with the tests it never needs left out
                            // (5% of a chess evaluation's instructions).
                            let mut to = sq;
                            loop {
                                to = to.offset(s.delta);
                                let cell = pos.cell(to);
                                let near_royal = attacked[to.index()] & enemy_zone != 0;
                                let safe = attacked[to.index()] & pawn_guarded == 0;
                                attacked[to.index()] |= bit;
                                if cell.is_empty() {
                                    mob += safe as i32;
                                    hits += near_royal as i32;
                                    continue;
                                }
                                if cell.0 & us_bit == 0 {
                                    mob += safe as i32;
                                    hits += near_royal as i32;
                                    self.add_threat(&mut score[c], info.value_mg, false, cell.id());
                                }
                                break;
                            }
                            continue;
                        }
                        let mut to = sq;
                        let mut k = 0u8;
                        loop {
                            to = to.offset(s.delta);
                            k = k.wrapping_add(1);
                            let cell = pos.cell(to);
                            if s.captures() {
                                attacked[to.index()] |= bit;
                            }
                            if cell.0 & us_bit != 0 {
                                break;
                            }
                            mob += (attacked[to.index()] & pawn_guarded == 0) as i32;
                            if threatens && s.captures() {
                                if attacked[to.index()] & enemy_zone != 0 {
                                    hits += 1;
                                }
                                if cell.is_color(them) {
                                    self.add_threat(&mut score[c], info.value_mg, false, cell.id());
                                }
                            }
                            if !cell.is_empty() || s.range() != 0 && k >= s.range() {
                                break;
                            }
                        }
                    }
                    let avg = self.avg_mobility[id];
                    score[c].0 += info.mobility_mg * (mob - avg);
                    score[c].1 += info.mobility_eg * (mob - avg);
                    if hits > 0 {
                        attackers += 1;
                        units += hits * (1 + info.value_mg / 400);
                    }
                    if self.file_rider[id] {
                        let df = (self.coords[sq.index()].3 as usize).min(63);
                        if file_pawns[c][df] == 0 {
                            let bonus = if file_pawns[them.index()][df] == 0 {
                                self.terms.rook_open
                            } else {
                                self.terms.rook_half_open
                            };
                            score[c].0 += bonus.0;
                            score[c].1 += bonus.1;
                        }
                        // On the rank before the enemy's last, with his royal man behind it:
                        // the rider attacks the pawns still at home and cuts the royal off.
                        if let Some(k) = enemy_royal {
                            let last = |r: u8| relative_rank(color, r as i32, ranks);
                            let rider_rank = last(self.coords[sq.index()].2);
                            let royal_rank = last(self.coords[k.index()].2);
                            if rider_rank == ranks - 2 && royal_rank == ranks - 1 {
                                score[c].0 += self.terms.rook_seventh.0;
                                score[c].1 += self.terms.rook_seventh.1;
                            }
                        }
                    }
                }
                if attackers >= 2 {
                    let penalty =
                        (units * units * self.terms.royal_attack).min(self.terms.royal_attack_max);
                    score[them.index()].0 -= penalty;
                }
            }
            // Men attacked and not defended: the attacker wins them unless they move.
            for color in Color::ALL {
                let (us, them) = (side_bit(color), side_bit(color.opposite()));
                for &sq in pos.squares_of(color) {
                    let id = pos.cell(sq).id().index();
                    let hanging = attacked[sq.index()] & (us | them) == them;
                    if hanging && t.pieces.get(id).is_some_and(|p| !p.pawn && !p.royal) {
                        let other = color.opposite().index();
                        score[other].0 += self.terms.hanging.0;
                        score[other].1 += self.terms.hanging.1;
                    }
                }
            }
        }
    }

    /// The pawn shield in front of each royal man still near home, and the passed men (from
    /// the pawn-structure entry's `passers`), added to `score`.
    fn shelter_and_passers(
        &self,
        pos: &Position,
        royal: [Option<Square>; 2],
        passers: &[ArrayVec<(Square, u8), MAX_PASSERS>; 2],
        attacked: &[u8],
        score: &mut Sums,
    ) {
        let g = &self.variant.geometry();
        let t = &self.tables;
        let ranks = g.ranks as i32;
        for color in Color::ALL {
            let c = color.index();
            let forward: i32 = if color == Color::White { 1 } else { -1 };
            if let Some(k) = royal[c] {
                let (b, f, r, _) = self.coords[k.index()];
                let (b, f, r) = (b as usize, f as usize, r as i32);
                if relative_rank(color, r, ranks) <= 1 {
                    for df in -1i32..=1 {
                        let ff = f as i32 + df;
                        if ff < 0 || ff >= g.files as i32 {
                            continue;
                        }
                        for (step, bonus) in [(1, self.terms.shield.0), (2, self.terms.shield.1)] {
                            let rr = r + forward * step;
                            if rr < 0 || rr >= g.ranks as i32 {
                                continue;
                            }
                            let s = g.square(b, ff as usize, rr as usize);
                            let cell = pos.cell(s);
                            if cell.is_color(color)
                                && t.pieces.get(cell.id().index()).is_some_and(|p| p.pawn)
                            {
                                score[c].0 += bonus;
                            }
                        }
                    }
                }
            }
            let them = 1 - c;
            for &(sq, rel) in &passers[c] {
                let rank = &self.pawn_ranks[rel as usize];
                let (b, file, r, _) = self.coords[sq.index()];
                let r = r as i32;
                let (mut mg, mut eg) = rank.passed;
                let step = self.rank_step * forward as i16;
                let front = sq.offset(step);
                let blocked = !pos.cell(front).is_empty();
                if blocked {
                    mg = mg * self.terms.blocked_passer_share / 100;
                    eg = eg * self.terms.blocked_passer_share / 100;
                }
                // Royal men near the square in front: the defender's stops the passer,
                // the owner's escorts it.
                let front_at = (b, file, (r + forward).clamp(0, ranks - 1) as u8);
                let distance = |k: Option<Square>| {
                    k.map_or(pawns::KING_DISTANCE_CAP, |k| {
                        let (kb, kf, kr, _) = self.coords[k.index()];
                        pawns::king_distance((kb, kf, kr), front_at)
                    })
                };
                // The way to the last rank: free of enemy men and of enemy attacks, nothing
                // but a capture of the passer can stop it; a safe next step is worth less.
                // Neither counts while a man stands on the next square.
                let enemy = color.opposite();
                let unsafe_cell = |s: Square| {
                    pos.cell(s).is_color(enemy) || attacked[s.index()] & side_bit(enemy) != 0
                };
                let (free_mg, free_eg) = if blocked || unsafe_cell(front) {
                    (0, 0)
                } else if std::iter::successors(Some(front), |s| Some(s.offset(step)))
                    .take_while(|&s| g.contains(s))
                    .any(unsafe_cell)
                {
                    self.terms.passer_safe_step
                } else {
                    self.terms.passer_free
                };
                mg += (free_mg as f64 * rank.progress2) as i32;
                eg += (free_eg as f64 * rank.progress2) as i32;
                let escort = self.terms.passer_enemy_king as f64 * distance(royal[them]) as f64
                    - self.terms.passer_own_king as f64 * distance(royal[c]) as f64;
                eg += (escort * rank.progress2) as i32;
                score[c].0 += mg;
                score[c].1 += eg;
            }
        }
    }
}

impl VariantEval {
    /// The pawn-only terms of the position's pawn formation (whose key is `key`): connected,
    /// doubled and isolated men, the pawn-type men per file, and which men are passed (no
    /// enemy pawn-type man ahead on their own or a neighbouring file).
    fn pawn_structure(&self, pos: &Position, key: u64) -> PawnEntry {
        let g = &self.variant.geometry();
        let t = &self.tables;
        let np = t.pieces.len();
        let files = g.display_files().min(64);
        let ranks = g.ranks as i32;
        let mut entry = PawnEntry::new(key);
        // Per display file, the highest and lowest absolute rank of each colour's pawn types,
        // for the passed-pawn test.
        let mut hi = [[-1i8; 64]; 2];
        let mut lo = [[i8::MAX; 64]; 2];
        let is_pawn = |id: usize| id < np && t.pieces[id].pawn;
        for color in Color::ALL {
            let c = color.index();
            for &sq in pos.squares_of(color) {
                if is_pawn(pos.cell(sq).id().index()) {
                    let (_, _, r, df) = self.coords[sq.index()];
                    let df = (df as usize).min(63);
                    hi[c][df] = hi[c][df].max(r as i8);
                    lo[c][df] = lo[c][df].min(r as i8);
                    entry.file_pawns[c][df] = entry.file_pawns[c][df].saturating_add(1);
                }
            }
        }
        for color in Color::ALL {
            let c = color.index();
            let them = 1 - c;
            let file_pawns = &entry.file_pawns[c];
            let mut sum = (0, 0);
            for &sq in pos.squares_of(color) {
                let id = pos.cell(sq).id().index();
                if !is_pawn(id) {
                    continue;
                }
                let (_, _, r, df) = self.coords[sq.index()];
                let (f, r) = ((df as usize).min(63), r as i32);
                let rel = relative_rank(color, r, ranks);
                if self.connected(pos, color, id, sq) {
                    let bonus = self.pawn_ranks[rel as usize].connected;
                    sum.0 += bonus.0;
                    sum.1 += bonus.1;
                }
                if file_pawns[f] > 1 {
                    sum.0 -= self.terms.doubled.0;
                    sum.1 -= self.terms.doubled.1;
                }
                if pawns::isolated(file_pawns, f, files) {
                    sum.0 -= self.terms.isolated.0;
                    sum.1 -= self.terms.isolated.1;
                }
                let blocked =
                    (f.saturating_sub(1)..=(f + 1).min(files.saturating_sub(1))).any(|ff| {
                        if color == Color::White {
                            hi[them][ff] as i32 > r
                        } else {
                            (lo[them][ff] as i32) < r
                        }
                    });
                if !blocked {
                    let _ = entry.passers[c].try_push((sq, rel as u8));
                }
            }
            entry.score[c] = sum;
        }
        entry
    }

    /// Adds the threat bonus for a man worth `attacker` (a pawn type or not) hitting `victim`.
    #[inline(always)]
    fn add_threat(&self, sum: &mut (i32, i32), attacker: i32, pawn: bool, victim: PieceId) {
        if let Some(p) = self.tables.pieces.get(victim.index()) {
            if let Some((mg, eg)) = self.terms.threat(attacker, pawn, p.value_mg) {
                sum.0 += mg;
                sum.1 += eg;
            }
        }
    }

    /// True when the pawn-type man of type `id` on `sq` is defended by an own pawn-type man
    /// (one whose capture lands on `sq`) or stands beside one on its rank (a phalanx).
    #[inline]
    fn connected(&self, pos: &Position, color: Color, id: usize, sq: Square) -> bool {
        let is_own_pawn = |s: Square| {
            let cell = pos.cell(s);
            cell.is_color(color)
                && self
                    .tables
                    .pieces
                    .get(cell.id().index())
                    .is_some_and(|p| p.pawn)
        };
        is_own_pawn(sq.offset(1))
            || is_own_pawn(sq.offset(-1))
            || self
                .variant
                .plain_moves(PieceId(id as u8), color)
                .leaps
                .iter()
                .any(|l| l.captures() && is_own_pawn(sq.offset(-l.delta)))
    }

    /// The score for the side to move from the two sides' sums, tapered by `phase`.
    #[inline]
    fn combine(
        &self,
        pos: &Position,
        score: &Sums,
        phase: i32,
        mat: &[i32; 2],
        pawns: &[i32; 2],
    ) -> Value {
        let us = pos.side_to_move().index();
        let them = 1 - us;
        let mg = score[us].0 - score[them].0 + self.terms.tempo.0;
        let eg = score[us].1 - score[them].1 + self.terms.tempo.1;
        let mut v = (mg * phase + eg * (256 - phase)) / 256;
        // Without pawn types, a small material edge rarely wins: scale toward a draw.
        let strong = if v > 0 { us } else { them };
        if pawns[strong] == 0 && mat[strong] - mat[1 - strong] <= 400 && !self.variant.has_hand() {
            v /= 4;
        }
        v.clamp(-20_000, 20_000)
    }
}

impl VariantEval {
    /// The evaluation (lazy with a `window`) with the working memory `scratch`.
    fn evaluate_in(
        &self,
        pos: &Position,
        window: Option<(Value, Value)>,
        scratch: &mut EvalScratch,
    ) -> (Value, bool) {
        let (score, phase, mat, pawns, complete) = self.terms(pos, window, scratch);
        (self.combine(pos, &score, phase, &mat, &pawns), complete)
    }
}

impl Evaluator for VariantEval {
    fn new_cache(&self) -> EvalCache {
        Box::new(EvalScratch::for_search())
    }

    fn evaluate_with(&self, pos: &Position, cache: &mut EvalCache) -> Value {
        self.evaluate_in(pos, None, EvalScratch::of(cache)).0
    }

    fn evaluate_lazy_with(
        &self,
        pos: &Position,
        cache: &mut EvalCache,
        alpha: Value,
        beta: Value,
    ) -> (Value, bool) {
        self.evaluate_in(pos, Some((alpha, beta)), EvalScratch::of(cache))
    }

    // One-off evaluations (protocols, tuning, tests) skip the pawn cache: allocating its
    // table would cost more than the one formation it would ever hold.
    fn evaluate(&self, pos: &Position) -> Value {
        self.evaluate_in(pos, None, &mut EvalScratch::default()).0
    }

    fn evaluate_lazy(&self, pos: &Position, alpha: Value, beta: Value) -> (Value, bool) {
        self.evaluate_in(pos, Some((alpha, beta)), &mut EvalScratch::default())
    }

    fn piece_value(&self, id: PieceId) -> Value {
        match self.tables.pieces.get(id.index()) {
            Some(p) if p.royal => {
                if self.variant.checking() {
                    0
                } else {
                    2000
                }
            }
            Some(p) => p.value_mg,
            None => 0,
        }
    }
}
