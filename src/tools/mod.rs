//! Command-line tools: perft, bench, book listing, tablebase probes, eval, EPD suites, datagen, training and game analysis. Each returns text or
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
pub mod syzygy;
pub mod train;

/// 64 random bits from the clock's nanoseconds, mixed: a seed for draws that only need to
/// differ from run to run (book moves, a weakened engine's moves, a random Chess960 start).
pub fn clock_random() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    datagen::SplitMix::new(nanos).next_u64()
}
