//! Command-line tools: perft, bench, eval, EPD suites.

pub mod perft;
