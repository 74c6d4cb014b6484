//! FEN in and out, for every geometry. Reading is two-stage: [`Setup::parse`] checks the syntax
//! alone (fields, runs of empty squares with one or two digits, holdings in `[...]`), then
//! [`Position::from_setup`] gives it meaning for a variant (piece letters, board size, rights,
//! e.p., legality of the placement). Every error names the field and the bad token. Whatever
//! the text (any Unicode, any length), reading it gives a position or an error, never a panic.
//! A position the variant's rules cannot play is an error: more royal men than the start
//! position has (see [`Variant::royal_limit`]), men in hand that no drop, gate or capture puts
//! there ([`Variant::may_hold_in_hand`]), a castling right given twice or for a man marked as
//! moved, two men on one square, more men than the counters hold. A position that is only
//! unlikely is read, and [`Position::oddities`] says what is odd about it.
//!
//! Dialect (that of Fairy-Stockfish, so positions can be exchanged both ways):
//! `<board>[<hand>] <side> <castling> <ep> <halfmove> <fullmove>`, where the castling field of a
//! gating variant (S-Chess) also lists the files whose first-rank men may still gate
//! (`KQBCDFGkqbcdfg`), and the e.p. field may be two squares, the square passed over followed by
//! the double step's landing square (`c3d4`, needed for Berolina pawns). The move counters may
//! be left out. The men in hand are written in Fairy-Stockfish's order (see
//! [`crate::variant::hands::HandRules::fen_order`]) and read in any. Multi-board variants are
//! written as one wide board (Chimera writes this form: `rnbqkbnr8/.../RNBQKBNR8` for Alice);
//! on reading, a `|` before a letter also puts the man on the second board at the same
//! coordinates (Fairy-Stockfish's Alice notation), and a rank may then be written 8 squares
//! long. In a variant whose turns have parts, the side to move may
//! carry the turn phase as a digit (`w1`: White, second part; see `rules::turns`); phase 0 is
//! written as the bare letter. Where promoted men demote when captured (crazyhouse), such a man
//! is written with `~` after his letter (`Q~`); in n-check, the checks each side still has to
//! give stand after the e.p. field (`3+3`), and Lichess's checks given (`+1+0`, after the move
//! number) are read too (see `board::hands`).

use super::position::{Position, CASTLE_BITS, RESERVE_NONE, RESERVE_PENDING};
use crate::types::{Cell, Color, Piece, PieceId, Square};
use crate::variant::setup::{check_men_count, hand_men, placement, FenError, FenField, Setup};
use crate::variant::{Variant, VariantRef};

impl Position {
    /// The start position of `variant`.
    pub fn startpos(variant: &VariantRef) -> Position {
        Position::from_fen(variant, variant.start_fen())
            .expect("built variants have a valid start FEN")
    }

    /// Reads a FEN for `variant`.
    pub fn from_fen(variant: &VariantRef, fen: &str) -> Result<Position, FenError> {
        Position::from_setup(variant, &Setup::parse(fen)?)
    }

    /// Gives a syntactically valid setup its meaning for `variant`, rejecting what its rules
    /// cannot play (see the module documentation); [`Position::oddities`] lists what is merely
    /// unlikely in what it accepts.
    pub fn from_setup(variant: &VariantRef, setup: &Setup) -> Result<Position, FenError> {
        let v = variant.as_ref();
        let g = &v.geometry();
        let mut pos = Position::empty(variant);
        let (men, moved_marks, walls) = placement(v, setup)?;
        let hand = hand_men(v, setup)?;
        check_men_count(v, &men, &hand)?;

        let castling = parse_castling(v, &men, &moved_marks, &setup.castling)?;
        for &(sq, piece) in &men {
            let fen_gates = v.gating().is_some_and(|g| g.rights_in_fen());
            let virgin = if v.cambodian_moves() {
                // Ouk Chatrang: the first-rank men of the files listed may make first moves.
                g.relative_rank(sq, piece.color) == 0
                    && castling.gates[piece.color.index()].contains(&g.file_of(sq))
            } else if fen_gates && pos.virgin_is_gate_right(sq, Cell::new(piece, true)) {
                castling.gates[piece.color.index()].contains(&g.file_of(sq))
                    || castling.implied_virgin.contains(&sq)
            } else if let Some(region) = v
                .initial_region()
                .filter(|_| v.pieces()[piece.id.index()].initial_by_region)
            {
                // Fairy-Stockfish's reading: initial moves wherever the region allows them.
                region[piece.color.index()][sq.index()] || castling.implied_virgin.contains(&sq)
            } else {
                v.starts_on_any_board(sq, piece) || castling.implied_virgin.contains(&sq)
            };
            let virgin = virgin && !moved_marks.contains(&sq);
            pos.put(sq, Cell::new(piece, virgin));
        }
        for &sq in &walls {
            if pos.cell(sq).is_empty() {
                pos.set_wall(sq, true);
            }
        }
        for &Piece { color, id } in &hand {
            pos.hand_add(color, id);
        }
        pos.side = setup.side;
        if setup.side == Color::Black {
            pos.st.hash ^= v.zobrist().side;
        }
        pos.set_phase_from_setup(setup)?;
        pos.castle_king = castling.king;
        pos.castle_rook = castling.rook;
        pos.st.castling = castling.rights;
        pos.st.hash ^= v.zobrist().castling(castling.rights);
        pos.rebuild_castling();
        pos.st.halfmove = setup.halfmove;
        pos.set_count_from_setup(setup)?;
        pos.fullmove = setup.fullmove;
        pos.set_ep_from_setup(setup)?;
        pos.set_reserves_from_setup(setup)?;
        pos.set_hands_from_setup(setup)?;
        pos.check_placement()?;
        Ok(pos)
    }

    /// The turn phase: 0 without turn parts; otherwise one of the variant's phases, the opening
    /// turn's only for White.
    fn set_phase_from_setup(&mut self, setup: &Setup) -> Result<(), FenError> {
        let token = || format!("{}{}", setup.side.fen_char(), setup.phase);
        let bad = |why: &str| FenError::new(FenField::Side, token(), why.to_string());
        let phase = setup.phase;
        match &self.variant.turns() {
            None if phase != 0 => return Err(bad("this variant has no turn parts")),
            None => return Ok(()),
            Some(t) if phase as usize >= t.num_phases() => {
                return Err(bad("no such part of a turn"))
            }
            Some(t) if phase as usize >= t.parts.len() && setup.side != Color::White => {
                return Err(bad("only White plays the opening turn"))
            }
            Some(_) => {}
        }
        self.st.hash ^= self.variant.zobrist().phase(0) ^ self.variant.zobrist().phase(phase);
        self.st.phase = phase;
        Ok(())
    }

    /// A running count of the counting rule (`countingRule`): the limit written in the e.p.
    /// field, the plies counted in the halfmove field (which then is not the halfmove clock,
    /// as in Fairy-Stockfish).
    fn set_count_from_setup(&mut self, setup: &Setup) -> Result<(), FenError> {
        let Some(limit) = setup.count_limit else {
            return Ok(());
        };
        if self.variant.counting().is_none() {
            return Err(FenError::new(
                FenField::EnPassant,
                limit.to_string(),
                "a counting limit in a variant without counting rules",
            ));
        }
        if limit != 0 {
            self.count[0] = limit;
            self.count[1] = setup.halfmove;
            self.st.halfmove = 0;
        }
        Ok(())
    }

    /// The squares of a FEN's e.p. field, and the error for that field with a reason.
    fn ep_field(
        &self,
        setup: &Setup,
    ) -> Result<(Vec<Square>, impl Fn(&str) -> FenError), FenError> {
        let text: String = setup
            .ep
            .iter()
            .map(|&(f, r)| format!("{}{}", (b'a' + f as u8) as char, r + 1))
            .collect();
        let bad =
            move |why: &str| FenError::new(FenField::EnPassant, text.clone(), why.to_string());
        let g = self.variant.geometry();
        let squares = setup
            .ep
            .iter()
            .map(|&(f, r)| {
                g.display_square(f, r)
                    .ok_or_else(|| bad("not a square of this board"))
            })
            .collect::<Result<Vec<Square>, FenError>>()?;
        Ok((squares, bad))
    }

    fn set_ep_from_setup(&mut self, setup: &Setup) -> Result<(), FenError> {
        if setup.ep.is_empty() {
            return Ok(());
        }
        if self.variant.triple_steps().is_some() {
            return self.set_triple_step_ep_from_setup(setup);
        }
        let g = self.variant.geometry().clone();
        let (squares, bad) = self.ep_field(setup)?;
        // Two squares may come in either order (Fairy-Stockfish writes them in board order):
        // the empty one is the square passed over.
        let passed = match squares.as_slice() {
            [a, b] if !self.cell(*a).is_empty() && self.cell(*b).is_empty() => *b,
            [a, ..] => *a,
            [] => return Ok(()),
        };
        if !self.cell(passed).is_empty() {
            return Err(bad("the square passed over is not empty"));
        }
        let mover = self.side.opposite();
        // With straight double steps only, the man is straight beyond the square passed;
        // otherwise any pawn diagonally beyond it may have made the double step.
        let forward = if mover == Color::White { 1 } else { -1 };
        let sideways: &[i32] = if self.variant.ep_two_squares() {
            &[0, -1, 1]
        } else {
            &[0]
        };
        let beyond: Vec<Square> = sideways
            .iter()
            .map(|&dx| passed.offset(g.delta(dx, forward)))
            .collect();
        let victim = match squares.iter().find(|&&s| s != passed) {
            // A landing square elsewhere describes no double step over `passed`; the single
            // square written back would then name another man, or none.
            Some(landing) if !beyond.contains(landing) => {
                return Err(bad(
                    "the landing square is not just beyond the square passed over",
                ))
            }
            Some(&landing) => landing,
            None => {
                let candidates: Vec<Square> = beyond
                    .into_iter()
                    .filter(|&s| {
                        let c = self.cell(s);
                        c.is_color(mover) && self.variant.ep_types() & (1 << c.id().0) != 0
                    })
                    .collect();
                match candidates.as_slice() {
                    [one] => *one,
                    [] => return Err(bad("no pawn stands beyond the square passed over")),
                    _ => return Err(bad("ambiguous: give the landing square too")),
                }
            }
        };
        let c = self.cell(victim);
        if !c.is_color(mover) || self.variant.ep_types() & (1 << c.id().0) == 0 {
            return Err(bad(
                "no pawn of the side that just moved on the landing square",
            ));
        }
        // As Fairy-Stockfish does, keep the e.p. square only when a capture there is possible.
        if self.ep_capture_possible(passed, self.side) {
            self.st.ep = passed;
            self.st.ep_victim = victim;
            let z = &self.variant.zobrist();
            self.st.hash ^= z.ep(passed) ^ z.ep(victim);
        }
        Ok(())
    }

    /// The e.p. field of a variant with triple steps, as Fairy-Stockfish writes it: the
    /// squares passed over that may be taken e.p. (one, or two after a triple step, in board
    /// order), the pawn that passed them one or two squares beyond. Each is kept, as after the
    /// move, where an e.p. capture there is possible.
    fn set_triple_step_ep_from_setup(&mut self, setup: &Setup) -> Result<(), FenError> {
        let g = self.variant.geometry().clone();
        let (ep_squares, bad) = self.ep_field(setup)?;
        if setup.ep.len() > 2 {
            return Err(bad("more than the two squares a triple step passes"));
        }
        let mover = self.side.opposite();
        let forward = g.delta(0, if mover == Color::White { 1 } else { -1 });
        let is_pawn = |c: Cell| c.is_color(mover) && self.variant.ep_types() & (1 << c.id().0) != 0;
        let mut victim = None;
        let mut squares = Vec::new();
        for sq in ep_squares {
            if !self.cell(sq).is_empty() {
                return Err(bad("a square passed over is not empty"));
            }
            let (one, two) = (sq.offset(forward), sq.offset(2 * forward));
            let beyond = if is_pawn(self.cell(one)) {
                one
            } else if self.cell(one).is_empty() && is_pawn(self.cell(two)) {
                two
            } else {
                return Err(bad("no pawn stands one or two squares beyond"));
            };
            if victim.is_some_and(|v| v != beyond) {
                return Err(bad("the two squares were not passed by one pawn"));
            }
            victim = Some(beyond);
            squares.push(sq);
        }
        let Some(victim) = victim else {
            return Ok(());
        };
        let v = self.variant.clone();
        let z = v.zobrist();
        for sq in squares {
            if !self.ep_capture_possible(sq, self.side) {
                continue;
            }
            if self.st.ep == Square::NONE {
                self.st.ep = sq;
                self.st.ep_victim = victim;
                self.st.hash ^= z.ep(sq) ^ z.ep(victim);
            } else {
                self.st.ep2 = sq;
                self.st.hash ^= z.ep(sq);
            }
        }
        Ok(())
    }

    fn set_reserves_from_setup(&mut self, setup: &Setup) -> Result<(), FenError> {
        let Some(tokens) = &setup.reserves else {
            return Ok(());
        };
        let v = self.variant.clone();
        let Some(rules) = &v.reserve() else {
            if tokens.is_empty() {
                return Ok(());
            }
            return Err(FenError::new(
                FenField::Reserves,
                tokens.join(" "),
                format!("{} has no reserve men", v.name()),
            ));
        };
        let mut used = [0usize; 2];
        for t in tokens {
            let bad = |why: &str| FenError::new(FenField::Reserves, t.clone(), why.to_string());
            if !t.is_ascii() {
                return Err(bad("expected a letter with @file or ?"));
            }
            let letter = t.as_bytes()[0] as char;
            if letter.to_ascii_uppercase() != v.pieces()[rules.piece.index()].letter {
                return Err(bad("not the reserve piece's letter"));
            }
            let color = if letter.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let value = match &t[1..] {
                "?" => RESERVE_PENDING,
                f if f.len() == 2 && f.starts_with('@') => {
                    let file = f.as_bytes()[1].wrapping_sub(b'a');
                    if file >= v.geometry().files {
                        return Err(bad("no such file"));
                    }
                    let sq = self.reserve_square(color, file);
                    if !self.cell(sq).is_color(color) {
                        return Err(bad(
                            "no man of that side stands on the file's first-rank square",
                        ));
                    }
                    file
                }
                _ => return Err(bad("expected a letter with @file or ?")),
            };
            let slot = used[color.index()];
            if slot >= rules.count as usize {
                return Err(bad("more reserve men than the variant has"));
            }
            used[color.index()] += 1;
            self.set_reserve(color, slot, value);
        }
        Ok(())
    }

    fn check_placement(&self) -> Result<(), FenError> {
        let v = &self.variant;
        let g = &v.geometry();
        for color in Color::ALL {
            // Where men are counted for extinction, a side may have no royal man (horde); one
            // still in hand is dropped before play (placement, sittuyin).
            let royal_in_hand = (0..v.num_pieces())
                .any(|id| v.royal_mask() & (1 << id) != 0 && self.hands[color.index()][id] > 0);
            if v.checking()
                && v.royal_mask() != 0
                && v.extinction().is_none()
                && self.royal_count(color) == 0
                && !royal_in_hand
            {
                return Err(FenError::new(
                    FenField::Position,
                    color.to_string(),
                    "has no royal piece",
                ));
            }
            // More royal men than the game can ever have: the check rule would have to guard
            // men that no line of play puts on the board.
            let royals = self.royal_count(color) as usize;
            if let Some(limit) = v.royal_limit().filter(|&l| royals > l) {
                return Err(FenError::new(
                    FenField::Position,
                    color.to_string(),
                    format!(
                        "has {royals} royal men; {} allows at most {limit}",
                        v.name()
                    ),
                ));
            }
        }
        for sq in g.squares() {
            let c = self.cell(sq);
            let Some(color) = c.color() else { continue };
            let last = g.relative_rank(sq, color) == g.ranks as usize - 1;
            if last
                && v.promotion().promotes(c.id(), color)
                && v.in_promotion_zone(color, sq)
                && !Self::may_be_dropped_on(v, c.id(), color, sq)
            {
                return Err(FenError::new(
                    FenField::Board,
                    g.name(sq),
                    "a pawn on its last rank",
                ));
            }
        }
        // A game already lost by extinction (atomic's king blown up, the winner's king left
        // attacked by the last move) is a finished game, which Fairy-Stockfish reads too; the
        // check only guards positions still in play.
        let decided = v.extinction().is_some() && self.extinction_end().is_some();
        if !decided && self.royal_in_danger(self.side.opposite()) {
            return Err(FenError::new(
                FenField::Position,
                self.side.opposite().to_string(),
                "the side not to move is in check",
            ));
        }
        Ok(())
    }

    /// True when a man of type `id` and colour `color` may be dropped on `sq` by the drop
    /// rules that do not depend on the position: then he may stand there unpromoted, as
    /// elgam's soldier does on his last rank (Fairy-Stockfish restricts the drops of its
    /// predefined pawn alone, and a drop never promotes).
    fn may_be_dropped_on(v: &Variant, id: PieceId, color: Color, sq: Square) -> bool {
        let (first_rank, zone) = v.pawn_drops_allowed();
        let pawn = v.is_drop_pawn(id, color);
        let first = v.geometry().relative_rank(sq, color) == 0;
        v.drops()
            && v.drop_types() & (1 << id.0) != 0
            && !(pawn && (!zone || first && !first_rank))
            && v.drop_region(color).is_none_or(|r| r[sq.index()])
            && !v.shogi().is_dead(id, color, sq.index())
    }

    /// The FEN of this position.
    pub fn fen(&self) -> String {
        let v = &self.variant;
        let g = &v.geometry();
        let mut out = String::new();
        for rank in (0..g.ranks as usize).rev() {
            let mut empty = 0;
            for file in 0..g.display_files() {
                let Some(sq) = g.display_square(file, rank) else {
                    continue;
                };
                match self.cell(sq).piece() {
                    None if self.cell(sq) == Cell::WALL => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push('*');
                    }
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        if v.pieces()[p.id.index()].promoted_from.is_some() {
                            out.push('+');
                        }
                        out.push(v.letter(p.id, p.color));
                        if self.is_promoted(sq) {
                            out.push('~');
                        }
                        if self.needs_moved_mark(sq) {
                            out.push('*');
                        }
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        if v.has_hand() {
            out.push('[');
            for color in Color::ALL {
                for &id in &v.hands().fen_order {
                    for _ in 0..self.hands[color.index()][id.index()] {
                        out.push(v.letter(id, color));
                    }
                }
            }
            out.push(']');
        }
        out.push(' ');
        out.push(self.side.fen_char());
        if self.st.phase != 0 {
            out.push((b'0' + self.st.phase) as char);
        }
        out.push(' ');
        out.push_str(&self.castling_text());
        out.push(' ');
        if self.count[0] != 0 {
            // Fairy-Stockfish's counting fields: the limit for e.p., the count for the clock.
            out.push_str(&format!(
                "{} {} {}",
                self.count[0], self.count[1], self.fullmove
            ));
        } else if self.st.ep == Square::NONE {
            out.push('-');
        } else if self.st.ep2 != Square::NONE {
            // After a triple step: both squares passed, in board order (Fairy-Stockfish's).
            let (a, b) = (self.st.ep, self.st.ep2);
            let (first, second) = if g.rank_of(a) <= g.rank_of(b) {
                (a, b)
            } else {
                (b, a)
            };
            out.push_str(&g.name(first));
            out.push_str(&g.name(second));
        } else {
            let victim = self.cell(self.st.ep_victim).id();
            if v.ep_two_squares() || v.ep_landing_marked() & (1 << victim.0) != 0 {
                // Both squares, in board order (rank by rank from rank 1), as Fairy-Stockfish
                // writes them.
                let (a, b) = (self.st.ep, self.st.ep_victim);
                let key = |s: Square| (g.rank_of(s), g.display_file(s));
                let (first, second) = if key(a) <= key(b) { (a, b) } else { (b, a) };
                out.push_str(&g.name(first));
                out.push_str(&g.name(second));
            } else {
                out.push_str(&g.name(self.st.ep));
            }
        }
        out.push_str(&self.checks_fen());
        if self.count[0] == 0 {
            out.push_str(&format!(" {} {}", self.st.halfmove, self.fullmove));
        }
        if let Some(rules) = &v.reserve() {
            let letter = v.pieces()[rules.piece.index()].letter;
            let mut tokens = Vec::new();
            for color in Color::ALL {
                let l = if color == Color::White {
                    letter
                } else {
                    letter.to_ascii_lowercase()
                };
                for &r in &self.st.reserves[color.index()] {
                    match r {
                        RESERVE_NONE => {}
                        RESERVE_PENDING => tokens.push(format!("{l}?")),
                        f => tokens.push(format!("{l}@{}", (b'a' + f) as char)),
                    }
                }
            }
            out.push_str(&format!(
                " {{{}}}",
                if tokens.is_empty() {
                    "-".to_string()
                } else {
                    tokens.join(" ")
                }
            ));
        }
        out
    }

    /// True when the man on `sq` has moved although FEN would read him as never moved (he
    /// stands where the start position has such a man) and it matters (his type has initial
    /// moves). Gating variants say it through the castling field instead, and where initial
    /// moves go by region (Fairy-Stockfish's reading) the square alone says it: Fairy-Stockfish
    /// reads no such mark.
    fn needs_moved_mark(&self, sq: Square) -> bool {
        let v = &self.variant;
        let c = self.cell(sq);
        let Some(piece) = c.piece() else { return false };
        !v.fen_walls()
            && !v.gating().is_some_and(|g| g.rights_in_fen())
            && !c.is_virgin()
            && v.pieces()[piece.id.index()].has_initial_moves
            && !v.pieces()[piece.id.index()].initial_by_region
            && v.starts_on_any_board(sq, piece)
    }

    fn castling_text(&self) -> String {
        let v = &self.variant;
        let g = &v.geometry();
        let mut s = String::new();
        for color in Color::ALL {
            let case = |c: char| {
                if color == Color::White {
                    c.to_ascii_uppercase()
                } else {
                    c
                }
            };
            for (side, &bit) in CASTLE_BITS[color.index()].iter().enumerate() {
                if self.st.castling & bit == 0 {
                    continue;
                }
                let rook = self.castle_rook[bit.trailing_zeros() as usize];
                let outermost = v
                    .castling()
                    .as_ref()
                    .map(|r| outermost_rook(self, color, side == 0, r.rooks))
                    == Some(Some(rook));
                // Chess960 variants always name the rook's file, as Fairy-Stockfish does.
                if outermost && !v.chess960() {
                    s.push(case(if side == 0 { 'k' } else { 'q' }));
                } else {
                    s.push(case((b'a' + g.display_file(rook) as u8) as char));
                }
            }
            if v.cambodian_moves() {
                for file in 0..g.files as usize {
                    let rank = if color == Color::White {
                        0
                    } else {
                        g.ranks as usize - 1
                    };
                    let c = self.cell(g.square(0, file, rank));
                    if c.is_color(color) && c.is_virgin() {
                        s.push(case((b'a' + file as u8) as char));
                    }
                }
            }
            // Gating rights matter only while there is something to gate; like
            // Fairy-Stockfish, leave them out when the hand is empty.
            let hand_empty = self.hands[color.index()].iter().all(|&n| n == 0);
            let in_fen = v.gating().filter(|g| g.rights_in_fen());
            // A castling right already says that its king and rook may gate: Fairy-Stockfish
            // writes no file letter for them (`kqcf`, not `kqacefh`).
            let mut implied: Vec<Square> = Vec::new();
            for &bit in CASTLE_BITS[color.index()].iter() {
                if self.st.castling & bit != 0 {
                    implied.push(self.castle_king[color.index()]);
                    implied.push(self.castle_rook[bit.trailing_zeros() as usize]);
                }
            }
            if let (Some(gating), false) = (in_fen, hand_empty) {
                for file in 0..g.files as usize {
                    let sq = g.square(
                        0,
                        file,
                        if color == Color::White {
                            gating.rank
                        } else {
                            g.ranks as usize - 1 - gating.rank
                        },
                    );
                    let c = self.cell(sq);
                    if c.is_color(color) && c.is_virgin() && !implied.contains(&sq) {
                        s.push(case((b'a' + file as u8) as char));
                    }
                }
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }
}

/// The outermost castling rook of `color` on the given side of its castling king.
fn outermost_rook(pos: &Position, color: Color, kingside: bool, rooks: u32) -> Option<Square> {
    let g = &pos.variant.geometry();
    let king = pos.castle_king[color.index()];
    if king == Square::NONE {
        return None;
    }
    outermost(g, king, kingside, |s| {
        let c = pos.cell(s);
        c.is_color(color) && rooks & (1 << c.id().0) != 0
    })
}

/// The square farthest from `king` on its rank, towards the last file (`kingside`) or the
/// first, that satisfies `wanted`.
fn outermost(
    g: &crate::types::Geometry,
    king: Square,
    kingside: bool,
    wanted: impl Fn(Square) -> bool,
) -> Option<Square> {
    let (board, kfile, rank) = g.coords(king);
    let files: Vec<usize> = if kingside {
        (kfile + 1..g.files as usize).rev().collect()
    } else {
        (0..kfile).collect()
    };
    files
        .into_iter()
        .map(|f| g.square(board, f, rank))
        .find(|&s| wanted(s))
}

/// The meaning of the castling field.
struct Castling {
    rights: u8,
    king: [Square; 2],
    rook: [Square; 4],
    /// Gating files per colour (gating variants).
    gates: [Vec<usize>; 2],
    /// Squares whose men must be marked as never moved (castling partners).
    implied_virgin: Vec<Square>,
}

/// Reads the castling field for the men of the placement, `moved` being the squares of those
/// marked as having moved (`*`), who can hold no castling right.
fn parse_castling(
    v: &Variant,
    men: &[(Square, Piece)],
    moved: &[Square],
    field: &str,
) -> Result<Castling, FenError> {
    let g = &v.geometry();
    let mut out = Castling {
        rights: 0,
        king: [Square::NONE; 2],
        rook: [Square::NONE; 4],
        gates: [Vec::new(), Vec::new()],
        implied_virgin: Vec::new(),
    };
    let at = |sq: Square| men.iter().find(|m| m.0 == sq).map(|m| m.1);
    if let Some(rules) = &v.castling() {
        for color in Color::ALL {
            let rank = if color == Color::White {
                rules.rank
            } else {
                g.ranks as usize - 1 - rules.rank
            };
            // On any board: an Alice king may castle from the second board.
            let kings: Vec<Square> = (0..g.boards as usize)
                .flat_map(|b| (0..g.files as usize).map(move |f| g.square(b, f, rank)))
                .filter(|&s| {
                    at(s)
                        == Some(Piece {
                            color,
                            id: rules.king,
                        })
                })
                .collect();
            out.king[color.index()] = match kings.as_slice() {
                [one] => *one,
                [] => Square::NONE,
                many => *many
                    .iter()
                    .find(|&&s| g.file_of(s) == rules.king_file)
                    .unwrap_or(&many[0]),
            };
        }
    }
    if field == "-" {
        return Ok(out);
    }
    // Each right is given once. A repeated letter, or a second letter for a right already
    // given (`KH` in chess names the h1 rook twice), says two things about one right: reject
    // it rather than let the last letter win.
    let mut seen: Vec<char> = Vec::new();
    let mut given_by: [Option<char>; 4] = [None; 4];
    for ch in field.chars() {
        let color = if ch.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let lower = ch.to_ascii_lowercase();
        let bad = |why: &str| FenError::new(FenField::Castling, ch.to_string(), why.to_string());
        if seen.contains(&ch) {
            return Err(bad("the letter is repeated"));
        }
        seen.push(ch);
        let file_letter =
            lower as usize >= 'a' as usize && (lower as usize - 'a' as usize) < g.files as usize;
        let is_side_letter = lower == 'k' || lower == 'q';
        let fen_gates = v.gating().is_some_and(|g| g.rights_in_fen());
        if (fen_gates && !is_side_letter || v.cambodian_moves()) && file_letter {
            out.gates[color.index()].push(lower as usize - 'a' as usize);
            continue;
        }
        let Some(rules) = &v.castling() else {
            // Fairy-Stockfish gives its start FEN's `KQkq` to variants without castling
            // (antiatomic, wildebeest, ...) and reads them as nothing: so do we.
            continue;
        };
        let king = out.king[color.index()];
        if king == Square::NONE {
            return Err(bad("no castling king on its rank"));
        }
        let (board, kfile, rank) = g.coords(king);
        // `K`/`Q` are side letters, unless the board is wide enough for them to be file letters
        // too and a castling rook stands on that file (Shredder-style rights).
        let rook_sq = if is_side_letter
            && !(file_letter && !fen_gates && has_rook_on(v, men, color, board, rank, lower))
        {
            let castles = |s: Square| {
                at(s).is_some_and(|p| p.color == color && rules.rooks & (1 << p.id.0) != 0)
            };
            // The rook on the variant's castling rook file, when one stands there (Shako's
            // rooks start inside the edge men); otherwise the outermost rook.
            let named = rules.rook_files[usize::from(lower == 'q')]
                .map(|f| g.square(board, f, rank))
                .filter(|&s| castles(s));
            named
                .or_else(|| outermost(g, king, lower == 'k', castles))
                .ok_or_else(|| bad("no rook to castle with"))?
        } else if file_letter {
            let s = g.square(board, lower as usize - 'a' as usize, rank);
            if !at(s).is_some_and(|p| p.color == color && rules.rooks & (1 << p.id.0) != 0) {
                return Err(bad("no castling rook on that file"));
            }
            s
        } else {
            return Err(bad("not a castling letter"));
        };
        if moved.contains(&king) || moved.contains(&rook_sq) {
            return Err(bad("its king or rook is marked as having moved ('*')"));
        }
        let kingside = g.file_of(rook_sq) > kfile;
        let bit = CASTLE_BITS[color.index()][if kingside { 0 } else { 1 }];
        let slot = &mut given_by[bit.trailing_zeros() as usize];
        if let Some(first) = *slot {
            let side = if kingside { "kingside" } else { "queenside" };
            return Err(bad(&format!(
                "{color}'s {side} castling right is already given by '{first}'"
            )));
        }
        *slot = Some(ch);
        out.rights |= bit;
        out.rook[bit.trailing_zeros() as usize] = rook_sq;
        out.implied_virgin.push(king);
        out.implied_virgin.push(rook_sq);
    }
    Ok(out)
}

/// True when a Shredder-style file letter `letter` names a castling rook of `color`.
fn has_rook_on(
    v: &Variant,
    men: &[(Square, Piece)],
    color: Color,
    board: usize,
    rank: usize,
    letter: char,
) -> bool {
    let g = &v.geometry();
    let Some(rules) = &v.castling() else {
        return false;
    };
    let file = letter as usize - 'a' as usize;
    if file >= g.files as usize {
        return false;
    }
    let s = g.square(board, file, rank);
    men.iter()
        .any(|m| m.0 == s && m.1.color == color && rules.rooks & (1 << m.1.id.0) != 0)
}
