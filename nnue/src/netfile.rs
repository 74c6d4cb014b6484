//! The integer network the engine runs, and its file format.
//!
//! A net file is little-endian throughout:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `CHIMNNUE` |
//! | 4 | format version (u32, 1) |
//! | 2 + n | variant name: length (u16), UTF-8 bytes |
//! | 8 | layout hash (u64, `features::Layout::hash`) |
//! | 4 x 3 | inputs, hidden size H (a multiple of 16), output buckets (u32) |
//! | 4 x 3 | evaluation scale (centipawns per unit of the output), QA, QB (i32) |
//! | 2 x inputs x H | first layer: one column of H i16 per input, weights x QA |
//! | 2 x H | first layer biases (i16, x QA) |
//! | 2 x buckets x 2H | output weights (i16, x QB), per bucket: side to move's half first |
//! | 4 x buckets | output biases (i32, x QA x QB) |
//! | 8 | FNV-1a hash of every byte before it (u64) |
//!
//! The evaluation in centipawns is `(sum of clamp(acc, 0, QA) x w + b) x scale / (QA x QB)`.

use crate::features::{Layout, MAX_MATERIAL_BUCKETS};
use crate::simd::{apply_column, dot_clipped};

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"CHIMNNUE";
/// The format version this build reads and writes.
pub const VERSION: u32 = 1;
/// The first layer's quantisation: a weight of 1.0 is stored as QA.
pub const QA: i32 = 255;
/// The output layer's quantisation: 256 rather than the usual 64, since at 400 centipawns a
/// unit a step of 1/64 in an output weight moves the evaluation by up to 6 centipawns (the
/// tiny test nets were off by 7); 1.98 x 256 still fits i16 and the sums fit i32.
pub const QB: i32 = 256;
/// Centipawns per unit of the output (the sigmoid's argument x this).
pub const SCALE: i32 = 400;
/// Hidden sizes are multiples of this (whole vector registers for the inner loops).
pub const CHUNK: usize = 16;
/// Net files larger than this are refused before they are read (a 16x16 board with 32 types
/// in hand and H = 1024 fits).
const MAX_FILE_BYTES: u64 = 256 << 20;

/// A quantised network for one variant's layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuantNet {
    /// The variant it was trained for.
    pub variant: String,
    /// The layout hash of that variant.
    pub layout_hash: u64,
    /// Inputs.
    pub inputs: usize,
    /// Hidden size per perspective.
    pub hidden: usize,
    /// Output buckets.
    pub buckets: usize,
    /// Centipawns per unit of output.
    pub scale: i32,
    /// First layer quantisation.
    pub qa: i32,
    /// Output layer quantisation.
    pub qb: i32,
    /// `inputs x hidden`, one column per input.
    pub w1: Vec<i16>,
    /// `hidden`.
    pub b1: Vec<i16>,
    /// `buckets x 2 hidden`.
    pub w2: Vec<i16>,
    /// `buckets`.
    pub b2: Vec<i32>,
}

fn fnv(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}

/// Reads little-endian fields from a byte slice, with an error at the end of the data.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or("the file ends early (truncated?)")?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u16(&mut self) -> Result<u16, String> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().unwrap()))
    }
    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().unwrap()))
    }
    fn i32(&mut self) -> Result<i32, String> {
        Ok(i32::from_le_bytes(self.take(4)?.try_into().unwrap()))
    }
    fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().unwrap()))
    }
    fn i16s(&mut self, n: usize) -> Result<Vec<i16>, String> {
        let len = n.checked_mul(2).ok_or("sizes out of range")?;
        Ok(self
            .take(len)?
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect())
    }
}

impl QuantNet {
    /// The net's bytes in the file format.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + 2 * self.w1.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.variant.len() as u16).to_le_bytes());
        out.extend_from_slice(self.variant.as_bytes());
        out.extend_from_slice(&self.layout_hash.to_le_bytes());
        for n in [self.inputs, self.hidden, self.buckets] {
            out.extend_from_slice(&(n as u32).to_le_bytes());
        }
        for n in [self.scale, self.qa, self.qb] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        for w in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.b2 {
            out.extend_from_slice(&b.to_le_bytes());
        }
        let h = fnv(&out);
        out.extend_from_slice(&h.to_le_bytes());
        out
    }

    /// Reads a net from its bytes; an error says what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<QuantNet, String> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err("not a Chimera net file (bad magic)".into());
        }
        let mut r = Reader {
            bytes,
            at: MAGIC.len(),
        };
        let version = r.u32()?;
        if version != VERSION {
            return Err(format!(
                "net format version {version}; this build reads version {VERSION}"
            ));
        }
        let name_len = r.u16()? as usize;
        let variant = String::from_utf8(r.take(name_len)?.to_vec())
            .map_err(|_| "the variant name is not UTF-8")?;
        let layout_hash = r.u64()?;
        let (inputs, hidden, buckets) = (r.u32()? as usize, r.u32()? as usize, r.u32()? as usize);
        let (scale, qa, qb) = (r.i32()?, r.i32()?, r.i32()?);
        if hidden == 0 || hidden % CHUNK != 0 || hidden > 4096 {
            return Err(format!(
                "hidden size {hidden} is not a multiple of {CHUNK} up to 4096"
            ));
        }
        if inputs == 0 || inputs > 1 << 20 || buckets == 0 || buckets > 64 {
            return Err(format!("bad sizes: {inputs} inputs, {buckets} buckets"));
        }
        if scale <= 0 || qa <= 0 || qb <= 0 || qa > i16::MAX as i32 || qb > i16::MAX as i32 {
            return Err(format!("bad scales: scale {scale}, QA {qa}, QB {qb}"));
        }
        let expected =
            r.at + 2 * (inputs * hidden + hidden + buckets * 2 * hidden) + 4 * buckets + 8;
        if bytes.len() != expected {
            return Err(format!(
                "the file has {} bytes; its header says {expected}",
                bytes.len()
            ));
        }
        let w1 = r.i16s(inputs * hidden)?;
        let b1 = r.i16s(hidden)?;
        let w2 = r.i16s(buckets * 2 * hidden)?;
        let b2 = (0..buckets)
            .map(|_| r.i32())
            .collect::<Result<Vec<_>, _>>()?;
        let body = r.at;
        if r.u64()? != fnv(&bytes[..body]) {
            return Err("the checksum does not match (damaged file)".into());
        }
        Ok(QuantNet {
            variant,
            layout_hash,
            inputs,
            hidden,
            buckets,
            scale,
            qa,
            qb,
            w1,
            b1,
            w2,
            b2,
        })
    }

    /// Reads a net file.
    pub fn load(path: &str) -> Result<QuantNet, String> {
        let meta = std::fs::metadata(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        if meta.len() > MAX_FILE_BYTES {
            return Err(format!(
                "{path}: {} bytes is too large for a net",
                meta.len()
            ));
        }
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        QuantNet::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))
    }

    /// Writes the net to `path` (through a temporary file, so that a reader never sees half).
    pub fn save(&self, path: &str) -> Result<(), String> {
        static SAVES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = SAVES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let tmp = format!("{path}.{}-{n}.tmp", std::process::id());
        std::fs::write(&tmp, self.to_bytes())
            .and_then(|_| std::fs::rename(&tmp, path))
            .map_err(|e| format!("cannot write {path}: {e}"))
    }

    /// An error unless the net was made for `layout` (the variant `name`, with the royal
    /// buckets the net has).
    pub fn check_layout(&self, name: &str, layout: &Layout) -> Result<(), String> {
        if self.layout_hash != layout.hash() || self.inputs != layout.num_features() {
            return Err(format!(
                "the net is for the variant '{}' (layout {:016x}, {} inputs), not for '{name}' \
                 (layout {:016x}, {} inputs)",
                self.variant,
                self.layout_hash,
                self.inputs,
                layout.hash(),
                layout.num_features()
            ));
        }
        let parts = layout.parts();
        if !self.buckets.is_multiple_of(parts) || self.buckets / parts > MAX_MATERIAL_BUCKETS {
            return Err(format!(
                "the net has {} output buckets; '{name}' needs a multiple of {parts} (its \
                 parts of a turn), at most {}",
                self.buckets,
                parts * MAX_MATERIAL_BUCKETS
            ));
        }
        Ok(())
    }

    /// The layout this net reads `layout`'s variant (`name`) with: the variant's inputs
    /// and parts of a turn, and the net's own view of Black's side (read from its hash),
    /// material and royal buckets (the royal ones read from its input count, a multiple of
    /// the variant's); an error when the net was made for another layout.
    pub fn layout_for(&self, name: &str, layout: &Layout) -> Result<Layout, String> {
        let per_bucket = layout.num_features() / layout.royal_buckets();
        let royal = if self.inputs.is_multiple_of(per_bucket) {
            self.inputs / per_bucket
        } else {
            1
        };
        // A count that is no royal bucket choice leaves the layout as it is, and the check
        // below says what does not fit.
        let layout = layout
            .with_royal_buckets(royal)
            .unwrap_or_else(|_| layout.clone());
        // The net's hash says which way it sees Black's side.
        let other_view = layout.with_turned_view(!layout.turned());
        let layout = if self.layout_hash == other_view.hash() {
            other_view
        } else {
            layout
        };
        self.check_layout(name, &layout)?;
        Ok(layout.with_material_buckets(self.buckets / layout.parts()))
    }

    /// The first layer's column of input `f`.
    #[inline(always)]
    pub fn column(&self, f: usize) -> &[i16] {
        &self.w1[f * self.hidden..(f + 1) * self.hidden]
    }

    /// Sets `acc` to the first layer's sums for `features` (the biases plus their columns).
    pub fn refresh(&self, features: &[u32], acc: &mut [i16]) {
        acc.copy_from_slice(&self.b1);
        for &f in features {
            apply_column::<true>(acc, self.column(f as usize));
        }
    }

    /// The evaluation in centipawns of a position given by its features (side to move's
    /// first), computed from scratch.
    pub fn evaluate_features(&self, us: &[u32], them: &[u32], bucket: usize) -> i32 {
        let mut a = vec![0; self.hidden];
        let mut b = vec![0; self.hidden];
        self.refresh(us, &mut a);
        self.refresh(them, &mut b);
        self.output(&a, &b, bucket)
    }

    /// The output from the two accumulators (side to move's first) in centipawns.
    pub fn output(&self, us: &[i16], them: &[i16], bucket: usize) -> i32 {
        let h = self.hidden;
        let w = &self.w2[bucket * 2 * h..(bucket + 1) * 2 * h];
        let qa = self.qa.min(i16::MAX as i32) as i16;
        let sum = dot_clipped(us, &w[..h], qa) as i64 + dot_clipped(them, &w[h..], qa) as i64;
        let out = (sum + self.b2[bucket] as i64) * self.scale as i64;
        // Rounded to nearest, so that the integer net has no bias toward zero.
        let q = self.qa as i64 * self.qb as i64;
        (out + q / 2).div_euclid(q) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> QuantNet {
        QuantNet {
            variant: "chess".into(),
            layout_hash: 7,
            inputs: 3,
            hidden: 16,
            buckets: 1,
            scale: SCALE,
            qa: QA,
            qb: QB,
            w1: (0..48).map(|i| i as i16 - 20).collect(),
            b1: vec![5; 16],
            w2: (0..32).map(|i| 10 - i as i16).collect(),
            b2: vec![-3],
        }
    }

    #[test]
    fn round_trips_and_refuses_damage() {
        let net = tiny();
        let bytes = net.to_bytes();
        assert_eq!(QuantNet::from_bytes(&bytes).unwrap(), net);
        assert!(QuantNet::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(QuantNet::from_bytes(b"hello").is_err());
        let mut bad = bytes.clone();
        bad[40] ^= 1;
        assert!(QuantNet::from_bytes(&bad).is_err());
        let mut v2 = bytes;
        v2[8] = 2;
        assert!(QuantNet::from_bytes(&v2).unwrap_err().contains("version"));
    }
}
