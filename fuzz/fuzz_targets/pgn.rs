//! PGN reading: any bytes give games or located errors; every game read writes PGN that reads
//! back to the same game.
#![no_main]

include!("../properties.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| pgn(data));
