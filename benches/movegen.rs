//! Move generation and perft, next to cozy-chess (the fastest Rust generator) on the same positions.

#[path = "common/cozy.rs"]
mod cozy;

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use fianchetto::chess::perft::perft;
use fianchetto::chess::Board;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn benches(c: &mut Criterion) {
    let kiwi = Board::from_fen(KIWIPETE).unwrap();
    c.bench_function("legal_moves kiwipete", |b| {
        b.iter(|| black_box(&kiwi).legal_moves())
    });
    c.bench_function("count_legal_moves kiwipete", |b| {
        b.iter(|| black_box(&kiwi).count_legal_moves())
    });
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    g.bench_function("fianchetto startpos 5", |b| {
        b.iter(|| perft(&Board::startpos(), 5))
    });
    g.bench_function("fianchetto kiwipete 4", |b| b.iter(|| perft(&kiwi, 4)));
    let cozy_start = cozy_chess::Board::default();
    let cozy_kiwi = cozy_chess::Board::from_fen(KIWIPETE, false).unwrap();
    g.bench_function("cozy-chess startpos 5", |b| {
        b.iter(|| cozy::perft(&cozy_start, 5))
    });
    g.bench_function("cozy-chess kiwipete 4", |b| {
        b.iter(|| cozy::perft(&cozy_kiwi, 4))
    });
    g.finish();
}

criterion_group!(group, benches);
criterion_main!(group);
