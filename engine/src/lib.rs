//! Chimera's rules core: the shared vocabulary (`types`), variants as data (`variant`), the
//! mailbox position (`board`), move generation and perft (`movegen`).
#![deny(missing_docs)]

pub mod types;
pub mod variant;
