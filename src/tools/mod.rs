//! The developer's wing: perft, bench, EPD suites, self-play data generation and the data
//! formats, training, and the small inspection tools (book listing, tablebase probes, the
//! evaluation report). Each writes through callbacks and returns a typed error.

pub mod bench;
pub mod book;
pub mod data;
pub mod datagen;
pub mod epd;
pub mod eval;
pub mod genfens;
pub mod perft;
pub mod rescore;
pub mod syzygy;
pub mod train;
