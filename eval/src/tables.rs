//! The per-variant tables: each piece type's value (from the variant file when it gives one,
//! else estimated from the piece's mobility on the empty board) and its square tables
//! generated from the geometry. Built once per variant; plain data that can be printed and
//! tuned.

use std::fmt::Write;

use chimera_engine::types::{Color, Geometry, PieceId, Square};
use chimera_engine::{Variant, VariantRef};

/// The weights the tables are generated with. The defaults are fitted to chess games with
/// `examples/tune` (see [`Terms`]'s defaults): a pawn comes out at 75 (middlegame) and 83
/// (endgame), a knight, a bishop, a rook and a queen near 376, 383, 659 and 1196. The royal
/// man's home-rank bonus is zero: the fit wanted him off his first rank, which chess does not.
///
/// [`Terms`]: crate::terms::Terms
#[derive(Clone, Debug)]
pub struct Weights {
    /// Value per square of average rider mobility.
    pub rider: f64,
    /// Value per square of average leaper mobility (a leap cannot be blocked, so it is worth
    /// more than a square a rider reaches).
    pub leaper: f64,
    /// Value per squared square of total mobility (a large reach is worth more than its parts).
    pub square: f64,
    /// A pawn type's base value, before its promotion potential.
    pub pawn_base: f64,
    /// The share of the best promotion's value a pawn type adds.
    pub pawn_promotion: f64,
    /// A pawn type's middlegame value as a share of its base-plus-promotion worth.
    pub pawn_mg_share: f64,
    /// A pawn type's endgame value as a share of that worth (pawns gain as the board empties).
    pub pawn_eg_share: f64,
    /// Centralisation bonus of the most short-ranged piece, middlegame and endgame.
    pub centre_mg: f64,
    /// Endgame centralisation bonus.
    pub centre_eg: f64,
    /// Endgame bonus of a pawn type one step from promotion (grows with the square of progress).
    pub pawn_advance_eg: f64,
    /// Middlegame bonus of a pawn type one step from promotion.
    pub pawn_advance_mg: f64,
    /// Middlegame bonus of the royal man per rank nearer its own first rank.
    pub royal_home_mg: f64,
    /// Mobility bonus (mg, eg) per square of reach beyond the average, for leaper-like men
    /// (most of whose reach is by leaps).
    pub mobility_leaper: (i32, i32),
    /// The same for rider-like men.
    pub mobility_rider: (i32, i32),
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            rider: 38.28,
            leaper: 68.324,
            square: 0.628,
            pawn_base: 60.0,
            pawn_promotion: 0.042,
            pawn_mg_share: 0.6849,
            pawn_eg_share: 0.7548,
            centre_mg: 34.0904,
            centre_eg: 41.2051,
            pawn_advance_eg: 41.6160,
            pawn_advance_mg: 34.1040,
            royal_home_mg: 0.0,
            mobility_leaper: (2, 11),
            mobility_rider: (3, 7),
        }
    }
}

/// Where a piece's value comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ValueSource {
    /// Given by the variant file (`pieceValueMg`/`pieceValueEg`).
    File,
    /// Estimated from mobility.
    Estimated,
    /// A royal piece: its loss ends the game, so it has no material value.
    Royal,
}

/// Everything the evaluation knows about one piece type.
#[derive(Clone, Debug)]
pub struct PieceInfo {
    /// FEN letter.
    pub letter: char,
    /// Name in the variant file.
    pub name: String,
    /// Average number of squares reached by leaps on the empty board.
    pub leaper_mobility: f64,
    /// Average number of squares reached by rides on the empty board.
    pub rider_mobility: f64,
    /// True when every move keeps the man on squares of one colour.
    pub colour_bound: bool,
    /// True for the types that promote.
    pub pawn: bool,
    /// True for royal types.
    pub royal: bool,
    /// Middlegame value.
    pub value_mg: i32,
    /// Endgame value.
    pub value_eg: i32,
    /// Where the value came from.
    pub source: ValueSource,
    /// Mobility bonus per reachable square above the average, middlegame and endgame.
    pub mobility_mg: i32,
    /// Endgame mobility weight.
    pub mobility_eg: i32,
}

impl PieceInfo {
    /// Average mobility on the empty board, leaps and rides together.
    pub fn mobility(&self) -> f64 {
        self.leaper_mobility + self.rider_mobility
    }
}

/// The tables of one variant.
#[derive(Clone, Debug)]
pub struct Tables {
    /// The variant's name.
    pub variant: String,
    /// The geometry (for printing and indexing).
    pub geometry: Geometry,
    /// Per piece type.
    pub pieces: Vec<PieceInfo>,
    /// Square table values per (colour, piece type, mailbox cell), material included:
    /// `psq[(c * pieces + p) * cells + sq]` = (mg, eg).
    pub psq: Vec<(i16, i16)>,
    /// Mailbox cells.
    pub cells: usize,
    /// The non-pawn, non-royal material of both sides in the start position (100% middlegame).
    pub phase_total: i32,
}

impl Tables {
    /// Builds the tables of `v` with the default weights.
    pub fn new(v: &VariantRef) -> Tables {
        Tables::with_weights(v, &Weights::default())
    }

    /// Builds the tables of `v` with `w`.
    pub fn with_weights(v: &VariantRef, w: &Weights) -> Tables {
        let np = v.num_pieces();
        let mut pieces: Vec<PieceInfo> = (0..np)
            .map(|id| {
                let def = &v.pieces()[id];
                let reach = v.empty_board_reach(PieceId(id as u8));
                let (lm, rm, cb) = (reach.leaps, reach.rides, reach.colour_bound);
                let total = lm + rm;
                let value = w.rider * rm + w.leaper * lm + w.square * total * total;
                PieceInfo {
                    letter: def.letter,
                    name: def.name.clone(),
                    leaper_mobility: lm,
                    rider_mobility: rm,
                    colour_bound: cb,
                    pawn: v.promotion().pawn_types & (1 << id) != 0,
                    royal: v.is_royal(chimera_engine::PieceId(id as u8)),
                    value_mg: value.round() as i32,
                    value_eg: value.round() as i32,
                    source: ValueSource::Estimated,
                    mobility_mg: 0,
                    mobility_eg: 0,
                }
            })
            .collect();
        // Pawn types: worth their base plus a share of the best piece they can become.
        let best_promotion = v.promotion().choices[0]
            .iter()
            .map(|p| pieces[p.index()].value_mg)
            .max()
            .unwrap_or(0) as f64;
        for p in pieces.iter_mut().filter(|p| p.pawn) {
            let base = w.pawn_base + w.pawn_promotion * best_promotion;
            p.value_mg = (base * w.pawn_mg_share).round() as i32;
            p.value_eg = (base * w.pawn_eg_share).round() as i32;
        }
        for p in pieces.iter_mut() {
            if p.royal {
                p.value_mg = 0;
                p.value_eg = 0;
                p.source = ValueSource::Royal;
                continue;
            }
            if let Some(&(_, mg, eg)) = v
                .piece_values()
                .iter()
                .find(|e| e.0.to_ascii_uppercase() == p.letter)
            {
                if let Some(mg) = mg {
                    p.value_mg = mg;
                    p.value_eg = eg.unwrap_or(mg);
                } else if let Some(eg) = eg {
                    p.value_eg = eg;
                }
                p.source = ValueSource::File;
            }
            if !p.pawn {
                // A few centipawns per square of reach beyond the average.
                (p.mobility_mg, p.mobility_eg) = if p.leaper_mobility > p.rider_mobility {
                    w.mobility_leaper
                } else {
                    w.mobility_rider
                };
            }
        }

        let g = v.geometry().clone();
        let cells = g.num_cells();
        let mut psq = vec![(0i16, 0i16); 2 * np * cells];
        let max_mob = pieces
            .iter()
            .filter(|p| !p.pawn && !p.royal)
            .map(|p| p.mobility())
            .fold(1.0, f64::max);
        for (id, p) in pieces.iter().enumerate() {
            for sq in g.squares() {
                for color in Color::ALL {
                    let (mg, eg) = square_bonus(v, &g, w, p, max_mob, sq, color);
                    let i = (color.index() * np + id) * cells + sq.index();
                    psq[i] = (
                        (p.value_mg as f64 + mg).round() as i16,
                        (p.value_eg as f64 + eg).round() as i16,
                    );
                }
            }
        }
        let start = chimera_engine::Position::startpos(v);
        let mut phase_total = 0;
        for color in Color::ALL {
            for &sq in start.squares_of(color) {
                let p = &pieces[start.cell(sq).id().index()];
                if !p.pawn && !p.royal {
                    phase_total += p.value_mg;
                }
            }
            for (id, p) in pieces.iter().enumerate() {
                if !p.pawn && !p.royal {
                    phase_total +=
                        p.value_mg * start.in_hand(color, chimera_engine::PieceId(id as u8)) as i32;
                }
            }
        }
        Tables {
            variant: v.name().to_string(),
            geometry: g,
            pieces,
            psq,
            cells,
            phase_total: phase_total.max(1),
        }
    }

    /// The square value (material included) of a man, middlegame and endgame.
    #[inline(always)]
    pub fn psq(&self, color: Color, id: usize, sq: Square) -> (i16, i16) {
        self.psq[(color.index() * self.pieces.len() + id) * self.cells + sq.index()]
    }

    /// The tables as text: one line per piece type, then each piece's square table for White
    /// (the value of a man on each square, material included), middlegame and endgame.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let g = &self.geometry;
        let _ = writeln!(
            s,
            "variant {} ({}x{}), phase material {}",
            self.variant,
            g.display_files(),
            g.ranks,
            self.phase_total
        );
        let _ = writeln!(
            s,
            "   {:<16}{:>7}{:>7}{:>6}{:>6}{:>6}{:>5} source",
            "piece", "leaps", "rides", "mg", "eg", "mob", "cb"
        );
        for p in &self.pieces {
            let _ = writeln!(
                s,
                "{:<3}{:<16}{:>7.2}{:>7.2}{:>6}{:>6}{:>6}{:>5} {}",
                p.letter,
                p.name,
                p.leaper_mobility,
                p.rider_mobility,
                p.value_mg,
                p.value_eg,
                p.mobility_mg,
                if p.colour_bound { "yes" } else { "no" },
                match p.source {
                    ValueSource::File => "variant file",
                    ValueSource::Estimated => "estimated",
                    ValueSource::Royal => "royal",
                }
            );
        }
        for (id, p) in self.pieces.iter().enumerate() {
            for (phase, pick) in [("mg", 0), ("eg", 1)] {
                let _ = writeln!(s, "\n{} ({}) {phase}, White:", p.letter, p.name);
                for rank in (0..g.ranks as usize).rev() {
                    let mut line = format!("{:>3} ", rank + 1);
                    for file in 0..g.display_files() {
                        if let Some(sq) = g.display_square(file, rank) {
                            let (mg, eg) = self.psq(Color::White, id, sq);
                            let _ = write!(line, "{:>5}", if pick == 0 { mg } else { eg });
                        }
                    }
                    let _ = writeln!(s, "{}", line.trim_end());
                }
            }
        }
        s
    }
}

/// The positional part of a man's square value (middlegame, endgame), from the geometry.
fn square_bonus(
    v: &Variant,
    g: &Geometry,
    w: &Weights,
    p: &PieceInfo,
    max_mob: f64,
    sq: Square,
    color: Color,
) -> (f64, f64) {
    let (_, file, _) = g.coords(sq);
    let rank = g.relative_rank(sq, color);
    let fc = (g.files as f64 - 1.0) / 2.0;
    let rc = (g.ranks as f64 - 1.0) / 2.0;
    let df = (file as f64 - fc).abs() / fc.max(0.5);
    let dr = (rank as f64 - rc).abs() / rc.max(0.5);
    // 1 in the centre, 0 in the corners.
    let centre = 1.0 - (df + dr) / 2.0;
    let file_centre = 1.0 - df;
    if p.royal {
        let home = (g.ranks as f64 - 1.0 - rank as f64).max(0.0) / (g.ranks as f64 - 1.0).max(1.0);
        let mg = w.royal_home_mg * (g.ranks as f64 - 1.0) * (home - 1.0) - 10.0 * file_centre;
        let eg = w.centre_eg * (centre - 0.5) * 1.5;
        return (mg, eg);
    }
    if p.pawn {
        // Progress toward the nearest promotion square on this file, 0 at the start rank, 1 one
        // step away.
        let zone = &v.promotion().zone[color.index()];
        let mut distance = None;
        for r in 0..g.ranks as usize {
            let s = g.square(g.board_of(sq), file, r);
            if zone.get(s.index()).copied().unwrap_or(false) {
                let d = (g.relative_rank(s, color) as i32 - rank as i32).max(0);
                distance = Some(distance.map_or(d, |x: i32| x.min(d)));
            }
        }
        let Some(distance) = distance else {
            return (10.0 * file_centre, 0.0);
        };
        let span = (g.ranks as f64 - 2.0).max(1.0);
        let progress = (1.0 - (distance as f64 - 1.0) / span).clamp(0.0, 1.0);
        let mg =
            w.pawn_advance_mg * progress * progress + 12.0 * file_centre * (rank > 1) as i32 as f64;
        let eg = w.pawn_advance_eg * progress * progress;
        return (mg, eg);
    }
    // Short-range pieces need the centre most; the longest-range ones barely care.
    let range = (1.0 - p.mobility() / (max_mob * 1.2)).clamp(0.15, 1.0);
    let leap = if p.leaper_mobility > p.rider_mobility {
        1.0
    } else {
        0.6
    };
    let mg = w.centre_mg * range * leap * (centre - 0.5) * 2.0;
    let eg = w.centre_eg * range * (centre - 0.5) * 2.0;
    (mg, eg)
}
