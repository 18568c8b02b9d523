//! Evaluation and search speed.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use fianchetto::chess::{Board, Game};
use fianchetto::eval::evaluate;
use fianchetto::search::{Limits, Searcher};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn benches(c: &mut Criterion) {
    let kiwi = Board::from_fen(KIWIPETE).unwrap();
    c.bench_function("evaluate kiwipete", |b| {
        b.iter(|| evaluate(black_box(&kiwi)))
    });
    let mut g = c.benchmark_group("search");
    g.sample_size(10);
    g.bench_function("kiwipete depth 8", |b| {
        b.iter(|| {
            let limits = Limits {
                depth: Some(8),
                multipv: 1,
                ..Limits::default()
            };
            Searcher::new(16).search(&Game::new(kiwi), &limits, &mut |_| {})
        })
    });
    g.finish();
}

criterion_group!(group, benches);
criterion_main!(group);
