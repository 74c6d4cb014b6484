//! Training data files: text, one line per position, so that one format fits every variant
//! (a FEN carries boards, hands, reserves, the side to move and the part of the turn) and a
//! file can be read, cut and joined with ordinary tools.
//!
//! ```text
//! #chimera-data 1 variant=chess layout=89abcdef01234567
//! <FEN>\t<score>\t<result>
//! ...
//! #game <index> plies=<n> kept=<k> result=<1-0|0-1|1/2-1/2>
//! ```
//!
//! - The header names the variant and the hash of its network layout; a file is refused for
//!   another variant. Lines starting with `#` are comments, except the header and the `#game`
//!   line that closes each game's positions.
//! - `score`: the search's score of the position in centipawns, from the side to move's view.
//! - `result`: the game's result from the side to move's view: `1`, `0.5` or `0`.
//! - A run writes whole games (the result is known only at the end) and flushes after each,
//!   so an interrupted run loses at most the games in flight; a later run appends, after
//!   cutting a last line left unfinished, and numbers its games on from the `#game` count.

use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};

use chimera_engine::{Position, VariantRef};

use crate::features::Layout;

/// The header's first word and the format version.
pub const HEADER: &str = "#chimera-data 1";

/// One training position.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The position.
    pub fen: String,
    /// Centipawns, side to move's view.
    pub score: i32,
    /// 1, 0.5 or 0 for the side to move.
    pub result: f32,
}

/// The header line for `variant`.
pub fn header(variant: &VariantRef) -> String {
    format!(
        "{HEADER} variant={} layout={:016x}",
        variant.name(),
        Layout::of(variant).data_hash()
    )
}

/// The variant named in the header of the data file at `path`.
pub fn variant_of_file(path: &str) -> Result<String, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let mut first = String::new();
    BufReader::new(file)
        .take(4096)
        .read_line(&mut first)
        .map_err(|e| format!("{path}: {e}"))?;
    first
        .strip_prefix(HEADER)
        .and_then(|rest| {
            rest.split_whitespace()
                .find_map(|w| w.strip_prefix("variant="))
        })
        .map(str::to_string)
        .ok_or_else(|| format!("{path}: not a Chimera data file"))
}

/// Checks a header line against `variant`.
fn check_header(line: &str, variant: &VariantRef) -> Result<(), String> {
    let rest = line
        .strip_prefix(HEADER)
        .ok_or_else(|| format!("not a Chimera data file (first line '{line}')"))?;
    let mut name = None;
    let mut layout = None;
    for word in rest.split_whitespace() {
        if let Some(n) = word.strip_prefix("variant=") {
            name = Some(n);
        } else if let Some(h) = word.strip_prefix("layout=") {
            layout = u64::from_str_radix(h, 16).ok();
        }
    }
    let want = Layout::of(variant).data_hash();
    if layout != Some(want) {
        let name = name.unwrap_or("?");
        return Err(if name == variant.name() {
            format!(
                "the data's layout is not the one of '{name}' here (another definition of \
                 the variant, or another version of Chimera)"
            )
        } else {
            format!(
                "the data is for the variant '{name}', not '{}'",
                variant.name()
            )
        });
    }
    Ok(())
}

/// Parses a position line; `None` for a line that is not one.
pub fn parse_line(line: &str) -> Option<Sample> {
    let mut parts = line.split('\t');
    let fen = parts.next()?.trim();
    let score = parts.next()?.trim().parse().ok()?;
    let result: f32 = parts.next()?.trim().parse().ok()?;
    if parts.next().is_some() || fen.is_empty() || !(0.0..=1.0).contains(&result) {
        return None;
    }
    Some(Sample {
        fen: fen.to_string(),
        score,
        result,
    })
}

/// Writes one finished game: its positions, then its `#game` line.
pub fn write_game(
    out: &mut impl Write,
    index: u64,
    plies: usize,
    result: &str,
    samples: &[Sample],
) -> std::io::Result<()> {
    let mut text = String::new();
    for s in samples {
        let r = if s.result == 0.5 {
            "0.5"
        } else if s.result > 0.5 {
            "1"
        } else {
            "0"
        };
        text.push_str(&format!("{}\t{}\t{r}\n", s.fen, s.score));
    }
    text.push_str(&format!(
        "#game {index} plies={plies} kept={} result={result}\n",
        samples.len()
    ));
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// Opens `path` to add games for `variant`: creates it with a header, or checks the header of
/// an existing file, cuts an unfinished last line, and counts the games already there.
pub fn open_for_append(path: &str, variant: &VariantRef) -> Result<(std::fs::File, u64), String> {
    let err = |e: std::io::Error| format!("{path}: {e}");
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(err)?;
    let mut text = Vec::new();
    file.read_to_end(&mut text).map_err(err)?;
    if text.is_empty() {
        writeln!(file, "{}", header(variant)).map_err(err)?;
        return Ok((file, 0));
    }
    let first = text.split(|&b| b == b'\n').next().unwrap_or(&[]);
    check_header(&String::from_utf8_lossy(first), variant).map_err(|e| format!("{path}: {e}"))?;
    // Positions after the last `#game` line belong to a game cut short: cut them.
    let mut games = 0;
    let mut keep = first.len() + 1;
    let mut at = 0;
    for line in text.split_inclusive(|&b| b == b'\n') {
        at += line.len();
        if line.starts_with(b"#game ") && line.ends_with(b"\n") {
            games += 1;
            keep = at;
        }
    }
    let keep = keep.min(text.len());
    if keep < text.len() {
        file.set_len(keep as u64).map_err(err)?;
    }
    if text.len() < keep || text.get(keep - 1) != Some(&b'\n') {
        file.seek(SeekFrom::End(0)).map_err(err)?;
        writeln!(file).map_err(err)?;
    }
    file.seek(SeekFrom::End(0)).map_err(err)?;
    Ok((file, games))
}

/// Reads every position of a data file for `variant`: the header must match, lines that are
/// not positions (comments, a last line cut short) are passed over, positions whose FEN the
/// variant cannot read are counted and left out. Returns the positions with the count of
/// lines left out.
pub fn read_file(
    path: &str,
    variant: &VariantRef,
) -> Result<(Vec<(Position, Sample)>, usize), String> {
    let mut out = Vec::new();
    let skipped = for_each_position(path, variant, |pos, s| out.push((pos.clone(), s.clone())))?;
    Ok((out, skipped))
}

/// Like [`read_file`], but hands each position to `each` as it is read (a large file need
/// not be held as positions); returns the count of lines left out.
pub fn for_each_position(
    path: &str,
    variant: &VariantRef,
    mut each: impl FnMut(&Position, &Sample),
) -> Result<usize, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let mut lines = BufReader::new(file).lines();
    let first = lines
        .next()
        .ok_or_else(|| format!("{path}: empty file"))?
        .map_err(|e| format!("{path}: {e}"))?;
    check_header(&first, variant).map_err(|e| format!("{path}: {e}"))?;
    let mut skipped = 0;
    for line in lines {
        let Ok(line) = line else {
            skipped += 1;
            continue;
        };
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        match parse_line(&line).and_then(|s| Some((Position::from_fen(variant, &s.fen).ok()?, s))) {
            Some((pos, s)) => each(&pos, &s),
            None => skipped += 1,
        }
    }
    Ok(skipped)
}
