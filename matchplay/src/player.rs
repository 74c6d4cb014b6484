//! What the referee asks of an engine, whatever its protocol: start a game, choose a move
//! under the clock, hear the result, quit. The UCI and XBoard drivers implement [`Player`];
//! moves cross this boundary in Chimera's coordinate notation (ranks counted from 1), and each
//! driver converts to its protocol's dialect.

use std::time::Duration;

use chimera_engine::VariantRef;

use crate::clock::{Clocks, TimeControl};

/// Extra per-engine search limits (`depth=`, `nodes=` in the engine's spec).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Search depth in plies.
    pub depth: Option<u32>,
    /// Nodes per move (UCI only).
    pub nodes: Option<u64>,
}

/// The game being started.
#[derive(Clone)]
pub struct GameSetup {
    /// The variant.
    pub variant: VariantRef,
    /// The starting FEN, or `None` for the variant's own start position.
    pub fen: Option<String>,
    /// Moves already played from that position before the engines take over (the opening),
    /// in coordinate notation.
    pub opening: Vec<String>,
    /// The match's time control: the first engine's (the PGN's `TimeControl` tag).
    pub tc: TimeControl,
    /// Each colour's own control (index 0 = White): they differ when one engine was given
    /// time odds (`tc=` in its spec).
    pub side_tc: [TimeControl; 2],
}

/// One request for a move.
pub struct Turn<'a> {
    /// The game.
    pub setup: &'a GameSetup,
    /// Every move of the game so far, opening included, in coordinate notation.
    pub moves: &'a [String],
    /// The clocks; index 0 is White.
    pub clocks: &'a Clocks,
    /// The side to move, 0 for White.
    pub side: usize,
    /// Give up waiting after this long.
    pub wait: Duration,
}

/// What an engine answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A move, in the engine's own notation already converted to coordinates, and the time
    /// it took.
    Move(String, Duration),
    /// The engine resigned.
    Resign,
    /// The engine claimed a result (XBoard `1-0 {...}` and so on).
    Claim(String, String),
    /// The engine called a legal move of its opponent illegal (XBoard `Illegal move`).
    Rejected(String),
    /// The engine did not answer in time.
    NoReply,
    /// The engine's process ended.
    Crashed,
}

/// An engine under the referee's control.
pub trait Player: Send {
    /// Its name in the PGN and the progress lines.
    fn name(&self) -> &str;
    /// Prepares a new game in which the engine plays `side` (0 = White) and waits until it is
    /// ready.
    fn new_game(&mut self, setup: &GameSetup, side: usize) -> Result<(), String>;
    /// Asks for a move.
    fn play(&mut self, turn: &Turn) -> Reply;
    /// Tells the engine the game is over.
    fn game_over(&mut self, result: &str, reason: &str);
    /// Whether the process still runs (a crashed engine is restarted between games).
    fn alive(&mut self) -> bool;
    /// Ends the engine (politely, then by force).
    fn quit(&mut self);
}
