//! Playing: the search, self-play games, the match runner, the net commands of the binary and
//! the Ray cluster runner that drives them (tools/cluster).
//!
//! One test binary per area (see docs/contributing.md): each file below was once a binary of
//! its own; linking a few binaries instead of dozens is most of what a clean build of the tests costs.
mod cluster;
mod matchplay;
mod nnue_cli;
mod search;
mod search_root;
mod selfplay;
