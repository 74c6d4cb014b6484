//! Importing an Interactive Diagram (chessvariants.com) parameter line as a variant: the line
//! becomes a variant-file section in our INI format, which the ordinary builder then builds, so
//! a diagram and a variant file obey exactly the same rules.
//!
//! What is read: `files=`, `ranks=`, `promoZone=` (depth of the promotion zone), `royal=N`
//! (the N-th piece type, counted from 1, is royal; two or more give extinction royalty: only a
//! sole royal man is protected by the check rule, and a side without one has lost), piece types
//! `name:ID:XBetza:image:white squares,,black squares`, and `morph=X` after a piece (its fixed,
//! compulsory promotion target). Display settings are ignored, and so are `promoChoice` and
//! `holdingsType` (every promoting type of the diagrams we read has a fixed target). Anything
//! else is an error naming it.

use crate::types::{split_square, MAX_BOARD_SIDE};

/// Diagram settings that only change how the diagram looks, or that have no effect here.
const IGNORED: &[&str] = &[
    "graphicsDir",
    "squareSize",
    "graphicsType",
    "whitePrefix",
    "blackPrefix",
    "lightShade",
    "darkShade",
    "rimColor",
    "coordColor",
    "symmetry",
    "promoChoice",
    "holdingsType",
    "startShade",
    "satellite",
];

/// One piece type of a diagram.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiagramPiece {
    /// The diagram's name for it (`wizard`).
    pub name: String,
    /// The diagram's ID (`W`, `Pc`).
    pub id: String,
    /// The single FEN letter Chimera gives it (upper case).
    pub letter: char,
    /// Its XBetza.
    pub betza: String,
    /// White's and Black's start squares.
    pub squares: [Vec<String>; 2],
    /// The ID of its fixed promotion target (`morph=`), if any.
    pub morph: Option<String>,
}

/// A parsed diagram line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    /// Files.
    pub files: usize,
    /// Ranks.
    pub ranks: usize,
    /// Depth of the promotion zone in ranks (0 = none).
    pub promo_zone: usize,
    /// Royal piece types, as indexes into `pieces`.
    pub royals: Vec<usize>,
    /// The piece types in the diagram's order.
    pub pieces: Vec<DiagramPiece>,
}

/// Reads a diagram parameter line.
pub fn parse_diagram(line: &str) -> Result<Diagram, String> {
    let mut d = Diagram {
        files: 8,
        ranks: 8,
        promo_zone: 1,
        royals: Vec::new(),
        pieces: Vec::new(),
    };
    let mut royal_numbers = Vec::new();
    for token in line.split_whitespace() {
        if let Some((key, value)) = token.split_once('=') {
            let number = || {
                value
                    .parse::<usize>()
                    .map_err(|_| format!("diagram setting '{token}': expected a number"))
            };
            match key {
                "files" => d.files = number()?,
                "ranks" => d.ranks = number()?,
                "promoZone" => d.promo_zone = number()?,
                "royal" => royal_numbers.push(number()?),
                "morph" => {
                    let Some(last) = d.pieces.last_mut() else {
                        return Err(format!(
                            "diagram setting '{token}': morph= before any piece"
                        ));
                    };
                    last.morph = Some(value.to_string());
                }
                k if IGNORED.contains(&k) => {}
                _ => return Err(format!("unknown diagram setting '{token}'")),
            }
            continue;
        }
        d.pieces.push(parse_piece(token)?);
    }
    if !(1..=MAX_BOARD_SIDE).contains(&d.files) || !(1..=MAX_BOARD_SIDE).contains(&d.ranks) {
        return Err(format!(
            "diagram board {}x{} is outside 1x1..16x16",
            d.files, d.ranks
        ));
    }
    if d.pieces.is_empty() {
        return Err("the diagram defines no pieces".into());
    }
    for n in royal_numbers {
        if n == 0 || n > d.pieces.len() {
            return Err(format!(
                "royal={n}: there are {} piece types",
                d.pieces.len()
            ));
        }
        d.royals.push(n - 1);
    }
    for p in &d.pieces {
        if let Some(m) = &p.morph {
            if !d.pieces.iter().any(|q| &q.id == m) {
                return Err(format!(
                    "morph={m} (after {}): no piece has that ID",
                    p.name
                ));
            }
        }
    }
    assign_letters(&mut d.pieces)?;
    Ok(d)
}

fn parse_piece(token: &str) -> Result<DiagramPiece, String> {
    let fields: Vec<&str> = token.split(':').collect();
    let [name, id, betza, _image, squares] = fields.as_slice() else {
        return Err(format!(
            "diagram piece '{token}': expected name:ID:XBetza:image:squares"
        ));
    };
    if name.is_empty() || id.is_empty() || !id.chars().all(|c| c.is_ascii_alphabetic()) {
        return Err(format!("diagram piece '{token}': bad name or ID"));
    }
    let (white, black) = squares.split_once(",,").unwrap_or((squares, ""));
    let list = |text: &str| -> Result<Vec<String>, String> {
        text.split(',')
            .filter(|s| !s.is_empty())
            .map(|s| {
                split_square(s)
                    .map(|_| s.to_string())
                    .ok_or_else(|| format!("diagram piece '{name}': bad square '{s}'"))
            })
            .collect()
    };
    Ok(DiagramPiece {
        name: name.to_string(),
        id: id.to_string(),
        letter: ' ',
        betza: betza.to_string(),
        squares: [list(white)?, list(black)?],
        morph: None,
    })
}

/// Gives every piece type a distinct FEN letter: single-letter IDs keep their letter; the others
/// take the first free letter of their ID, then of their name, then of the alphabet.
fn assign_letters(pieces: &mut [DiagramPiece]) -> Result<(), String> {
    let mut used: Vec<char> = Vec::new();
    for p in pieces.iter_mut().filter(|p| p.id.len() == 1) {
        let l = p.id.to_ascii_uppercase().chars().next().unwrap_or('?');
        if used.contains(&l) {
            return Err(format!("two piece types have the ID '{}'", p.id));
        }
        p.letter = l;
        used.push(l);
    }
    for p in pieces.iter_mut().filter(|p| p.id.len() != 1) {
        let candidates = p.id.chars().chain(p.name.chars()).chain('A'..='Z');
        let letter = candidates
            .filter(|c| c.is_ascii_alphabetic())
            .map(|c| c.to_ascii_uppercase())
            .find(|c| !used.contains(c))
            .ok_or_else(|| "more than 26 piece types".to_string())?;
        p.letter = letter;
        used.push(letter);
    }
    Ok(())
}

impl Diagram {
    /// The diagram as a section of a variant file named `name`.
    pub fn to_ini(&self, name: &str) -> Result<String, String> {
        let mut out = format!(
            "[{name}]\nmaxFile = {}\nmaxRank = {}\ncastling = false\n",
            self.files, self.ranks
        );
        for (i, p) in self.pieces.iter().enumerate() {
            out.push_str(&format!(
                "customPiece{} = {}:{}\n",
                i + 1,
                p.letter.to_ascii_lowercase(),
                p.betza
            ));
        }
        let letter_of = |id: &str| {
            self.pieces
                .iter()
                .find(|p| p.id == id)
                .map(|p| p.letter.to_ascii_lowercase())
        };
        let targets: Vec<String> = self
            .pieces
            .iter()
            .filter_map(|p| {
                let t = letter_of(p.morph.as_deref()?)?;
                Some(format!("{}:{}", p.letter.to_ascii_lowercase(), t))
            })
            .collect();
        let pawns: String = self
            .pieces
            .iter()
            .filter(|p| p.morph.is_some())
            .map(|p| p.letter.to_ascii_lowercase())
            .collect();
        out.push_str(&format!(
            "pawnTypes = {}\n",
            if pawns.is_empty() { "-" } else { &pawns }
        ));
        if !targets.is_empty() && self.promo_zone > 0 {
            out.push_str(&format!("promotionTargets = {}\n", targets.join(" ")));
            let zone = |ranks: Vec<usize>| {
                ranks
                    .iter()
                    .map(|r| format!("*{r}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let depth = self.promo_zone.min(self.ranks);
            out.push_str(&format!(
                "promotionRegionWhite = {}\n",
                zone((self.ranks - depth + 1..=self.ranks).collect())
            ));
            out.push_str(&format!(
                "promotionRegionBlack = {}\n",
                zone((1..=depth).collect())
            ));
        }
        if !self.royals.is_empty() {
            let royals: String = self
                .royals
                .iter()
                .map(|&i| self.pieces[i].letter.to_ascii_lowercase())
                .collect();
            out.push_str(&format!(
                "extinctionPseudoRoyal = true\nextinctionPieceTypes = {royals}\nextinctionValue = loss\n"
            ));
        }
        out.push_str(&format!("startFen = {}\n", self.start_fen()?));
        Ok(out)
    }

    /// The start position as FEN.
    pub fn start_fen(&self) -> Result<String, String> {
        let mut board = vec![vec![None; self.files]; self.ranks];
        for p in &self.pieces {
            for (color, squares) in p.squares.iter().enumerate() {
                for s in squares {
                    let (f, r) = split_square(s).ok_or_else(|| format!("bad square '{s}'"))?;
                    if f >= self.files || r >= self.ranks {
                        return Err(format!(
                            "{}: square {s} is off the {}x{} board",
                            p.name, self.files, self.ranks
                        ));
                    }
                    if board[r][f].is_some() {
                        return Err(format!("{}: square {s} is taken twice", p.name));
                    }
                    board[r][f] = Some(if color == 0 {
                        p.letter
                    } else {
                        p.letter.to_ascii_lowercase()
                    });
                }
            }
        }
        let mut fen = String::new();
        for r in (0..self.ranks).rev() {
            let mut empty = 0;
            for square in &board[r] {
                match *square {
                    None => empty += 1,
                    Some(c) => {
                        if empty > 0 {
                            fen.push_str(&empty.to_string());
                            empty = 0;
                        }
                        fen.push(c);
                    }
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if r > 0 {
                fen.push('/');
            }
        }
        fen.push_str(" w - - 0 1");
        Ok(fen)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_pieces_royals_and_morphs() {
        let d = parse_diagram(
            "files=8 ranks=8 promoZone=1 graphicsDir=/x/ royal=2 pawn:P:fmWfcF:pawn:a2,b2,,a7,b7 morph=Q \
             king:K:K:king:e1,,e8 queen:Q:Q:queen:d1,,d8 prince:Pr:FN:p:f1,,f8",
        )
        .unwrap();
        assert_eq!(d.pieces.len(), 4);
        assert_eq!(d.royals, vec![1]);
        assert_eq!(d.pieces[0].morph.as_deref(), Some("Q"));
        assert_eq!(
            d.pieces[3].letter, 'R',
            "Pr: P is taken, so the next letter of the ID"
        );
        let ini = d.to_ini("t").unwrap();
        assert!(ini.contains("promotionTargets = p:q"), "{ini}");
        assert!(ini.contains("extinctionPieceTypes = k"), "{ini}");
        assert!(
            ini.contains("startFen = 3qkr2/pp6/8/8/8/8/PP6/3QKR2 w - - 0 1"),
            "{ini}"
        );
    }

    #[test]
    fn rejects_what_it_cannot_read() {
        for bad in [
            "files=8 ranks=8 frobnicate=1 king:K:K:king:e1,,e8",
            "files=x king:K:K:king:e1,,e8",
            "files=8 ranks=8",
            "files=8 ranks=8 king:K:K:king",
            "files=8 ranks=8 royal=3 king:K:K:king:e1,,e8",
            "files=8 ranks=8 king:K:K:king:e1,,e9",
            "files=8 ranks=8 morph=Q king:K:K:king:e1,,e8",
            "files=8 ranks=8 king:K:K:king:e1,,e8 pawn:P:fW:pawn:e1,,e7",
            "files=17 ranks=8 king:K:K:king:e1,,e8",
        ] {
            let r = parse_diagram(bad).and_then(|d| d.to_ini("x"));
            assert!(r.is_err(), "{bad} was accepted");
        }
    }
}
