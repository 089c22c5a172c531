//! Test-report comparison cost: two JUnit XML reports of 50,000 test cases each (base and
//! head) read from disk, parsed and compared. The target is under one second.
//!
//! The reports are generated deterministically in pytest's dialect, spread over 500
//! modules with parametrised ids, a skipped case every 50 and a failure with its
//! traceback every 500; the head loses 100 tests, skips 100 more and renames 100.
//!
//! Run: cargo bench --bench reports

#![allow(missing_docs)] // criterion_group! generates undocumented items

use std::fmt::Write as _;
use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use git_guard::reports::{ReportSet, Side, compare};

const CASES: usize = 50_000;

/// A pytest-style report of `CASES` test cases; `head` applies the weakening edits.
fn report(head: bool) -> String {
    let mut xml = String::with_capacity(CASES * 160);
    xml.push_str(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><testsuites><testsuite name=\"pytest\" errors=\"0\" \
         failures=\"100\" skipped=\"1000\" tests=\"50000\" time=\"812.5\" \
         timestamp=\"2026-12-03T06:00:00.000000+00:00\" hostname=\"ci\">",
    );
    for i in 0..CASES {
        if head && i % 500 == 7 {
            continue; // vanished: 100 tests
        }
        let module = i / 100;
        let class = format!("tests.pkg{:02}.test_module_{module:03}", module / 20);
        let name = if head && i % 500 == 9 {
            format!("test_renamed_{i}") // renamed: 100 tests
        } else {
            format!("test_case_{}[region-{}-{}]", i / 10, i % 10, i % 7)
        };
        let _ = write!(
            xml,
            "<testcase classname=\"{class}\" name=\"{name}\" time=\"0.{:03}\"",
            i % 1000
        );
        let skipped = i % 50 == 3 || (head && i % 500 == 11);
        if skipped {
            let _ = write!(
                xml,
                "><skipped type=\"pytest.skip\" message=\"needs network\">tests/pkg/test_module_{module:03}.py:{}: needs network</skipped></testcase>",
                i % 300
            );
        } else if i % 500 == 13 {
            let _ = write!(
                xml,
                "><failure message=\"assert 1 == 2\">def test_case():\n&gt;       assert compute({i}) == 2\nE       assert 1 == 2\n\ntests/test_module_{module:03}.py:{}: AssertionError</failure></testcase>",
                i % 300
            );
        } else {
            xml.push_str(" />");
        }
    }
    xml.push_str("</testsuite></testsuites>");
    xml
}

fn load_and_compare(dir: &Path) -> usize {
    let base = ReportSet::load(dir, "base/*.xml", Side::Base).expect("base loads");
    let head = ReportSet::load(dir, "head/*.xml", Side::Head).expect("head loads");
    let c = compare(&base, &head);
    assert_eq!(
        (c.vanished.len(), c.newly_skipped.len(), c.added.len()),
        (200, 100, 100)
    );
    c.vanished.len()
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    for (side, head) in [("base", false), ("head", true)] {
        std::fs::create_dir(dir.path().join(side)).expect("mkdir");
        std::fs::write(dir.path().join(side).join("junit.xml"), report(head)).expect("write");
    }
    let bytes = std::fs::metadata(dir.path().join("base/junit.xml"))
        .expect("stat")
        .len()
        + std::fs::metadata(dir.path().join("head/junit.xml"))
            .expect("stat")
            .len();

    let mut group = c.benchmark_group("reports");
    group.sample_size(20);
    group.throughput(Throughput::Bytes(bytes));
    group.bench_function("load+compare 2x50k cases", |b| {
        b.iter(|| load_and_compare(dir.path()))
    });
    let base = ReportSet::load(dir.path(), "base/*.xml", Side::Base).expect("base loads");
    let head = ReportSet::load(dir.path(), "head/*.xml", Side::Head).expect("head loads");
    group.throughput(Throughput::Elements((CASES * 2) as u64));
    group.bench_function("compare only 2x50k cases", |b| {
        b.iter(|| compare(&base, &head).vanished.len())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
