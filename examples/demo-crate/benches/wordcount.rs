use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use std::time::Duration;
use wordcount::{checksum, count_words};

fn benches(c: &mut Criterion) {
    let text = "the quick brown fox jumps over the lazy dog ".repeat(64);
    c.bench_function("count_words", |b| b.iter(|| count_words(black_box(&text))));

    let mut group = c.benchmark_group("checksum");
    for size in [256usize, 4096] {
        let data = vec![7u8; size];
        group.bench_with_input(BenchmarkId::from_parameter(size), &data, |b, d| {
            b.iter(|| checksum(black_box(d)))
        });
    }
    group.finish();
}

criterion_group! {
    name = wordcount;
    // Short measurements keep the demo and the tests quick; the history absorbs the noise.
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_millis(400));
    targets = benches
}
criterion_main!(wordcount);
