//! XBetza parser (in progress).
