//! Command-line tools: perft, bench, eval, EPD suites. Each returns text or a one-line error.

pub mod bench;
pub mod epd;
pub mod eval;
pub mod perft;
