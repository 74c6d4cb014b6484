//! The GUI protocols end to end: UCI and XBoard sessions, transcripts, bad and hostile input, net files.
//!
//! One test binary per area (see docs/contributing.md): each file below was once a binary of
//! its own; linking a few binaries instead of dozens is most of what a clean build of the tests costs.

#[path = "../session/mod.rs"]
mod session;

mod bad_input;
mod clients;
mod evalfile;
mod hostile_web;
mod protocol_fuzz;
mod skill;
mod transcripts;
mod web_session;
