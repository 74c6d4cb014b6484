//! Rules of play: move generation, perft against independent references, FEN, variant files and every built-in family.
//!
//! One test binary per area (see docs/contributing.md): each file below was once a binary of
//! its own; linking a few binaries instead of dozens is most of what a clean build of the tests costs.

#[path = "../common/mod.rs"]
mod common;
#[path = "../fsf_epd/mod.rs"]
mod fsf_epd;
#[path = "../reference/mod.rs"]
mod reference;
#[path = "../session/mod.rs"]
mod session;
#[path = "../support/mod.rs"]
mod support;

mod alice;
mod aliceguard;
mod boardgames;
mod fen;
mod fsf_castling;
mod fsf_chesslike;
mod fsf_compat;
mod fsf_diff;
mod fsf_hands;
mod fsf_petrify;
mod fsf_sections;
mod fuzz;
mod inheritance;
mod kinship;
mod makruk;
mod move_text;
mod pawnvault;
mod perft;
mod pioneer;
mod props;
mod repetition_rules;
mod shogi;
mod vanguard;
mod vanguard_rules;
mod variants;
mod xbetza;
mod xiangqi;
