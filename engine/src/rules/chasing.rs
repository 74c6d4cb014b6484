//! Xiangqi's and janggi's repetition rules (`variant::chasing`) judged on positions, with
//! Fairy-Stockfish's definitions: which men the last move chased (attacks on undefended men or
//! on stronger men; kings and soldiers before the river are never chased; mutual attacks,
//! pins and the flying general taken into account), the judgement of a repeated cycle (a side
//! that chased the same man on each of its moves loses, after perpetual check is judged), the
//! move-count rule that checks lengthen (AXF), and janggi's ban on moving one man back and
//! forth. All of it is slow and runs only where a variant has these rules, when a position has
//! repeated or a move-count limit is reached.

use crate::board::position::Position;
use crate::types::{Cell, Color, Move, MoveKind, Square};
use crate::variant::chasing::ChaseRoles;
use crate::variant::GameValue;

/// A set of squares (a side's men: few).
type Squares = Vec<Square>;

/// Maps a set of chased men back over a move of theirs: a man that moved is named by the
/// square he came from (Fairy-Stockfish follows a chased man's identity through his moves).
fn undo_move(set: &mut Squares, mv: Move) {
    if mv.kind == MoveKind::Pass || mv.kind == MoveKind::Drop {
        return;
    }
    for s in set.iter_mut() {
        if *s == mv.to {
            *s = mv.from;
        }
    }
}

/// The men in both sets.
fn intersect(a: &mut Squares, b: &[Square]) {
    a.retain(|s| b.contains(s));
}

impl Position {
    /// True when the man `cell` of colour `by`, standing on `from` (whatever the board holds
    /// there), attacks `target` as the attack test counts it: one man's part of
    /// [`Position::is_attacked`] (plain leaps and slides unless the palace rules replace
    /// them, then the general test).
    fn man_attacks(&self, from: Square, cell: Cell, by: Color, target: Square) -> bool {
        let bit = 1u32 << cell.id().0;
        let replaced = self.variant.palace().map_or(0, |p| p.replaced);
        if replaced & bit == 0 {
            let moves = &self.variant.pieces()[cell.id().index()].moves[by.index()];
            let leaps = moves.leaps.iter().filter(|l| l.captures());
            if leaps.into_iter().any(|l| from.offset(l.delta) == target) {
                return true;
            }
            let slides = moves.slides.iter().filter(|s| s.captures());
            for s in slides {
                let mut to = from;
                let mut steps = 0u8;
                loop {
                    to = to.offset(s.delta);
                    if to == target {
                        return true;
                    }
                    steps += 1;
                    if !self.cell_fast(to).is_empty() || steps == s.range() {
                        break;
                    }
                }
            }
        }
        self.variant.attacks()[by.index()].general & bit != 0
            && self.general_attack_reaches(from, cell, by, target)
    }

    /// The men of `by` that attack `target` (whoever stands there; pins ignored).
    fn attackers_of(&self, target: Square, by: Color) -> Squares {
        self.squares_of(by)
            .iter()
            .copied()
            .filter(|&s| s != target && self.man_attacks(s, self.cell_fast(s), by, target))
            .collect()
    }

    /// The men of `by`'s opponent that the man `cell` of `by` on `from` attacks.
    fn attacked_men(&self, from: Square, cell: Cell, by: Color) -> Squares {
        self.squares_of(by.opposite())
            .iter()
            .copied()
            .filter(|&s| self.man_attacks(from, cell, by, s))
            .collect()
    }

    /// The men (of either side) whose removal would let the other side attack `color`'s king
    /// with a man that does not attack him now: Fairy-Stockfish's blockers for the king.
    fn king_blockers(&mut self, color: Color) -> Squares {
        let Some(king) = self.royal_square(color) else {
            return Squares::new();
        };
        let them = color.opposite();
        let before = self.attackers_of(king, them);
        let men: Squares = [Color::White, Color::Black]
            .iter()
            .flat_map(|&c| self.squares_of(c).to_vec())
            .filter(|&s| s != king)
            .collect();
        let mut out = Squares::new();
        for x in men {
            let place = self.list_place(x);
            let cell = self.take_hashed::<false>(x);
            let opened = if before.is_empty() {
                self.is_attacked(king, them)
            } else {
                self.squares_of(them).iter().any(|&a| {
                    !before.contains(&a) && self.man_attacks(a, self.cell_fast(a), them, king)
                })
            };
            self.put_back(x, cell, place);
            if opened {
                out.push(x);
            }
        }
        out
    }

    /// True when the man on `sq` of `color` may be chased: neither a king nor a soldier that
    /// has not crossed the river.
    fn chaseable(&self, roles: &ChaseRoles, sq: Square, color: Color) -> bool {
        let bit = 1u32 << self.cell_fast(sq).id().0;
        let rank = self.variant.geometry().relative_rank(sq, color);
        roles.kings & bit == 0 && (roles.soldiers & bit == 0 || rank >= roles.soldier_rank)
    }

    /// Adds to `chased` the side to move's men in `attacks` that the man on `attacker` chases:
    /// stronger men, and men without a defender (with the attacker off the board, pinned
    /// defenders not counting), except those that attack him back.
    fn add_chased(
        &mut self,
        roles: &ChaseRoles,
        chased: &mut Squares,
        pins: &[Square],
        attacker: Square,
        mut attacks: Squares,
    ) {
        if attacks.iter().all(|s| chased.contains(s)) {
            return;
        }
        let us = self.side;
        let them = us.opposite();
        let cell = self.cell_fast(attacker);
        let abit = 1u32 << cell.id().0;
        let bit_of = |p: &Position, s: Square| 1u32 << p.cell_fast(s).id().0;
        attacks.retain(|&s| self.chaseable(roles, s, us));
        let stronger = if (roles.horses | roles.cannons) & abit != 0 {
            roles.rooks
        } else if (roles.elephants | roles.advisors) & abit != 0 {
            roles.rooks | roles.cannons | roles.horses
        } else {
            0
        };
        chased.extend(attacks.iter().filter(|&&s| stronger & bit_of(self, s) != 0));
        // Mutual attacks are no chase; a lame horse may attack one that cannot attack back,
        // and a pinned man of the attacker's type cannot take back.
        let g = self.variant.geometry();
        let stride = g.stride() as i16;
        let diagonal_blocked = [stride + 1, stride - 1, -stride + 1, -stride - 1]
            .iter()
            .any(|&d| self.cell_fast(attacker.offset(d)).is_piece());
        if roles.horses & abit != 0 && diagonal_blocked {
            attacks.retain(|&s| {
                let c = self.cell_fast(s);
                c.id() != cell.id() || !self.man_attacks(s, c, us, attacker)
            });
        } else {
            attacks.retain(|&s| self.cell_fast(s).id() != cell.id() || pins.contains(&s));
        }
        if attacks.is_empty() {
            return;
        }
        let place = self.list_place(attacker);
        let taken = self.take_hashed::<false>(attacker);
        let flying = self.variant.flying_general();
        let their_king = self.royal_square(them);
        for s in attacks {
            let roots: Squares = self
                .attackers_of(s, us)
                .into_iter()
                .filter(|r| !pins.contains(r))
                .collect();
            let king_only = roots.len() == 1 && roles.kings & bit_of(self, roots[0]) != 0;
            if roots.is_empty()
                || flying && king_only && their_king.is_some_and(|k| self.clear_line(k, s))
            {
                chased.push(s);
            }
        }
        self.put_back(attacker, taken, place);
    }

    /// The side to move's men that the last move chased (Fairy-Stockfish's `chased()`): the
    /// mover's new attacks, attacks it discovered, men whose defender it pinned, and men a
    /// discovered check threatens. Empty without a last board move.
    pub(crate) fn chased(&mut self, roles: &ChaseRoles) -> Squares {
        let mut chased = Squares::new();
        let Some(mv) = self.history.last().map(|u| u.mv) else {
            return chased;
        };
        if mv.kind != MoveKind::Normal || mv.from == mv.to {
            return chased;
        }
        let us = self.side;
        let them = us.opposite();
        let g = self.variant.geometry().clone();
        let blockers_now = self.king_blockers(us);
        let mut pins = blockers_now.clone();
        if self.variant.flying_general() {
            if let (Some(tk), Some(uk)) = (self.royal_square(them), self.royal_square(us)) {
                let file = g.file_of(tk);
                let on_file: Squares = self
                    .squares_of(us)
                    .iter()
                    .copied()
                    .filter(|&s| s != uk && g.file_of(s) == file)
                    .collect();
                if g.file_of(uk) == file && on_file.len() <= 1 {
                    pins.extend(on_file);
                }
            }
        }
        let (from, to) = (mv.from, mv.to);
        let moved = self.cell_fast(to);
        let mbit = 1u32 << moved.id().0;
        // Direct attacks: for a rook or cannon, none along the line it moved on (only new
        // attacks count).
        if (roles.kings | roles.soldiers) & mbit == 0 {
            let mut direct = self.attacked_men(to, moved, them);
            if (roles.rooks | roles.cannons) & mbit != 0 {
                let on_line = |s: Square| {
                    if g.file_of(from) == g.file_of(to) {
                        g.file_of(s) == g.file_of(to)
                    } else {
                        g.rank_of(from) == g.rank_of(to) && g.rank_of(s) == g.rank_of(to)
                    }
                };
                direct.retain(|&s| !on_line(s));
            }
            self.add_chased(roles, &mut chased, &pins, to, direct);
        }
        // Discovered attacks: men whose lines or legs the move opened, and cannons it gave a
        // new screen.
        let stride = g.stride() as i16;
        let wazir = [1, -1, stride, -stride];
        let fers = [stride + 1, stride - 1, -stride + 1, -stride - 1];
        let same_line = |a: Square, b: Square| {
            a != b && (g.file_of(a) == g.file_of(b) || g.rank_of(a) == g.rank_of(b))
        };
        let candidates: Vec<(Square, Cell)> = self
            .squares_of(them)
            .iter()
            .copied()
            .filter(|&s| {
                let bit = 1u32 << self.cell_fast(s).id().0;
                roles.horses & bit != 0 && wazir.iter().any(|&d| from.offset(d) == s)
                    || roles.elephants & bit != 0 && fers.iter().any(|&d| from.offset(d) == s)
                    || (roles.cannons | roles.rooks) & bit != 0 && same_line(from, s)
                    || roles.cannons & bit != 0 && same_line(to, s)
            })
            .map(|s| (s, self.cell_fast(s)))
            .collect();
        let now: Vec<Squares> = candidates
            .iter()
            .map(|&(s, c)| self.attacked_men(s, c, them))
            .collect();
        // The position before the move: what the candidates attacked there, and the blockers
        // of our king there.
        self.unmake_move();
        let before: Vec<Squares> = candidates
            .iter()
            .map(|&(s, c)| self.attacked_men(s, c, them))
            .collect();
        let blockers_before = self.king_blockers(us);
        self.make_move(mv);
        for (i, &(s, _)) in candidates.iter().enumerate() {
            let discovered: Squares = now[i]
                .iter()
                .copied()
                .filter(|x| !before[i].contains(x))
                .collect();
            self.add_chased(roles, &mut chased, &pins, s, discovered);
        }
        // Defenders the move pinned: the men they guarded count as undefended if attacked.
        let new_blockers: Squares = blockers_now
            .iter()
            .copied()
            .filter(|s| !blockers_before.contains(s))
            .collect();
        let new_pins: Squares = new_blockers
            .iter()
            .copied()
            .filter(|&s| self.cell_fast(s).is_color(us))
            .collect();
        if !new_pins.is_empty() {
            let their_blockers = self.king_blockers(them);
            for s in new_pins {
                let c = self.cell_fast(s);
                let guarded: Squares = self
                    .squares_of(us)
                    .iter()
                    .copied()
                    .filter(|&s2| {
                        s2 != s && self.chaseable(roles, s2, us) && self.man_attacks(s, c, us, s2)
                    })
                    .collect();
                for s2 in guarded {
                    if self
                        .attackers_of(s2, them)
                        .iter()
                        .any(|a| !their_blockers.contains(a))
                    {
                        chased.push(s2);
                    }
                }
            }
        }
        // Discovered checks prepared: the man in front threatens what he attacks, unless our
        // king could take him back safely.
        let our_king = self.royal_square(us);
        let discoverers: Squares = new_blockers
            .iter()
            .copied()
            .filter(|&s| self.cell_fast(s).is_color(them))
            .collect();
        for s in discoverers {
            let c = self.cell_fast(s);
            for x in self.attacked_men(s, c, them) {
                let king_reaches = our_king.is_some_and(|k| {
                    let kc = self.cell_fast(k);
                    self.man_attacks(k, kc, us, x)
                });
                if !king_reaches {
                    chased.push(x);
                    continue;
                }
                let k = our_king.expect("king_reaches needs a king");
                let (ps, pk) = (self.list_place(s), self.list_place(k));
                let cs = self.take_hashed::<false>(s);
                let ck = self.take_hashed::<false>(k);
                if !self.attackers_of(x, them).is_empty() {
                    chased.push(x);
                }
                self.put_back(k, ck, pk);
                self.put_back(s, cs, ps);
            }
        }
        chased.sort_unstable_by_key(|s| s.0);
        chased.dedup();
        chased
    }

    /// Whether the side to move was in check in each of the last `plies` positions before
    /// this one and in this one (index 0; at most the game's positions).
    fn checks_back(&mut self, plies: usize) -> Vec<bool> {
        let back = plies.min(self.game_ply());
        let mut out = vec![self.in_check()];
        let mut unmade = Vec::with_capacity(back);
        for _ in 0..back {
            unmade.push(self.history.last().expect("a move to take back").mv);
            self.unmake_move();
            out.push(self.in_check());
        }
        for &mv in unmade.iter().rev() {
            self.make_move(mv);
        }
        out
    }

    /// The result of the repetition cycle reaching back `end` plies, for the side to move:
    /// perpetual check first (where illegal), then perpetual chase (where the variant judges
    /// it); `None` when neither side did either. Walks back through the cycle only as long as
    /// a side may still be checking or chasing on each of its moves.
    pub(crate) fn judge_cycle(&mut self, end: usize) -> Option<GameValue> {
        let rules = self.variant.repetition().clone();
        let roles = rules.chasing.as_ref();
        if !rules.perpetual_check_illegal && roles.is_none() {
            return None;
        }
        let first = self.game_ply();
        let mut perpetual_them = rules.perpetual_check_illegal && self.in_check();
        let mut perpetual_us = rules.perpetual_check_illegal;
        // Their chases: the same man of ours chased on each of their moves of the cycle
        // (and the one before it); ours on each of our moves of the cycle.
        let mut chase_them = roles.map_or_else(Squares::new, |r| self.chased(r));
        let mut chase_us: Option<Squares> = None;
        let mut unmade = Vec::with_capacity(end);
        for k in 1..=end.min(first) {
            let chasing_us = chase_us.as_ref().map_or(roles.is_some(), |c| !c.is_empty());
            if !(perpetual_them || perpetual_us || !chase_them.is_empty() || chasing_us) {
                break;
            }
            let mv = self.history.last().expect("a move to take back").mv;
            unmade.push(mv);
            self.unmake_move();
            // The game's first position: no move reached it, so nothing was chased.
            let chased = |p: &mut Position| match roles {
                Some(r) if k != first => p.chased(r),
                _ => Squares::new(),
            };
            if k % 2 == 0 {
                perpetual_them &= self.in_check();
                if !chase_them.is_empty() {
                    undo_move(&mut chase_them, mv);
                    if k != first {
                        let c = chased(self);
                        intersect(&mut chase_them, &c);
                    }
                }
            } else if k < end {
                perpetual_us &= self.in_check();
                match &mut chase_us {
                    None => chase_us = Some(chased(self)),
                    Some(c) if !c.is_empty() => {
                        undo_move(c, mv);
                        let now = chased(self);
                        intersect(c, &now);
                    }
                    Some(_) => {}
                }
            }
        }
        for &mv in unmade.iter().rev() {
            self.make_move(mv);
        }
        let chase_us = chase_us.unwrap_or_default();
        let verdict = |them: bool, us: bool| match (them, us) {
            (true, true) => Some(GameValue::Draw),
            (true, false) => Some(GameValue::Win),
            (false, true) => Some(GameValue::Loss),
            (false, false) => None,
        };
        verdict(perpetual_them, perpetual_us)
            .or_else(|| verdict(!chase_them.is_empty(), !chase_us.is_empty()))
    }

    /// The plies the AXF rule adds to the move-count limit: two for each check beyond ten
    /// that the side giving more checks gave in the reversible plies (Fairy-Stockfish counts
    /// them once twenty plies have been played). 0 in variants without the chase rule.
    pub(crate) fn move_rule_extension(&mut self) -> usize {
        if self.variant.repetition().chasing.is_none() || self.game_ply() < 20 {
            return 0;
        }
        let end = (self.halfmove_clock() as usize).min(self.game_ply());
        let checks = self.checks_back(end);
        let (mut them, mut us) = (0usize, 0usize);
        let mut i = 0;
        while i < end {
            them += checks[i] as usize;
            us += checks.get(i + 1).is_some_and(|&c| c) as usize;
            i += 2;
        }
        2 * (them.max(us).saturating_sub(10))
    }

    /// Janggi's ban on moving back and forth (`moveRepetitionIllegal`): true when the side that
    /// has just moved has moved one man back and forth four times running (its other moves
    /// passes at most once), not in check, the man one that could stand on our king's point:
    /// that side loses. `window` limits the plies looked back (a search's last null move).
    pub(crate) fn moved_back_and_forth(&mut self, window: usize) -> bool {
        if !self.variant.repetition().move_repetition_illegal {
            return false;
        }
        let end = (self.halfmove_clock() as usize)
            .min(self.game_ply())
            .min(window);
        if end < 4 {
            return false;
        }
        let n = self.history.len();
        // Before the first move: a move that matches none (Fairy-Stockfish's empty move).
        let none = Move::normal(Square::NONE, Square::NONE);
        let mv = |k: usize| {
            self.history
                .get(n.wrapping_sub(k + 1))
                .map_or(none, |u| u.mv)
        };
        // Checks only strike cycles off: try without them first (cheap), then with them.
        if !back_and_forth(end, mv, |_| false, |k| self.took(k)) {
            return false;
        }
        let m0 = mv(0);
        let Some(king) = self.royal_square(self.side) else {
            return false;
        };
        if m0.kind != MoveKind::Normal
            || !self.region_allows(self.cell_fast(m0.to), self.side.opposite(), king)
        {
            return false;
        }
        let checks = self.checks_back(end.min(11));
        let checked = |k: usize| checks.get(k).copied().unwrap_or(false);
        if checked(1) || checked(3) {
            return false;
        }
        let mv = |k: usize| {
            self.history
                .get(n.wrapping_sub(k + 1))
                .map_or(none, |u| u.mv)
        };
        back_and_forth(end, mv, checked, |k| self.took(k))
    }

    /// True when the move `k` plies back (0: the last) reset the move counter: a capture
    /// (janggi's soldiers do not reset it).
    fn took(&self, k: usize) -> bool {
        let n = self.history.len();
        let state = if k == 0 {
            self.st
        } else {
            self.history[n - k].state
        };
        state.halfmove == 0
    }
}

/// Fairy-Stockfish's back-and-forth count over the last mover's moves `mv(0)`, `mv(2)`, ...:
/// four moves of one man, each undoing the one before (one pass allowed as the second), after
/// a quiet move of his onto the square the four start from.
fn back_and_forth(
    end: usize,
    mv: impl Fn(usize) -> Move,
    checked: impl Fn(usize) -> bool,
    took: impl Fn(usize) -> bool,
) -> bool {
    let reverses = |a: Move, b: Move| {
        a.kind == MoveKind::Normal && b.kind == MoveKind::Normal && a.from == b.to && a.to == b.from
    };
    let mut count = if reverses(mv(2), mv(0)) {
        2
    } else if mv(2).kind == MoveKind::Pass {
        1
    } else {
        0
    };
    let mut i = 4;
    while count > 0 && i <= end {
        if i < end && checked(i + 1) {
            return false;
        }
        if count < 4 {
            let back = if count == 1 { mv(0) } else { mv(i - 2) };
            if reverses(mv(i), back) {
                count += 1;
            } else {
                return false;
            }
        } else {
            return !took(i) && mv(i - 2).from == mv(i).to;
        }
        i += 2;
    }
    false
}
