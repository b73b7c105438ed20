//! Perft benchmark: the start positions of every variant at the depths the README quotes
//! (shogi 5, sho 5, cannon shogi 4, wiki cannon shogi 4, Cannon Shosu 4, chu 3).
//! Run with `cargo bench --bench perft`.

use criterion::{Criterion, criterion_group, criterion_main};
use shishi::{Position, Variant, perft::perft};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    for (name, depth) in [
        ("shogi", 5),
        ("shoshogi", 5),
        ("cannonshogi", 4),
        ("cannonshogi-wiki", 4),
        ("cannonshosu", 4),
        ("chushogi", 3),
    ] {
        let v = Variant::by_name(name).expect("variant");
        g.bench_function(format!("{name}_d{depth}"), |b| {
            b.iter(|| {
                let mut p = Position::startpos(v);
                black_box(perft(&mut p, depth))
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
