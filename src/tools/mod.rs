//! Command-line tools: perft, bench, book listing, eval, EPD suites, datagen, training and game analysis. Each returns text or
//! a one-line error.

pub mod analyze;
pub mod bench;
pub mod book;
pub mod data;
pub mod datagen;
pub mod epd;
pub mod eval;
pub mod format;
pub mod perft;
pub mod train;
