//! How a variant's games end ([`EndRules`]): the results of mate and stalemate, the move-count
//! and repetition rules, material counting, and the ends decided by the position alone, as
//! Fairy-Stockfish's files define them: capture the flag (`flagPiece`, `flagRegion*`,
//! `flagMove`, `flagPieceCount`, `flagPieceSafe`), extinction by counts
//! (`extinctionPieceTypes` with `extinctionPieceCount`, `extinctionOpponentPieceCount`,
//! `extinctionClaim`), connect-N and a full board. The data lives here (concluded from a
//! definition by `conclude`); the board code that detects the position's ends is
//! `movegen::ends`, which names every end by its `Termination`, and the adjudication of a
//! game, with the wording of its result, is `rules::outcome`.

use super::config::GameValue;
use super::tables::PieceMask;

/// Every rule of a variant that ends a game. The fields are documented at their accessors on
/// [`super::Variant`].
#[derive(Clone, Debug)]
pub(crate) struct EndRules {
    pub checkmate_value: GameValue,
    pub stalemate_value: GameValue,
    pub stalemate_piece_count: bool,
    pub bare_king_stalemate: GameValue,
    pub n_move_rule: u32,
    pub n_fold_rule: u32,
    pub repetition: RepetitionRules,
    pub material_counting: MaterialCounting,
    pub extinction_value: GameValue,
    pub extinction: Option<ExtinctionRules>,
    pub flag: Option<FlagRules>,
    pub connect: Option<ConnectRules>,
    pub adjudicate_full_board: bool,
}

/// Capture the flag: a side wins when enough of its flag men stand in its flag region.
#[derive(Clone, Debug)]
pub struct FlagRules {
    /// Per colour, the types whose men count (every type for `*`).
    pub pieces: [PieceMask; 2],
    /// Per colour, whether the flag men are exactly the royal type (racing kings' early end).
    pub is_king: [bool; 2],
    /// Per colour, `region[c][cell]` is true on a square of its flag region.
    pub region: [Vec<bool>; 2],
    /// The number of flag men that must stand there (`flagPieceCount`).
    pub count: u32,
    /// The region full of men with one flag man in it also wins (`flagPieceBlockedWin`).
    pub blocked_win: bool,
    /// The opponent gets one more move after the flag is reached (`flagMove`).
    pub extra_move: bool,
    /// A flag man must be unattacked to win (`flagPieceSafe`).
    pub safe: bool,
}

/// Connect-N: the side that has just moved wins when N of its men of the types stand in a row.
#[derive(Clone, Debug)]
pub struct ConnectRules {
    /// Men in a row needed (`connectN`).
    pub n: u32,
    /// The types that count (`connectPieceTypes`; all by default).
    pub types: PieceMask,
    /// The board offsets of the directions looked along (one of each opposite pair).
    pub directions: Vec<i16>,
    /// The result for the side that connected (`connectValue`; a win by default).
    pub value: GameValue,
    /// Per colour, two regions that a chain of its men (stepping along `directions`, in
    /// their positive sense only, as Fairy-Stockfish steps) must join (`connectRegion...`).
    pub regions: [Option<(Vec<bool>, Vec<bool>)>; 2],
    /// The side of a square of men that wins (`connectNxN`; 0: none).
    pub nxn: u32,
    /// Men on one line, gaps allowed, that win (`collinearN`; 0: none).
    pub collinear: u32,
}

/// Extinction by counts: the game ends when a side has at most `count` men of one of the
/// types (counting the hand) while the other has at least `opponent_count` of it.
#[derive(Clone, Debug)]
pub struct ExtinctionRules {
    /// The types watched.
    pub types: PieceMask,
    /// `*`: all men together are counted as one more "type".
    pub all: bool,
    /// `extinctionPieceCount`.
    pub count: u32,
    /// `extinctionOpponentPieceCount`.
    pub opponent_count: u32,
    /// `extinctionClaim`: the side to move needs one more man to claim the extinction of the
    /// other's men.
    pub claim: bool,
    /// The result for the side whose men died out.
    pub value: GameValue,
}

/// Fairy-Stockfish's material counting (`materialCounting`): who wins a game that would
/// otherwise be drawn by the move-count rule, repetition or stalemate.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum MaterialCounting {
    /// No counting: a draw stays a draw.
    #[default]
    None,
    /// Janggi's points (rook 13, cannon 7, horse 5, elephant 3, guard 3, soldier 2; Black
    /// gets 1.5 for moving second, so there is no tie).
    Janggi,
    /// More men wins; as many is a draw.
    Unweighted,
    /// White wins.
    WhiteDrawOdds,
    /// Black wins.
    BlackDrawOdds,
}

impl MaterialCounting {
    /// Reads `janggi`, `unweighted`, `whitedrawodds`, `blackdrawodds` or `none`.
    pub fn parse(value: &str) -> Result<MaterialCounting, String> {
        match value.trim() {
            "none" => Ok(MaterialCounting::None),
            "janggi" => Ok(MaterialCounting::Janggi),
            "unweighted" => Ok(MaterialCounting::Unweighted),
            "whitedrawodds" => Ok(MaterialCounting::WhiteDrawOdds),
            "blackdrawodds" => Ok(MaterialCounting::BlackDrawOdds),
            other => Err(format!(
                "unknown material counting '{other}' (janggi, unweighted, whitedrawodds, \
                 blackdrawodds, none)"
            )),
        }
    }
}

/// How repetition ends a game.
#[derive(Clone, Debug)]
pub struct RepetitionRules {
    /// The result for the side to move (`nFoldValue`; a draw by default).
    pub value: GameValue,
    /// `value` is White's, not the side to move's (`nFoldValueAbsolute`).
    pub absolute: bool,
    /// A side that gave check on each of its moves of the cycle loses
    /// (`perpetualCheckIllegal`).
    pub perpetual_check_illegal: bool,
    /// A side that chased an enemy man on each of its moves of the cycle loses, judged after
    /// perpetual check (`chasingRule = axf`): the roles the chase rule knows.
    pub chasing: Option<super::chasing::ChaseRoles>,
    /// Moving one man back and forth loses (`moveRepetitionIllegal`, janggi).
    pub move_repetition_illegal: bool,
}

impl RepetitionRules {
    /// True when a repetition is not simply a draw for both sides.
    pub fn scored(&self) -> bool {
        self.value != GameValue::Draw
            || self.perpetual_check_illegal
            || self.chasing.is_some()
            || self.move_repetition_illegal
    }
}

impl GameValue {
    /// The same result seen from the other side.
    pub fn opposite(self) -> GameValue {
        match self {
            GameValue::Win => GameValue::Loss,
            GameValue::Loss => GameValue::Win,
            other => other,
        }
    }
}
