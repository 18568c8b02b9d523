//! Command-line tools: perft, bench, eval, EPD suites, datagen and training. Each returns text or
//! a one-line error.

pub mod bench;
pub mod data;
pub mod datagen;
pub mod epd;
pub mod eval;
pub mod perft;
pub mod train;
