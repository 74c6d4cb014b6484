//! Compiled move tables: each piece's single-leg moves as mailbox steps for one colour, split
//! into the fast paths (plain leaps, plain slides) and the general path (everything else), plus
//! the per-colour attack tables that the attack test runs backwards from a target square.

use arrayvec::ArrayVec;

use crate::types::{Geometry, Square, MAX_BOARD_SIDE, MAX_PIECE_TYPES, PAD};

/// The move may go to an empty square.
pub const QUIET: u8 = 1;
/// The move may capture an enemy man.
pub const CAPTURE: u8 = 2;
/// The move may capture en passant (onto the e.p. square).
pub const EN_PASSANT: u8 = 4;

/// How a general ray treats the men on its path.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum HopKind {
    /// An ordinary leap or slide: the first man met stops it.
    None,
    /// `p`: jumps exactly one man (the screen), then moves on as an ordinary slide.
    Cannon,
    /// `g`: jumps the first man met and lands on the square just beyond it.
    Grasshopper,
}

/// A single-leg move that needs the general generator: a leap or a ride with conditions.
///
/// Every step from `s` goes to `s + delta`; before a step, the squares `s + path[..]` must not
/// all be blocked (for an oblique lame leap there are two routes, and the step is blocked only
/// when both have an occupied square; a straight lame leap has one route).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ray {
    /// The mailbox offset of one step.
    pub delta: i16,
    /// The largest number of steps; 0 = unlimited.
    pub max: u8,
    /// [`QUIET`], [`CAPTURE`], [`EN_PASSANT`] bits.
    pub mode: u8,
    /// Only for a man that has never moved.
    pub initial: bool,
    /// A pawn's triple step (with `initial` set, so that the generator's one test for
    /// initial rays finds it): from the variant's triple-step region, virgin or not, and
    /// leaving e.p. squares behind (`variant::triple_step`).
    pub triple_step: bool,
    /// Hopping behaviour.
    pub hop: HopKind,
    /// `j` on a slider: the first square is skipped whatever it holds.
    pub skip_first: bool,
    /// `j` on a leaper: the square(s) jumped over must be occupied.
    pub must_jump: bool,
    /// Routes of squares (offsets from the step's start) that must be clear: the step is
    /// possible when at least one route is wholly empty. Empty = no condition.
    pub routes: ArrayVec<Route, 2>,
}

/// The squares (offsets from a step's start) one route of a lame leap passes; a leap of at
/// most (3,3) passes at most two.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Route {
    squares: [i16; 2],
    len: u8,
}

impl Route {
    /// A route through the given offsets (at most two).
    pub fn new(offsets: &[i16]) -> Route {
        let mut squares = [0; 2];
        for (slot, &d) in squares.iter_mut().zip(offsets) {
            *slot = d;
        }
        Route {
            squares,
            len: offsets.len().min(2) as u8,
        }
    }

    /// The offsets.
    #[inline(always)]
    pub fn squares(&self) -> &[i16] {
        &self.squares[..self.len as usize]
    }
}

/// A plain leap: one step to `delta`, no conditions.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Leap {
    /// The mailbox offset.
    pub delta: i16,
    /// [`QUIET`] and/or [`CAPTURE`].
    pub(crate) mode: u8,
}

impl Leap {
    /// It may move to an empty square.
    #[inline(always)]
    pub fn quiet(&self) -> bool {
        self.mode & QUIET != 0
    }

    /// It may capture.
    #[inline(always)]
    pub fn captures(&self) -> bool {
        self.mode & CAPTURE != 0
    }
}

/// A plain slide: steps of `delta` until the first man or the range ends.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Slide {
    /// The mailbox offset of one step.
    pub delta: i16,
    /// [`QUIET`] and/or [`CAPTURE`].
    pub(crate) mode: u8,
    /// The largest number of steps; 0 = unlimited.
    pub(crate) max: u8,
}

impl Slide {
    /// It may move to an empty square.
    #[inline(always)]
    pub fn quiet(&self) -> bool {
        self.mode & QUIET != 0
    }

    /// It may capture.
    #[inline(always)]
    pub fn captures(&self) -> bool {
        self.mode & CAPTURE != 0
    }

    /// The most steps; 0 = unlimited.
    #[inline(always)]
    pub fn range(&self) -> u8 {
        self.max
    }
}

/// All single-leg moves of one piece type for one colour.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PieceMoves {
    /// Plain leaps.
    pub leaps: Vec<Leap>,
    /// Plain slides.
    pub slides: Vec<Slide>,
    /// Everything else (lame, hopping, initial-only, en passant, jumping).
    pub rays: Vec<Ray>,
    /// Initial, lame, non-capturing leaps over one square (`ifmnD`, `imfnA`): a pawn's double
    /// step, which leaves an e.p. square behind when the piece is a pawn type.
    pub double_steps: Vec<DoubleStep>,
    /// Multi-leg moves (and single legs that land on a friend), run by the leg interpreter.
    pub programs: Vec<LegProgram>,
    /// Two of the piece's moves can reach the same square the same way (a step and a slide in
    /// one direction, or any leg program), so its move list must be cleared of duplicates.
    pub overlapping: bool,
}

/// A leg may end on an empty square (`m`).
pub const LEG_EMPTY: u8 = 1;
/// A leg may end on an enemy man, capturing him (`c`).
pub const LEG_ENEMY: u8 = 2;
/// A leg may end on a friendly man, lifting him (`d`; `u` puts him down again).
pub const LEG_FRIEND: u8 = 4;
/// A leg may end on any man without touching him: the next leg hops on from there (`p`).
pub const LEG_HOP: u8 = 8;

/// How a leg after the first chooses its direction from the previous leg's.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Turn {
    /// Turn by this many eighths of a circle (positive = to the left; 4 = straight back).
    By(i8),
    /// `z`: a 45-degree turn against the sense of the last 45-degree turn (zigzag).
    Zig,
    /// `q`: a 45-degree turn in the sense of the last 45-degree turn (circling).
    Circle,
}

/// One leg of a multi-leg move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegSpec {
    /// First leg: the step vectors (dx, dy) from the owner's point of view.
    pub vectors: Vec<(i8, i8)>,
    /// Later legs: the turns allowed relative to the previous leg's direction.
    pub turns: Vec<Turn>,
    /// The step's Chebyshev length when turns go round the eight king directions (orthogonal
    /// and diagonal atoms); 0 for oblique atoms, which turn only by quarter circles.
    pub ring: u8,
    /// Most steps of the leg (1 = a leap, 0 = unlimited).
    pub max: u8,
    /// `i` on a later leg: exactly as many steps as the previous leg.
    pub same_range: bool,
    /// `i` on the first leg: only for a man that has never moved.
    pub initial: bool,
    /// Where the leg may end ([`LEG_EMPTY`], [`LEG_ENEMY`], [`LEG_FRIEND`], [`LEG_HOP`]).
    pub modes: u8,
    /// `u`: the lifted friend is put down on the square where this leg starts.
    pub unload: bool,
}

impl LegProgram {
    /// True when some leg captures an enemy.
    pub fn can_capture(&self) -> bool {
        self.legs.iter().any(|l| l.modes & LEG_ENEMY != 0)
    }
}

/// A multi-leg move description: the legs in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegProgram {
    /// The legs.
    pub legs: Vec<LegSpec>,
}

/// A double step: to `delta`, passing the square at `passed`, which must be empty.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DoubleStep {
    /// The mailbox offset of the landing square.
    pub delta: i16,
    /// The mailbox offset of the square passed over.
    pub passed: i16,
}

impl PieceMoves {
    /// True when some move of this piece can capture.
    pub fn can_capture(&self) -> bool {
        self.leaps.iter().any(|l| l.mode & CAPTURE != 0)
            || self.slides.iter().any(|s| s.mode & CAPTURE != 0)
            || self.rays.iter().any(|r| r.mode & CAPTURE != 0)
            || self.programs.iter().any(LegProgram::can_capture)
    }
}

/// A bit set of piece ids.
pub type PieceMask = u32;

const _: () = assert!(MAX_PIECE_TYPES <= 32);

/// One leap attack, seen from the target: a man of a type in `mask` standing `-delta` away
/// attacks the target (the stored `delta` is already negated: attacker = target + delta).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LeapAttack {
    /// Offset from the target to the attacker.
    pub delta: i16,
    /// Piece types that attack by this leap.
    pub mask: PieceMask,
}

/// One slide attack direction, seen from the target: walking `delta` from the target, the first
/// man met attacks it when his type is in `unlimited`, or in a `limited` entry whose range
/// reaches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlideAttack {
    /// Offset of one step from the target towards the attacker.
    pub delta: i16,
    /// Types that slide any distance in this direction.
    pub unlimited: PieceMask,
    /// Types with a range limit: (type mask, largest number of steps).
    pub limited: Vec<(PieceMask, u8)>,
    /// Types that attack by a plain leap of exactly one step in this direction (kings,
    /// pawns): tested on the walk's first square, so that square is read once.
    pub near: PieceMask,
}

impl SlideAttack {
    /// True when a man of a type in `m`, met `k` steps away, attacks along this direction.
    #[inline(always)]
    pub fn reaches(&self, m: PieceMask, k: u8) -> bool {
        self.unlimited & m != 0
            || k == 1 && self.near & m != 0
            || self
                .limited
                .iter()
                .any(|&(lm, max)| lm & m != 0 && k <= max)
    }
}

/// The attack tables of one colour: how that colour's men attack a square.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AttackTables {
    /// Plain leap attacks, one entry per distinct offset, except those folded into a slide
    /// direction's `near` mask.
    pub leaps: Vec<LeapAttack>,
    /// Plain slide attacks, one entry per direction.
    pub slides: Vec<SlideAttack>,
    /// Types whose captures are not plain leaps or slides (the attack test generates their
    /// captures forwards instead).
    pub general: PieceMask,
    /// Types whose plain leaps and slides were taken out of the plain tables because the man
    /// attacks only inside his mobility region: the general attack test runs them, bounded.
    pub confined: PieceMask,
}

impl AttackTables {
    /// Builds the attack tables of one colour from its pieces' compiled moves.
    pub fn build(moves: &[&PieceMoves]) -> AttackTables {
        let mut t = AttackTables::default();
        for (id, m) in moves.iter().enumerate() {
            let bit = 1u32 << id;
            for l in m.leaps.iter().filter(|l| l.mode & CAPTURE != 0) {
                match t.leaps.iter_mut().find(|a| a.delta == -l.delta) {
                    Some(a) => a.mask |= bit,
                    None => t.leaps.push(LeapAttack {
                        delta: -l.delta,
                        mask: bit,
                    }),
                }
            }
            for s in m.slides.iter().filter(|s| s.mode & CAPTURE != 0) {
                let idx = match t.slides.iter().position(|a| a.delta == -s.delta) {
                    Some(i) => i,
                    None => {
                        t.slides.push(SlideAttack {
                            delta: -s.delta,
                            unlimited: 0,
                            limited: Vec::new(),
                            near: 0,
                        });
                        t.slides.len() - 1
                    }
                };
                let a = &mut t.slides[idx];
                if s.max == 0 {
                    a.unlimited |= bit;
                } else {
                    a.limited.push((bit, s.max));
                }
            }
            if m.rays.iter().any(|r| r.mode & CAPTURE != 0)
                || m.programs.iter().any(LegProgram::can_capture)
            {
                t.general |= bit;
            }
        }
        for sa in t.slides.iter_mut() {
            if let Some(i) = t.leaps.iter().position(|l| l.delta == sa.delta) {
                sa.near = t.leaps.remove(i).mask;
            }
        }
        t
    }

    /// Leaves all the attacks of the types in `confined` to the general attack test, which
    /// bounds them by their mobility regions.
    pub fn confine(&mut self, confined: PieceMask) {
        if confined != 0 {
            self.hand_over(confined, confined);
            self.confined |= confined;
        }
    }

    /// Leaves the attacks of the types in `general` to the general attack test as well, and
    /// takes those of the types in `replaced` out of the plain tables (their plain moves
    /// attack more than they may: the xiangqi soldier before its sideways rank).
    pub fn hand_over(&mut self, general: PieceMask, replaced: PieceMask) {
        self.general |= general;
        let keep = !replaced;
        for l in self.leaps.iter_mut() {
            l.mask &= keep;
        }
        self.leaps.retain(|l| l.mask != 0);
        for s in self.slides.iter_mut() {
            s.unlimited &= keep;
            s.near &= keep;
            s.limited.retain(|(bit, _)| bit & keep != 0);
        }
    }
}

/// Where the men of one colour could attack the enemy royal man from on an empty board: a
/// quick filter that tells the search which moves cannot give check, so that it makes and
/// tests only the others. Tables are indexed by the file and rank difference between a square
/// and the royal man's (cell offsets would alias across the padding).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckReach {
    /// Per (file, rank) difference of a square from the royal man's: the types that would
    /// attack him from there.
    pub attackers: Vec<PieceMask>,
    /// Per difference: the index in the attack tables' `slides` of the one line with riders
    /// through the square to the royal man, [`CheckReach::NO_LINE`] when there is none (a man
    /// leaving the square uncovers nothing), [`CheckReach::SEVERAL_LINES`] when there are more.
    pub line_slide: Vec<u8>,
    differences: Differences,
}

/// Differences run over -SPAN..=SPAN on each axis.
const SPAN: i32 = MAX_BOARD_SIDE as i32 - 1;
const WIDTH: i32 = 2 * SPAN + 1;

/// The indexing shared by the tables kept per (file, rank) difference between two squares of
/// one board: cell offsets would alias across the padding, file and rank differences do not.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Differences {
    /// Per cell of the padded array: `file * WIDTH + rank` for real squares, so that the
    /// index of a difference is one subtraction.
    place: Vec<i32>,
    stride: i32,
}

impl Differences {
    /// The number of differences, the length of a table indexed by them.
    const LEN: usize = (WIDTH * WIDTH) as usize;

    /// The indexing for one board of `geometry`; `None` on boards too narrow for a step's file
    /// and rank to be read back from its cell offset.
    fn new(geometry: &Geometry) -> Option<Differences> {
        let stride = geometry.stride() as i32;
        if stride <= 2 * PAD as i32 + 1 {
            return None;
        }
        let mut place = vec![0; geometry.num_cells()];
        for sq in geometry.squares() {
            let (_, file, rank) = geometry.coords(sq);
            place[sq.index()] = file as i32 * WIDTH + rank as i32;
        }
        Some(Differences { place, stride })
    }

    /// The (file, rank) step of a cell offset: a step of at most PAD files either way is
    /// `rank * stride + file` with |file| < stride / 2, so both parts read back.
    fn decode(&self, delta: i16) -> (i32, i32) {
        let (d, stride) = (delta as i32, self.stride);
        let file = (d + stride / 2).rem_euclid(stride) - stride / 2;
        (file, (d - file) / stride)
    }

    /// The table index of a (file, rank) difference, `None` beyond the largest board.
    fn slot((f, rk): (i32, i32)) -> Option<usize> {
        (f.abs() <= SPAN && rk.abs() <= SPAN).then(|| ((f + SPAN) * WIDTH + rk + SPAN) as usize)
    }

    /// The table index of real square `sq` seen from real square `origin`.
    #[inline(always)]
    fn index(&self, sq: Square, origin: Square) -> usize {
        (self.place[sq.index()] - self.place[origin.index()] + SPAN * WIDTH + SPAN) as usize
    }
}

impl CheckReach {
    /// The `line_slide` of a square on no rider's line.
    pub const NO_LINE: u8 = u8::MAX;
    /// The `line_slide` of a square on several riders' lines (a rider's step and its double),
    /// or on a line whose index does not fit.
    pub const SEVERAL_LINES: u8 = u8::MAX - 1;

    /// Builds the filter from one colour's attack tables, for a single board; `None` on boards
    /// too narrow for a step's file and rank to be read back from its cell offset.
    pub fn build(t: &AttackTables, geometry: &Geometry) -> Option<CheckReach> {
        let differences = Differences::new(geometry)?;
        let decode = |delta| differences.decode(delta);
        let slot = Differences::slot;
        let mut r = CheckReach {
            attackers: vec![0; Differences::LEN],
            line_slide: vec![CheckReach::NO_LINE; Differences::LEN],
            differences: differences.clone(),
        };
        for la in &t.leaps {
            if let Some(i) = slot(decode(la.delta)) {
                r.attackers[i] |= la.mask;
            }
        }
        for (n, sa) in t.slides.iter().enumerate() {
            let riders = sa.limited.iter().fold(sa.unlimited, |m, &(lm, _)| m | lm);
            let (f, rk) = decode(sa.delta);
            for k in 1.. {
                let Some(i) = slot((f * k, rk * k)) else {
                    break;
                };
                let ranged = sa
                    .limited
                    .iter()
                    .filter(|&&(_, max)| k <= max as i32)
                    .fold(0, |m, &(lm, _)| m | lm);
                r.attackers[i] |= sa.unlimited | ranged | if k == 1 { sa.near } else { 0 };
                if riders != 0 {
                    r.line_slide[i] = match u8::try_from(n) {
                        Ok(n)
                            if n < CheckReach::SEVERAL_LINES
                                && r.line_slide[i] == CheckReach::NO_LINE =>
                        {
                            n
                        }
                        _ => CheckReach::SEVERAL_LINES,
                    };
                }
            }
        }
        Some(r)
    }

    /// True when the square at difference index `i` lies on a slide line to the royal man, so
    /// that a man leaving it may uncover a check.
    #[inline(always)]
    pub fn on_line(&self, i: usize) -> bool {
        self.line_slide[i] != CheckReach::NO_LINE
    }

    /// The table index of real square `sq` seen from the royal man's real square `royal`.
    #[inline(always)]
    pub fn index(&self, sq: Square, royal: Square) -> usize {
        self.differences.index(sq, royal)
    }
}

/// Where the men that the general attack test runs could attack a square from: per (file,
/// rank) difference of the man's square from the target's, the types with some capturing move
/// of that shape. It over-estimates (screens, routes, regions and palace lines are left to the
/// test itself), so that a man it leaves out cannot attack: the test skips him for one table
/// read instead of walking his rays, most men standing nowhere near the target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneralReach {
    /// Per difference: the types that may attack from there.
    attackers: Vec<PieceMask>,
    differences: Differences,
}

impl GeneralReach {
    /// Builds the filter for the types in `general` of one colour, from their compiled moves
    /// and what the palace rules add: `diagonal` the types that move along the palace
    /// diagonals, `soldiers` those that step forwards and sideways by those rules; `None` on
    /// boards too narrow for the difference tables.
    pub fn build(
        moves: &[&PieceMoves],
        general: PieceMask,
        (diagonal, soldiers): (PieceMask, PieceMask),
        geometry: &Geometry,
    ) -> Option<GeneralReach> {
        let differences = Differences::new(geometry)?;
        let mut attackers = vec![0; Differences::LEN];
        // Marks `bit` at the first `max` multiples (0: all that fit) of a difference.
        let mut add_line = |(f, rk): (i32, i32), max: u8, bit: PieceMask| {
            let last = if max == 0 { SPAN } else { max as i32 };
            for k in 1..=last {
                match Differences::slot((f * k, rk * k)) {
                    Some(i) => attackers[i] |= bit,
                    None => break,
                }
            }
        };
        // The man stands at target - step: his differences are the negated steps.
        let back = |delta: i16| {
            let (f, rk) = differences.decode(delta);
            (-f, -rk)
        };
        // Types with a multi-leg capture, which may end anywhere: never skipped.
        let mut anywhere = 0;
        for (id, m) in moves.iter().enumerate() {
            let bit = 1 << id;
            if general & bit == 0 {
                continue;
            }
            if m.programs.iter().any(LegProgram::can_capture) {
                anywhere |= bit;
                continue;
            }
            for l in &m.leaps {
                add_line(back(l.delta), 1, bit);
            }
            for s in &m.slides {
                add_line(back(s.delta), s.max, bit);
            }
            for r in &m.rays {
                add_line(back(r.delta), r.max, bit);
            }
            if diagonal & bit != 0 {
                for d in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                    add_line(d, 0, bit);
                }
            }
            if soldiers & bit != 0 {
                for d in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                    add_line(d, 1, bit);
                }
            }
        }
        for a in attackers.iter_mut() {
            *a |= anywhere;
        }
        Some(GeneralReach {
            attackers,
            differences,
        })
    }

    /// The types that may attack real square `target` from real square `from`.
    #[inline(always)]
    pub fn attackers(&self, from: Square, target: Square) -> PieceMask {
        self.attackers[self.differences.index(from, target)]
    }
}
