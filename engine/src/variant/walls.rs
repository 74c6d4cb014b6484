//! The rule data of Fairy-Stockfish's board games: walls (squares no man may enter, `*` in a
//! FEN), the wall a move places (`wallingRule`: the arrow of the Amazons, the duck, the trail
//! of a snail), and drops that must enclose men and the men they turn over (`enclosingDrop`,
//! `flipEnclosedPieces`: reversi, ataxx). Playing them on a position is `movegen::walls`.

/// Where a move places its wall (`wallingRule`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum WallingRule {
    /// On a square the moved man could move to from where he lands (the Amazons' arrow).
    Arrow,
    /// The one wall (the duck) goes to another empty square.
    Duck,
    /// On an edge square or next to a wall (orthogonally).
    Edge,
    /// On the square the man left.
    Past,
    /// On any empty square; walls stay.
    Static,
}

impl WallingRule {
    /// Reads Fairy-Stockfish's names; `none` is no rule.
    pub(crate) fn parse(value: &str) -> Result<Option<WallingRule>, String> {
        Ok(Some(match value {
            "arrow" => WallingRule::Arrow,
            "duck" => WallingRule::Duck,
            "edge" => WallingRule::Edge,
            "past" => WallingRule::Past,
            "static" => WallingRule::Static,
            "none" => return Ok(None),
            _ => return Err(format!("unknown walling rule '{value}'")),
        }))
    }
}

/// Which drops are allowed (`enclosingDrop`) and which men a move turns over
/// (`flipEnclosedPieces`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EnclosingRule {
    /// Reversi: a drop must enclose a line of enemy men against a friendly one; the line turns.
    Reversi,
    /// Ataxx: a drop next to a friendly man; the enemy men around the arrival square turn.
    Ataxx,
    /// Quadwrangle: as Ataxx, but a drop turns men only when it lands next to a friend.
    Quadwrangle,
    /// Snort: never next to (orthogonally) an enemy man.
    Snort,
    /// Connect four: drops on the first rank or on top of a man.
    Top,
    /// Connect four from any side: a man pushed in along a rank or file from its edge.
    Anyside,
}

impl EnclosingRule {
    /// Reads Fairy-Stockfish's names; `none` is no rule.
    pub(crate) fn parse(value: &str) -> Result<Option<EnclosingRule>, String> {
        Ok(Some(match value {
            "reversi" => EnclosingRule::Reversi,
            "ataxx" => EnclosingRule::Ataxx,
            "quadwrangle" => EnclosingRule::Quadwrangle,
            "snort" => EnclosingRule::Snort,
            "top" => EnclosingRule::Top,
            "anyside" => EnclosingRule::Anyside,
            "none" => return Ok(None),
            _ => return Err(format!("unknown enclosing rule '{value}'")),
        }))
    }
}

/// The walls a move places.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WallRules {
    /// Where the wall goes.
    pub rule: WallingRule,
    /// A side places a wall instead of moving, not after its move (`wallOrMove`).
    pub or_move: bool,
    /// Per colour, the squares where its walls may go (`wallingRegion...`); `None`: anywhere.
    pub region: [Option<Vec<bool>>; 2],
}

/// The drop and flip rules of reversi-like games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnclosingRules {
    /// Which drops are allowed (`enclosingDrop`).
    pub drop: Option<EnclosingRule>,
    /// While any of these squares is empty, drops go there and nowhere else
    /// (`enclosingDropStart`).
    pub start: Option<Vec<bool>>,
    /// Which men a move turns over (`flipEnclosedPieces`).
    pub flip: Option<EnclosingRule>,
}
