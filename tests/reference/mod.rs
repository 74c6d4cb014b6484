//! A slow, deliberately simple reference move generator for the property tests: it works on
//! (file, rank) coordinates, re-reads every piece's XBetza with the engine's parser, and applies
//! the rules as docs/variant-files.md and docs/protocols.md §2 state them, without the engine's compiled tables, legality filter or
//! make/unmake.
//!
//! It reads a position only through public accessors (`piece_at`, `in_hand`, `side_to_move`,
//! the variant's fields) and the FEN text, and it keeps its own copy of the game state
//! ([`RefBoard`]) so that random games can be followed move by move (`apply`) and compared with
//! the engine after every ply. Speed does not matter here; every rule is written the long way.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use chimera_engine::types::{Color, PieceId, Square};
use chimera_engine::variant::betza::{self, Hop, Range};
use chimera_engine::{Position, VariantRef};

/// A square as (file, rank), both 0-based, signed so that steps off the board can be formed.
pub type Sq = (i32, i32);

/// A man on the reference board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Man {
    /// His owner.
    pub color: Color,
    /// His type (index into the variant's piece table).
    pub id: usize,
    /// True while he has stood on his square since the game (or the FEN) began: this is what
    /// `i` moves, castling partners and S-Chess gating ask about.
    pub virgin: bool,
}

/// One castling right: the king and the rook that may castle together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Right {
    /// 0 for White, 1 for Black (kept as a number so that rights sort).
    pub color: usize,
    /// The king's square.
    pub king: Sq,
    /// The rook's square.
    pub rook: Sq,
}

/// The en passant state: the square passed over and the man who passed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ep {
    /// The square passed over by the double step (where an e.p. capturer lands).
    pub passed: Sq,
    /// The square of the man that made the double step (who is removed).
    pub victim: Sq,
}

/// One first-leg XBetza element, reduced to what a single-leg move needs.
#[derive(Clone, Debug)]
struct Element {
    /// Step vectors from White's point of view (Black uses them turned through 180 degrees).
    vectors: Vec<Sq>,
    /// True for a leaper (one step; a rider limited to one step is the same thing).
    leaper: bool,
    /// The rider's range in steps; `None` is unlimited.
    max: Option<i32>,
    quiet: bool,
    capture: bool,
    en_passant: bool,
    initial: bool,
    lame: bool,
    jump: bool,
    hop: Option<Hop>,
}

/// What a reference move does, in board terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// A man moves from `from` to `to`, capturing whatever enemy stands on `to`, or on
    /// `ep_victim` for an en passant capture.
    Board {
        /// Start square.
        from: Sq,
        /// End square.
        to: Sq,
        /// The type he becomes on arrival, if he promotes.
        promote: Option<usize>,
        /// For en passant: the square of the man taken.
        ep_victim: Option<Sq>,
        /// For a double step: the square passed over.
        passed: Option<Sq>,
        /// S-Chess: the type gated from the hand onto `from`.
        gate: Option<usize>,
    },
    /// Castling: king and rook go to their squares; a man from the hand may be gated onto
    /// the square the king or the rook vacated.
    Castle {
        /// The right used.
        right: Right,
        /// King's destination.
        king_to: Sq,
        /// Rook's destination.
        rook_to: Sq,
        /// The gated type and the square it enters.
        gate: Option<(usize, Sq)>,
    },
    /// A man of type `id` is put from the hand onto `to`.
    Drop {
        /// The type dropped.
        id: usize,
        /// The square.
        to: Sq,
    },
}

/// A reference move: its text in the engine's notation and what it does.
#[derive(Clone, Debug)]
pub struct RefMove {
    /// The move as docs/protocols.md §2.2 writes it.
    pub text: String,
    /// Its effect.
    pub action: Action,
    /// For a move that gates: the text of the same move without the gating part.
    pub ungated: Option<String>,
}

/// A destination reached by one element of one man.
#[derive(Clone, Copy, Debug)]
struct Target {
    to: Sq,
    /// The move takes the enemy man on `to`.
    capture: bool,
    /// The move is an en passant capture (lands on the e.p. square).
    en_passant: bool,
    /// The square passed over when this is a double step that can leave an e.p. square.
    passed: Option<Sq>,
}

/// The reference's whole view of a game position.
#[derive(Clone, Debug)]
pub struct RefBoard {
    /// The variant (only its declared fields are read).
    pub variant: VariantRef,
    /// Files of the board.
    pub files: i32,
    /// Ranks of the board.
    pub ranks: i32,
    /// The men, indexed `rank * files + file`.
    pub men: Vec<Option<Man>>,
    /// The side to move.
    pub side: Color,
    /// Castling rights, sorted.
    pub rights: BTreeSet<Right>,
    /// En passant state, present only when the side to move has an e.p. capture (docs/protocols.md §2.3:
    /// "Chimera writes an e.p. square only when a capture there is possible").
    pub ep: Option<Ep>,
    /// Men in hand per colour and type.
    pub hands: [Vec<u8>; 2],
    /// Each piece type's elements, re-read from its XBetza (shared: boards are copied often).
    elements: Arc<Vec<Vec<Element>>>,
}

fn color_index(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// The square's name: file letter and 1-based rank.
pub fn name(sq: Sq) -> String {
    format!("{}{}", (b'a' + sq.0 as u8) as char, sq.1 + 1)
}

/// Reads a square name (`e4`, `j10`).
pub fn parse_square(text: &str) -> Option<Sq> {
    let mut chars = text.chars();
    let file = chars.next()?;
    if !file.is_ascii_lowercase() {
        return None;
    }
    let rank: i32 = chars.as_str().parse().ok()?;
    Some(((file as u8 - b'a') as i32, rank - 1))
}

/// Re-reads one piece's XBetza text into elements.
fn read_elements(text: &str) -> Vec<Element> {
    if text.trim().is_empty() {
        return Vec::new();
    }
    let parsed =
        betza::parse(text).unwrap_or_else(|e| panic!("XBetza '{text}' does not parse: {e}"));
    parsed
        .iter()
        .map(|el| {
            assert_eq!(
                el.legs.len(),
                1,
                "the reference only knows single-leg moves ('{text}')"
            );
            let leg = &el.legs[0];
            let vectors = leg
                .vectors()
                .unwrap_or_else(|e| panic!("no vectors for '{text}': {e}"))
                .into_iter()
                .map(|(x, y)| (x as i32, y as i32))
                .collect();
            let max = match leg.range {
                Range::Leap => Some(1),
                Range::Ride { max: None } | Range::Ride { max: Some(0) } => None,
                Range::Ride { max: Some(n) } => Some(n as i32),
            };
            let m = leg.modality;
            // docs/variant-files.md (XBetza): with neither m nor c a move may both move and capture; `e` alone only adds e.p. captures.
            let default = !m.quiet && !m.capture && !m.en_passant;
            Element {
                vectors,
                leaper: max == Some(1),
                max,
                quiet: m.quiet || default,
                capture: m.capture || default,
                en_passant: m.en_passant,
                initial: leg.initial > 0,
                lame: leg.lame,
                jump: leg.jump > 0,
                hop: leg.hop,
            }
        })
        .collect()
}

/// What the reference derives from a variant once: each type's elements and the start
/// position's men by square.
#[derive(Clone)]
struct Derived {
    elements: Arc<Vec<Vec<Element>>>,
    start: Arc<BTreeMap<Sq, (Color, usize)>>,
}

thread_local! {
    /// Derived data per variant, keyed by name and address (the address is stable while the
    /// variant lives; the name tells apart a variant later built at a reused address).
    static DERIVED: RefCell<HashMap<(String, usize), Derived>> = RefCell::new(HashMap::new());
}

fn derived(variant: &VariantRef) -> Derived {
    let key = (variant.name().to_string(), Arc::as_ptr(variant) as usize);
    DERIVED.with(|cache| {
        cache
            .borrow_mut()
            .entry(key)
            .or_insert_with(|| {
                let elements = variant
                    .pieces()
                    .iter()
                    .map(|p| read_elements(&p.betza))
                    .collect();
                let board = variant.start_fen().split_whitespace().next().unwrap_or("");
                let start = placement(variant, board)
                    .into_iter()
                    .map(|(sq, c, id)| (sq, (c, id)))
                    .collect();
                Derived {
                    elements: Arc::new(elements),
                    start: Arc::new(start),
                }
            })
            .clone()
    })
}

/// The number of steps `v` that make up `d`, when `d` is a positive multiple of `v`.
fn steps_to(d: Sq, v: Sq) -> Option<i32> {
    let k = if v.0 != 0 { d.0 / v.0 } else { d.1 / v.1 };
    (k >= 1 && (k * v.0, k * v.1) == d).then_some(k)
}

/// The men of a FEN's placement field, as (square, colour, type), read by hand.
fn placement(variant: &VariantRef, board_field: &str) -> Vec<(Sq, Color, usize)> {
    let board_field = board_field.split('[').next().unwrap_or("");
    let ranks = variant.geometry().ranks as i32;
    let mut out = Vec::new();
    for (row, text) in board_field.split('/').enumerate() {
        let rank = ranks - 1 - row as i32;
        let mut file = 0i32;
        let mut digits = String::new();
        for ch in text.chars() {
            if ch.is_ascii_digit() {
                digits.push(ch);
                continue;
            }
            if !digits.is_empty() {
                file += digits.parse::<i32>().unwrap();
                digits.clear();
            }
            if ch.is_ascii_alphabetic() {
                let id = variant
                    .piece_by_letter(ch)
                    .expect("a letter of the variant")
                    .index();
                let color = if ch.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                out.push(((file, rank), color, id));
                file += 1;
            }
        }
    }
    out
}

impl RefBoard {
    fn index(&self, sq: Sq) -> usize {
        (sq.1 * self.files + sq.0) as usize
    }

    /// True when `sq` is on the board.
    pub fn on_board(&self, sq: Sq) -> bool {
        (0..self.files).contains(&sq.0) && (0..self.ranks).contains(&sq.1)
    }

    /// The man on `sq` (none off the board).
    pub fn at(&self, sq: Sq) -> Option<Man> {
        if self.on_board(sq) {
            self.men[self.index(sq)]
        } else {
            None
        }
    }

    fn set(&mut self, sq: Sq, man: Option<Man>) {
        let i = self.index(sq);
        self.men[i] = man;
    }

    /// Every square, rank 1 first.
    pub fn squares(&self) -> impl Iterator<Item = Sq> {
        let files = self.files;
        (0..self.ranks).flat_map(move |r| (0..files).map(move |f| (f, r)))
    }

    /// The rank of `sq` counted from `color`'s side.
    fn relative_rank(&self, sq: Sq, color: Color) -> i32 {
        match color {
            Color::White => sq.1,
            Color::Black => self.ranks - 1 - sq.1,
        }
    }

    fn engine_square(&self, sq: Sq) -> Square {
        self.variant
            .geometry()
            .square(0, sq.0 as usize, sq.1 as usize)
    }

    fn letter_lower(&self, id: usize) -> char {
        self.variant.pieces()[id].letter.to_ascii_lowercase()
    }

    /// An empty board of `variant` with White to move.
    fn empty(variant: &VariantRef) -> RefBoard {
        let g = &variant.geometry();
        assert_eq!(
            g.boards, 1,
            "the reference models single-board variants only"
        );
        let (files, ranks) = (g.files as i32, g.ranks as i32);
        let n = variant.num_pieces();
        RefBoard {
            variant: variant.clone(),
            files,
            ranks,
            men: vec![None; (files * ranks) as usize],
            side: Color::White,
            rights: BTreeSet::new(),
            ep: None,
            hands: [vec![0; n], vec![0; n]],
            elements: derived(variant).elements,
        }
    }

    /// The reference's reading of an engine position: the men through `piece_at`, the hands
    /// through `in_hand`, rights, virginity and e.p. from the position's own FEN.
    pub fn from_position(pos: &Position) -> RefBoard {
        RefBoard::from_position_and_fen(pos, &pos.fen())
    }

    /// As [`RefBoard::from_position`], but rights, virginity and e.p. come from `fen` (the
    /// text the position was set up from).
    pub fn from_position_and_fen(pos: &Position, fen: &str) -> RefBoard {
        let variant = pos.variant().clone();
        let mut b = RefBoard::empty(&variant);
        let g = &variant.geometry();
        for sq in b.squares() {
            if let Some(p) = pos.piece_at(g.square(0, sq.0 as usize, sq.1 as usize)) {
                b.set(
                    sq,
                    Some(Man {
                        color: p.color,
                        id: p.id.index(),
                        virgin: false,
                    }),
                );
            }
        }
        for color in Color::ALL {
            for id in 0..variant.num_pieces() {
                b.hands[color_index(color)][id] = pos.in_hand(color, PieceId(id as u8));
            }
        }
        b.side = pos.side_to_move();
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let castling_field = fields.get(2).copied().unwrap_or("-");
        let ep_field = fields.get(3).copied().unwrap_or("-");
        let gate_files = b.read_castling_field(castling_field);
        b.infer_virginity(&gate_files);
        b.read_ep_field(ep_field);
        b
    }

    /// The castling king of `color`: the castling king type on its castling rank (the one on
    /// the castling king file when there are several).
    fn castling_king(&self, color: Color) -> Option<Sq> {
        let rules = self.variant.castling()?;
        let rank = if color == Color::White {
            rules.rank as i32
        } else {
            self.ranks - 1 - rules.rank as i32
        };
        let kings: Vec<Sq> = (0..self.files)
            .map(|f| (f, rank))
            .filter(|&s| matches!(self.at(s), Some(m) if m.color == color && m.id == rules.king.index()))
            .collect();
        match kings.as_slice() {
            [] => None,
            [one] => Some(*one),
            many => Some(
                *many
                    .iter()
                    .find(|s| s.0 == rules.king_file as i32)
                    .unwrap_or(&many[0]),
            ),
        }
    }

    fn is_castling_rook(&self, sq: Sq, color: Color) -> bool {
        let Some(rules) = &self.variant.castling() else {
            return false;
        };
        matches!(self.at(sq), Some(m) if m.color == color && rules.rooks & (1 << m.id) != 0)
    }

    /// Reads the castling field: castling rights into `self.rights`; returns the gating files
    /// per colour (S-Chess lists them as file letters in the same field).
    fn read_castling_field(&mut self, field: &str) -> [BTreeSet<i32>; 2] {
        let mut gates = [BTreeSet::new(), BTreeSet::new()];
        if field == "-" {
            return gates;
        }
        for ch in field.chars() {
            let color = if ch.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let lower = ch.to_ascii_lowercase();
            let file = (lower as u8 - b'a') as i32;
            let side_letter = lower == 'k' || lower == 'q';
            if self.variant.gating().is_some() && file < self.files && !side_letter {
                gates[color_index(color)].insert(file);
                continue;
            }
            let king = self
                .castling_king(color)
                .expect("a castling right needs a castling king");
            let rook = if side_letter {
                // K and Q name the outermost castling rook on that side of the king.
                let files: Vec<i32> = if lower == 'k' {
                    (king.0 + 1..self.files).rev().collect()
                } else {
                    (0..king.0).collect()
                };
                files
                    .into_iter()
                    .map(|f| (f, king.1))
                    .find(|&s| self.is_castling_rook(s, color))
            } else {
                Some((file, king.1)).filter(|&s| self.is_castling_rook(s, color))
            };
            let rook = rook.unwrap_or_else(|| panic!("castling letter '{ch}' names no rook"));
            self.rights.insert(Right {
                color: color_index(color),
                king,
                rook,
            });
        }
        gates
    }

    /// Virginity as docs/protocols.md §2.3 gives it: a man is virgin when the start position has
    /// the same man on that square, or when he is a castling partner of a right; in a gating
    /// variant, the men of the gating rank are virgin exactly when the castling field lists
    /// their file (or a right names them).
    fn infer_virginity(&mut self, gate_files: &[BTreeSet<i32>; 2]) {
        let start = derived(&self.variant).start;
        let partners: BTreeSet<Sq> = self.rights.iter().flat_map(|r| [r.king, r.rook]).collect();
        for sq in self.squares() {
            let Some(mut man) = self.at(sq) else { continue };
            let on_gate_rank = matches!(&self.variant.gating(), Some(g) if self.relative_rank(sq, man.color) == g.rank as i32);
            man.virgin = if on_gate_rank {
                gate_files[color_index(man.color)].contains(&sq.0) || partners.contains(&sq)
            } else {
                start.get(&sq) == Some(&(man.color, man.id)) || partners.contains(&sq)
            };
            self.set(sq, Some(man));
        }
    }

    /// Reads the e.p. field: one square (the victim then stands straight beyond it, seen from
    /// the side that moved) or two (the passed square and the victim's, in either order). The state is
    /// kept only when the side to move has an e.p. capture.
    fn read_ep_field(&mut self, field: &str) {
        if field == "-" {
            return;
        }
        let split = field[1..]
            .find(|c: char| c.is_ascii_lowercase())
            .map(|i| i + 1);
        let (first, second) = match split {
            Some(i) => (&field[..i], Some(&field[i..])),
            None => (field, None),
        };
        let mut passed = parse_square(first).expect("e.p. square");
        let victim = match second {
            Some(t) => {
                // docs/protocols.md §2.3 (the e.p. field): two squares come in either order; the empty one was passed over.
                let other = parse_square(t).expect("e.p. victim square");
                if self.at(passed).is_some() {
                    std::mem::replace(&mut passed, other)
                } else {
                    other
                }
            }
            None => {
                let forward = if self.side == Color::White { -1 } else { 1 };
                (passed.0, passed.1 + forward)
            }
        };
        self.ep = Some(Ep { passed, victim });
        if !self.has_ep_capture() {
            self.ep = None;
        }
    }

    /// True when the side to move has a pseudo-legal e.p. capture.
    fn has_ep_capture(&self) -> bool {
        if self.ep.is_none() {
            return false;
        }
        // Only elements with `e` can capture en passant; looking at those alone is the same
        // as generating every pseudo-legal move and searching for an e.p. capture.
        let mut targets = Vec::new();
        for from in self.squares() {
            let Some(man) = self.at(from) else { continue };
            if man.color != self.side {
                continue;
            }
            for el in self.elements[man.id].iter().filter(|e| e.en_passant) {
                self.element_targets(from, man, el, &mut targets);
            }
        }
        targets.iter().any(|t| t.en_passant)
    }

    /// True when `id` can capture en passant. The built-in variants leave `enPassantTypes` at
    /// its default, the pawn types, which are also the types whose double steps leave e.p.
    /// squares (`ep_types`).
    fn captures_ep(&self, id: usize) -> bool {
        self.variant.ep_types() & (1 << id) != 0
    }

    // --------------------------------------------------------------------------------------
    // Moves of one element
    // --------------------------------------------------------------------------------------

    /// The squares strictly between the start and the end of a straight (orthogonal or
    /// diagonal) leap `v`.
    fn straight_path(from: Sq, v: Sq) -> Vec<Sq> {
        let n = v.0.abs().max(v.1.abs());
        let (sx, sy) = (v.0.signum(), v.1.signum());
        (1..n).map(|i| (from.0 + i * sx, from.1 + i * sy)).collect()
    }

    fn is_straight(v: Sq) -> bool {
        v.0 == 0 || v.1 == 0 || v.0.abs() == v.1.abs()
    }

    /// The two routes of an oblique leap: orthogonal steps along the longer axis first, then
    /// diagonal steps; or diagonal steps first, then orthogonal ones. Squares strictly between
    /// start and end.
    fn oblique_routes(from: Sq, v: Sq) -> [Vec<Sq>; 2] {
        let (ax, ay) = (v.0.abs(), v.1.abs());
        let (sx, sy) = (v.0.signum(), v.1.signum());
        let orth = if ax > ay { (sx, 0) } else { (0, sy) };
        let diag = (sx, sy);
        let (major, minor) = (ax.max(ay), ax.min(ay));
        let walk = |first: Sq, first_n: i32, second: Sq| {
            let mut sq = from;
            let mut route = Vec::new();
            for i in 0..major {
                let step = if i < first_n { first } else { second };
                sq = (sq.0 + step.0, sq.1 + step.1);
                route.push(sq);
            }
            route.pop(); // the destination itself is not on the path
            route
        };
        [walk(orth, major - minor, diag), walk(diag, minor, orth)]
    }

    /// The lameness of docs/variant-files.md (XBetza, Dialects): a straight leap needs every square on its path empty; an oblique
    /// leap is blocked only when both of its routes have an occupied square.
    fn lame_leap_open(&self, from: Sq, v: Sq) -> bool {
        let empty = |route: &Vec<Sq>| route.iter().all(|&s| self.at(s).is_none());
        if Self::is_straight(v) {
            empty(&Self::straight_path(from, v))
        } else {
            Self::oblique_routes(from, v).iter().any(empty)
        }
    }

    /// A board destination in `to` for a man of `color`: a move to an empty square or a
    /// capture of an enemy, as the element allows.
    /// `ep` says whether this man may capture en passant with this element.
    fn land(&self, el: &Element, ep: bool, color: Color, to: Sq, out: &mut Vec<Target>) {
        match self.at(to) {
            None => {
                if el.quiet {
                    out.push(Target {
                        to,
                        capture: false,
                        en_passant: false,
                        passed: None,
                    });
                } else if ep && self.ep.map(|e| e.passed) == Some(to) {
                    out.push(Target {
                        to,
                        capture: true,
                        en_passant: true,
                        passed: None,
                    });
                }
            }
            Some(m) if m.color != color && el.capture => out.push(Target {
                to,
                capture: true,
                en_passant: false,
                passed: None,
            }),
            Some(_) => {}
        }
    }

    /// Every destination of one element for `man` on `from`.
    fn element_targets(&self, from: Sq, man: Man, el: &Element, out: &mut Vec<Target>) {
        if el.initial && !man.virgin {
            return;
        }
        let black = man.color == Color::Black;
        let ep = el.en_passant && self.captures_ep(man.id);
        for &(vx, vy) in &el.vectors {
            // Black's moves are White's turned through 180 degrees.
            let v = if black { (-vx, -vy) } else { (vx, vy) };
            if el.leaper {
                let to = (from.0 + v.0, from.1 + v.1);
                if !self.on_board(to) {
                    continue;
                }
                if el.lame && !self.lame_leap_open(from, v) {
                    continue;
                }
                if el.jump || el.hop == Some(Hop::Cannon) {
                    // `j` on a leaper: it must jump an occupied square; `p` on a leaper: it
                    // hops exactly one man. Both are defined for straight leaps only.
                    assert!(
                        Self::is_straight(v),
                        "j/p on an oblique leaper is not defined"
                    );
                    let men = Self::straight_path(from, v)
                        .iter()
                        .filter(|&&s| self.at(s).is_some())
                        .count();
                    let ok = if el.jump { men >= 1 } else { men == 1 };
                    if !ok {
                        continue;
                    }
                }
                let before = out.len();
                self.land(el, ep, man.color, to, out);
                // A lame, move-only two-square straight leap of a pawn type is a double
                // step: it leaves the square passed over for an e.p. capture.
                let double = el.lame
                    && el.quiet
                    && !el.capture
                    && Self::is_straight(v)
                    && v.0.abs().max(v.1.abs()) == 2
                    && self.variant.ep_types() & (1 << man.id) != 0;
                if double {
                    for t in &mut out[before..] {
                        if !t.capture {
                            t.passed = Some((from.0 + v.0 / 2, from.1 + v.1 / 2));
                        }
                    }
                }
                continue;
            }
            self.ride(from, man, el, ep, v, out);
        }
    }

    /// The moves of a rider (plain, skipping its first square with `j`, cannon `p`, or
    /// grasshopper `g`) along `v`.
    fn ride(&self, from: Sq, man: Man, el: &Element, ep: bool, v: Sq, out: &mut Vec<Target>) {
        let within = |k: i32| el.max.is_none_or(|m| k <= m);
        let mut sq = from;
        let mut screen_seen = false;
        let mut k = 0;
        loop {
            // A lame rider: every leap of the ride must be unblocked.
            if el.lame && !self.lame_leap_open(sq, v) {
                return;
            }
            sq = (sq.0 + v.0, sq.1 + v.1);
            k += 1;
            if !self.on_board(sq) || !within(k) {
                return;
            }
            match el.hop {
                Some(Hop::Grasshopper) => {
                    // Lands on the square just beyond the first man met.
                    if self.at(sq).is_some() {
                        let land = (sq.0 + v.0, sq.1 + v.1);
                        if self.on_board(land) {
                            self.land(el, ep, man.color, land, out);
                        }
                        return;
                    }
                }
                Some(Hop::Cannon) if !screen_seen => {
                    // Before the screen nothing can be reached.
                    if self.at(sq).is_some() {
                        screen_seen = true;
                    }
                }
                _ => {
                    if el.jump && k == 1 {
                        // `j` on a slider: the first square is skipped whatever it holds.
                        continue;
                    }
                    self.land(el, ep, man.color, sq, out);
                    if self.at(sq).is_some() {
                        return;
                    }
                }
            }
        }
    }

    // --------------------------------------------------------------------------------------
    // Pseudo-legal moves
    // --------------------------------------------------------------------------------------

    fn count_on_board(&self, color: Color, id: usize) -> u8 {
        self.men
            .iter()
            .flatten()
            .filter(|m| m.color == color && m.id == id)
            .count() as u8
    }

    /// Every pseudo-legal move of the side to move, each text once.
    pub fn pseudo_legal(&self) -> Vec<RefMove> {
        let us = self.side;
        let mut out: Vec<RefMove> = Vec::new();
        for from in self.squares() {
            let Some(man) = self.at(from) else { continue };
            if man.color != us {
                continue;
            }
            let mut targets = Vec::new();
            for el in &self.elements[man.id] {
                self.element_targets(from, man, el, &mut targets);
            }
            let first = out.len();
            for t in targets {
                self.push_board_moves(from, man, t, &mut out);
            }
            // S-Chess gating: a never-moved man of the gating rank may bring any type in
            // hand onto the square he leaves (not with a promotion or an e.p. capture).
            let gates = matches!(&self.variant.gating(), Some(g) if man.virgin && self.relative_rank(from, us) == g.rank as i32);
            if gates {
                let plain: Vec<RefMove> = out[first..]
                    .iter()
                    .filter(|m| {
                        matches!(
                            m.action,
                            Action::Board {
                                promote: None,
                                ep_victim: None,
                                ..
                            }
                        )
                    })
                    .cloned()
                    .collect();
                for id in 0..self.variant.num_pieces() {
                    if self.hands[color_index(us)][id] == 0 {
                        continue;
                    }
                    for m in &plain {
                        let Action::Board {
                            from, to, passed, ..
                        } = m.action
                        else {
                            unreachable!()
                        };
                        out.push(RefMove {
                            text: format!("{}{}", m.text, self.letter_lower(id)),
                            action: Action::Board {
                                from,
                                to,
                                promote: None,
                                ep_victim: None,
                                passed,
                                gate: Some(id),
                            },
                            ungated: Some(m.text.clone()),
                        });
                    }
                }
            }
        }
        self.castling_moves(&mut out);
        if self.variant.drops() {
            self.drop_moves(&mut out);
        }
        // One move per text: two elements reaching the same square make one move.
        let mut seen = BTreeSet::new();
        out.retain(|m| seen.insert(m.text.clone()));
        out
    }

    /// Adds the move(s) of `man` to one target: one per promotion choice where he promotes,
    /// plus the plain move where promotion is optional.
    fn push_board_moves(&self, from: Sq, man: Man, t: Target, out: &mut Vec<RefMove>) {
        let v = &self.variant;
        let us = man.color;
        let base = format!("{}{}", name(from), name(t.to));
        let ep_victim = if t.en_passant {
            self.ep.map(|e| e.victim)
        } else {
            None
        };
        let action = |promote| Action::Board {
            from,
            to: t.to,
            promote,
            ep_victim,
            passed: t.passed,
            gate: None,
        };
        let promotes = v.promotion().pawn_types & (1 << man.id) != 0
            && v.in_promotion_zone(us, self.engine_square(t.to));
        if !promotes {
            out.push(RefMove {
                text: base,
                action: action(None),
                ungated: None,
            });
            return;
        }
        for &choice in &v.promotion().choices[color_index(us)] {
            let limit = v.promotion().limit[choice.index()];
            if limit != 0 && self.count_on_board(us, choice.index()) >= limit {
                continue;
            }
            out.push(RefMove {
                text: format!("{base}{}", self.letter_lower(choice.index())),
                action: action(Some(choice.index())),
                ungated: None,
            });
        }
        let last_rank = self.relative_rank(t.to, us) == self.ranks - 1;
        if !(v.promotion().mandatory || v.promotion().immobility_illegal && last_rank) {
            out.push(RefMove {
                text: base,
                action: action(None),
                ungated: None,
            });
        }
    }

    /// Castling as docs/variant-files.md (Castling) and the variant's castling keys describe it.
    fn castling_moves(&self, out: &mut Vec<RefMove>) {
        let Some(rules) = &self.variant.castling() else {
            return;
        };
        let us = self.side;
        let them = us.opposite();
        for right in self.rights.iter().filter(|r| r.color == color_index(us)) {
            let king = self.at(right.king);
            let rook = self.at(right.rook);
            let king_ok = matches!(king, Some(m) if m.color == us && m.id == rules.king.index());
            if !king_ok || !self.is_castling_rook(right.rook, us) {
                continue;
            }
            let kingside = right.rook.0 > right.king.0;
            let king_to_file = if kingside {
                rules.kingside_file as i32
            } else {
                rules.queenside_file as i32
            };
            let rook_to_file = if kingside {
                king_to_file - 1
            } else {
                king_to_file + 1
            };
            if !(0..self.files).contains(&rook_to_file) || !(0..self.files).contains(&king_to_file)
            {
                continue;
            }
            let rank = right.king.1;
            let king_to = (king_to_file, rank);
            let rook_to = (rook_to_file, rank);
            // Every square between the outermost of the four squares must be empty, except
            // for the king and the rook themselves.
            let span = [right.king.0, right.rook.0, king_to_file, rook_to_file];
            let (lo, hi) = (*span.iter().min().unwrap(), *span.iter().max().unwrap());
            let blocked = (lo..=hi)
                .map(|f| (f, rank))
                .any(|s| s != right.king && s != right.rook && self.at(s).is_some());
            if blocked {
                continue;
            }
            // A royal king may not castle out of check, nor cross or land on an attacked
            // square (tested with king and rook still on their squares); a commoner may.
            let royal = matches!(self.at(right.king), Some(m) if self.variant.pieces()[m.id].royal);
            if royal && self.attacked(right.king, them) {
                continue;
            }
            let (a, b) = (
                right.king.0.min(king_to_file),
                right.king.0.max(king_to_file),
            );
            if royal
                && (a..=b)
                    .map(|f| (f, rank))
                    .any(|s| s != right.king && self.attacked(s, them))
            {
                continue;
            }
            // The king's move is written, or king-takes-rook when the king moves one file or
            // not at all.
            let text = if (right.king.0 - king_to_file).abs() <= 1 {
                format!("{}{}", name(right.king), name(right.rook))
            } else {
                format!("{}{}", name(right.king), name(king_to))
            };
            out.push(RefMove {
                text: text.clone(),
                action: Action::Castle {
                    right: *right,
                    king_to,
                    rook_to,
                    gate: None,
                },
                ungated: None,
            });
            if self.variant.gating().is_some() {
                for id in 0..self.variant.num_pieces() {
                    if self.hands[color_index(us)][id] == 0 {
                        continue;
                    }
                    if king.is_some_and(|m| m.virgin) {
                        out.push(RefMove {
                            text: format!("{text}{}", self.letter_lower(id)),
                            action: Action::Castle {
                                right: *right,
                                king_to,
                                rook_to,
                                gate: Some((id, right.king)),
                            },
                            ungated: Some(text.clone()),
                        });
                    }
                    if rook.is_some_and(|m| m.virgin) {
                        out.push(RefMove {
                            text: format!(
                                "{}{}{}",
                                name(right.rook),
                                name(right.king),
                                self.letter_lower(id)
                            ),
                            action: Action::Castle {
                                right: *right,
                                king_to,
                                rook_to,
                                gate: Some((id, right.rook)),
                            },
                            ungated: Some(text.clone()),
                        });
                    }
                }
            }
        }
    }

    /// Drops: any man in hand onto any empty square; pawn types not on their first rank nor
    /// into their promotion zone.
    fn drop_moves(&self, out: &mut Vec<RefMove>) {
        let us = self.side;
        for id in 0..self.variant.num_pieces() {
            if self.hands[color_index(us)][id] == 0 {
                continue;
            }
            let pawn = self.variant.promotion().pawn_types & (1 << id) != 0;
            for to in self.squares() {
                if self.at(to).is_some() {
                    continue;
                }
                if pawn
                    && (self.relative_rank(to, us) == 0
                        || self.variant.in_promotion_zone(us, self.engine_square(to)))
                {
                    continue;
                }
                out.push(RefMove {
                    text: format!("{}@{}", self.variant.pieces()[id].letter, name(to)),
                    action: Action::Drop { id, to },
                    ungated: None,
                });
            }
        }
    }

    // --------------------------------------------------------------------------------------
    // Attacks and legality
    // --------------------------------------------------------------------------------------

    /// True when a man of `by` could capture a man of the other side standing on `sq`
    /// (e.p. captures do not count). An empty `sq` is tested with a stand-in man on it.
    pub fn attacked(&self, sq: Sq, by: Color) -> bool {
        let mut board;
        let b = if self.at(sq).is_some() {
            self
        } else {
            board = self.clone();
            board.set(
                sq,
                Some(Man {
                    color: by.opposite(),
                    id: 0,
                    virgin: false,
                }),
            );
            &board
        };
        let mut targets = Vec::new();
        for from in b.squares() {
            let Some(man) = b.at(from) else { continue };
            if man.color != by {
                continue;
            }
            // Only elements with a step that lines up with the target can reach it; the
            // others are skipped unexamined (a shortcut: `element_targets` decides the rest).
            let d = (sq.0 - from.0, sq.1 - from.1);
            let black = man.color == Color::Black;
            let lines_up = |el: &Element| {
                el.vectors.iter().any(|&(vx, vy)| {
                    let v = if black { (-vx, -vy) } else { (vx, vy) };
                    if el.leaper {
                        d == v
                    } else {
                        steps_to(d, v).is_some()
                    }
                })
            };
            for el in b.elements[man.id]
                .iter()
                .filter(|e| e.capture && lines_up(e))
            {
                targets.clear();
                b.element_targets(from, man, el, &mut targets);
                if targets
                    .iter()
                    .any(|t| t.to == sq && t.capture && !t.en_passant)
                {
                    return true;
                }
            }
        }
        false
    }

    /// True when a royal man of `color` is attacked (in a variant with check rules).
    pub fn royal_attacked(&self, color: Color) -> bool {
        if !self.variant.checking() {
            return false;
        }
        self.squares().any(|s| {
            matches!(self.at(s), Some(m) if m.color == color && self.variant.pieces()[m.id].royal)
                && self.attacked(s, color.opposite())
        })
    }

    /// The legal moves, tested the slow way: each pseudo-legal move is applied on a copy and
    /// the mover's royal men must not be attacked afterwards.
    pub fn legal(&self) -> Vec<RefMove> {
        let us = self.side;
        let pseudo = self.pseudo_legal();
        let safe: BTreeSet<String> = pseudo
            .iter()
            .filter(|m| !self.apply(m).royal_attacked(us))
            .map(|m| m.text.clone())
            .collect();
        pseudo
            .into_iter()
            .filter(|m| self.legal_given_safe(m, &safe))
            .collect()
    }

    /// Whether a move is legal, given the texts of the pseudo-legal moves that leave the
    /// mover's royal men safe. Where the variant says a gated man does not count for check
    /// (S-Chess, `gatingBlocksCheck = false`), a gating move is legal only when the same move
    /// without the gating is legal too: the gated man may not shield the king.
    pub fn legal_given_safe(&self, m: &RefMove, safe: &BTreeSet<String>) -> bool {
        let gated_man_shields = self.variant.gating().is_some_and(|g| g.blocks_check);
        safe.contains(&m.text)
            && (gated_man_shields || m.ungated.as_ref().is_none_or(|u| safe.contains(u)))
    }

    // --------------------------------------------------------------------------------------
    // Playing a move
    // --------------------------------------------------------------------------------------

    /// The position after `mv` (a move of [`RefBoard::pseudo_legal`]).
    pub fn apply(&self, mv: &RefMove) -> RefBoard {
        let mut b = self.clone();
        let us = self.side;
        let u = color_index(us);
        let mut touched: Vec<Sq> = Vec::new();
        let mut passed_over = None;
        match mv.action {
            Action::Board {
                from,
                to,
                promote,
                ep_victim,
                passed,
                gate,
            } => {
                let mover = b.at(from).expect("a man on the start square");
                let victim_sq = ep_victim.unwrap_or(to);
                if let Some(victim) = b.at(victim_sq) {
                    assert_ne!(victim.color, us, "{}: captures a friend", mv.text);
                    b.set(victim_sq, None);
                    if b.variant.captures_to_hand() {
                        b.hands[u][victim.id] += 1;
                    }
                }
                b.set(from, None);
                let id = promote.unwrap_or(mover.id);
                b.set(
                    to,
                    Some(Man {
                        color: us,
                        id,
                        virgin: false,
                    }),
                );
                if let Some(g) = gate {
                    b.hands[u][g] -= 1;
                    b.set(
                        from,
                        Some(Man {
                            color: us,
                            id: g,
                            virgin: false,
                        }),
                    );
                }
                touched.extend([from, to, victim_sq]);
                // A gated double step passes its square all the same.
                passed_over = passed;
            }
            Action::Castle {
                right,
                king_to,
                rook_to,
                gate,
            } => {
                let king = b.at(right.king).unwrap();
                let rook = b.at(right.rook).unwrap();
                b.set(right.king, None);
                b.set(right.rook, None);
                b.set(
                    king_to,
                    Some(Man {
                        virgin: false,
                        ..king
                    }),
                );
                b.set(
                    rook_to,
                    Some(Man {
                        virgin: false,
                        ..rook
                    }),
                );
                if let Some((g, sq)) = gate {
                    assert!(
                        b.at(sq).is_none(),
                        "{}: gating onto an occupied square",
                        mv.text
                    );
                    b.hands[u][g] -= 1;
                    b.set(
                        sq,
                        Some(Man {
                            color: us,
                            id: g,
                            virgin: false,
                        }),
                    );
                }
                b.rights.retain(|r| r.color != u);
            }
            Action::Drop { id, to } => {
                b.hands[u][id] -= 1;
                // docs/protocols.md §2.3: a man dropped onto a square where the game starts with such a man
                // counts as never moved (so a pawn dropped on its second rank may double-step).
                let virgin = derived(&b.variant).start.get(&to) == Some(&(us, id));
                b.set(
                    to,
                    Some(Man {
                        color: us,
                        id,
                        virgin,
                    }),
                );
            }
        }
        // A right dies with a move from or onto its king's or rook's square.
        b.rights
            .retain(|r| !touched.contains(&r.king) && !touched.contains(&r.rook));
        b.side = us.opposite();
        b.ep = passed_over.map(|passed| {
            let to = match mv.action {
                Action::Board { to, .. } => to,
                _ => unreachable!(),
            };
            Ep { passed, victim: to }
        });
        if !b.has_ep_capture() {
            b.ep = None;
        }
        b
    }

    /// The move with text `text` among the pseudo-legal moves.
    pub fn find(&self, text: &str) -> Option<RefMove> {
        self.pseudo_legal().into_iter().find(|m| m.text == text)
    }

    /// Differences between this board and `other` that a game state must agree on: men
    /// (colour and type), side, hands, castling rights and e.p. square. Virginity is compared
    /// by the caller where it matters.
    pub fn differences(&self, other: &RefBoard) -> Vec<String> {
        let mut out = Vec::new();
        for sq in self.squares() {
            let a = self.at(sq).map(|m| (m.color, m.id));
            let b = other.at(sq).map(|m| (m.color, m.id));
            if a != b {
                out.push(format!("{}: {:?} vs {:?}", name(sq), a, b));
            }
        }
        if self.side != other.side {
            out.push(format!("side {:?} vs {:?}", self.side, other.side));
        }
        if self.hands != other.hands {
            out.push(format!("hands {:?} vs {:?}", self.hands, other.hands));
        }
        if self.rights != other.rights {
            out.push(format!("rights {:?} vs {:?}", self.rights, other.rights));
        }
        if self.ep.map(|e| e.passed) != other.ep.map(|e| e.passed) {
            out.push(format!("e.p. {:?} vs {:?}", self.ep, other.ep));
        }
        out
    }

    /// The squares of the men whose virginity decides something (their type has `i` moves,
    /// or they stand on a gating rank), with that virginity.
    pub fn relevant_virginity(&self) -> BTreeMap<Sq, bool> {
        let mut out = BTreeMap::new();
        for sq in self.squares() {
            let Some(m) = self.at(sq) else { continue };
            let initial = self.elements[m.id].iter().any(|e| e.initial);
            let gate_rank = matches!(&self.variant.gating(), Some(g) if self.relative_rank(sq, m.color) == g.rank as i32);
            if initial || gate_rank {
                out.insert(sq, m.virgin);
            }
        }
        out
    }

    /// The virginity of the men whose types have it in the hash (`virgin_keyed`).
    pub fn keyed_virginity(&self) -> BTreeMap<Sq, bool> {
        let mut out = BTreeMap::new();
        for sq in self.squares() {
            if let Some(m) = self.at(sq) {
                if self.variant.virgin_keyed() & (1 << m.id) != 0 {
                    out.insert(sq, m.virgin);
                }
            }
        }
        out
    }

    /// True when the man on `sq` stands on his gating rank while his side has nothing in hand
    /// (so his never-moved flag cannot matter for gating).
    pub fn idle_gate(&self, sq: Sq) -> bool {
        let Some(m) = self.at(sq) else { return false };
        let on_rank = matches!(&self.variant.gating(), Some(g) if self.relative_rank(sq, m.color) == g.rank as i32);
        on_rank && self.hands[color_index(m.color)].iter().all(|&n| n == 0)
    }

    /// The engine's square for (file, rank).
    pub fn square_of(&self, sq: Sq) -> Square {
        self.engine_square(sq)
    }
}
