//! Every integration test, one module per file of this folder, in one test binary: under
//! `cargo test --release` Cargo links each test binary with the `bench` profile's fat LTO, and
//! one binary instead of sixteen rebuilds the tests after a change to the library in 124 s
//! instead of 180 s on two cores (docs/development.md). `Cargo.toml` turns off the
//! discovery of test files (`autotests = false`), so a new file of tests is named here (the test
//! below fails until it is). `cargo test --release <module>::` runs one file's tests.

/// The helpers several files share: the binary run once, driven over UCI, and test games.
mod common {
    pub mod cli;
    pub mod engine;
    pub mod games;
}

mod analyze;
mod cli;
mod differential;
mod fuzz_seeds;
mod layers;
mod perft_suites;
mod promises;
mod properties;
mod screen;
mod search;
mod smp;
mod tui;
mod uci;
mod uci_protocol;
mod web;
mod web_server;

/// With discovery off, a test file that is not a module above would never be built or run.
#[test]
fn every_test_file_is_a_module_of_this_binary() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let this = std::fs::read_to_string(dir.join("main.rs")).expect("tests/main.rs reads");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("tests/ lists") {
        let path = entry.expect("a directory entry reads").path();
        let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        if path.extension().is_some_and(|e| e == "rs")
            && stem != "main"
            && !this.contains(&format!("\nmod {stem};\n"))
        {
            missing.push(stem.to_string());
        }
    }
    assert!(missing.is_empty(), "not in tests/main.rs: {missing:?}");
}
