//! Path-matcher cost: the default policy against 100,000 repository paths.
//!
//! Run: cargo bench --bench matcher

#![allow(missing_docs)] // criterion_group! generates undocumented items

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use git_guard::config::Protect;
use git_guard::policy::Policy;

fn paths() -> Vec<Vec<u8>> {
    (0..100_000)
        .map(|i| {
            let (p, s) = (i / 2000, (i / 100) % 20);
            match i % 20 {
                0..=2 => format!("tests/pkg{p:03}/sub{s:02}/test_m{i:06}.py"),
                3 => format!("src/pkg{p:03}/sub{s:02}/__snapshots__/m{i:06}.snap"),
                4 => format!("docs/pkg{p:03}/sub{s:02}/m{i:06}.md"),
                _ => format!("src/pkg{p:03}/sub{s:02}/m{i:06}.py"),
            }
            .into_bytes()
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let paths = paths();
    let mut group = c.benchmark_group("matcher");
    group.throughput(Throughput::Elements(paths.len() as u64));
    group.bench_function("compile default policy", |b| {
        b.iter(|| Policy::new(&Protect::default().paths).map(|_| ()))
    });
    let policy = Policy::new(&Protect::default().paths).expect("default policy compiles");
    group.bench_function("match 100k paths", |b| {
        b.iter(|| paths.iter().filter(|p| policy.is_protected(p)).count())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
