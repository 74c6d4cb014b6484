//! The float network the trainer fits: sparse inputs -> H (first layer, shared by both
//! perspectives) -> clipped ReLU -> the side to move's H and the other side's H concatenated
//! -> one output per bucket. The output `y` is in units of [`SCALE`] centipawns (the argument
//! of the win-probability sigmoid); [`FloatNet::quantise`] turns it into the engine's integer
//! net.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::features::Layout;
use crate::netfile::{QuantNet, CHUNK, QA, QB, SCALE};

/// The largest first-layer weight or bias (x QA = 505 fits i16 with room for the sums).
pub const W1_LIMIT: f32 = 1.98;
/// The largest output weight (x QB = 507).
pub const W2_LIMIT: f32 = 1.98;

/// A network in floats.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// Inputs.
    pub inputs: usize,
    /// Hidden size per perspective (a multiple of 16).
    pub hidden: usize,
    /// Output buckets.
    pub buckets: usize,
    /// `inputs x hidden`, one column per input.
    pub w1: Vec<f32>,
    /// `hidden`.
    pub b1: Vec<f32>,
    /// `buckets x 2 hidden`, side to move's half first.
    pub w2: Vec<f32>,
    /// `buckets`.
    pub b2: Vec<f32>,
}

impl FloatNet {
    /// A freshly initialised net for `layout` (small random first-layer weights, biases that
    /// start the hidden units inside the clipped ReLU's slope).
    pub fn new(layout: &Layout, hidden: usize, seed: u64) -> FloatNet {
        let hidden = hidden.div_ceil(CHUNK).max(1) * CHUNK;
        let mut rng = SmallRng::seed_from_u64(seed);
        let inputs = layout.num_features();
        let buckets = layout.buckets();
        let out_range = 1.0 / (2.0 * hidden as f32).sqrt();
        FloatNet {
            inputs,
            hidden,
            buckets,
            w1: (0..inputs * hidden)
                .map(|_| rng.gen_range(-0.1..0.1))
                .collect(),
            b1: vec![0.3; hidden],
            w2: (0..buckets * 2 * hidden)
                .map(|_| rng.gen_range(-out_range..out_range))
                .collect(),
            b2: vec![0.0; buckets],
        }
    }

    /// The float net an integer net stands for (its weights divided by their quantisation),
    /// to go on training from: the next round of data refines the last round's net instead
    /// of starting again from random weights.
    pub fn from_quant(q: &QuantNet) -> FloatNet {
        let (qa, qb) = (q.qa as f32, q.qb as f32);
        FloatNet {
            inputs: q.inputs,
            hidden: q.hidden,
            buckets: q.buckets,
            w1: q.w1.iter().map(|&w| w as f32 / qa).collect(),
            b1: q.b1.iter().map(|&w| w as f32 / qa).collect(),
            w2: q.w2.iter().map(|&w| w as f32 / qb).collect(),
            b2: q.b2.iter().map(|&b| b as f32 / (qa * qb)).collect(),
        }
    }

    /// The same net with the output buckets and royal buckets of `to` in place of those of
    /// `from` (both layouts of this net's variant): each new output bucket starts as the old
    /// one of the same part (the last part for parts it lacks) and the same stage of the
    /// game (the middle of its range of men), and each new royal bucket's inputs as the old
    /// bucket's that covers the same region (the first, home-rank, left-half one where the
    /// old net has fewer), so that a net without buckets starts every one of them saying
    /// exactly what it said, and training splits them from there.
    pub fn rebucketed(&self, from: &Layout, to: &Layout) -> FloatNet {
        let royal = self.royal_rebucketed(from, to);
        royal.output_rebucketed(from, to)
    }

    fn royal_rebucketed(&self, from: &Layout, to: &Layout) -> FloatNet {
        let (k_old, k_new) = (from.royal_buckets(), to.royal_buckets());
        if k_old == k_new {
            return self.clone();
        }
        let old_bucket = |b: usize| from.royal_bucket(to.royal_region(b));
        let per_bucket = self.inputs / k_old;
        let h = self.hidden;
        let w1 = (0..k_new)
            .flat_map(|b| {
                let first = old_bucket(b) * per_bucket * h;
                self.w1[first..first + per_bucket * h].iter().copied()
            })
            .collect();
        FloatNet {
            inputs: per_bucket * k_new,
            w1,
            ..self.clone()
        }
    }

    fn output_rebucketed(&self, from: &Layout, to: &Layout) -> FloatNet {
        let h = self.hidden;
        let (m_old, m_new) = (from.material_buckets(), to.material_buckets());
        let old_bucket = |b: usize| {
            let (part, stage) = (b / m_new, b % m_new);
            let part = part.min(from.parts() - 1);
            part * m_old + (2 * stage + 1) * m_old / (2 * m_new)
        };
        let buckets = to.buckets();
        FloatNet {
            buckets,
            w2: (0..buckets)
                .flat_map(|b| {
                    let o = old_bucket(b);
                    self.w2[o * 2 * h..(o + 1) * 2 * h].iter().copied()
                })
                .collect(),
            b2: (0..buckets).map(|b| self.b2[old_bucket(b)]).collect(),
            ..self.clone()
        }
    }

    /// The first layer's sums for one perspective's features.
    pub fn accumulate(&self, features: &[u32], acc: &mut [f32]) {
        acc.copy_from_slice(&self.b1);
        let h = self.hidden;
        for &f in features {
            let col = &self.w1[f as usize * h..(f as usize + 1) * h];
            for (a, w) in acc.iter_mut().zip(col) {
                *a += w;
            }
        }
    }

    /// The output (in units of `SCALE` centipawns) from the two perspectives' sums.
    pub fn output(&self, us: &[f32], them: &[f32], bucket: usize) -> f32 {
        let h = self.hidden;
        let w = &self.w2[bucket * 2 * h..(bucket + 1) * 2 * h];
        let mut y = self.b2[bucket];
        for i in 0..h {
            y += us[i].clamp(0.0, 1.0) * w[i] + them[i].clamp(0.0, 1.0) * w[h + i];
        }
        y
    }

    /// The evaluation in centipawns of a position given by its features (side to move's
    /// first).
    pub fn evaluate(&self, us: &[u32], them: &[u32], bucket: usize) -> f32 {
        let mut a = vec![0.0; self.hidden];
        let mut b = vec![0.0; self.hidden];
        self.accumulate(us, &mut a);
        self.accumulate(them, &mut b);
        self.output(&a, &b, bucket) * SCALE as f32
    }

    /// Keeps the weights where quantisation can hold them.
    pub fn clip(&mut self) {
        for w in self.w1.iter_mut().chain(self.b1.iter_mut()) {
            *w = w.clamp(-W1_LIMIT, W1_LIMIT);
        }
        for w in &mut self.w2 {
            *w = w.clamp(-W2_LIMIT, W2_LIMIT);
        }
    }

    /// The integer net for the engine: first layer x QA, output weights x QB, output biases
    /// x QA x QB, rounded to nearest; an output unit is `SCALE` centipawns.
    pub fn quantise(&self, variant: &str, layout: &Layout) -> QuantNet {
        self.quantise_with_scale(variant, layout, SCALE)
    }

    /// [`FloatNet::quantise`] for a net trained with `scale` centipawns per output unit (see
    /// `Dataset::score_scale`): the file records it, and the engine multiplies by it.
    pub fn quantise_with_scale(&self, variant: &str, layout: &Layout, scale: i32) -> QuantNet {
        let q16 = |w: f32, q: i32| {
            (w * q as f32)
                .round()
                .clamp(i16::MIN as f32, i16::MAX as f32) as i16
        };
        QuantNet {
            variant: variant.to_string(),
            layout_hash: layout.hash(),
            inputs: self.inputs,
            hidden: self.hidden,
            buckets: self.buckets,
            scale,
            qa: QA,
            qb: QB,
            w1: self.w1.iter().map(|&w| q16(w, QA)).collect(),
            b1: self.b1.iter().map(|&w| q16(w, QA)).collect(),
            w2: self.w2.iter().map(|&w| q16(w, QB)).collect(),
            b2: self
                .b2
                .iter()
                .map(|&b| (b * (QA * QB) as f32).round() as i32)
                .collect(),
        }
    }
}
