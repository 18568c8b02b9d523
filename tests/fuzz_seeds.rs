//! Every committed fuzz seed, crash inputs included, checked against its target's property: the
//! fuzz targets' bodies (`fuzz/properties.rs`) run here too, so a fixed crash stays fixed without
//! a fuzzer installed.

include!("../fuzz/properties.rs");

fn seeds(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/seeds")
        .join(target);
    let mut v: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| {
            let p = e.unwrap().path();
            (p.display().to_string(), std::fs::read(&p).unwrap())
        })
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no seeds in {}", dir.display());
    v
}

fn check(target: &str, property: fn(&[u8])) {
    for (name, bytes) in seeds(target) {
        // A panic names the seed.
        let r = std::panic::catch_unwind(|| property(&bytes));
        assert!(r.is_ok(), "{target} seed {name} fails its property");
    }
}

#[test]
fn fen_seeds() {
    check("fen", fen);
}

#[test]
fn san_seeds() {
    check("san", san);
}

#[test]
fn uci_seeds() {
    check("uci", uci);
}

#[test]
fn pgn_seeds() {
    check("pgn", pgn);
}

#[test]
fn web_seeds() {
    check("web", web);
}

#[test]
fn net_seeds() {
    check("net", net);
}

#[test]
fn moves_seeds() {
    check("moves", moves);
}
