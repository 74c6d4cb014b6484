//! Real front-ends: the web board in headless Chromium and XBoard under Xvfb (each skips loudly without them).
//!
//! One test binary per area (see docs/contributing.md): each file below was once a binary of
//! its own; linking a few binaries instead of dozens is most of what a clean build of the tests costs.
mod serve_browser;
mod xboard_gui;
