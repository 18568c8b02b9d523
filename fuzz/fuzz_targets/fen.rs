//! FEN and EPD parsing: any bytes give a board or an error, and a board writes a FEN that reads
//! back to the same board.
#![no_main]

include!("../properties.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| fen(data));
