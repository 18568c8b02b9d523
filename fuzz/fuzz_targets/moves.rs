//! Move sequences: two bytes a move, tried with `is_legal` on any 16 bits; legal ones are made.
//! At every step the incremental hash equals a recomputation, the FEN round-trips, and undoing
//! (replaying from the start) gives the same position.
#![no_main]

include!("../properties.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| moves(data));
