//! Why games end ([`Termination`], one name for every layer), and the ends that the position
//! alone decides (the rules are `variant::ends`): capture the flag, extinction by counts,
//! castle chess's castling and more, judged as Fairy-Stockfish judges them before any move is
//! listed. A position that is over has no legal move; its result is [`Position::position_end`].
//! The whole adjudication of a game, with the wording of its result, is `rules::outcome`.

use super::generate::MoveList;
use crate::board::position::{Position, CASTLE_BITS};
use crate::types::{Color, MoveKind, PieceId, Square};
use crate::variant::castle_rules::COLOR_RIGHTS;
use crate::variant::ends::{ConnectRules, FlagRules};
use crate::variant::GameValue;

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The side to move has no legal move and is in check.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// The side to move has lost its (last) royal man (variants without check rules).
    RoyalCaptured,
    /// The variant's move-count rule (`nMoveRule`) ran out.
    MoveRule,
    /// The position occurred the variant's number of times (`nFoldRule`).
    Repetition,
    /// A side's men of some type died out (`extinctionPieceTypes` and its counts).
    Extinction,
    /// A side brought its flag men into its flag region (`flagRegion*`).
    Flag,
    /// A side has its men in a row (`connectN`).
    Connect,
    /// A side moved one man back and forth (janggi's `moveRepetitionIllegal`).
    MoveRepetition,
    /// Both sides passed, one after the other (`pass`, `passOnStalemate`).
    DoublePass,
    /// A side castled a winning way, or lost its last right to (`castlingWins`).
    Castling,
    /// A side gave the last of its checks (n-check, `checkCounting`).
    Checks,
    /// The kings faced each other and the side to move passed (janggi's `bikjangRule`).
    Bikjang,
    /// No square is empty (`adjudicateFullBoard`): the material count decides.
    FullBoard,
    /// The counting rule's count passed its limit (`countingRule`).
    Counting,
}

impl Position {
    /// The result for the side to move when the position alone ends the game, and the rule
    /// that ends it (extinction, the flag, castling, checks, connect-N, a double pass, bikjang
    /// or a full board); `None` while the game goes on (always, in variants without such rules).
    pub fn position_end(&mut self) -> Option<(GameValue, Termination)> {
        if !self.variant.has_position_ends() {
            return None;
        }
        self.extinction_end()
            .map(|v| (v, Termination::Extinction))
            .or_else(|| self.flag_end().map(|v| (v, Termination::Flag)))
            .or_else(|| self.castling_end().map(|v| (v, Termination::Castling)))
            .or_else(|| self.checks_end().map(|v| (v, Termination::Checks)))
            .or_else(|| self.connect_end().map(|v| (v, Termination::Connect)))
            .or_else(|| {
                self.double_pass()
                    .then_some((GameValue::Draw, Termination::DoublePass))
            })
            .or_else(|| {
                self.bikjang_end()
                    .then_some((GameValue::Draw, Termination::Bikjang))
            })
            .or_else(|| {
                (self.variant.adjudicate_full_board() && self.board_full())
                    .then_some((GameValue::Draw, Termination::FullBoard))
            })
    }

    /// Castle chess (`castlingWins`), judged as Fairy-Stockfish judges it: the side that has
    /// just castled one of the winning ways wins; otherwise a side that had some of the
    /// winning rights and has lost them all loses (the side that has just moved first, since
    /// a rook taking a rook can take both sides' last rights).
    fn castling_end(&self) -> Option<GameValue> {
        let wins = self.variant.castle_rules().wins;
        if wins == 0 {
            return None;
        }
        let them = self.side.opposite();
        if let Some(last) = self.history.last() {
            let castled = last.mv.is_castle() || last.mv.kind == MoveKind::WalledCastle;
            if castled {
                let wing = self.castled_wing(last.mv);
                if wing.is_some_and(|w| wins & CASTLE_BITS[them.index()][w] != 0) {
                    return Some(GameValue::Loss);
                }
            }
        }
        for (c, value) in [(them, GameValue::Win), (self.side, GameValue::Loss)] {
            let own = wins & COLOR_RIGHTS[c.index()];
            if own != 0 && self.st.castling & own == 0 {
                return Some(value);
            }
        }
        None
    }

    /// N-check: the side that has just moved has given its last check (judged, as
    /// Fairy-Stockfish does, after extinction and the flag).
    fn checks_end(&self) -> Option<GameValue> {
        let them = self.side.opposite();
        (self.checks_remaining(them) == Some(0)).then_some(GameValue::Loss)
    }

    /// Both sides have just passed, one after the other (Fairy-Stockfish's draw, which
    /// material counting may decide).
    fn double_pass(&self) -> bool {
        let (pass, on_stalemate) = self.variant.passing(self.side);
        (pass || on_stalemate)
            && self.history.len() >= 2
            && self.history[self.history.len() - 2..]
                .iter()
                .all(|u| u.mv.kind == MoveKind::Pass)
    }

    /// Connect-N: the side that has just moved has N men of the types in a row (or joins its
    /// two regions, or fills a square, or has N men on a line: `connect_more`).
    fn connect_end(&self) -> Option<GameValue> {
        let rules = self.variant.connect()?;
        let them = self.side.opposite();
        let counts = |sq: Square| {
            let c = self.cell(sq);
            c.color() == Some(them) && rules.types & (1 << c.id().0) != 0
        };
        if self.connect_more(rules, &counts) {
            return Some(rules.value.opposite());
        }
        if rules.n == 0 {
            return None;
        }
        for &from in self.squares_of(them) {
            if !counts(from) {
                continue;
            }
            for &d in &rules.directions {
                // Count only from the first man of a row, so each row is walked once.
                if counts(from.offset(-d)) {
                    continue;
                }
                let mut n = 1;
                let mut sq = from.offset(d);
                while n < rules.n && counts(sq) {
                    n += 1;
                    sq = sq.offset(d);
                }
                if n >= rules.n {
                    return Some(rules.value.opposite());
                }
            }
        }
        None
    }

    /// Fairy-Stockfish's other connect rules for the side that has just moved: a chain from
    /// its first region to its second, an NxN square, or `collinearN` men on one line.
    fn connect_more(&self, rules: &ConnectRules, counts: &dyn Fn(Square) -> bool) -> bool {
        let them = self.side.opposite();
        let g = self.variant.geometry();
        // In Fairy-Stockfish's square order (rank by rank), which its collinear count follows.
        let mut men: Vec<Square> = self
            .squares_of(them)
            .iter()
            .copied()
            .filter(|&s| counts(s))
            .collect();
        men.sort_unstable();
        if let Some((one, two)) = &rules.regions[them.index()] {
            // A chain grown from the first region, step by step along the directions; it
            // joins when a step lands on a man in the second.
            let mut reached: Vec<Square> = men.iter().copied().filter(|s| one[s.index()]).collect();
            let mut i = 0;
            while i < reached.len() {
                let s = reached[i];
                for &d in &rules.directions {
                    let n = s.offset(d);
                    if !counts(n) {
                        continue;
                    }
                    if two[n.index()] {
                        return true;
                    }
                    if !reached.contains(&n) {
                        reached.push(n);
                    }
                }
                i += 1;
            }
        }
        if rules.nxn > 0 {
            let k = rules.nxn as i32;
            let found = men
                .iter()
                .any(|&s| (0..k).all(|x| (0..k).all(|y| counts(s.offset(g.delta(x, -y))))));
            if found {
                return true;
            }
        }
        if rules.collinear > 0 {
            for &d in &rules.directions {
                // Men on one line through each man, counted once per line.
                let mut done: Vec<Square> = Vec::new();
                for &s in &men {
                    if done.contains(&s) {
                        continue;
                    }
                    let mut total = 1;
                    for sign in [-1i16, 1] {
                        let mut n = s.offset(sign * d);
                        while self.cell(n) != crate::types::Cell::OFF {
                            if counts(n) && !done.contains(&n) {
                                total += 1;
                                done.push(n);
                            }
                            n = n.offset(sign * d);
                        }
                    }
                    done.push(s);
                    if total >= rules.collinear {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The men of `color` of `id`'s kind (a promoted man counted with his new type, as Sho
    /// shogi's crown prince with the king), or of all types, in hand included.
    fn count_with_hand(&self, color: Color, id: Option<PieceId>) -> u32 {
        let n = self.variant.num_pieces();
        match id {
            Some(id) => self.count_kind(color, id) + self.in_hand(color, id) as u32,
            None => (0..n)
                .map(|i| {
                    let id = PieceId(i as u8);
                    self.count(color, id) as u32 + self.in_hand(color, id) as u32
                })
                .sum(),
        }
    }

    /// The result for the side to move when one side's watched men are extinct; also asked
    /// by the FEN reader, for which a game decided so is a finished game, not a bad position.
    pub(crate) fn extinction_end(&self) -> Option<GameValue> {
        let rules = self.variant.extinction()?;
        let us = self.side;
        let types = (0..self.variant.num_pieces())
            .filter(|&i| rules.types & (1 << i) != 0)
            .map(|i| Some(PieceId(i as u8)));
        let watched: Vec<Option<PieceId>> =
            rules.all.then_some(None).into_iter().chain(types).collect();
        for c in [us.opposite(), us] {
            let needed = rules.opponent_count + (rules.claim && c == us) as u32;
            for &id in &watched {
                if self.count_with_hand(c, id) <= rules.count
                    && self.count_with_hand(c.opposite(), id) >= needed
                {
                    return Some(if c == us {
                        rules.value
                    } else {
                        rules.value.opposite()
                    });
                }
            }
        }
        None
    }

    /// True when `color` has reached its flag region (with the safety rule where it applies).
    fn flag_reached(&self, flag: &FlagRules, color: Color) -> bool {
        let c = color.index();
        let mut men = 0;
        for &sq in self.squares_of(color) {
            if flag.region[c][sq.index()] && flag.pieces[c] & (1 << self.cell(sq).id().0) != 0 {
                men += 1;
            }
        }
        let blocked = || {
            flag.blocked_win
                && self
                    .variant
                    .geometry()
                    .squares()
                    .all(|sq| !flag.region[c][sq.index()] || !self.cell(sq).is_empty())
        };
        let reached = men > 0 && (men >= flag.count || blocked());
        if reached && flag.safe && (!flag.extra_move || color != self.side) && men == flag.count {
            // Exactly enough flag men: each must be safe.
            for &sq in self.squares_of(color) {
                if flag.region[c][sq.index()]
                    && flag.pieces[c] & (1 << self.cell(sq).id().0) != 0
                    && self.is_attacked(sq, color.opposite())
                {
                    return false;
                }
            }
        }
        reached
    }

    fn flag_end(&mut self) -> Option<GameValue> {
        let v = self.variant.clone();
        let flag = v.flag()?;
        let us = self.side;
        let them = us.opposite();
        if (flag.extra_move || flag.safe) && self.flag_reached(flag, us) {
            // We reached it a move ago and it still stands: a win, or a draw when both did and
            // the rules call that even (Black's king following White's in racing kings).
            let even = (flag.extra_move && us == Color::White && flag.is_king[them.index()])
                || (flag.safe && !flag.extra_move);
            return Some(if even && self.flag_reached(flag, them) {
                GameValue::Draw
            } else {
                GameValue::Win
            });
        }
        if (!flag.extra_move || flag.safe || flag.is_king[us.index()])
            && self.flag_reached(flag, them)
        {
            // Black's king may still follow White's into the region with his extra move.
            if flag.extra_move
                && flag.is_king[us.index()]
                && us == Color::Black
                && self.royal_count(us) > 0
                && !self.in_check()
                && self.king_can_reach_flag(flag)
            {
                return None;
            }
            return Some(GameValue::Loss);
        }
        None
    }

    /// True when the side to move's royal man has a legal move into its flag region.
    fn king_can_reach_flag(&mut self, flag: &FlagRules) -> bool {
        let us = self.side;
        let mut list = MoveList::new();
        self.generate_pseudo_legal(&mut list);
        list.iter().any(|&mv| {
            mv.kind != MoveKind::Drop
                && self.variant.is_royal(self.cell(mv.from).id())
                && flag.region[us.index()][mv.to.index()]
                && self.is_legal_by_making(mv)
        })
    }
}
