//! The XBetza parser: it owns turning a piece's move description written in XBetza (the
//! extended Betza notation of H. G. Muller, as read by XBoard and the chessvariants.com
//! Interactive Diagram) into plain data, a list of [`Element`]s made of [`Leg`]s that carry the
//! atom, the range, the direction tokens and every modifier exactly as written. It accepts the
//! whole grammar, multi-leg moves and repetition groups included, and rejects anything else
//! with a [`BetzaError`] naming the element and byte position. It knows nothing about boards:
//! giving legs a meaning is a later stage. Besides parsing it owns two small services: the
//! meaning of first-leg direction tokens as absolute vectors ([`expand_directions`]) and
//! printing elements back as XBetza ([`to_betza`], `Display` for [`Element`]).
//!
//! # Grammar accepted
//!
//! A description is a sequence of elements, optionally separated by ASCII whitespace. An
//! element is: modifier letters (in any order, possibly containing repetition groups), then an
//! atom, then an optional range.
//!
//! * Atoms: `W` (1,0), `F` (1,1), `D` (2,0), `N` (2,1), `A` (2,2), `H` (3,0), `C` or `L`
//!   (3,1), `Z` or `J` (3,2), `G` (3,3), `K` (W and F together), the riders `R` (W rider),
//!   `B` (F rider) and `Q` (K rider), `O` (castling) and `@` (drop).
//! * Range: a step atom written twice (`NN`, `WW`, `KK`) is a rider of unlimited range; a
//!   number of one or two digits after the atom is the maximum number of steps, `0` meaning
//!   unlimited (`W2`, `R4`, `N0`). A doubled atom may not also take a number, a number may
//!   not have three digits, and a two-digit number may not start with `0` (`W03`, Betza 2.0's
//!   "exactly three", is rejected rather than silently misread). After `O` and `@` the number
//!   is kept in the atom ([`Atom::Castle`], [`Atom::Drop`]).
//! * Modifiers: the direction letters `f b l r v s h`, the modalities `m c e d u t`, and
//!   `i n j p g o y x z q k`. The letter `a` separates the modifier groups of successive legs
//!   (`caK`: leg 1 `c`, leg 2 empty). `w` is the only lower-case letter with no meaning and
//!   is an error. Repeating a flag letter is harmless (`mm` = `m`), except `i` and `j`, which
//!   are counted (`ii`, `jj` mean something else than `i`, `j`). `p` and `g` in one leg
//!   conflict and are an error.
//! * Repetition groups (Interactive Diagram): `(text)N` inside the modifiers means `text` (only
//!   modifier letters, `a` allowed, no nesting) repeated any number of times from 0 to `N` at
//!   that point. The written element is expanded into one [`Element`] per repetition count,
//!   in increasing order: `sb(caf)14R` gives `sbR`, `sbcafR`, `sbcafcafR`, ... (15 elements
//!   with 1 to 15 legs). All of them keep the written text as [`Element::source`], share
//!   [`Element::origin`], and record the counts used in [`Element::repeats`]. Several groups
//!   in one element expand to every combination (at most 1024 elements).
//!
//! # Representation decisions
//!
//! * A leg's atom is a set of base vectors in the first octant ([`Atom::Step`]): `W` is
//!   `[(1,0)]`, `N` is `[(2,1)]`, each base standing for all its symmetric images. `K` and `Q`
//!   stay ONE element whose atom is `[(1,0), (1,1)]`, a leap (`K`) or a rider (`Q`); they are
//!   not split into W and F elements, because XBetza reads their directions in the 8-way
//!   king system (`fsK` is the two forward diagonals only, while `fsW` + `fsF` would add the
//!   three orthogonal steps) and because continuation legs turn per leg. `R` and `B` are plain
//!   W and F riders. `L` and `J` are synonyms of `C` and `Z` and are stored as those vectors.
//! * Every leg of an element has the element's atom and range (that is how XBetza writes
//!   multi-leg moves); the later stage applies the range-toggling modifiers.
//! * Directions are stored as normalized tokens ([`Dir`]): read greedily left to right as
//!   XBoard does, sorted, without duplicates; a doubled letter (`ff`) is stored as the single
//!   letter, which it equals in every context. Letters separated by another modifier are read
//!   separately (`fmr` is `f` and `r`, not `fr`). An empty list means "no restriction". On
//!   legs after the first, tokens are relative to the previous leg and are not expanded.
//!
//! # First-leg directions (absolute; White's view, forward = +y, right = +x)
//!
//! Following the XBoard reference and its move generator:
//!
//! * A single letter `f`, `b`, `l`, `r` picks the move or pair of moves that go furthest that
//!   way: `fW` = (0,1); `fF` = (±1,1); `fN` = (±1,2) (the narrow pair, the same as `ffN`);
//!   `lN` = (-2,±1). `v` is `f`+`b` and `s` is `l`+`r`: `vN` = the four moves with |dy| = 2,
//!   `sN` = the four with |dx| = 2; on diagonal atoms `v` and `s` are all four moves.
//! * Two letters of perpendicular kind (`fl fr fs bl br bs lf lb lv rf rb rv`): the first is a
//!   half-plane, the second picks the extreme move(s) inside it. On oblique atoms this gives
//!   single moves or pairs: `fsN` = (±2,1), `flN` = (-2,1), `lfN` = (-1,2), `lvN` = (-1,±2).
//!   On diagonal atoms `fl` is the single (-1,1) and `fs` = `f`, `bs` = `b`, `lv` = `l`. On
//!   orthogonal atoms the two letters cannot both hold, so they add up (the reference says so):
//!   `flW` = `f`+`l`, `fsW` = (0,1),(±1,0).
//! * `fh bh lh rh` (half): every move with a component that way: `fhN` = the four moves with
//!   dy > 0, `lhN` the four with dx < 0; on W and F atoms this is the same as the single letter.
//! * `hr` and `hl` (chiral, oblique atoms only): the four right-handed / left-handed moves,
//!   `hrN` = (1,2),(2,-1),(-1,-2),(-2,1) and `hlN` = (-1,2),(2,1),(1,-2),(-2,-1).
//!   A bare `h` means all moves, as in XBoard.
//! * King-system atoms (`K`, `Q`): directions name the 8 compass points. `f b l r` are the one
//!   orthogonal step, `v` = `f`+`b`, `s` = `l`+`r`, a perpendicular pair is the points inside
//!   both half-planes (`flK` = (-1,1), `fsK` = (±1,1), `lvK` = (-1,±1)), and `fh` is the three
//!   points with a forward component (XBoard reads `fhK` as all moves; this choice is ours).
//!
//! [`expand_directions`] returns vectors without duplicates, base by base in the order the atom
//! lists them, each base's images clockwise starting from the narrow forward-right one.

use std::fmt;

/// Most elements one written element may expand into through repetition groups.
const MAX_EXPANSION: usize = 1024;

// ------------------------------------------------------------------------------------------
// Public types
// ------------------------------------------------------------------------------------------

/// Why a description could not be parsed (or a direction set not expanded).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BetzaError {
    /// Byte offset of the offending character in the parsed description (for
    /// [`expand_directions`], the index of the offending token in its `dirs` argument).
    pub position: usize,
    /// The text of the element containing the offending character, as far as it was read.
    pub element: String,
    /// What is wrong, in words.
    pub reason: String,
}

impl BetzaError {
    fn new(position: usize, element: &str, reason: impl Into<String>) -> Self {
        BetzaError {
            position,
            element: element.to_string(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for BetzaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid XBetza element '{}' at byte {}: {}",
            self.element, self.position, self.reason
        )
    }
}

impl std::error::Error for BetzaError {}

/// One direction token, as written (see the module documentation for what each means on the
/// first leg). On later legs the same tokens are relative to the previous leg's direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dir {
    /// `f` (also written `ff`): the forward-most move or pair of moves.
    F,
    /// `b` (also `bb`): the backward-most move or pair.
    B,
    /// `l` (also `ll`): the left-most move or pair.
    L,
    /// `r` (also `rr`): the right-most move or pair.
    R,
    /// `v`: `f` plus `b`.
    V,
    /// `s`: `l` plus `r`.
    S,
    /// `fl`: forward-left (`flN` = (-2,1); `flW` = `f` plus `l`).
    Fl,
    /// `fr`: forward-right (`frN` = (2,1)).
    Fr,
    /// `fs`: forward-sideways (`fsN` = (±2,1); `fsK` = the forward diagonals).
    Fs,
    /// `bl`: backward-left (`blN` = (-2,-1)).
    Bl,
    /// `br`: backward-right (`brN` = (2,-1)).
    Br,
    /// `bs`: backward-sideways (`bsN` = (±2,-1); `bsF` = `bF`).
    Bs,
    /// `lf`: left-forward (`lfN` = (-1,2)).
    Lf,
    /// `lb`: left-backward (`lbN` = (-1,-2)).
    Lb,
    /// `lv`: left-vertical (`lvN` = (-1,±2)).
    Lv,
    /// `rf`: right-forward (`rfN` = (1,2)).
    Rf,
    /// `rb`: right-backward (`rbN` = (1,-2)).
    Rb,
    /// `rv`: right-vertical (`rvN` = (1,±2)).
    Rv,
    /// `fh`: forward half, every move with a forward component.
    Fh,
    /// `bh`: backward half.
    Bh,
    /// `lh`: left half.
    Lh,
    /// `rh`: right half.
    Rh,
    /// `hl`: the four left-handed moves of an oblique atom.
    Hl,
    /// `hr`: the four right-handed moves of an oblique atom.
    Hr,
    /// A bare `h`: all moves.
    H,
}

impl Dir {
    /// The token as XBetza letters.
    pub fn as_str(self) -> &'static str {
        match self {
            Dir::F => "f",
            Dir::B => "b",
            Dir::L => "l",
            Dir::R => "r",
            Dir::V => "v",
            Dir::S => "s",
            Dir::Fl => "fl",
            Dir::Fr => "fr",
            Dir::Fs => "fs",
            Dir::Bl => "bl",
            Dir::Br => "br",
            Dir::Bs => "bs",
            Dir::Lf => "lf",
            Dir::Lb => "lb",
            Dir::Lv => "lv",
            Dir::Rf => "rf",
            Dir::Rb => "rb",
            Dir::Rv => "rv",
            Dir::Fh => "fh",
            Dir::Bh => "bh",
            Dir::Lh => "lh",
            Dir::Rh => "rh",
            Dir::Hl => "hl",
            Dir::Hr => "hr",
            Dir::H => "h",
        }
    }

    /// Whether this is one of the chiral sets `hl`, `hr` (meaningful on oblique atoms only).
    pub fn is_chiral(self) -> bool {
        matches!(self, Dir::Hl | Dir::Hr)
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a leg may do on the square it reaches. No flag set means the default (on a final leg:
/// move or capture; the later stage decides defaults of non-final legs).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Modality {
    /// `m`: may go to an empty square.
    pub quiet: bool,
    /// `c`: may capture an enemy.
    pub capture: bool,
    /// `e`: may capture en passant.
    pub en_passant: bool,
    /// `d`: may capture ("destroy") a friendly piece.
    pub destroy: bool,
    /// `u`: unload (the captured or carried piece is put back at the start of this leg).
    pub unload: bool,
    /// `t`: may not capture a royal piece (XBoard also uses it on non-final legs to forbid
    /// hopping over an enemy).
    pub spare_royal: bool,
}

impl Modality {
    /// Whether no modality letter was written.
    pub fn is_default(&self) -> bool {
        *self == Modality::default()
    }
}

/// The hopping modifiers, which are mutually exclusive on one leg.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Hop {
    /// `p`: must hop over exactly one piece (the cannon; "pass through" on non-final legs).
    Cannon,
    /// `g`: hop over the first piece and land just beyond it (the grasshopper).
    Grasshopper,
}

/// What a leg steps with.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Atom {
    /// A step given by base vectors in the first octant (x ≥ y ≥ 0), each standing for all its
    /// symmetric images: `W` = `[(1,0)]`, `N` = `[(2,1)]`, `K`/`Q` = `[(1,0), (1,1)]`.
    Step(Vec<(i8, i8)>),
    /// `O`: castling, with the number written after it if any (how far the king steps towards
    /// the corner).
    Castle(Option<u8>),
    /// `@`: a drop, with the number written after it if any (its meaning is the later stage's).
    Drop(Option<u8>),
}

/// How often a leg's step may be repeated in a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Range {
    /// One step only: a leaper (or a castling / drop atom).
    Leap,
    /// A rider repeating the step up to `max` times; `None` is unlimited (`NN`, `R`, `W0`).
    Ride {
        /// The maximum number of steps, `None` for unlimited.
        max: Option<u8>,
    },
}

/// One leg of an element: the modifiers written between two `a` separators (or the ends).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Leg {
    /// The atom (the element's atom; every leg of an element has the same one).
    pub atom: Atom,
    /// The range (the element's range).
    pub range: Range,
    /// Direction tokens, sorted and without duplicates; empty means "not restricted" (all
    /// directions on a first leg, the reference's default on later legs).
    pub directions: Vec<Dir>,
    /// The modality letters.
    pub modality: Modality,
    /// How many `i` were written (`i`: only as the piece's first move; `ii` also exists).
    pub initial: u8,
    /// `n`: lame, may not jump over an occupied square on the way.
    pub lame: bool,
    /// How many `j` were written (`j`: must jump; on a slider, skips the first square).
    pub jump: u8,
    /// `p` or `g`.
    pub hop: Option<Hop>,
    /// `o`: wraps around a cylinder board.
    pub cylinder: bool,
    /// `y`: range toggle (in XBetza, switches leaper and slider for the next leg).
    pub range_toggle: bool,
    /// `x`: XBoard's induction step (moves are borrowed from the piece reached).
    pub induction: bool,
    /// `z`: zig-zag (crooked) path.
    pub zigzag: bool,
    /// `q`: circular path.
    pub circular: bool,
    /// `k`: marks the move as royal.
    pub royal: bool,
}

impl Leg {
    /// A leg with the given atom and range and no modifiers at all.
    pub fn new(atom: Atom, range: Range) -> Self {
        Leg {
            atom,
            range,
            directions: Vec::new(),
            modality: Modality::default(),
            initial: 0,
            lame: false,
            jump: 0,
            hop: None,
            cylinder: false,
            range_toggle: false,
            induction: false,
            zigzag: false,
            circular: false,
            royal: false,
        }
    }

    /// The absolute step vectors this leg's directions select, as [`expand_directions`] computes
    /// them. Only meaningful on a first leg (later legs are relative); an error for castling and
    /// drop atoms, which have no step vectors.
    pub fn vectors(&self) -> Result<Vec<(i8, i8)>, BetzaError> {
        match &self.atom {
            Atom::Step(bases) => expand_directions(bases, &self.directions),
            Atom::Castle(_) | Atom::Drop(_) => Err(BetzaError::new(
                0,
                &atom_text(&self.atom, self.range),
                "castling and drop atoms have no step vectors",
            )),
        }
    }
}

/// One move element: a single-leg move such as `fmW`, or a multi-leg one such as `mcabK`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Element {
    /// The legs in order; a plain move has exactly one.
    pub legs: Vec<Leg>,
    /// The exact text of the written element this came from (for a repetition group, the
    /// whole written text, group included, e.g. `sb(caf)14R`).
    pub source: String,
    /// Byte offset of `source` in the description.
    pub position: usize,
    /// Index (from 0) of the written element in the description; the elements expanded from
    /// one written element with repetition groups share it.
    pub origin: usize,
    /// The repetition count used for each group of the written element, in order; empty when
    /// it had no groups.
    pub repeats: Vec<u8>,
}

impl fmt::Display for Element {
    /// Prints the element as XBetza: each leg's modifiers joined by `a`, then the first leg's
    /// atom and range (legs of a parsed element all share them). Repetition groups are not
    /// re-formed: an expanded element prints as the text it expanded to.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        for (index, leg) in self.legs.iter().enumerate() {
            if index > 0 {
                out.push('a');
            }
            write_leg_modifiers(leg, &mut out);
        }
        if let Some(first) = self.legs.first() {
            out.push_str(&atom_text(&first.atom, first.range));
        }
        f.write_str(&out)
    }
}

/// Prints elements back as one XBetza description, separated by spaces (without them two
/// `N` elements would read back as the nightrider `NN`).
pub fn to_betza(elements: &[Element]) -> String {
    elements
        .iter()
        .map(|e| e.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

// ------------------------------------------------------------------------------------------
// Parsing: scanning the text into written elements
// ------------------------------------------------------------------------------------------

/// A lower-case modifier letter with its byte offset in the description.
type Letter = (u8, usize);

/// A piece of an element's modifier text.
enum Chunk {
    /// Letters written directly.
    Plain(Vec<Letter>),
    /// `(letters)max`: the letters repeated 0..=max times.
    Group { letters: Vec<Letter>, max: u8 },
}

/// An element as written, before repetition groups are expanded and legs are split.
struct Written {
    start: usize,
    end: usize,
    chunks: Vec<Chunk>,
    atom: Atom,
    range: Range,
}

/// Parses an XBetza description into its elements, in written order (repetition groups
/// expanded in place). Whitespace between elements is ignored; an empty description is an
/// error.
pub fn parse(text: &str) -> Result<Vec<Element>, BetzaError> {
    if text.trim().is_empty() {
        return Err(BetzaError::new(0, text, "empty move description"));
    }
    let mut scanner = Scanner { text, pos: 0 };
    let mut elements = Vec::new();
    let mut origin = 0;
    loop {
        scanner.skip_whitespace();
        if scanner.peek().is_none() {
            break;
        }
        let written = scanner.element()?;
        expand_written(text, &written, origin, &mut elements)?;
        origin += 1;
    }
    Ok(elements)
}

/// Reads written elements off the text. It only ever advances over ASCII bytes, so `pos` is
/// always a character boundary.
struct Scanner<'a> {
    text: &'a str,
    pos: usize,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn skip_whitespace(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    /// An error at byte `at` inside the element starting at `start`; the element text runs to
    /// what was read so far, or at least through the offending character.
    fn error(&self, start: usize, at: usize, reason: impl Into<String>) -> BetzaError {
        let char_len = self
            .text
            .get(at..)
            .and_then(|t| t.chars().next())
            .map_or(0, char::len_utf8);
        let end = self.pos.max(at + char_len).min(self.text.len());
        let element = self.text.get(start..end).unwrap_or("");
        BetzaError::new(at, element, reason)
    }

    /// The character at byte `at`, quoted for a message.
    fn describe(&self, at: usize) -> String {
        match self.text.get(at..).and_then(|t| t.chars().next()) {
            Some(' ') => "a space".to_string(),
            Some(c) if c.is_whitespace() || c.is_control() => format!("{c:?}"),
            Some(c) => format!("'{c}'"),
            None => "the end of the text".to_string(),
        }
    }

    /// Reads one written element: modifiers (with groups), atom, range.
    fn element(&mut self) -> Result<Written, BetzaError> {
        let start = self.pos;
        let mut chunks = Vec::new();
        let mut plain = Vec::new();
        while let Some(c) = self.peek() {
            if c.is_ascii_lowercase() {
                self.modifier_letter(start, c)?;
                plain.push((c, self.pos));
                self.pos += 1;
            } else if c == b'(' {
                if !plain.is_empty() {
                    chunks.push(Chunk::Plain(std::mem::take(&mut plain)));
                }
                chunks.push(self.group(start)?);
            } else {
                break;
            }
        }
        if !plain.is_empty() {
            chunks.push(Chunk::Plain(plain));
        }
        let (atom, range) = self.atom(start)?;
        Ok(Written {
            start,
            end: self.pos,
            chunks,
            atom,
            range,
        })
    }

    /// Checks that the lower-case letter `c` at the current position is a known modifier.
    fn modifier_letter(&self, start: usize, c: u8) -> Result<(), BetzaError> {
        if is_modifier_letter(c) {
            Ok(())
        } else {
            Err(self.error(start, self.pos, format!("unknown modifier '{}'", c as char)))
        }
    }

    /// Reads `(letters)N` at the current position (which holds the `(`).
    fn group(&mut self, start: usize) -> Result<Chunk, BetzaError> {
        let open = self.pos;
        self.pos += 1;
        let mut letters = Vec::new();
        loop {
            match self.peek() {
                None => return Err(self.error(start, open, "'(' is never closed by ')'")),
                Some(b')') => {
                    self.pos += 1;
                    break;
                }
                Some(c) if c.is_ascii_lowercase() => {
                    self.modifier_letter(start, c)?;
                    letters.push((c, self.pos));
                    self.pos += 1;
                }
                Some(b'(') => {
                    return Err(self.error(start, self.pos, "repetition groups cannot be nested"))
                }
                Some(_) => {
                    let found = self.describe(self.pos);
                    return Err(self.error(
                        start,
                        self.pos,
                        format!("only modifier letters may stand inside '(...)', found {found}"),
                    ));
                }
            }
        }
        if letters.is_empty() {
            return Err(self.error(start, open, "empty repetition group '()'"));
        }
        let count_at = self.pos;
        match self.number(start)? {
            Some(max) => Ok(Chunk::Group { letters, max }),
            None => Err(self.error(
                start,
                count_at,
                "a repetition group needs a count (one or two digits) after ')'",
            )),
        }
    }

    /// Reads the atom at the current position and the range after it.
    fn atom(&mut self, start: usize) -> Result<(Atom, Range), BetzaError> {
        let at = self.pos;
        let Some(letter) = self.peek() else {
            return Err(self.error(start, at, "modifiers are not followed by an atom"));
        };
        let Some(kind) = atom_kind(letter) else {
            return Err(self.not_an_atom(start, at, letter));
        };
        self.pos += 1;
        let doubled = matches!(
            kind,
            AtomKind::Step {
                doublable: true,
                ..
            }
        ) && self.peek() == Some(letter);
        if doubled {
            self.pos += 1;
        }
        let number_at = self.pos;
        let number = self.number(start)?;
        if doubled && number.is_some() {
            return Err(self.error(
                start,
                number_at,
                "a doubled atom is already an unlimited rider and cannot take a number",
            ));
        }
        Ok(match kind {
            AtomKind::Castle => (Atom::Castle(number), Range::Leap),
            AtomKind::Drop => (Atom::Drop(number), Range::Leap),
            AtomKind::Step { bases, rider, .. } => {
                let range = match number {
                    Some(0) => Range::Ride { max: None },
                    Some(n) => Range::Ride { max: Some(n) },
                    None if doubled || rider => Range::Ride { max: None },
                    None => Range::Leap,
                };
                (Atom::Step(bases.to_vec()), range)
            }
        })
    }

    /// The error for a character found where an atom should be.
    fn not_an_atom(&self, start: usize, at: usize, c: u8) -> BetzaError {
        let found = self.describe(at);
        let reason = if c.is_ascii_digit() {
            "a number must follow an atom".to_string()
        } else if c == b')' {
            "')' without a matching '('".to_string()
        } else if c.is_ascii_uppercase() {
            format!("unknown atom {found}")
        } else if start < at {
            format!("modifiers must be followed directly by an atom, found {found}")
        } else {
            format!("unexpected character {found}")
        };
        self.error(start, at, reason)
    }

    /// Reads an optional number of at most two digits.
    fn number(&mut self, start: usize) -> Result<Option<u8>, BetzaError> {
        let first = self.pos;
        let mut value: u8 = 0;
        let mut digits = 0;
        while let Some(d) = self.peek().filter(u8::is_ascii_digit) {
            if digits == 2 {
                return Err(self.error(start, self.pos, "a number has at most two digits"));
            }
            value = value * 10 + (d - b'0');
            digits += 1;
            self.pos += 1;
        }
        if digits == 2 && self.text.as_bytes().get(first) == Some(&b'0') {
            return Err(self.error(
                start,
                first,
                "a two-digit number may not start with 0 (exact ranges like W03 are not supported)",
            ));
        }
        Ok((digits > 0).then_some(value))
    }
}

/// What an atom letter stands for.
enum AtomKind {
    /// A step atom; `rider` for the shorthands R, B, Q; `doublable` when writing it twice
    /// makes a rider.
    Step {
        bases: &'static [(i8, i8)],
        rider: bool,
        doublable: bool,
    },
    Castle,
    Drop,
}

const WAZIR: &[(i8, i8)] = &[(1, 0)];
const FERZ: &[(i8, i8)] = &[(1, 1)];
const KING: &[(i8, i8)] = &[(1, 0), (1, 1)];

fn leaper(bases: &'static [(i8, i8)]) -> AtomKind {
    AtomKind::Step {
        bases,
        rider: false,
        doublable: true,
    }
}

fn rider(bases: &'static [(i8, i8)]) -> AtomKind {
    AtomKind::Step {
        bases,
        rider: true,
        doublable: false,
    }
}

fn atom_kind(letter: u8) -> Option<AtomKind> {
    Some(match letter {
        b'W' => leaper(WAZIR),
        b'F' => leaper(FERZ),
        b'D' => leaper(&[(2, 0)]),
        b'N' => leaper(&[(2, 1)]),
        b'A' => leaper(&[(2, 2)]),
        b'H' => leaper(&[(3, 0)]),
        b'C' | b'L' => leaper(&[(3, 1)]),
        b'Z' | b'J' => leaper(&[(3, 2)]),
        b'G' => leaper(&[(3, 3)]),
        b'K' => leaper(KING),
        b'R' => rider(WAZIR),
        b'B' => rider(FERZ),
        b'Q' => rider(KING),
        b'O' => AtomKind::Castle,
        b'@' => AtomKind::Drop,
        _ => return None,
    })
}

fn is_direction_letter(c: u8) -> bool {
    matches!(c, b'f' | b'b' | b'l' | b'r' | b'v' | b's' | b'h')
}

fn is_modifier_letter(c: u8) -> bool {
    // Every lower-case letter but `w` means something in XBetza.
    c.is_ascii_lowercase() && c != b'w'
}

// ------------------------------------------------------------------------------------------
// Parsing: from written elements to elements and legs
// ------------------------------------------------------------------------------------------

/// Expands the repetition groups of a written element and builds one element per combination
/// of counts (the first group's count varying slowest).
fn expand_written(
    text: &str,
    written: &Written,
    origin: usize,
    out: &mut Vec<Element>,
) -> Result<(), BetzaError> {
    let source = text.get(written.start..written.end).unwrap_or("");
    let maxes: Vec<u8> = written
        .chunks
        .iter()
        .filter_map(|chunk| match chunk {
            Chunk::Group { max, .. } => Some(*max),
            Chunk::Plain(_) => None,
        })
        .collect();
    let total = maxes
        .iter()
        .fold(1usize, |acc, &m| acc.saturating_mul(usize::from(m) + 1));
    if total > MAX_EXPANSION {
        return Err(BetzaError::new(
            written.start,
            source,
            format!("repetition groups would expand to {total} elements (at most {MAX_EXPANSION})"),
        ));
    }
    let mut counts = vec![0u8; maxes.len()];
    loop {
        let letters = spell(&written.chunks, &counts);
        let legs = build_legs(&letters, written, source)?;
        out.push(Element {
            legs,
            source: source.to_string(),
            position: written.start,
            origin,
            repeats: counts.clone(),
        });
        if !next_counts(&mut counts, &maxes) {
            return Ok(());
        }
    }
}

/// The modifier letters of one expansion: plain letters as written, each group's letters
/// repeated its count times (keeping their source positions for error messages).
fn spell(chunks: &[Chunk], counts: &[u8]) -> Vec<Letter> {
    let mut letters = Vec::new();
    let mut counts = counts.iter();
    for chunk in chunks {
        match chunk {
            Chunk::Plain(plain) => letters.extend_from_slice(plain),
            Chunk::Group { letters: group, .. } => {
                let times = counts.next().copied().unwrap_or(0);
                for _ in 0..times {
                    letters.extend_from_slice(group);
                }
            }
        }
    }
    letters
}

/// Advances `counts` like an odometer bounded by `maxes`; false once every combination is done.
fn next_counts(counts: &mut [u8], maxes: &[u8]) -> bool {
    for (count, &max) in counts.iter_mut().zip(maxes).rev() {
        if *count < max {
            *count += 1;
            return true;
        }
        *count = 0;
    }
    false
}

/// Splits modifier letters into legs at each `a` and builds the legs.
fn build_legs(letters: &[Letter], written: &Written, source: &str) -> Result<Vec<Leg>, BetzaError> {
    if !matches!(written.atom, Atom::Step(_)) {
        if let Some(&(_, at)) = letters.iter().find(|&&(c, _)| c == b'a') {
            return Err(BetzaError::new(
                at,
                source,
                "castling and drop atoms cannot have further legs ('a')",
            ));
        }
    }
    letters
        .split(|&(c, _)| c == b'a')
        .enumerate()
        .map(|(index, group)| {
            build_leg(
                group,
                written.atom.clone(),
                written.range,
                index == 0,
                source,
            )
        })
        .collect()
}

/// Builds one leg from its modifier letters (no `a` among them).
fn build_leg(
    letters: &[Letter],
    atom: Atom,
    range: Range,
    first: bool,
    source: &str,
) -> Result<Leg, BetzaError> {
    let mut leg = Leg::new(atom, range);
    let mut directions: Vec<(Dir, usize)> = Vec::new();
    let mut index = 0;
    while let Some(&(c, at)) = letters.get(index) {
        if is_direction_letter(c) {
            let next = letters.get(index + 1).map(|&(n, _)| n);
            if let Some((dir, width)) = direction_token(c, next) {
                directions.push((dir, at));
                index += width;
                continue;
            }
        }
        apply_flag(&mut leg, c).map_err(|reason| BetzaError::new(at, source, reason))?;
        index += 1;
    }
    for &(dir, at) in &directions {
        check_leg_direction(dir, &leg.atom, first)
            .map_err(|reason| BetzaError::new(at, source, reason))?;
    }
    leg.directions = directions.into_iter().map(|(dir, _)| dir).collect();
    leg.directions.sort_unstable();
    leg.directions.dedup();
    Ok(leg)
}

/// Reads one direction token starting with the letter `first`, looking at the letter after
/// it; returns the token and how many letters it used. Greedy like XBoard: a letter followed
/// by `h` is a half, `h` followed by `l`/`r` is chiral, a doubled letter is the single one,
/// and `f`/`b` followed by `l`/`r`/`s` (or `l`/`r` followed by `f`/`b`/`v`) is a pair.
fn direction_token(first: u8, next: Option<u8>) -> Option<(Dir, usize)> {
    let single = match first {
        b'f' => Dir::F,
        b'b' => Dir::B,
        b'l' => Dir::L,
        b'r' => Dir::R,
        b'v' => Dir::V,
        b's' => Dir::S,
        b'h' => Dir::H,
        _ => return None,
    };
    let pair = match (first, next.unwrap_or(0)) {
        (b'h', b'l') => Dir::Hl,
        (b'h', b'r') => Dir::Hr,
        (b'f', b'h') => Dir::Fh,
        (b'b', b'h') => Dir::Bh,
        (b'l', b'h') => Dir::Lh,
        (b'r', b'h') => Dir::Rh,
        (b'f', b'f') | (b'b', b'b') | (b'l', b'l') | (b'r', b'r') => single,
        (b'f', b'l') => Dir::Fl,
        (b'f', b'r') => Dir::Fr,
        (b'f', b's') => Dir::Fs,
        (b'b', b'l') => Dir::Bl,
        (b'b', b'r') => Dir::Br,
        (b'b', b's') => Dir::Bs,
        (b'l', b'f') => Dir::Lf,
        (b'l', b'b') => Dir::Lb,
        (b'l', b'v') => Dir::Lv,
        (b'r', b'f') => Dir::Rf,
        (b'r', b'b') => Dir::Rb,
        (b'r', b'v') => Dir::Rv,
        _ => return Some((single, 1)),
    };
    Some((pair, 2))
}

/// Records a non-direction modifier letter on the leg.
fn apply_flag(leg: &mut Leg, c: u8) -> Result<(), String> {
    match c {
        b'm' => leg.modality.quiet = true,
        b'c' => leg.modality.capture = true,
        b'e' => leg.modality.en_passant = true,
        b'd' => leg.modality.destroy = true,
        b'u' => leg.modality.unload = true,
        b't' => leg.modality.spare_royal = true,
        b'i' => leg.initial = leg.initial.saturating_add(1),
        b'n' => leg.lame = true,
        b'j' => leg.jump = leg.jump.saturating_add(1),
        b'p' => set_hop(leg, Hop::Cannon)?,
        b'g' => set_hop(leg, Hop::Grasshopper)?,
        b'o' => leg.cylinder = true,
        b'y' => leg.range_toggle = true,
        b'x' => leg.induction = true,
        b'z' => leg.zigzag = true,
        b'q' => leg.circular = true,
        b'k' => leg.royal = true,
        _ => return Err(format!("unknown modifier '{}'", char::from(c))),
    }
    Ok(())
}

fn set_hop(leg: &mut Leg, hop: Hop) -> Result<(), String> {
    match leg.hop {
        Some(other) if other != hop => Err("'p' and 'g' cannot both apply to one leg".to_string()),
        _ => {
            leg.hop = Some(hop);
            Ok(())
        }
    }
}

/// Rejects direction tokens that mean nothing where they stand: the chiral sets anywhere but
/// on the first leg of an oblique atom (later legs are read in the relative 8-way system).
fn check_leg_direction(dir: Dir, atom: &Atom, first: bool) -> Result<(), String> {
    if !dir.is_chiral() {
        return Ok(());
    }
    if !first {
        return Err(format!(
            "the chiral direction '{dir}' has no meaning on a later leg (directions there are relative)"
        ));
    }
    match atom {
        Atom::Step(bases) => system_of(bases).and_then(|system| check_direction(dir, system)),
        Atom::Castle(_) | Atom::Drop(_) => Err(format!(
            "the chiral direction '{dir}' only applies to oblique atoms such as N, C or Z"
        )),
    }
}

// ------------------------------------------------------------------------------------------
// First-leg direction semantics
// ------------------------------------------------------------------------------------------

/// Expands a first-leg direction set into absolute step vectors for an atom given by its base
/// vectors (as in [`Atom::Step`]; a base may be given in any orientation). An empty `dirs` means
/// every move. The result has no duplicates and a fixed order (see the module documentation).
/// Errors: no bases, a zero or out-of-range base, a compound atom mixing in an oblique step, or
/// a chiral token on a non-oblique atom; the error's `position` is the offending token's index.
pub fn expand_directions(atom: &[(i8, i8)], dirs: &[Dir]) -> Result<Vec<(i8, i8)>, BetzaError> {
    let atom_name = || {
        atom.iter()
            .map(|(x, y)| format!("({x},{y})"))
            .collect::<String>()
    };
    if atom.len() > 1 {
        // A compound atom (K = W and F, Q = R and B) reads its directions on each part, as in
        // Betza's original notation and docs/rules.md §1.2 (`fK` = `fW` + `fF`: the three
        // squares ahead).
        let mut vectors: Vec<(i8, i8)> = Vec::new();
        for base in atom {
            for v in expand_directions(std::slice::from_ref(base), dirs)? {
                if !vectors.contains(&v) {
                    vectors.push(v);
                }
            }
        }
        return Ok(vectors);
    }
    let system = system_of(atom).map_err(|reason| BetzaError::new(0, &atom_name(), reason))?;
    for (index, &dir) in dirs.iter().enumerate() {
        check_direction(dir, system)
            .map_err(|reason| BetzaError::new(index, &format!("{dir}{}", atom_name()), reason))?;
    }
    let mut vectors: Vec<(i8, i8)> = Vec::new();
    for &base in atom {
        for vector in symmetric_images(base) {
            let wanted = dirs.is_empty() || dirs.iter().any(|&dir| selects(dir, vector, system));
            if wanted && !vectors.contains(&vector) {
                vectors.push(vector);
            }
        }
    }
    Ok(vectors)
}

/// How an atom's directions are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum System {
    /// One base vector with components `small` ≤ `big` (by absolute value).
    Single { class: Class, small: i8, big: i8 },
    /// Several orthogonal/diagonal bases (K, Q): the 8 compass points.
    Compass,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Orthogonal,
    Diagonal,
    Oblique,
}

/// The components of a base, smaller first, by absolute value; rejects (0,0) and -128 (whose
/// absolute value does not fit).
fn magnitudes(base: (i8, i8)) -> Result<(i8, i8), String> {
    let (x, y) = base;
    if x == i8::MIN || y == i8::MIN {
        return Err(format!("base vector ({x},{y}) is out of range"));
    }
    let (x, y) = (x.abs(), y.abs());
    if x == 0 && y == 0 {
        return Err("the null vector (0,0) is not a step".to_string());
    }
    Ok((x.min(y), x.max(y)))
}

fn system_of(bases: &[(i8, i8)]) -> Result<System, String> {
    match bases {
        [] => Err("the atom has no base vectors".to_string()),
        [base] => {
            let (small, big) = magnitudes(*base)?;
            let class = if small == 0 {
                Class::Orthogonal
            } else if small == big {
                Class::Diagonal
            } else {
                Class::Oblique
            };
            Ok(System::Single { class, small, big })
        }
        many => {
            for &base in many {
                let (small, big) = magnitudes(base)?;
                if small != 0 && small != big {
                    return Err(
                        "a compound atom may only combine orthogonal and diagonal steps"
                            .to_string(),
                    );
                }
            }
            Ok(System::Compass)
        }
    }
}

fn check_direction(dir: Dir, system: System) -> Result<(), String> {
    let oblique = matches!(
        system,
        System::Single {
            class: Class::Oblique,
            ..
        }
    );
    if dir.is_chiral() && !oblique {
        return Err(format!(
            "the chiral direction '{dir}' only applies to oblique atoms such as N, C or Z"
        ));
    }
    Ok(())
}

/// The 8 symmetric images of a base (4 for orthogonal and diagonal ones), clockwise from the
/// narrow forward-right image. Assumes `magnitudes` accepted the base.
fn symmetric_images(base: (i8, i8)) -> Vec<(i8, i8)> {
    let Ok((a, b)) = magnitudes(base) else {
        return Vec::new();
    };
    let mut images = Vec::with_capacity(8);
    for image in [
        (a, b),
        (b, a),
        (b, -a),
        (a, -b),
        (-a, -b),
        (-b, -a),
        (-b, a),
        (-a, b),
    ] {
        if !images.contains(&image) {
            images.push(image);
        }
    }
    images
}

/// A side of the board from the mover's point of view.
#[derive(Debug, Clone, Copy)]
enum Side {
    Forward,
    Backward,
    Left,
    Right,
}

/// The second letter of a token: one side, or both sides of an axis (`v`, `s`).
#[derive(Debug, Clone, Copy)]
enum Minor {
    Side(Side),
    Vertical,
    Sideways,
}

/// The structure of a direction token.
#[derive(Debug, Clone, Copy)]
enum Shape {
    /// A single letter: the extreme move(s) that way.
    Narrow(Minor),
    /// Two perpendicular letters: a half-plane, then the extreme move(s) inside it.
    Pair(Side, Minor),
    /// A letter followed by `h`: the whole half-plane.
    Half(Side),
    /// The chiral sets `hr` (right-handed) and `hl`.
    Chiral { right: bool },
    /// A bare `h`.
    All,
}

impl Dir {
    fn shape(self) -> Shape {
        use Side::{Backward, Forward, Left, Right};
        let side = Minor::Side;
        match self {
            Dir::F => Shape::Narrow(side(Forward)),
            Dir::B => Shape::Narrow(side(Backward)),
            Dir::L => Shape::Narrow(side(Left)),
            Dir::R => Shape::Narrow(side(Right)),
            Dir::V => Shape::Narrow(Minor::Vertical),
            Dir::S => Shape::Narrow(Minor::Sideways),
            Dir::Fl => Shape::Pair(Forward, side(Left)),
            Dir::Fr => Shape::Pair(Forward, side(Right)),
            Dir::Fs => Shape::Pair(Forward, Minor::Sideways),
            Dir::Bl => Shape::Pair(Backward, side(Left)),
            Dir::Br => Shape::Pair(Backward, side(Right)),
            Dir::Bs => Shape::Pair(Backward, Minor::Sideways),
            Dir::Lf => Shape::Pair(Left, side(Forward)),
            Dir::Lb => Shape::Pair(Left, side(Backward)),
            Dir::Lv => Shape::Pair(Left, Minor::Vertical),
            Dir::Rf => Shape::Pair(Right, side(Forward)),
            Dir::Rb => Shape::Pair(Right, side(Backward)),
            Dir::Rv => Shape::Pair(Right, Minor::Vertical),
            Dir::Fh => Shape::Half(Forward),
            Dir::Bh => Shape::Half(Backward),
            Dir::Lh => Shape::Half(Left),
            Dir::Rh => Shape::Half(Right),
            Dir::Hl => Shape::Chiral { right: false },
            Dir::Hr => Shape::Chiral { right: true },
            Dir::H => Shape::All,
        }
    }
}

/// Whether `v` has a strictly positive component towards `side`.
fn in_half(side: Side, (x, y): (i8, i8)) -> bool {
    match side {
        Side::Forward => y > 0,
        Side::Backward => y < 0,
        Side::Left => x < 0,
        Side::Right => x > 0,
    }
}

/// Whether `v` goes as far as the atom can towards `side` (`big` is its larger component).
fn is_extreme(side: Side, (x, y): (i8, i8), big: i8) -> bool {
    match side {
        Side::Forward => y == big,
        Side::Backward => y == -big,
        Side::Left => x == -big,
        Side::Right => x == big,
    }
}

fn is_extreme_minor(minor: Minor, v: (i8, i8), big: i8) -> bool {
    match minor {
        Minor::Side(side) => is_extreme(side, v, big),
        Minor::Vertical => is_extreme(Side::Forward, v, big) || is_extreme(Side::Backward, v, big),
        Minor::Sideways => is_extreme(Side::Left, v, big) || is_extreme(Side::Right, v, big),
    }
}

/// Whether direction `dir` selects the vector `v` of an atom read in `system`.
fn selects(dir: Dir, v: (i8, i8), system: System) -> bool {
    match system {
        System::Single { class, small, big } => selects_single(dir, v, class, small, big),
        System::Compass => selects_compass(dir, (v.0.signum(), v.1.signum())),
    }
}

fn selects_single(dir: Dir, v: (i8, i8), class: Class, small: i8, big: i8) -> bool {
    match dir.shape() {
        Shape::Narrow(minor) => is_extreme_minor(minor, v, big),
        // An orthogonal atom has no move in both directions at once: the reference reads the
        // two letters as alternatives there.
        Shape::Pair(major, minor) if class == Class::Orthogonal => {
            is_extreme(major, v, big) || is_extreme_minor(minor, v, big)
        }
        Shape::Pair(major, minor) => in_half(major, v) && is_extreme_minor(minor, v, big),
        Shape::Half(side) => in_half(side, v),
        Shape::Chiral { right } => {
            // The right-handed set is the narrow forward-right move turned by quarter turns
            // clockwise; the left-handed set is its mirror image.
            let (a, b) = (small, big);
            let set = if right {
                [(a, b), (b, -a), (-a, -b), (-b, a)]
            } else {
                [(-a, b), (b, a), (a, -b), (-b, -a)]
            };
            set.contains(&v)
        }
        Shape::All => true,
    }
}

/// Directions in the 8-way king system, on the compass point `c` (components in -1..=1).
fn selects_compass(dir: Dir, c: (i8, i8)) -> bool {
    let narrow = |minor: Minor| match minor {
        Minor::Side(side) => is_extreme(side, c, 1) && (c.0 == 0 || c.1 == 0),
        Minor::Vertical => c.0 == 0,
        Minor::Sideways => c.1 == 0,
    };
    let wide = |minor: Minor| match minor {
        Minor::Side(side) => in_half(side, c),
        Minor::Vertical => c.1 != 0,
        Minor::Sideways => c.0 != 0,
    };
    match dir.shape() {
        Shape::Narrow(minor) => narrow(minor),
        Shape::Pair(major, minor) => in_half(major, c) && wide(minor),
        Shape::Half(side) => in_half(side, c),
        Shape::Chiral { .. } => false,
        Shape::All => true,
    }
}

// ------------------------------------------------------------------------------------------
// Printing
// ------------------------------------------------------------------------------------------

/// Appends a leg's modifiers in a canonical order: `i`s, directions, modality, other flags.
fn write_leg_modifiers(leg: &Leg, out: &mut String) {
    for _ in 0..leg.initial {
        out.push('i');
    }
    write_directions(&leg.directions, out);
    let m = &leg.modality;
    let modality = [
        (m.quiet, 'm'),
        (m.capture, 'c'),
        (m.en_passant, 'e'),
        (m.destroy, 'd'),
        (m.unload, 'u'),
        (m.spare_royal, 't'),
    ];
    push_flags(&modality, out);
    if leg.lame {
        out.push('n');
    }
    for _ in 0..leg.jump {
        out.push('j');
    }
    match leg.hop {
        Some(Hop::Cannon) => out.push('p'),
        Some(Hop::Grasshopper) => out.push('g'),
        None => {}
    }
    let others = [
        (leg.cylinder, 'o'),
        (leg.range_toggle, 'y'),
        (leg.induction, 'x'),
        (leg.zigzag, 'z'),
        (leg.circular, 'q'),
        (leg.royal, 'k'),
    ];
    push_flags(&others, out);
}

fn push_flags(flags: &[(bool, char)], out: &mut String) {
    for &(on, letter) in flags {
        if on {
            out.push(letter);
        }
    }
}

/// Appends direction tokens so that they read back as the same tokens: a single letter that
/// the reader would glue to the next token (`f` before `l...`) is written doubled (`ffl...`).
/// Sorting puts a bare `h`, which nothing can be doubled to protect, last.
fn write_directions(directions: &[Dir], out: &mut String) {
    let mut sorted = directions.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    for (index, dir) in sorted.iter().enumerate() {
        let text = dir.as_str();
        let next = sorted
            .get(index + 1)
            .and_then(|n| n.as_str().bytes().next());
        let glues = match (text.as_bytes(), next) {
            ([letter], Some(_)) => direction_token(*letter, next).is_some_and(|(_, w)| w == 2),
            _ => false,
        };
        out.push_str(text);
        if glues {
            out.push_str(text);
        }
    }
}

/// The XBetza text of an atom with its range: riders of W, F and the king set use `R`, `B`, `Q`;
/// other unlimited riders are written doubled.
fn atom_text(atom: &Atom, range: Range) -> String {
    let number = |n: Option<u8>| n.map(|n| n.to_string()).unwrap_or_default();
    let bases = match atom {
        Atom::Castle(n) => return format!("O{}", number(*n)),
        Atom::Drop(n) => return format!("@{}", number(*n)),
        Atom::Step(bases) => bases,
    };
    let letter = match bases.as_slice() {
        [(1, 0)] => Some(('W', 'R')),
        [(1, 1)] => Some(('F', 'B')),
        [(1, 0), (1, 1)] => Some(('K', 'Q')),
        [(2, 0)] => Some(('D', 'D')),
        [(2, 1)] => Some(('N', 'N')),
        [(2, 2)] => Some(('A', 'A')),
        [(3, 0)] => Some(('H', 'H')),
        [(3, 1)] => Some(('C', 'C')),
        [(3, 2)] => Some(('Z', 'Z')),
        [(3, 3)] => Some(('G', 'G')),
        _ => None,
    };
    let Some((leaper, rider)) = letter else {
        // Not expressible with atom letters; printed as vectors, which `parse` does not read.
        let vectors: String = bases.iter().map(|(x, y)| format!("({x},{y})")).collect();
        return match range {
            Range::Leap => vectors,
            Range::Ride { max } => format!("{vectors}{}", max.unwrap_or(0)),
        };
    };
    match range {
        Range::Leap => leaper.to_string(),
        Range::Ride { max: Some(n) } => format!("{rider}{n}"),
        Range::Ride { max: None } if rider != leaper => rider.to_string(),
        Range::Ride { max: None } => format!("{leaper}{leaper}"),
    }
}

// ------------------------------------------------------------------------------------------
// Tests
// ------------------------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;

    /// Every example the module must accept.
    const EXAMPLES: &[&str] = &[
        "K",
        "KisO2",
        "fmWfceFifmnD",
        "mfFcfeWimfnA",
        "fmWfcFifmR4",
        "WNC",
        "FADCG",
        "NN",
        "W2N",
        "N2ncDncH",
        "BnDD",
        "fFfW3smW",
        "fsmWfcFifmR4",
        "mF3caibN",
        "KNADcaKmcabK",
        "FafsFafsafFudFudNudC",
        "nNafsafmpafzcabmpafzK",
        "RcamfRidaufmRsb(caf)14R",
        "mRcpR",
        "pR",
        "gQ",
        "RcpRnN",
        "CmCC",
        "CDD",
        "WmDD",
        "mWDmDD",
        "QN",
        "KAD",
        "jR",
        "nA",
        "nZ",
        "hN",
        "ffN",
        "fsN",
        "lhN",
        "vN",
        "sW",
        "bsF",
        "W0",
        "F0",
        "N0",
        "R4",
        "Q2",
        "fpafmW",
        "fpafmF",
        "fpafmK",
        "mcabK",
        "caK",
        "udF",
        "idaufmR",
        "yafsF",
        "oR",
        "tK",
        "xK",
        "D@",
        "j@",
        "f@",
        "@3",
        "F afsF afsafF",
        "LJ",
        "hrNhlN",
        "kK",
    ];

    fn ok(text: &str) -> Vec<Element> {
        match parse(text) {
            Ok(elements) => elements,
            Err(e) => panic!("'{text}' should parse: {e}"),
        }
    }

    fn leg_counts(elements: &[Element]) -> Vec<usize> {
        elements.iter().map(|e| e.legs.len()).collect()
    }

    /// The absolute vectors of a one-element, first-leg description, sorted.
    fn vectors(text: &str) -> Vec<(i8, i8)> {
        let elements = ok(text);
        assert_eq!(elements.len(), 1, "{text}");
        let mut v = match elements[0].legs[0].vectors() {
            Ok(v) => v,
            Err(e) => panic!("'{text}' should expand: {e}"),
        };
        v.sort_unstable();
        v
    }

    fn sorted(mut v: Vec<(i8, i8)>) -> Vec<(i8, i8)> {
        v.sort_unstable();
        v
    }

    fn legs_of(elements: &[Element]) -> Vec<Vec<Leg>> {
        elements.iter().map(|e| e.legs.clone()).collect()
    }

    /// parse -> print -> parse must give the same legs.
    fn assert_round_trip(text: &str, elements: &[Element]) {
        let printed = to_betza(elements);
        match parse(&printed) {
            Ok(again) => assert_eq!(
                legs_of(&again),
                legs_of(elements),
                "'{text}' printed as '{printed}' reads back differently"
            ),
            Err(e) => panic!("'{text}' printed as '{printed}' does not parse: {e}"),
        }
    }

    #[test]
    fn every_example_parses_and_round_trips() {
        for text in EXAMPLES {
            let elements = ok(text);
            assert!(!elements.is_empty(), "{text}");
            for element in &elements {
                assert!(
                    text.contains(element.source.as_str()),
                    "{text}: {}",
                    element.source
                );
                assert!(!element.legs.is_empty(), "{text}");
            }
            assert_round_trip(text, &elements);
        }
    }

    #[test]
    fn lion_elements_and_legs() {
        let elements = ok("KNADcaKmcabK");
        let sources: Vec<&str> = elements.iter().map(|e| e.source.as_str()).collect();
        assert_eq!(sources, ["K", "N", "A", "D", "caK", "mcabK"]);
        assert_eq!(leg_counts(&elements), [1, 1, 1, 1, 2, 2]);
        // K stays one element with both king base vectors.
        assert_eq!(elements[0].legs[0].atom, Atom::Step(vec![(1, 0), (1, 1)]));
        assert_eq!(elements[0].legs[0].range, Range::Leap);

        let ca = &elements[4].legs;
        assert!(ca[0].modality.capture && !ca[0].modality.quiet);
        assert!(ca[1].modality.is_default() && ca[1].directions.is_empty());
        assert_eq!(ca[1].atom, Atom::Step(vec![(1, 0), (1, 1)]));

        let mcab = &elements[5].legs;
        assert!(mcab[0].modality.quiet && mcab[0].modality.capture);
        assert_eq!(mcab[1].directions, [Dir::B]);
        assert_eq!(elements[5].position, 7);
        assert_eq!(
            elements.iter().map(|e| e.origin).collect::<Vec<_>>(),
            [0, 1, 2, 3, 4, 5]
        );
    }

    #[test]
    fn multi_leg_modifier_groups() {
        let elements = ok("F afsF afsafF");
        assert_eq!(leg_counts(&elements), [1, 2, 3]);
        let legs = &elements[2].legs;
        assert!(legs[0].directions.is_empty());
        assert_eq!(legs[1].directions, [Dir::Fs]);
        assert_eq!(legs[2].directions, [Dir::F]);

        let lion_ish = ok("nNafsafmpafzcabmpafzK");
        assert_eq!(leg_counts(&lion_ish), [1, 6]);
        let legs = &lion_ish[1].legs;
        assert_eq!(legs[2].hop, Some(Hop::Cannon));
        assert!(legs[2].modality.quiet);
        assert!(legs[3].zigzag && legs[3].modality.capture && legs[3].directions == [Dir::F]);
        assert_eq!(legs[4].directions, [Dir::B]);

        let idauf = ok("idaufmR");
        let legs = &idauf[0].legs;
        assert_eq!(legs[0].initial, 1);
        assert!(legs[0].modality.destroy);
        assert!(legs[1].modality.unload && legs[1].modality.quiet);
        assert_eq!(legs[1].directions, [Dir::F]);
        assert_eq!(legs[1].range, Range::Ride { max: None });

        let toggle = ok("yafsF");
        assert!(toggle[0].legs[0].range_toggle);
        assert_eq!(toggle[0].legs[1].directions, [Dir::Fs]);

        let pawn = ok("fmWfceFifmnD");
        assert_eq!(pawn.len(), 3);
        assert!(pawn[1].legs[0].modality.en_passant);
        assert_eq!(pawn[2].legs[0].initial, 1);
        assert!(pawn[2].legs[0].lame);
        assert_eq!(ok("iifmW")[0].legs[0].initial, 2);
        assert_eq!(ok("jjR")[0].legs[0].jump, 2);
    }

    #[test]
    fn repetition_group_expands_to_one_element_per_count() {
        let elements = ok("sb(caf)14R");
        assert_eq!(elements.len(), 15);
        assert_eq!(leg_counts(&elements), (1..=15).collect::<Vec<_>>());
        for (count, element) in elements.iter().enumerate() {
            assert_eq!(element.source, "sb(caf)14R");
            assert_eq!(element.origin, 0);
            assert_eq!(element.repeats, [count as u8]);
            let first = &element.legs[0];
            assert_eq!(first.directions, [Dir::B, Dir::S]);
            assert_eq!(first.modality.capture, count > 0);
            for middle in element.legs.iter().skip(1).take(count.saturating_sub(1)) {
                assert_eq!(middle.directions, [Dir::F]);
                assert!(middle.modality.capture);
            }
            if count > 0 {
                let last = &element.legs[count];
                assert_eq!(last.directions, [Dir::F]);
                assert!(last.modality.is_default());
            }
        }
        // `sb` prints as `bbs`: a bare `bs` would read as the pair token.
        assert_eq!(elements[2].to_string(), "bbscafcafR");

        let all = ok("RcamfRidaufmRsb(caf)14R");
        assert_eq!(all.len(), 18);
        let origins: Vec<usize> = all.iter().map(|e| e.origin).collect();
        assert_eq!(&origins[..4], [0, 1, 2, 3]);
        assert!(origins[3..].iter().all(|&o| o == 3));
        assert_eq!(all[3].position, 13);

        // Two groups expand to every combination, the first varying slowest.
        let both = ok("(f)1(c)1N");
        let repeats: Vec<Vec<u8>> = both.iter().map(|e| e.repeats.clone()).collect();
        assert_eq!(repeats, [vec![0, 0], vec![0, 1], vec![1, 0], vec![1, 1]]);
        assert_eq!(both[3].legs[0].directions, [Dir::F]);
        assert!(both[3].legs[0].modality.capture);
    }

    #[test]
    fn ranges() {
        assert_eq!(ok("W2")[0].legs[0].range, Range::Ride { max: Some(2) });
        assert_eq!(ok("NN")[0].legs[0].range, Range::Ride { max: None });
        assert_eq!(ok("N0")[0].legs[0].range, Range::Ride { max: None });
        assert_eq!(ok("N")[0].legs[0].range, Range::Leap);
        let r4 = &ok("R4")[0].legs[0];
        assert_eq!(r4.atom, Atom::Step(vec![(1, 0)]));
        assert_eq!(r4.range, Range::Ride { max: Some(4) });
        let q2 = &ok("Q2")[0].legs[0];
        assert_eq!(q2.atom, Atom::Step(vec![(1, 0), (1, 1)]));
        assert_eq!(q2.range, Range::Ride { max: Some(2) });
        assert_eq!(ok("KK")[0].legs[0].range, Range::Ride { max: None });
        assert_eq!(ok("B")[0].legs[0].atom, Atom::Step(vec![(1, 1)]));
        assert_eq!(ok("W99")[0].legs[0].range, Range::Ride { max: Some(99) });
        assert_eq!(ok("KisO2")[1].legs[0].atom, Atom::Castle(Some(2)));
        assert_eq!(ok("O")[0].legs[0].atom, Atom::Castle(None));
        assert_eq!(ok("@3")[0].legs[0].atom, Atom::Drop(Some(3)));
        assert_eq!(ok("LJ")[0].legs[0].atom, ok("C")[0].legs[0].atom);
        assert_eq!(ok("LJ")[1].legs[0].atom, Atom::Step(vec![(3, 2)]));
        // A doubled atom is one element; three letters are a rider and a leaper.
        assert_eq!(leg_counts(&ok("DDD")), [1, 1]);
        assert_eq!(ok("D@").len(), 2);
    }

    #[test]
    fn knight_directions() {
        // `f` on an oblique atom is the forward-most pair (XBoard, reference table); the four
        // forward moves are `fh`.
        assert_eq!(vectors("fN"), sorted(vec![(1, 2), (-1, 2)]));
        assert_eq!(vectors("ffN"), vectors("fN"));
        assert_eq!(vectors("fsN"), sorted(vec![(2, 1), (-2, 1)]));
        assert_eq!(
            vectors("fhN"),
            sorted(vec![(1, 2), (-1, 2), (2, 1), (-2, 1)])
        );
        assert_eq!(
            vectors("lhN"),
            sorted(vec![(-1, 2), (-2, 1), (-2, -1), (-1, -2)])
        );
        assert_eq!(
            vectors("vN"),
            sorted(vec![(1, 2), (-1, 2), (1, -2), (-1, -2)])
        );
        assert_eq!(
            vectors("sN"),
            sorted(vec![(2, 1), (-2, 1), (2, -1), (-2, -1)])
        );
        assert_eq!(vectors("lN"), sorted(vec![(-2, 1), (-2, -1)]));
        assert_eq!(vectors("flN"), [(-2, 1)]);
        assert_eq!(vectors("frN"), [(2, 1)]);
        assert_eq!(vectors("lfN"), [(-1, 2)]);
        assert_eq!(vectors("rbN"), [(1, -2)]);
        assert_eq!(vectors("lvN"), sorted(vec![(-1, 2), (-1, -2)]));
        assert_eq!(vectors("bsN"), sorted(vec![(2, -1), (-2, -1)]));
        assert_eq!(
            vectors("hrN"),
            sorted(vec![(1, 2), (2, -1), (-1, -2), (-2, 1)])
        );
        assert_eq!(
            vectors("hlN"),
            sorted(vec![(-1, 2), (2, 1), (1, -2), (-2, -1)])
        );
        assert_eq!(vectors("hN").len(), 8);
        assert_eq!(vectors("N").len(), 8);
        // The camel follows the same pattern with (1,3) / (3,1).
        assert_eq!(vectors("fC"), sorted(vec![(1, 3), (-1, 3)]));
        assert_eq!(vectors("fsC"), sorted(vec![(3, 1), (-3, 1)]));
        // Union of several tokens.
        assert_eq!(vectors("ffbbN"), vectors("vN"));
    }

    #[test]
    fn orthogonal_and_diagonal_directions() {
        assert_eq!(vectors("fmW"), [(0, 1)]);
        assert_eq!(vectors("sW"), sorted(vec![(1, 0), (-1, 0)]));
        assert_eq!(vectors("vR"), sorted(vec![(0, 1), (0, -1)]));
        assert_eq!(vectors("fsmW"), sorted(vec![(0, 1), (1, 0), (-1, 0)]));
        assert_eq!(vectors("flW"), sorted(vec![(0, 1), (-1, 0)]));
        assert_eq!(vectors("fhW"), [(0, 1)]);
        assert_eq!(vectors("fF"), sorted(vec![(1, 1), (-1, 1)]));
        assert_eq!(vectors("lF"), sorted(vec![(-1, 1), (-1, -1)]));
        assert_eq!(vectors("rF"), sorted(vec![(1, 1), (1, -1)]));
        assert_eq!(vectors("bsF"), sorted(vec![(1, -1), (-1, -1)]));
        assert_eq!(vectors("flF"), [(-1, 1)]);
        assert_eq!(vectors("lvB"), vectors("lB"));
        assert_eq!(vectors("vF").len(), 4);
        assert_eq!(vectors("sA").len(), 4);
        assert_eq!(vectors("fD"), [(0, 2)]);
    }

    /// Compound atoms read their directions on each part (docs/rules.md §1.2: `fK` = `fW` +
    /// `fF`).
    #[test]
    fn king_system_directions() {
        assert_eq!(vectors("fK"), sorted(vec![(0, 1), (1, 1), (-1, 1)]));
        assert_eq!(
            vectors("fsK"),
            sorted(vec![(0, 1), (1, 0), (-1, 0), (1, 1), (-1, 1)])
        );
        assert_eq!(vectors("flK"), sorted(vec![(0, 1), (-1, 0), (-1, 1)]));
        assert_eq!(vectors("vK").len(), 6);
        assert_eq!(vectors("K").len(), 8);
        assert_eq!(vectors("bQ"), sorted(vec![(0, -1), (1, -1), (-1, -1)]));
        assert_eq!(
            vectors("sK"),
            sorted(vec![(1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)])
        );
    }

    #[test]
    fn expansion_order_is_deterministic() {
        let knight = expand_directions(&[(2, 1)], &[]).unwrap_or_default();
        assert_eq!(
            knight,
            [
                (1, 2),
                (2, 1),
                (2, -1),
                (1, -2),
                (-1, -2),
                (-2, -1),
                (-2, 1),
                (-1, 2)
            ]
        );
        let king = expand_directions(&[(1, 0), (1, 1)], &[]).unwrap_or_default();
        assert_eq!(
            king,
            [
                (0, 1),
                (1, 0),
                (0, -1),
                (-1, 0),
                (1, 1),
                (1, -1),
                (-1, -1),
                (-1, 1)
            ]
        );
        // Any orientation of a base means the same atom.
        assert_eq!(
            expand_directions(&[(-1, 2)], &[Dir::F]),
            expand_directions(&[(2, 1)], &[Dir::F])
        );
        assert!(expand_directions(&[], &[]).is_err());
        assert!(expand_directions(&[(0, 0)], &[]).is_err());
        assert!(expand_directions(&[(i8::MIN, 1)], &[]).is_err());
        let chiral = expand_directions(&[(1, 0)], &[Dir::F, Dir::Hr]);
        assert_eq!(chiral.map_err(|e| e.position), Err(1));
        assert!(ok("O")[0].legs[0].vectors().is_err());
    }

    #[test]
    fn direction_tokens_normalize() {
        assert_eq!(ok("ffN")[0].legs[0].directions, [Dir::F]);
        assert_eq!(ok("sbR")[0].legs[0].directions, [Dir::B, Dir::S]);
        assert_eq!(ok("fmrW")[0].legs[0].directions, [Dir::F, Dir::R]);
        assert_eq!(ok("frlW")[0].legs[0].directions, [Dir::L, Dir::Fr]);
        assert_eq!(ok("fhlN")[0].legs[0].directions, [Dir::L, Dir::Fh]);
        assert_eq!(ok("lhrN")[0].legs[0].directions, [Dir::R, Dir::Lh]);
        // Printing protects single letters that would glue to the next token.
        let mut text = String::new();
        write_directions(&[Dir::F, Dir::L, Dir::Fl, Dir::Hr, Dir::H], &mut text);
        assert_eq!(text, "ffllflhrh");
        let again = ok(&format!("{text}N"));
        assert_eq!(
            again[0].legs[0].directions,
            [Dir::F, Dir::L, Dir::Fl, Dir::Hr, Dir::H]
        );
    }

    #[test]
    fn garbage_is_rejected_naming_the_bad_piece() {
        let cases: &[(&str, &str, usize)] = &[
            // (input, the element text the error names, byte position)
            ("X", "X", 0),
            ("fmQx", "x", 4),
            ("3", "3", 0),
            ("(caf", "(caf", 0),
            ("(caf)", "(caf)", 5),
            ("m", "m", 1),
            ("ff", "ff", 2),
            ("", "", 0),
            ("   ", "   ", 0),
            ("W999", "W999", 3),
            ("a", "a", 1),
            ("fwN", "fw", 1),
            ("hrW", "hrW", 0),
            ("cahrK", "cahrK", 2),
            ("NN2", "NN2", 2),
            ("W03", "W03", 1),
            ("N*", "*", 1),
            ("N)", ")", 1),
            ("f N", "f ", 1),
            ("Né", "é", 1),
            ("caO", "caO", 1),
            ("pgR", "pgR", 1),
            ("((a)2)3N", "((", 1),
            ("(A)2N", "(A", 1),
            ("()2N", "()", 0),
            ("(a)99(b)99N", "(a)99(b)99N", 0),
            ("KS", "S", 1),
        ];
        for &(input, element, position) in cases {
            match parse(input) {
                Ok(elements) => panic!("'{input}' should be rejected, got {elements:?}"),
                Err(e) => {
                    assert_eq!(e.element, element, "'{input}': {e}");
                    assert_eq!(e.position, position, "'{input}': {e}");
                    assert!(!e.reason.is_empty());
                    assert!(e.to_string().contains(element), "'{input}': {e}");
                }
            }
        }
    }

    #[test]
    fn error_messages_say_what_is_wrong() {
        let reason = |text: &str| parse(text).err().map(|e| e.reason).unwrap_or_default();
        assert!(reason("X").contains("unknown atom 'X'"));
        assert!(reason("fwN").contains("unknown modifier 'w'"));
        assert!(reason("W999").contains("two digits"));
        assert!(reason("(caf").contains("never closed"));
        assert!(reason("(caf)").contains("count"));
        assert!(reason("ff").contains("atom"));
        assert!(reason("3").contains("number"));
    }

    /// A tiny xorshift generator, enough to build varied inputs reproducibly.
    struct XorShift(u64);

    impl XorShift {
        fn next(&mut self) -> u64 {
            let mut x = self.0;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            self.0 = x;
            x
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    #[test]
    fn random_input_never_panics_and_round_trips() {
        // Mostly notation characters, so that many inputs parse, plus arbitrary ASCII.
        const ALPHABET: &[u8] = b"WFDNAHCLZJGKRBQO@fblrvshmcedutinjpgoyxzqkaaa()0123456789 ";
        let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
        let mut parsed = 0;
        for _ in 0..30_000 {
            let len = rng.below(16);
            let mut text = String::new();
            for _ in 0..len {
                let c = if rng.below(8) == 0 {
                    char::from(rng.below(128) as u8)
                } else {
                    char::from(ALPHABET[rng.below(ALPHABET.len())])
                };
                text.push(c);
            }
            if rng.below(50) == 0 {
                text.push('é');
            }
            if let Ok(elements) = parse(&text) {
                parsed += 1;
                assert_round_trip(&text, &elements);
                for element in &elements {
                    if let Some(first) = element.legs.first() {
                        let _ = first.vectors();
                    }
                }
            }
        }
        assert!(
            parsed > 1000,
            "the generator should produce valid inputs too ({parsed})"
        );
    }
}
