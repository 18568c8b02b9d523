//! Net files: any bytes are a net or an error, and a net that loads evaluates without panicking.
//! Each input is tried as it is and with a correct checksum appended, so that the fuzzer gets
//! past the checksum to the header and size checks behind it.
#![no_main]

include!("../properties.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| net(data));
