//! Playing: the search, self-play games, the match runner and the net commands of the binary.
//!
//! One test binary per area (see docs/contributing.md): each file below was once a binary of
//! its own; linking a few binaries instead of dozens is most of what a clean build of the tests costs.
mod matchplay;
mod nnue_cli;
mod search;
mod search_root;
mod selfplay;
