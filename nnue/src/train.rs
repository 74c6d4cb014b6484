//! The trainer: positions encoded once as sparse feature rows, mini-batches whose gradients
//! are summed across threads (rayon, one dense gradient per slice of the batch), Adam, and a
//! loss on win probabilities: the squared difference between sigmoid(output) and a blend of
//! sigmoid(score / SCALE) with the game's result (the result's weight is `lambda`). The last
//! games read are held out to report a validation loss; each epoch ends with a checkpoint.

use std::time::Instant;

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rayon::prelude::*;

use chimera_engine::Position;

use crate::data::Sample;
use crate::features::Layout;
use crate::netfile::SCALE;
use crate::network::FloatNet;

/// One position as the trainer sees it.
#[derive(Clone, Copy, Debug)]
struct Row {
    /// Where its features start in [`Dataset::features`]: the side to move's, then the
    /// other side's.
    start: u32,
    us: u16,
    them: u16,
    bucket: u8,
    /// The search's score in centipawns, for the side to move.
    score: f32,
    /// The game's result for the side to move.
    result: f32,
}

/// Positions encoded as feature rows (about 4 bytes per active feature, both views, plus 20
/// per position: some 280 bytes a chess position). Feature offsets are u32: up to about 4e9
/// features, some 60 million chess positions.
#[derive(Clone, Debug)]
pub struct Dataset {
    features: Vec<u32>,
    rows: Vec<Row>,
    /// Centipawns per unit of the sigmoid's argument in the targets (see
    /// [`Dataset::auto_score_scale`]).
    score_scale: f32,
}

impl Default for Dataset {
    fn default() -> Self {
        Dataset {
            features: Vec::new(),
            rows: Vec::new(),
            score_scale: SCALE as f32,
        }
    }
}

/// [`Dataset::auto_score_scale`] puts the median of the scores' sizes at this argument of
/// the sigmoid (a win probability of about 0.68).
const MEDIAN_ARGUMENT: f64 = 0.75;

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Dataset {
    /// Encodes positions for `layout`.
    pub fn encode(layout: &Layout, positions: &[(Position, Sample)]) -> Dataset {
        let mut d = Dataset::default();
        for (pos, s) in positions {
            if !d.push(layout, pos, s) {
                break;
            }
        }
        d
    }

    /// Adds one position, encoded for `layout`; `false` (and nothing added) when the
    /// dataset is full (feature offsets are u32).
    pub fn push(&mut self, layout: &Layout, pos: &Position, s: &Sample) -> bool {
        let start = self.features.len();
        if start > u32::MAX as usize - 4 * layout.num_features().min(1 << 16) {
            return false;
        }
        let us = pos.side_to_move();
        layout.features(pos, us, &mut self.features);
        let n_us = self.features.len() - start;
        layout.features(pos, us.opposite(), &mut self.features);
        let n_them = self.features.len() - start - n_us;
        self.rows.push(Row {
            start: start as u32,
            us: n_us as u16,
            them: n_them as u16,
            bucket: layout.bucket(pos) as u8,
            score: s.score as f32,
            result: s.result,
        });
        true
    }

    /// Centipawns per unit of the sigmoid's argument in the targets: the search's score
    /// `s` counts as the win probability `sigmoid(s / scale)`; the net written keeps the
    /// scale, so that its output is in centipawns again.
    pub fn score_scale(&self) -> i32 {
        self.score_scale as i32
    }

    /// Sets the score scale (at least 1).
    pub fn set_score_scale(&mut self, scale: i32) {
        self.score_scale = scale.max(1) as f32;
    }

    /// The score scale that fits the data: the median size of its scores at a win
    /// probability of about 0.68, rounded to tens (chess's self-play data: 410; a variant
    /// whose men are worth more, such as Vanguard's 16x16 army or Alice Guard's two sets,
    /// scores several times wider, and at 400 most of its targets would sit near 0 or 1,
    /// where they tell the net little); 400 for no data.
    pub fn auto_score_scale(&self) -> i32 {
        let mut sizes: Vec<f32> = self.rows.iter().map(|r| r.score.abs()).collect();
        if sizes.is_empty() {
            return SCALE;
        }
        let mid = sizes.len() / 2;
        let median = *sizes.select_nth_unstable_by(mid, f32::total_cmp).1 as f64;
        (((median / MEDIAN_ARGUMENT) / 10.0).round() as i32 * 10).max(10)
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// True when there is none.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    fn split(&self, row: &Row) -> (&[u32], &[u32]) {
        let s = row.start as usize;
        let u = s + row.us as usize;
        (
            &self.features[s..u],
            &self.features[u..u + row.them as usize],
        )
    }

    /// The features of position `i` (side to move's, other side's) and its bucket.
    pub fn position(&self, i: usize) -> (&[u32], &[u32], usize) {
        let row = &self.rows[i];
        let (a, b) = self.split(row);
        (a, b, row.bucket as usize)
    }
}

/// How to train.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Hidden size.
    pub hidden: usize,
    /// Passes over the data.
    pub epochs: usize,
    /// Adam's step size at the start.
    pub lr: f32,
    /// Adam's step size at the last batch: the step size falls from `lr` to `final_lr`
    /// along a half cosine (large steps find the basin, small ones settle in it; equal
    /// values keep the step constant).
    pub final_lr: f32,
    /// Positions per mini-batch.
    pub batch: usize,
    /// The game result's weight in the target (0: the score alone, 1: the result alone).
    pub lambda: f32,
    /// The seed of the initial weights and of the shuffles.
    pub seed: u64,
    /// The share of positions held out for validation.
    pub validation: f32,
    /// Show every other training position mirrored left to right (alternating per epoch):
    /// twice the pictures from the same games, for variants whose men move alike to both
    /// sides. Validation positions are shown as they are.
    pub mirror: bool,
    /// The net to start from (`None`: random weights of size `hidden`); its size wins over
    /// `hidden`.
    pub start: Option<FloatNet>,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            hidden: 256,
            epochs: 10,
            lr: 0.001,
            final_lr: 0.00001,
            batch: 4096,
            lambda: 0.3,
            seed: 1,
            validation: 0.05,
            mirror: false,
            start: None,
        }
    }
}

/// What one epoch did.
#[derive(Clone, Debug)]
pub struct EpochReport {
    /// From 1.
    pub epoch: usize,
    /// Mean loss over the training positions during the epoch.
    pub train_loss: f64,
    /// Mean loss over the held-out positions after it (`None` without any).
    pub validation_loss: Option<f64>,
    /// Training positions per second.
    pub positions_per_second: f64,
}

/// Gradients (or Adam's moments) shaped as a net.
struct Grads {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
    loss: f64,
}

impl Grads {
    fn zeros(net: &FloatNet) -> Grads {
        Grads {
            w1: vec![0.0; net.w1.len()],
            b1: vec![0.0; net.b1.len()],
            w2: vec![0.0; net.w2.len()],
            b2: vec![0.0; net.b2.len()],
            loss: 0.0,
        }
    }

    fn add(mut self, other: Grads) -> Grads {
        for (a, b) in [
            (&mut self.w1, &other.w1),
            (&mut self.b1, &other.b1),
            (&mut self.w2, &other.w2),
            (&mut self.b2, &other.b2),
        ] {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
        self.loss += other.loss;
        self
    }
}

/// The target of a row: the blend of the score's and the result's win probability.
fn target(row: &Row, lambda: f32, score_scale: f32) -> f32 {
    lambda * row.result + (1.0 - lambda) * sigmoid(row.score / score_scale)
}

/// How a slice of a batch is shown: the target's blend, and the mirror table with the
/// parity of the rows it applies to (`None`: every row as it is).
struct Showing<'a> {
    lambda: f32,
    mirror: Option<(&'a [u32], u32)>,
}

/// Adds the loss and the gradients of `rows` to `g`.
fn backprop(net: &FloatNet, data: &Dataset, rows: &[u32], show: &Showing, g: &mut Grads) {
    let h = net.hidden;
    let (mut mu, mut mt) = (Vec::new(), Vec::new());
    let mut us = vec![0.0f32; h];
    let mut them = vec![0.0f32; h];
    let mut d_us = vec![0.0f32; h];
    let mut d_them = vec![0.0f32; h];
    for &i in rows {
        let row = &data.rows[i as usize];
        let (mut fu, mut ft) = data.split(row);
        if let Some((table, parity)) = show.mirror {
            if i & 1 == parity {
                mu.clear();
                mu.extend(fu.iter().map(|&f| table[f as usize]));
                mt.clear();
                mt.extend(ft.iter().map(|&f| table[f as usize]));
                (fu, ft) = (&mu, &mt);
            }
        }
        net.accumulate(fu, &mut us);
        net.accumulate(ft, &mut them);
        let b = row.bucket as usize;
        let p = sigmoid(net.output(&us, &them, b));
        let t = target(row, show.lambda, data.score_scale);
        g.loss += ((p - t) * (p - t)) as f64;
        let dy = 2.0 * (p - t) * p * (1.0 - p);
        let w = &net.w2[b * 2 * h..(b + 1) * 2 * h];
        let gw = &mut g.w2[b * 2 * h..(b + 1) * 2 * h];
        g.b2[b] += dy;
        for k in 0..h {
            gw[k] += dy * us[k].clamp(0.0, 1.0);
            gw[h + k] += dy * them[k].clamp(0.0, 1.0);
            d_us[k] = if us[k] > 0.0 && us[k] < 1.0 {
                dy * w[k]
            } else {
                0.0
            };
            d_them[k] = if them[k] > 0.0 && them[k] < 1.0 {
                dy * w[h + k]
            } else {
                0.0
            };
            g.b1[k] += d_us[k] + d_them[k];
        }
        for (fs, d) in [(fu, &d_us), (ft, &d_them)] {
            for &f in fs {
                let col = &mut g.w1[f as usize * h..(f as usize + 1) * h];
                for (c, x) in col.iter_mut().zip(d.iter()) {
                    *c += x;
                }
            }
        }
    }
}

/// The mean loss of `net` over `rows`.
pub fn mean_loss(net: &FloatNet, data: &Dataset, rows: &[u32], lambda: f32) -> f64 {
    if rows.is_empty() {
        return 0.0;
    }
    let total: f64 = rows
        .par_chunks(1024)
        .map(|chunk| {
            let mut us = vec![0.0; net.hidden];
            let mut them = vec![0.0; net.hidden];
            chunk
                .iter()
                .map(|&i| {
                    let row = &data.rows[i as usize];
                    let (fu, ft) = data.split(row);
                    net.accumulate(fu, &mut us);
                    net.accumulate(ft, &mut them);
                    let p = sigmoid(net.output(&us, &them, row.bucket as usize));
                    let t = target(row, lambda, data.score_scale);
                    ((p - t) * (p - t)) as f64
                })
                .sum::<f64>()
        })
        .sum();
    total / rows.len() as f64
}

/// Adam's state.
struct Adam {
    m: Grads,
    v: Grads,
    t: i32,
}

impl Adam {
    fn step(&mut self, net: &mut FloatNet, g: &Grads, n: usize, lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        let scale = 1.0 / n.max(1) as f32;
        for (p, g, m, v) in [
            (&mut net.w1, &g.w1, &mut self.m.w1, &mut self.v.w1),
            (&mut net.b1, &g.b1, &mut self.m.b1, &mut self.v.b1),
            (&mut net.w2, &g.w2, &mut self.m.w2, &mut self.v.w2),
            (&mut net.b2, &g.b2, &mut self.m.b2, &mut self.v.b2),
        ] {
            for i in 0..p.len() {
                let gi = g[i] * scale;
                m[i] = B1 * m[i] + (1.0 - B1) * gi;
                v[i] = B2 * v[i] + (1.0 - B2) * gi * gi;
                p[i] -= lr * (m[i] / c1) / ((v[i] / c2).sqrt() + EPS);
            }
        }
        net.clip();
    }
}

/// The step size of batch `step` of `total`: a half cosine from `lr` down to `final_lr`.
fn step_size(cfg: &TrainConfig, step: usize, total: usize) -> f32 {
    let progress = step as f32 / total.saturating_sub(1).max(1) as f32;
    let fall = 0.5 * (1.0 + (std::f32::consts::PI * progress.min(1.0)).cos());
    cfg.final_lr + (cfg.lr - cfg.final_lr) * fall
}

/// The rows held out for validation (none for tiny data). They are the last ones read: whole
/// games (but the first), since positions of one game are near copies of each other, and a
/// validation set drawn from the same games as the training set rewards remembering them.
pub fn held_out(data: &Dataset, cfg: &TrainConfig) -> std::ops::Range<u32> {
    let held = if data.len() >= 20 {
        ((data.len() as f32 * cfg.validation.clamp(0.0, 0.5)) as usize).max(1)
    } else {
        0
    };
    (data.len() - held) as u32..data.len() as u32
}

/// Trains a net for `layout` on `data`; `each_epoch` sees every epoch's report and the net
/// after it (to print and to checkpoint), and may stop the training by returning an error.
pub fn train(
    layout: &Layout,
    data: &Dataset,
    cfg: &TrainConfig,
    mut each_epoch: impl FnMut(&EpochReport, &FloatNet) -> Result<(), String>,
) -> Result<FloatNet, String> {
    if data.is_empty() {
        return Err("no positions to train on".into());
    }
    let mut net = match &cfg.start {
        Some(start)
            if start.inputs != layout.num_features() || start.buckets != layout.buckets() =>
        {
            return Err("the starting net is not for this variant's layout".into())
        }
        Some(start) => start.clone(),
        None => FloatNet::new(layout, cfg.hidden, cfg.seed),
    };
    let mut rng = SmallRng::seed_from_u64(cfg.seed);
    let held = held_out(data, cfg);
    let mut train_rows: Vec<u32> = (0..held.start).collect();
    let validation: Vec<u32> = held.collect();
    let mut adam = Adam {
        m: Grads::zeros(&net),
        v: Grads::zeros(&net),
        t: 0,
    };
    let threads = rayon::current_num_threads().max(1);
    let batch = cfg.batch.max(1);
    let total_steps = (cfg.epochs * train_rows.len().div_ceil(batch)).max(1);
    let mut step = 0;
    let mirror = cfg.mirror.then(|| layout.mirror_table());
    for epoch in 1..=cfg.epochs {
        let show = Showing {
            lambda: cfg.lambda,
            mirror: mirror.as_deref().map(|t| (t, epoch as u32 & 1)),
        };
        let start = Instant::now();
        train_rows.shuffle(&mut rng);
        let mut loss = 0.0;
        for batch in train_rows.chunks(batch) {
            let slice = batch.len().div_ceil(threads).max(64);
            let g = batch
                .par_chunks(slice)
                .map(|rows| {
                    let mut g = Grads::zeros(&net);
                    backprop(&net, data, rows, &show, &mut g);
                    g
                })
                .reduce_with(Grads::add)
                .expect("a batch has rows");
            loss += g.loss;
            adam.step(&mut net, &g, batch.len(), step_size(cfg, step, total_steps));
            step += 1;
        }
        let report = EpochReport {
            epoch,
            train_loss: loss / train_rows.len().max(1) as f64,
            validation_loss: (!validation.is_empty())
                .then(|| mean_loss(&net, data, &validation, cfg.lambda)),
            positions_per_second: train_rows.len() as f64 / start.elapsed().as_secs_f64().max(1e-9),
        };
        each_epoch(&report, &net)?;
    }
    Ok(net)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_step_size_falls_from_lr_to_final_lr() {
        let cfg = TrainConfig {
            lr: 0.002,
            final_lr: 0.00002,
            ..TrainConfig::default()
        };
        let sizes: Vec<f32> = (0..100).map(|s| step_size(&cfg, s, 100)).collect();
        assert!((sizes[0] - 0.002).abs() < 1e-9, "{}", sizes[0]);
        assert!((sizes[99] - 0.00002).abs() < 1e-9, "{}", sizes[99]);
        assert!(sizes.windows(2).all(|w| w[1] <= w[0]), "{sizes:?}");
        // Half way down the cosine: the mean of the two ends.
        assert!((step_size(&cfg, 50, 101) - 0.00101).abs() < 1e-6);
        // A single batch takes the full step.
        assert_eq!(step_size(&cfg, 0, 1), 0.002);
    }
}
