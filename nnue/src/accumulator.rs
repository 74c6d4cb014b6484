//! The accumulators: per position, the first layer's sums seen by White and by Black, kept
//! in a stack indexed by the number of moves made (a search's ply, counted from the game's
//! start), updated lazily. An evaluation looks for the nearest position on its own line whose
//! sums are known (same key, same journal length), and replays make/unmake's edits made since
//! (one column added or subtracted per man who left or reached a square or a hand); when none
//! is near enough it computes them from scratch, as it does when a side's royal man has moved
//! into another royal bucket (a net with them reads every input anew there). Unmake needs no
//! work: the parent's entry is still in the stack.

use chimera_engine::board::Edit;
use chimera_engine::types::{Color, MAX_PIECE_TYPES};
use chimera_engine::Position;

use crate::features::Layout;
use crate::netfile::QuantNet;
use crate::simd::apply_column;

/// Edits replayed at most before a refresh is cheaper (a refresh adds about one column per
/// man on the board; a replay, one per edit plus a copy).
const MAX_REPLAY: usize = 24;
/// Positions looked back at most for known sums.
const MAX_BACK: usize = 8;

/// One position's sums.
#[derive(Clone, Debug)]
struct Entry {
    /// The position's journal length and key, or `None` for an unused entry.
    mark: Option<(usize, u64)>,
    /// White's perspective then Black's, `hidden` each.
    acc: Vec<i16>,
    /// The hands the sums count (hand features depend on how many men are already in hand).
    hands: [[u8; MAX_PIECE_TYPES]; 2],
    /// The royal bucket offsets of White's view and Black's the sums are for.
    offsets: [usize; 2],
}

impl Entry {
    fn new(hidden: usize) -> Entry {
        Entry {
            mark: None,
            acc: vec![0; 2 * hidden],
            hands: [[0; MAX_PIECE_TYPES]; 2],
            offsets: [0; 2],
        }
    }
}

/// How the sums were found (for tests and tuning).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Computed from scratch.
    pub refreshes: u64,
    /// Replayed from an earlier position.
    pub updates: u64,
    /// Already known.
    pub hits: u64,
}

/// A search thread's stack of accumulators for one net.
#[derive(Clone, Debug)]
pub struct Accumulators {
    hidden: usize,
    entries: Vec<Entry>,
    features: Vec<u32>,
    /// A move's edits, to undo them.
    edits: Vec<Edit>,
    /// How the sums were found so far.
    pub stats: Stats,
}

impl Accumulators {
    /// An empty stack for a net of `hidden` units.
    pub fn new(hidden: usize) -> Accumulators {
        Accumulators {
            hidden,
            entries: Vec::new(),
            features: Vec::with_capacity(256),
            edits: Vec::with_capacity(MAX_REPLAY),
            stats: Stats::default(),
        }
    }

    /// The sums of `pos` (White's perspective, then Black's), brought up to date.
    pub fn update(&mut self, net: &QuantNet, layout: &Layout, pos: &Position) -> &[i16] {
        let ply = pos.game_ply();
        while self.entries.len() <= ply {
            self.entries.push(Entry::new(self.hidden));
        }
        let here = pos.journal_mark(ply);
        if self.entries[ply].mark == Some(here) {
            self.stats.hits += 1;
            return &self.entries[ply].acc;
        }
        let offsets = royal_offsets(layout, pos);
        let mut from = None;
        for back in 1..=MAX_BACK.min(ply) {
            let mark = pos.journal_mark(ply - back);
            if here.0 - mark.0 > MAX_REPLAY {
                break;
            }
            let e = &self.entries[ply - back];
            if e.mark == Some(mark) {
                // Sums in other royal buckets would have to be read anew anyway.
                if e.offsets == offsets {
                    from = Some((ply - back, mark.0));
                }
                break;
            }
        }
        match from {
            Some((k, journal)) => {
                self.stats.updates += 1;
                let (before, after) = self.entries.split_at_mut(ply);
                let (src, dst) = (&before[k], &mut after[0]);
                dst.acc.copy_from_slice(&src.acc);
                dst.hands = src.hands;
                dst.offsets = src.offsets;
                replay(net, layout, pos, journal, dst);
            }
            None => {
                self.stats.refreshes += 1;
                self.refresh_entry(net, layout, pos, ply);
                // The parent's sums, from these by undoing the last move: its other children
                // (the search's next moves there) then replay one move rather than refresh.
                // The search does not evaluate every node (the root, in-check nodes, parts of
                // a turn), so without this each child of such a node would refresh.
                // Not when the last move took a royal man into another bucket: the parent's
                // sums are in the old one.
                if ply > 0 && (layout.royal_buckets() == 1 || !royal_moved(pos)) {
                    let parent = pos.journal_mark(ply - 1);
                    if here.0 - parent.0 <= MAX_REPLAY {
                        self.edits.clear();
                        pos.edits_since(parent.0, |e| self.edits.push(e));
                        let (before, after) = self.entries.split_at_mut(ply);
                        let (dst, src) = (&mut before[ply - 1], &after[0]);
                        dst.acc.copy_from_slice(&src.acc);
                        dst.hands = src.hands;
                        dst.offsets = src.offsets;
                        for &e in self.edits.iter().rev() {
                            apply_edit(net, layout, dst, undo(e));
                        }
                        dst.mark = Some(parent);
                    }
                }
            }
        }
        self.entries[ply].mark = Some(here);
        &self.entries[ply].acc
    }

    fn refresh_entry(&mut self, net: &QuantNet, layout: &Layout, pos: &Position, ply: usize) {
        let h = self.hidden;
        let e = &mut self.entries[ply];
        for (i, persp) in [Color::White, Color::Black].into_iter().enumerate() {
            self.features.clear();
            layout.board_and_hand_features(pos, persp, &mut self.features);
            net.refresh(&self.features, &mut e.acc[i * h..(i + 1) * h]);
        }
        for c in [Color::White, Color::Black] {
            for t in 0..MAX_PIECE_TYPES.min(pos.variant().num_pieces()) {
                e.hands[c.index()][t] = pos.in_hand(c, chimera_engine::PieceId(t as u8));
            }
        }
        e.offsets = royal_offsets(layout, pos);
    }
}

/// The royal bucket offsets of White's view and Black's in `pos`.
#[inline]
fn royal_offsets(layout: &Layout, pos: &Position) -> [usize; 2] {
    [
        layout.royal_offset(pos, Color::White),
        layout.royal_offset(pos, Color::Black),
    ]
}

/// True when the last move moved a royal man (and so may have changed his bucket).
fn royal_moved(pos: &Position) -> bool {
    let ply = pos.game_ply();
    let mut moved = false;
    pos.edits_since(pos.journal_mark(ply - 1).0, |e| {
        if let Edit::Added(_, p) | Edit::Removed(_, p) = e {
            moved |= pos.variant().is_royal(p.id);
        }
    });
    moved
}

/// The sums of `pos` (White's perspective, then Black's) computed from scratch.
pub fn full(net: &QuantNet, layout: &Layout, pos: &Position) -> Vec<i16> {
    let mut a = Accumulators::new(net.hidden);
    a.entries.push(Entry::new(net.hidden));
    a.refresh_entry(net, layout, pos, 0);
    std::mem::take(&mut a.entries[0].acc)
}

/// The edit that undoes `e`.
fn undo(e: Edit) -> Edit {
    match e {
        Edit::Removed(sq, p) => Edit::Added(sq, p),
        Edit::Added(sq, p) => Edit::Removed(sq, p),
        Edit::HandAdd(c, id) => Edit::HandSub(c, id),
        Edit::HandSub(c, id) => Edit::HandAdd(c, id),
    }
}

/// Replays the journal of `pos` from index `journal` onto `e`.
fn replay(net: &QuantNet, layout: &Layout, pos: &Position, journal: usize, e: &mut Entry) {
    pos.edits_since(journal, |edit| apply_edit(net, layout, e, edit));
}

/// Applies one edit to the sums of `e`: a column added or subtracted per view.
#[inline]
fn apply_edit(net: &QuantNet, layout: &Layout, e: &mut Entry, edit: Edit) {
    let h = net.hidden;
    let (white, black) = e.acc.split_at_mut(h);
    let hands = &mut e.hands;
    let [ow, ob] = e.offsets;
    match edit {
        Edit::Removed(sq, p) => {
            apply_column::<false>(
                white,
                net.column(ow + layout.square_feature(Color::White, p, sq)),
            );
            apply_column::<false>(
                black,
                net.column(ob + layout.square_feature(Color::Black, p, sq)),
            );
        }
        Edit::Added(sq, p) => {
            apply_column::<true>(
                white,
                net.column(ow + layout.square_feature(Color::White, p, sq)),
            );
            apply_column::<true>(
                black,
                net.column(ob + layout.square_feature(Color::Black, p, sq)),
            );
        }
        Edit::HandAdd(c, id) => {
            let n = &mut hands[c.index()][id.index()];
            let k = *n as usize;
            *n = n.saturating_add(1);
            if let Some(f) = layout.hand_feature(Color::White, c, id, k) {
                apply_column::<true>(white, net.column(ow + f));
            }
            if let Some(f) = layout.hand_feature(Color::Black, c, id, k) {
                apply_column::<true>(black, net.column(ob + f));
            }
        }
        Edit::HandSub(c, id) => {
            let n = &mut hands[c.index()][id.index()];
            *n = n.saturating_sub(1);
            let k = *n as usize;
            if let Some(f) = layout.hand_feature(Color::White, c, id, k) {
                apply_column::<false>(white, net.column(ow + f));
            }
            if let Some(f) = layout.hand_feature(Color::Black, c, id, k) {
                apply_column::<false>(black, net.column(ob + f));
            }
        }
    }
}
