//! UCI command lines: any bytes parse into a command or an error, and the numbers of any `go`
//! give limits and a time budget without overflow.
#![no_main]

include!("../properties.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| uci(data));
