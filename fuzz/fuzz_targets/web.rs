//! The web API: any method, path, content type and body through the router (no network):
//! no panic, no 500, every error JSON.
#![no_main]

include!("../properties.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| web(data));
