//! The network's inputs for any variant: one feature per (colour relative to the perspective,
//! piece type, square seen from the perspective), the board mirrored top to bottom for Black
//! (or, in a net that says so, turned a half-turn: see [`Layout::with_turned_view`]), on every
//! board of the variant; then, where men can be in hand, one feature per (relative
//! colour, type, k-th man in hand); then, for reserve men (Pioneer), one per (relative colour,
//! file waited behind or not yet chosen). Where each player has a board of their own (Alice
//! Guard), Black also sees the boards in reverse order. A net may have its inputs once per
//! "royal bucket", the region of the board the perspective's own royal man stands in, so that
//! the same man can weigh otherwise beside a castled king than beside one in the centre. The
//! layout is read from the variant's geometry and piece list, and its hash ties data files
//! and nets to the variant they were made for.

use chimera_engine::types::{Color, Piece, PieceId, Square};
use chimera_engine::{Position, Variant};

/// Features per (relative colour, type) for the men in hand: the first `HAND_SLOTS` men count.
pub const HAND_SLOTS: usize = 16;

/// The most output buckets per part of a turn a net may have.
pub const MAX_MATERIAL_BUCKETS: usize = 16;

/// The royal bucket counts a net may have: 1 (none); 2, the royal man on his first rank or
/// off it; 4, the same on the left or the right half of the board (even file counts only, so
/// that a position mirrored left to right has its royal man in the mirrored bucket).
pub const ROYAL_BUCKET_CHOICES: [usize; 3] = [1, 2, 4];

/// Where a side's royal man stands, as far as royal buckets tell: off his first rank or on
/// it, on the right half of the board or the left.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoyalRegion {
    pub off_home: bool,
    pub right: bool,
}

/// Where each input of a variant's network sits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    files: usize,
    ranks: usize,
    boards: usize,
    types: usize,
    /// Features per (relative colour, type) for men in hand (0: the variant has no hands).
    hand_slots: usize,
    /// The reserve man's type when the variant has reserves (Pioneer).
    reserve: Option<PieceId>,
    /// Parts of a turn (1 in ordinary variants): each has its own output buckets.
    parts: usize,
    /// Output buckets per part, by the men left on the board (1: one output per part).
    /// A property of the net, not of the variant: it is not in the hash, so that a net
    /// with material buckets and one without load for the same variant.
    material: usize,
    /// The men on the board at the start, the full board's count for the material buckets.
    start_men: usize,
    /// Copies of the inputs, one per region of the perspective's own royal man (1: none;
    /// see [`ROYAL_BUCKET_CHOICES`]). Like `material`, a property of the net, not in the
    /// hash: data files hold positions, not features, and serve nets with or without them.
    royal: usize,
    /// Black sees the board turned a half-turn (ranks and files reversed) rather than
    /// mirrored top to bottom. A property of the net, in its hash (the same weights mean
    /// other squares for Black), but not of the data: see [`Layout::with_turned_view`].
    turned: bool,
    /// The hash of the variant's layout with Black's view mirrored (data files carry it).
    hash: u64,
    /// Per cell of the mailbox, its square's index among the real squares, seen by White and
    /// by Black (mirrored top to bottom, or turned), so that no division is made per feature.
    views: Vec<[u16; 2]>,
}

/// FNV-1a, for a stable hash of the layout's description.
fn fnv(bytes: &[u8], mut h: u64) -> u64 {
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}

/// True when `variant`'s start position is the same picture for Black as for White once the
/// board is seen from Black's side: ranks reversed, files too when `turn_files`, and boards in
/// reverse order when `reverse_boards`.
fn start_looks_alike(variant: &Variant, reverse_boards: bool, turn_files: bool) -> bool {
    let g = variant.geometry();
    let boards = g.boards as usize;
    let start = variant.start_board();
    let mut men = 0;
    for sq in g.squares() {
        let Some(p) = start[sq.index()].piece() else {
            continue;
        };
        men += 1;
        let (board, file, rank) = g.coords(sq);
        let board = if reverse_boards {
            boards - 1 - board
        } else {
            board
        };
        let file = if turn_files {
            g.files as usize - 1 - file
        } else {
            file
        };
        let image = g.square(board, file, g.ranks as usize - 1 - rank);
        match start[image.index()].piece() {
            Some(q) if q.id == p.id && q.color != p.color => {}
            _ => return false,
        }
    }
    men > 0
}

/// True when the variant's boards belong to the players: its start position is the same
/// picture for Black with the boards taken in reverse order (and ranks mirrored), but not
/// with them in place. Alice Guard's boards are White's Home board, the shared Guard board
/// and Blue's Home board, so Black's own Home board must be seen where White sees White's,
/// or one set of weights would have to mean "my Home board" for White and "the enemy's" for
/// Black. Alice chess, whose men all start on the first of its two boards, keeps them in place.
fn sides_have_own_boards(variant: &Variant) -> bool {
    variant.geometry().boards >= 2
        && start_looks_alike(variant, true, false)
        && !start_looks_alike(variant, false, false)
}

/// True when a new net for `variant` should see Black's side turned a half-turn: its start
/// is the same picture for both players turned but not mirrored. Shogi's rook stands on each
/// player's right and makruk's king on each player's left; mirrored, one weight would have to
/// mean "my rook's own corner" for White and "the other corner" for Black, and the net sees
/// the start from the two sides as two positions (shogi's first net valued them 60 cp apart).
pub fn turned_view_fits(variant: &Variant) -> bool {
    let own_boards = sides_have_own_boards(variant);
    start_looks_alike(variant, own_boards, true) && !start_looks_alike(variant, own_boards, false)
}

impl Layout {
    /// The layout of `variant`'s network.
    pub fn of(variant: &Variant) -> Layout {
        let g = variant.geometry();
        let has_hands = variant.drops() || variant.captures_to_hand() || variant.gating().is_some();
        let parts = variant
            .turns()
            .map_or(1, |t| t.parts.len().max(t.opening.len()).max(1));
        let start_men = variant
            .start_board()
            .iter()
            .filter(|c| c.is_piece())
            .count();
        let mut layout = Layout {
            files: g.files as usize,
            ranks: g.ranks as usize,
            boards: g.boards as usize,
            types: variant.num_pieces(),
            hand_slots: if has_hands { HAND_SLOTS } else { 0 },
            reserve: variant.reserve().map(|r| r.piece),
            parts,
            material: 1,
            start_men: start_men.max(2),
            royal: 1,
            turned: false,
            hash: 0,
            views: vec![[0; 2]; g.num_cells()],
        };
        let swap_boards = sides_have_own_boards(variant);
        for sq in g.squares() {
            let (board, file, rank) = g.coords(sq);
            let at = |board: usize, rank: usize| {
                (board * layout.cells() + rank * layout.files + file) as u16
            };
            let black_board = if swap_boards {
                layout.boards - 1 - board
            } else {
                board
            };
            layout.views[sq.index()] = [at(board, rank), at(black_board, layout.ranks - 1 - rank)];
        }
        let mut desc = format!(
            "{}x{}x{} hands {} reserve {:?} buckets {} types",
            layout.files, layout.ranks, layout.boards, layout.hand_slots, layout.reserve, parts
        );
        // Only where the boards swap, so that every other layout keeps the hash its nets and
        // data files were written with.
        if swap_boards {
            desc.push_str(" boards swapped for Black");
        }
        // A piece's moves are part of what its features mean: a chess net must not load for
        // a variant whose men look the same but move otherwise (Nightrider, Hoppel-Poppel).
        for p in variant.pieces() {
            desc.push_str(&format!(" {}={}", p.letter, p.betza));
        }
        layout.hash = fnv(desc.as_bytes(), 0xcbf2_9ce4_8422_2325);
        layout
    }

    /// A hash of everything the layout depends on (board sizes, piece letters and moves,
    /// hands, reserves, buckets, Black's view): a net or data file made for another layout is
    /// refused. Variants that differ only in other rules (castling, game ends) share it, and
    /// so may share data and nets.
    pub fn hash(&self) -> u64 {
        if self.turned {
            fnv(b" black's view turned", self.hash)
        } else {
            self.hash
        }
    }

    /// The hash a data file carries: the variant's, whatever view a net takes (data files
    /// hold positions, not features, and serve nets of either view).
    pub fn data_hash(&self) -> u64 {
        self.hash
    }

    /// Whether Black sees the board turned a half-turn rather than mirrored top to bottom.
    pub fn turned(&self) -> bool {
        self.turned
    }

    /// The same layout with Black's view turned a half-turn (`true`: ranks and files
    /// reversed) or mirrored top to bottom (`false`, the layout a variant has first).
    /// A net records its choice in its hash; [`turned_view_fits`] says which a new net
    /// should take.
    pub fn with_turned_view(&self, turned: bool) -> Layout {
        let mut views = self.views.clone();
        if turned != self.turned {
            // Reversing the files of Black's view changes one view into the other.
            for v in &mut views {
                let file = v[1] as usize % self.files;
                v[1] = (v[1] as usize - file + self.files - 1 - file) as u16;
            }
        }
        Layout {
            turned,
            views,
            ..*self
        }
    }

    /// Cells per board.
    fn cells(&self) -> usize {
        self.files * self.ranks
    }

    fn board_features(&self) -> usize {
        2 * self.types * self.boards * self.cells()
    }

    fn hand_base(&self) -> usize {
        self.board_features()
    }

    fn reserve_base(&self) -> usize {
        self.hand_base() + 2 * self.types * self.hand_slots
    }

    /// The inputs of one royal bucket.
    fn bucket_features(&self) -> usize {
        self.reserve_base()
            + if self.reserve.is_some() {
                2 * (self.files + 1)
            } else {
                0
            }
    }

    /// The number of inputs.
    pub fn num_features(&self) -> usize {
        self.bucket_features() * self.royal
    }

    /// The royal buckets: copies of the inputs by where the perspective's royal man stands.
    pub fn royal_buckets(&self) -> usize {
        self.royal
    }

    /// The same layout with `k` royal buckets (one of [`ROYAL_BUCKET_CHOICES`]); an error
    /// for another count, or 4 on a board with an odd number of files.
    pub fn with_royal_buckets(&self, k: usize) -> Result<Layout, String> {
        if !ROYAL_BUCKET_CHOICES.contains(&k) {
            return Err(format!(
                "{k} royal buckets: one of {ROYAL_BUCKET_CHOICES:?} is needed"
            ));
        }
        if k == 4 && self.files % 2 == 1 {
            return Err(format!(
                "4 royal buckets split the board into halves: {} files do not",
                self.files
            ));
        }
        Ok(Layout {
            royal: k,
            views: self.views.clone(),
            ..*self
        })
    }

    /// The first input of `persp`'s royal bucket in `pos`: where the side's one royal man
    /// stands, seen from its side (a side with none or several uses the first bucket).
    #[inline]
    pub fn royal_offset(&self, pos: &Position, persp: Color) -> usize {
        if self.royal == 1 {
            return 0;
        }
        let Some(sq) = pos.royal_square(persp) else {
            return 0;
        };
        let view = self.views[sq.index()][persp.index()] as usize % self.cells();
        let (file, rank) = (view % self.files, view / self.files);
        let region = RoyalRegion {
            off_home: rank > 0,
            right: 2 * file >= self.files,
        };
        self.royal_bucket(region) * self.bucket_features()
    }

    /// The royal bucket that holds `region` (the regions this layout does not tell apart
    /// share one: with 2 buckets both halves, with 1 everything).
    pub fn royal_bucket(&self, region: RoyalRegion) -> usize {
        match self.royal {
            1 => 0,
            2 => region.off_home as usize,
            _ => 2 * region.off_home as usize + region.right as usize,
        }
    }

    /// The region royal bucket `bucket` stands for (the first rank and the left half where
    /// the layout does not tell them apart).
    pub fn royal_region(&self, bucket: usize) -> RoyalRegion {
        match self.royal {
            1 => RoyalRegion::default(),
            2 => RoyalRegion {
                off_home: bucket == 1,
                right: false,
            },
            _ => RoyalRegion {
                off_home: bucket >= 2,
                right: bucket % 2 == 1,
            },
        }
    }

    /// The number of output buckets: material buckets x parts of a turn.
    pub fn buckets(&self) -> usize {
        self.parts * self.material
    }

    /// The parts of a turn (1 in ordinary variants).
    pub fn parts(&self) -> usize {
        self.parts
    }

    /// The output buckets per part of a turn, by the men on the board.
    pub fn material_buckets(&self) -> usize {
        self.material
    }

    /// The same layout with `m` output buckets per part of the turn, chosen by the men on
    /// the board (1 to [`MAX_MATERIAL_BUCKETS`]): an endgame weighs the hidden units
    /// otherwise than a full board does, and a separate output per stage lets the net say
    /// so at the cost of one more output row per bucket.
    pub fn with_material_buckets(&self, m: usize) -> Layout {
        Layout {
            material: m.clamp(1, MAX_MATERIAL_BUCKETS),
            views: self.views.clone(),
            ..*self
        }
    }

    /// The output bucket of a position: the part of the turn it is in, then the men on the
    /// board as a share of the starting count (chess, 8 buckets: 1-4 men, 5-8, ..., 29-32).
    #[inline]
    pub fn bucket(&self, pos: &Position) -> usize {
        let part = (pos.turn_phase() as usize).min(self.parts - 1);
        if self.material == 1 {
            return part;
        }
        let men = pos.squares_of(Color::White).len() + pos.squares_of(Color::Black).len();
        let stage = (men.saturating_sub(1) * self.material / self.start_men).min(self.material - 1);
        part * self.material + stage
    }

    /// The hidden layer size used when none is asked for: smaller for larger boards, so that
    /// the first layer (inputs x hidden x 2 bytes) stays small enough to embed.
    pub fn default_hidden(&self) -> usize {
        match self.boards * self.cells() {
            0..=64 => 256,
            65..=128 => 192,
            _ => 128,
        }
    }

    /// Files, ranks and boards of the variant's geometry.
    pub fn board_shape(&self) -> (usize, usize, usize) {
        (self.files, self.ranks, self.boards)
    }

    /// The board feature of a man of relative colour `rel` (0: the perspective's own) and
    /// type index `ty` on (`board`, `file`, `rank`), the rank counted from the perspective's
    /// side, in the first royal bucket: the same index [`Layout::square_feature`] gives.
    pub fn board_feature(
        &self,
        rel: usize,
        ty: usize,
        board: usize,
        file: usize,
        rank: usize,
    ) -> usize {
        (rel * self.types + ty) * self.boards * self.cells()
            + board * self.cells()
            + rank * self.files
            + file
    }

    /// The feature of `piece` on `sq` seen by `persp`, in the first royal bucket (add
    /// [`Layout::royal_offset`] for the perspective's own).
    #[inline(always)]
    pub fn square_feature(&self, persp: Color, piece: Piece, sq: Square) -> usize {
        let rel = (piece.color != persp) as usize;
        (rel * self.types + piece.id.index()) * self.boards * self.cells()
            + self.views[sq.index()][persp.index()] as usize
    }

    /// The feature of the `k`-th (from 0) man of `color`'s type `id` in hand, seen by
    /// `persp`, in the first royal bucket; `None` past the slots counted.
    #[inline(always)]
    pub fn hand_feature(&self, persp: Color, color: Color, id: PieceId, k: usize) -> Option<usize> {
        (k < self.hand_slots).then(|| {
            let rel = (color != persp) as usize;
            self.hand_base() + (rel * self.types + id.index()) * self.hand_slots + k
        })
    }

    /// Appends the features of `pos` seen by `persp` that the accumulators keep (the board
    /// and the hands), in the perspective's royal bucket.
    pub fn board_and_hand_features(&self, pos: &Position, persp: Color, out: &mut Vec<u32>) {
        let base = self.royal_offset(pos, persp);
        for color in [Color::White, Color::Black] {
            for &sq in pos.squares_of(color) {
                if let Some(p) = pos.piece_at(sq) {
                    out.push((base + self.square_feature(persp, p, sq)) as u32);
                }
            }
            if self.hand_slots > 0 {
                for t in 0..self.types {
                    let id = PieceId(t as u8);
                    for k in 0..pos.in_hand(color, id) as usize {
                        if let Some(f) = self.hand_feature(persp, color, id, k) {
                            out.push((base + f) as u32);
                        }
                    }
                }
            }
        }
    }

    /// Appends the reserve features of `pos` seen by `persp` (none outside Pioneer-like
    /// variants): added at evaluation time, since reserves live in the game state, which
    /// make/unmake saves whole rather than journals.
    pub fn reserve_features(&self, pos: &Position, persp: Color, out: &mut Vec<u32>) {
        if self.reserve.is_none() {
            return;
        }
        let base = self.royal_offset(pos, persp);
        for color in [Color::White, Color::Black] {
            let rel = (color != persp) as usize;
            for slot in pos.reserve_slots(color).into_iter().flatten() {
                let at = match slot {
                    Some(file) => (file as usize).min(self.files - 1),
                    None => self.files,
                };
                out.push((base + self.reserve_base() + rel * (self.files + 1) + at) as u32);
            }
        }
    }

    /// For every feature, the same feature in the position mirrored left to right (files
    /// a..h become h..a, in hand unchanged, the royal bucket of the left half that of the
    /// right): a trainer may show a position either way round when the variant's men move
    /// alike to both sides, as chess's do.
    pub fn mirror_table(&self) -> Vec<u32> {
        let mirror_file = |file: usize| self.files - 1 - file;
        let per_bucket = self.bucket_features();
        let mirror_bucket = |b: usize| {
            let r = self.royal_region(b);
            self.royal_bucket(RoyalRegion {
                right: !r.right,
                ..r
            })
        };
        (0..self.num_features())
            .map(|f| {
                let (bucket, f) = (f / per_bucket, f % per_bucket);
                let m = if f < self.board_features() {
                    let file = f % self.files;
                    f - file + mirror_file(file)
                } else if f >= self.reserve_base() {
                    let at = (f - self.reserve_base()) % (self.files + 1);
                    if at < self.files {
                        f - at + mirror_file(at)
                    } else {
                        f
                    }
                } else {
                    f
                };
                (mirror_bucket(bucket) * per_bucket + m) as u32
            })
            .collect()
    }

    /// Every active feature of `pos` seen by `persp`.
    pub fn features(&self, pos: &Position, persp: Color, out: &mut Vec<u32>) {
        self.board_and_hand_features(pos, persp, out);
        self.reserve_features(pos, persp, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chimera_engine::registry::builtin;

    /// The start position's features seen by White and by Black, each sorted.
    fn start_views(v: &chimera_engine::VariantRef, l: &Layout) -> (Vec<u32>, Vec<u32>) {
        let pos = Position::startpos(v);
        let (mut w, mut b) = (Vec::new(), Vec::new());
        l.features(&pos, Color::White, &mut w);
        l.features(&pos, Color::Black, &mut b);
        w.sort_unstable();
        b.sort_unstable();
        (w, b)
    }

    #[test]
    fn chess_has_768_inputs_and_mirrored_perspectives() {
        let v = builtin("chess").unwrap();
        let l = Layout::of(&v);
        assert_eq!(l.num_features(), 768);
        let (w, b) = start_views(&v, &l);
        assert_eq!(w.len(), 32);
        // The start position is symmetric: both sides see the same picture.
        assert_eq!(w, b);
        assert!(w.iter().all(|&f| (f as usize) < l.num_features()));
    }

    #[test]
    fn symmetric_starts_look_the_same_to_both_sides_on_every_board() {
        // Black's view mirrors the ranks and, where each player owns a board (Alice Guard's
        // Home boards), takes the boards in reverse; Alice chess's men all start on one
        // board, which stays first for both. Either way a start position that is the same
        // for both players must give both perspectives the same features.
        for name in [
            "chess",
            "capablanca",
            "alice",
            "aliceguard",
            "pawnvault",
            "vanguard",
        ] {
            let v = builtin(name).unwrap();
            let l = Layout::of(&v);
            let (w, b) = start_views(&v, &l);
            assert!(!w.is_empty(), "{name}");
            assert_eq!(w, b, "{name}");
        }
        // Layouts without their own boards keep their hash (the built-in nets carry it).
        assert!(sides_have_own_boards(&builtin("aliceguard").unwrap()));
        assert!(!sides_have_own_boards(&builtin("alice").unwrap()));
        assert!(!sides_have_own_boards(&builtin("chess").unwrap()));
    }

    #[test]
    fn a_turned_view_fits_starts_alike_only_turned() {
        // Shogi's rook and makruk's king stand on each player's own right and left: the
        // start is alike for both sides turned, not mirrored.
        for name in ["shogi", "makruk", "minishogi"] {
            let v = builtin(name).unwrap();
            assert!(turned_view_fits(&v), "{name}");
            let mirrored = Layout::of(&v);
            let turned = mirrored.with_turned_view(true);
            assert!(turned.turned() && !mirrored.turned());
            let (w, b) = start_views(&v, &mirrored);
            assert_ne!(w, b, "{name}");
            let (w, b) = start_views(&v, &turned);
            assert_eq!(w, b, "{name}");
            // A net's view is in its hash; the data's hash is the variant's either way.
            assert_ne!(turned.hash(), mirrored.hash());
            assert_eq!(turned.data_hash(), mirrored.data_hash());
            assert_eq!(turned.with_turned_view(false), mirrored);
            // White's view is the same either way.
            let pos = Position::startpos(&v);
            let (mut a, mut c) = (Vec::new(), Vec::new());
            mirrored.features(&pos, Color::White, &mut a);
            turned.features(&pos, Color::White, &mut c);
            assert_eq!(a, c, "{name}");
        }
        // Starts alike mirrored keep the mirrored view; so do Alice Guard's own boards.
        for name in [
            "chess",
            "xiangqi",
            "janggi",
            "crazyhouse",
            "aliceguard",
            "capablanca",
        ] {
            assert!(!turned_view_fits(&builtin(name).unwrap()), "{name}");
        }
    }

    #[test]
    fn material_buckets_follow_the_men_on_the_board() {
        let v = builtin("chess").unwrap();
        let plain = Layout::of(&v);
        let l = plain.with_material_buckets(8);
        // Not part of the hash: a net with buckets and one without read the same inputs.
        assert_eq!(l.hash(), plain.hash());
        assert_eq!((l.buckets(), plain.buckets()), (8, 1));
        let bucket = |fen: &str| l.bucket(&Position::from_fen(&v, fen).unwrap());
        assert_eq!(bucket(v.start_fen()), 7);
        assert_eq!(bucket("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), 0);
        // 1-4 men, 5-8, ...: five men are the second stage.
        assert_eq!(bucket("4k3/8/8/8/8/8/3PP3/4K1N1 w - - 0 1"), 1);
        // Queens and d-pawns off, 28 men: the seventh stage (25-28).
        assert_eq!(
            bucket("rnb1kbnr/ppp1pppp/8/8/8/8/PPP1PPPP/RNB1KBNR w KQkq - 0 1"),
            6
        );
        assert_eq!(plain.bucket(&Position::startpos(&v)), 0);
        // Turns in parts: each part has its own stages.
        let alice = Layout::of(&builtin("aliceguard").unwrap()).with_material_buckets(4);
        assert_eq!(alice.buckets(), alice.parts() * 4);
        assert!(alice.parts() > 1);
    }

    #[test]
    fn royal_buckets_follow_the_sides_own_king() {
        let v = builtin("chess").unwrap();
        let plain = Layout::of(&v);
        let l = plain.with_royal_buckets(4).unwrap();
        // Not part of the hash: data files serve nets with and without them.
        assert_eq!(l.hash(), plain.hash());
        assert_eq!(l.num_features(), 4 * 768);
        let offsets = |fen: &str| {
            let pos = Position::from_fen(&v, fen).unwrap();
            [
                l.royal_offset(&pos, Color::White) / 768,
                l.royal_offset(&pos, Color::Black) / 768,
            ]
        };
        // Home rank, right half for both kings on e1/e8; each side sees from its own side.
        assert_eq!(offsets(v.start_fen()), [1, 1]);
        assert_eq!(offsets("2k5/8/8/8/8/8/4K3/8 w - - 0 1"), [3, 0]);
        assert_eq!(offsets("8/8/8/8/8/6k1/8/1K6 w - - 0 1"), [0, 3]);
        // A position's features all sit in its perspective's bucket.
        let pos = Position::from_fen(&v, "2k5/8/8/8/8/8/4K3/8 w - - 0 1").unwrap();
        let mut f = Vec::new();
        l.features(&pos, Color::White, &mut f);
        assert!(f.iter().all(|&x| (x as usize) / 768 == 3), "{f:?}");
        // Two buckets: the rank alone; and the choices there are.
        let two = plain.with_royal_buckets(2).unwrap();
        let pos = Position::from_fen(&v, "8/8/8/8/8/6k1/8/1K6 w - - 0 1").unwrap();
        assert_eq!(two.royal_offset(&pos, Color::Black), 768);
        assert!(plain.with_royal_buckets(3).is_err());
        let nine_files = Layout::of(&builtin("shogi").unwrap());
        assert!(nine_files.with_royal_buckets(4).is_err());
        assert!(nine_files.with_royal_buckets(2).is_ok());
    }

    #[test]
    fn the_mirror_table_swaps_files_and_undoes_itself() {
        for (name, royal) in [
            ("chess", 1),
            ("chess", 4),
            ("capablanca", 1),
            ("capablanca", 2),
            ("pioneer", 4),
            ("crazyhouse", 4),
            ("aliceguard", 1),
        ] {
            let v = builtin(name).unwrap();
            let l = Layout::of(&v).with_royal_buckets(royal).unwrap();
            let m = l.mirror_table();
            assert_eq!(m.len(), l.num_features(), "{name}");
            assert!(
                m.iter()
                    .enumerate()
                    .all(|(f, &g)| m[g as usize] as usize == f),
                "{name}"
            );
        }
        // Chess: a White king on e1 seen by White is a White king on d1 mirrored, in the
        // other half's royal bucket where there are such buckets.
        let v = builtin("chess").unwrap();
        for royal in [1, 2, 4] {
            let l = Layout::of(&v).with_royal_buckets(royal).unwrap();
            let m = l.mirror_table();
            let at = |fen: &str| {
                let pos = Position::from_fen(&v, fen).unwrap();
                let mut f = Vec::new();
                l.features(&pos, Color::White, &mut f);
                f.sort_unstable();
                f
            };
            let mut mirrored: Vec<u32> = at("4k3/8/8/8/8/8/1P6/4K2R w - - 0 1")
                .iter()
                .map(|&f| m[f as usize])
                .collect();
            mirrored.sort_unstable();
            assert_eq!(mirrored, at("3k4/8/8/8/8/8/6P1/R2K4 w - - 0 1"), "{royal}");
        }
    }

    #[test]
    fn every_builtin_layout_is_in_range_and_distinct() {
        let mut hashes = std::collections::BTreeSet::new();
        for name in chimera_engine::registry::builtin_names() {
            let v = builtin(&name).unwrap();
            let l = Layout::of(&v);
            hashes.insert(l.hash());
            let pos = Position::startpos(&v);
            for persp in [Color::White, Color::Black] {
                let mut f = Vec::new();
                l.features(&pos, persp, &mut f);
                assert!(f.iter().all(|&x| (x as usize) < l.num_features()), "{name}");
                // Two reserve men waiting undecided share a feature (it counts twice); the
                // board and the hands never repeat one.
                f.clear();
                l.board_and_hand_features(&pos, persp, &mut f);
                let mut s = f.clone();
                s.sort_unstable();
                s.dedup();
                assert_eq!(s.len(), f.len(), "{name}: a feature twice");
            }
        }
        assert!(hashes.len() > 5);
        let hash = |n: &str| Layout::of(&builtin(n).unwrap()).hash();
        // Same men, other castling rules: one layout; same letters, other moves: another.
        assert_eq!(hash("chess"), hash("nocastle"));
        assert_ne!(hash("chess"), hash("nightrider"));
        assert_ne!(hash("chess"), hash("berolina"));
    }
}
