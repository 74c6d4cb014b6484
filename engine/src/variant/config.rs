//! INI variant configuration (in progress).
