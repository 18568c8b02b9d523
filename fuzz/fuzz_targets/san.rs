//! SAN and UCI move parsing on a few positions: any text gives a legal move or an error, and a
//! move found writes SAN that reads back to it.
#![no_main]

include!("../properties.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| san(data));
