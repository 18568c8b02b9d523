//! Evaluation and search speed: the hand-crafted evaluation, the NNUE's full refresh,
//! incremental update and forward pass, and a fixed-depth search.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use fianchetto::chess::{Board, Game};
use fianchetto::eval::evaluate;
use fianchetto::eval::nnue::{default_net, Accumulator, AccumulatorStack};
use fianchetto::search::{Limits, Searcher};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn benches(c: &mut Criterion) {
    let kiwi = Board::from_fen(KIWIPETE).unwrap();
    c.bench_function("evaluate kiwipete", |b| {
        b.iter(|| evaluate(black_box(&kiwi)))
    });
    let net = default_net();
    c.bench_function("nnue full refresh kiwipete", |b| {
        b.iter(|| Accumulator::refresh(black_box(&net), black_box(&kiwi)))
    });
    // One quiet move and one capture made and evaluated on top of a refreshed root: the
    // incremental path the search takes at every node.
    let quiet = kiwi.parse_uci("e2d3").unwrap();
    let capture = kiwi.parse_uci("e5f7").unwrap();
    let mut stack = AccumulatorStack::new(net.clone(), 8);
    stack.reset(&kiwi);
    for (name, m) in [("quiet", quiet), ("capture", capture)] {
        let child = kiwi.make_move(m);
        c.bench_function(
            &format!("nnue incremental update + evaluate ({name})"),
            |b| {
                b.iter(|| {
                    stack.push(1, black_box(&kiwi), m);
                    stack.evaluate(black_box(&child), 1)
                })
            },
        );
    }
    let acc = Accumulator::refresh(&net, &kiwi);
    let (stm, other) = (
        acc.side(kiwi.side_to_move()).to_vec(),
        acc.side(!kiwi.side_to_move()).to_vec(),
    );
    c.bench_function("nnue forward pass", |b| {
        b.iter(|| net.output(black_box(&stm), black_box(&other), net.bucket_of(&kiwi)))
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
