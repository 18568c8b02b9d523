//! Command-line tools: perft, bench, eval, EPD suites, datagen, training and game analysis. Each returns text or
//! a one-line error.

pub mod analyze;
pub mod bench;
pub mod data;
pub mod datagen;
pub mod epd;
pub mod eval;
pub mod format;
pub mod perft;
pub mod train;
