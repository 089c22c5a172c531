//! Unit tests on small inline reports, and the dialect suite on the real reports in
//! `tests/fixtures/junit/<dialect>/` (see the README there for how each was produced):
//! in every dialect the head lost one test, skipped one and renamed one.

use std::path::{Path, PathBuf};

use super::*;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/junit")
}

/// The full `error:`/`hint:` text a user would see for `error` (as `Ui::print_error`
/// prints it without colour; the words layer is above this module).
fn shown(error: &anyhow::Error) -> String {
    let chain: Vec<String> = error.chain().map(ToString::to_string).collect();
    let mut text = format!("error: {}\n", chain.join(": "));
    for line in crate::exit::hint_of(error).unwrap_or_default().lines() {
        text.push_str(&format!("hint: {line}\n"));
    }
    text
}

fn set(side: Side, files: &[(&str, &str)]) -> anyhow::Result<ReportSet> {
    ReportSet::from_reports(
        side,
        "inline",
        files
            .iter()
            .map(|(name, xml)| (PathBuf::from(name), xml.as_bytes().to_vec())),
    )
}

fn cases(xml: &str) -> Vec<(String, String, Status)> {
    junit::parse(Path::new("r.xml"), xml)
        .unwrap()
        .into_iter()
        .map(|c| (c.id.classname, c.id.name, c.status))
        .collect()
}

fn id(classname: &str, name: &str) -> TestId {
    TestId::new(classname, name)
}

// ---- the reader -------------------------------------------------------------------

#[test]
fn reads_a_testsuites_root_and_a_testsuite_root() {
    let wrapped = r#"<?xml version="1.0"?><testsuites><testsuite name="s">
        <testcase classname="a.B" name="one"/><testcase classname="a.B" name="two"></testcase>
        </testsuite></testsuites>"#;
    let bare = r#"<testsuite name="s" tests="2"><properties><property name="k" value="v"/></properties>
        <testcase classname="a.B" name="one" time="0,5"/><testcase classname="a.B" name="two"/>
        <system-out><![CDATA[<testcase name="not-a-test"/>]]></system-out></testsuite>"#;
    let expected = vec![
        ("a.B".to_string(), "one".to_string(), Status::Passed),
        ("a.B".to_string(), "two".to_string(), Status::Passed),
    ];
    assert_eq!(cases(wrapped), expected);
    assert_eq!(cases(bare), expected);
}

#[test]
fn outcome_comes_from_the_direct_children_error_failure_skipped_in_that_order() {
    let xml = r#"<testsuites><testsuite name="s">
        <testcase classname="c" name="failed"><failure message="boom">trace</failure></testcase>
        <testcase classname="c" name="errored"><error/></testcase>
        <testcase classname="c" name="skipped"><skipped/></testcase>
        <testcase classname="c" name="xfail"><skipped type="pytest.xfail" message="later"/></testcase>
        <testcase classname="c" name="teardown"><skipped/><error message="teardown"/></testcase>
        <testcase classname="c" name="flaky"><flakyFailure message="once"/><system-out>x</system-out></testcase>
        <testcase classname="c" name="rerun-failed"><failure/><rerunFailure/></testcase>
        </testsuite></testsuites>"#;
    let statuses: Vec<_> = cases(xml).into_iter().map(|(_, n, s)| (n, s)).collect();
    assert_eq!(
        statuses,
        [
            ("failed", Status::Failed),
            ("errored", Status::Error),
            ("skipped", Status::Skipped),
            ("xfail", Status::Skipped),
            ("teardown", Status::Error),
            ("flaky", Status::Passed),
            ("rerun-failed", Status::Failed),
        ]
        .map(|(n, s)| (n.to_string(), s))
    );
}

#[test]
fn parametrised_names_and_entities_are_kept_exactly() {
    let xml = r#"<testsuites><testsuite name="s">
        <testcase classname="t.m" name="test_x[a-b]"/>
        <testcase classname="t.m" name="test_x[a&amp;b&#x20;&quot;c&quot;]"/>
        <testcase classname="E" name="[1] cents=10, expected=1"/>
        </testsuite></testsuites>"#;
    let names: Vec<_> = cases(xml).into_iter().map(|(_, n, _)| n).collect();
    assert_eq!(
        names,
        [
            "test_x[a-b]",
            "test_x[a&b \"c\"]",
            "[1] cents=10, expected=1"
        ]
    );
}

#[test]
fn a_case_without_classname_takes_the_innermost_suite_name() {
    let xml = r#"<testsuites><testsuite name="outer"><testsuite name="inner">
        <testcase name="deep"/></testsuite><testcase name="shallow"/></testsuite></testsuites>"#;
    assert_eq!(
        cases(xml),
        [
            ("inner".to_string(), "deep".to_string(), Status::Passed),
            ("outer".to_string(), "shallow".to_string(), Status::Passed),
        ]
    );
}

#[test]
fn truncated_report_names_file_line_and_what_is_left_open() {
    let text = std::fs::read_to_string(fixtures().join("jest/base.xml")).unwrap();
    // Cut after a complete start tag: well-formed so far, but unclosed.
    let cut = text.find("<testcase classname=\"invoice total\"").unwrap();
    let end = cut + text[cut..].find('>').unwrap() + 1;
    let err = junit::parse(Path::new("jest/base.xml"), &text[..end]).unwrap_err();
    let out = shown(&err);
    assert!(
        out.starts_with(&format!(
            "error: jest/base.xml:6:{}: truncated test report: the file ends before <testcase> (line 6) is closed\n",
            end - cut + 5
        )),
        "{out}"
    );
    assert!(
        out.contains("\nhint: the file is not complete JUnit XML"),
        "{out}"
    );

    // Cut inside a tag.
    let err = junit::parse(Path::new("r.xml"), &text[..cut + 12]).unwrap_err();
    let out = shown(&err);
    assert!(
        out.starts_with("error: r.xml:6:5: malformed test report: "),
        "{out}"
    );
}

#[test]
fn malformed_report_names_file_line_and_column() {
    let xml = "<testsuites>\n  <testsuite name=\"s\">\n    <testcase name=\"a\"></testsuite>\n</testsuites>\n";
    let out = shown(&junit::parse(Path::new("out/r.xml"), xml).unwrap_err());
    assert!(
        out.starts_with(
            "error: out/r.xml:3:24: malformed test report: ill-formed document: expected `</testcase>`, but `</testsuite>` was found\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("hint: the file is not complete JUnit XML"),
        "{out}"
    );

    let out = shown(
        &junit::parse(
            Path::new("r.xml"),
            "<testsuites><testcase name=\"a\" name=\"b\"/></testsuites>",
        )
        .unwrap_err(),
    );
    assert!(
        out.starts_with("error: r.xml:1:13: malformed test report: "),
        "{out}"
    );
}

#[test]
fn other_roots_an_empty_file_and_a_nameless_case_are_refused() {
    let out = shown(&junit::parse(Path::new("index.html"), "<html><body/></html>").unwrap_err());
    assert!(
        out.starts_with(
            "error: index.html:1:1: not a JUnit XML report: the root element is <html>"
        ),
        "{out}"
    );
    assert!(
        out.contains("hint: point the pattern at the JUnit XML files"),
        "{out}"
    );

    let out = shown(&junit::parse(Path::new("r.xml"), "").unwrap_err());
    assert!(
        out.starts_with(
            "error: r.xml: malformed test report: the file holds no XML element (it is empty)"
        ),
        "{out}"
    );

    let out = shown(
        &junit::parse(
            Path::new("r.xml"),
            "<testsuite name=\"s\">\n<testcase classname=\"c\"/></testsuite>",
        )
        .unwrap_err(),
    );
    assert!(
        out.starts_with("error: r.xml:2:1: malformed test report: a <testcase> without a name"),
        "{out}"
    );
}

#[test]
fn line_col_counts_characters() {
    assert_eq!(junit::line_col("ab\ncé<x", 6), (2, 3));
    assert_eq!(junit::line_col("ab\ncé<x", 7), (2, 4));
    assert_eq!(junit::line_col("", 10), (1, 1));
}

// ---- a side: several files, duplicates, no tests ------------------------------------------

#[test]
fn reports_with_no_test_case_are_an_error_not_a_pass() {
    for xml in [
        "<testsuites/>",
        "<testsuites name=\"jest tests\" tests=\"0\"></testsuites>",
        "<testsuite name=\"pytest\" tests=\"0\" errors=\"0\"/>",
    ] {
        let out = shown(&set(Side::Head, &[("a.xml", xml), ("b.xml", xml)]).unwrap_err());
        assert!(
            out.starts_with(
                "error: the head test reports hold no test case: 2 files matched by `inline`\n"
            ),
            "{out}"
        );
        assert!(out.contains("hint: an empty report is not a pass"), "{out}");
        assert!(out.contains("--results"), "{out}");
    }
    let out = shown(&set(Side::Base, &[("a.xml", "<testsuites/>")]).unwrap_err());
    assert!(out.contains("1 file matched"), "{out}");
    assert!(out.contains("--baseline"), "{out}");
}

#[test]
fn a_test_seen_twice_ran_if_either_occurrence_ran() {
    let a = r#"<testsuites><testsuite name="s"><testcase classname="c" name="t"><skipped/></testcase>
        <testcase classname="c" name="u"><skipped/></testcase></testsuite></testsuites>"#;
    let b = r#"<testsuites><testsuite name="s"><testcase classname="c" name="t"/>
        <testcase classname="c" name="u"><skipped/></testcase></testsuite></testsuites>"#;
    let side = set(Side::Head, &[("a.xml", a), ("b.xml", b)]).unwrap();
    assert_eq!(side.status(&id("c", "t")), Some(Status::Passed));
    assert_eq!(side.status(&id("c", "u")), Some(Status::Skipped));
    assert_eq!(side.len(), 2);
    assert_eq!(side.counts.total, 4);
    assert_eq!(side.counts.skipped, 3);
    assert_eq!(side.files, [PathBuf::from("a.xml"), PathBuf::from("b.xml")]);
    assert_eq!(Status::Failed.merge(Status::Passed), Status::Failed);
    assert_eq!(Status::Skipped.merge(Status::Error), Status::Error);
}

#[test]
fn a_pattern_that_matches_nothing_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("reports.xml")).unwrap(); // a directory is no report
    let out = shown(&ReportSet::load(dir.path(), "reports*.xml", Side::Head).unwrap_err());
    assert!(
        out.starts_with("error: --results `reports*.xml` matches no file (in "),
        "{out}"
    );
    assert!(
        out.contains("hint: check where the test job writes its JUnit XML"),
        "{out}"
    );

    let out = shown(&ReportSet::load(dir.path(), "base/**/*.xml", Side::Base).unwrap_err());
    assert!(
        out.starts_with("error: --baseline `base/**/*.xml` matches no file"),
        "{out}"
    );
    assert!(
        out.contains("hint: produce the base reports from the base commit"),
        "{out}"
    );

    let out = shown(&ReportSet::load(dir.path(), "a/***/b", Side::Head).unwrap_err());
    assert!(
        out.starts_with("error: invalid --results pattern `a/***/b`: "),
        "{out}"
    );
    assert!(out.contains("hint: patterns use `*`"), "{out}");
}

#[test]
fn a_root_with_glob_characters_is_taken_literally() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("build [x]");
    std::fs::create_dir(&root).unwrap();
    std::fs::write(
        root.join("r.xml"),
        r#"<testsuite name="s"><testcase classname="c" name="t"/></testsuite>"#,
    )
    .unwrap();
    let side = ReportSet::load(&root, "*.xml", Side::Head).unwrap();
    assert_eq!(side.files, [root.join("r.xml")]);
    let absolute = format!("{}/*.xml", glob::Pattern::escape(&root.to_string_lossy()));
    assert_eq!(
        ReportSet::load(Path::new("/"), &absolute, Side::Head)
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn an_unreadable_or_malformed_file_fails_the_whole_side() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a.xml"),
        "<testsuite name=\"s\"><testcase name=\"t\"/></testsuite>",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("b.xml"),
        "<testsuite name=\"s\"><testcase name=\"u\"/>",
    )
    .unwrap();
    let out = shown(&ReportSet::load(dir.path(), "*.xml", Side::Head).unwrap_err());
    assert!(
        out.contains(
            "/b.xml:1:41: truncated test report: the file ends before <testsuite> (line 1)"
        ),
        "{out}"
    );
}

// ---- the comparison -------------------------------------------------------------------

const BASE: &str = r#"<testsuites><testsuite name="s">
    <testcase classname="m" name="kept"/>
    <testcase classname="m" name="gone"/>
    <testcase classname="m" name="gone_failing"><failure/></testcase>
    <testcase classname="m" name="old_name"/>
    <testcase classname="m" name="now_skipped"/>
    <testcase classname="m" name="failing_now_skipped"><failure/></testcase>
    <testcase classname="m" name="skipped_then_gone"><skipped/></testcase>
    <testcase classname="m" name="skipped_then_run"><skipped/></testcase>
    <testcase classname="m" name="still_skipped"><skipped/></testcase>
    </testsuite></testsuites>"#;

const HEAD: &str = r#"<testsuites><testsuite name="s">
    <testcase classname="m" name="kept"/>
    <testcase classname="m" name="new_name"/>
    <testcase classname="m" name="now_skipped"><skipped/></testcase>
    <testcase classname="m" name="failing_now_skipped"><skipped/></testcase>
    <testcase classname="m" name="skipped_then_run"/>
    <testcase classname="m" name="still_skipped"><skipped/></testcase>
    </testsuite></testsuites>"#;

#[test]
fn compare_finds_vanished_newly_skipped_added_and_dropped() {
    let base = set(Side::Base, &[("base.xml", BASE)]).unwrap();
    let head = set(Side::Head, &[("head.xml", HEAD)]).unwrap();
    let c = compare(&base, &head);
    assert_eq!(
        c.vanished,
        [
            Vanished {
                id: id("m", "gone"),
                base: Status::Passed
            },
            Vanished {
                id: id("m", "gone_failing"),
                base: Status::Failed
            },
            Vanished {
                id: id("m", "old_name"),
                base: Status::Passed
            },
        ]
    );
    assert_eq!(
        c.newly_skipped,
        [
            NewlySkipped {
                id: id("m", "failing_now_skipped"),
                base: Status::Failed
            },
            NewlySkipped {
                id: id("m", "now_skipped"),
                base: Status::Passed
            },
        ]
    );
    assert_eq!(
        c.added,
        [Added {
            id: id("m", "new_name"),
            head: Status::Passed
        }]
    );
    assert_eq!(c.dropped_skipped, [id("m", "skipped_then_gone")]);
    assert_eq!(
        c.base,
        Counts {
            total: 9,
            passed: 4,
            failed: 2,
            errors: 0,
            skipped: 3
        }
    );
    assert_eq!(
        c.head,
        Counts {
            total: 6,
            passed: 3,
            failed: 0,
            errors: 0,
            skipped: 3
        }
    );
    assert!(!c.is_clean());
}

#[test]
fn same_tests_compare_clean_whatever_their_order_time_and_new_failures() {
    let base = set(Side::Base, &[("b.xml", BASE)]).unwrap();
    let mut lines: Vec<&str> = BASE.lines().collect();
    lines[1..9].reverse();
    let reordered = lines.join("\n").replace("/>", " time=\"9.5\"/>");
    let head = set(Side::Head, &[("h.xml", &reordered)]).unwrap();
    let c = compare(&base, &head);
    assert!(c.is_clean(), "{c:?}");
    assert!(c.added.is_empty() && c.dropped_skipped.is_empty());
    assert_eq!(c.base, c.head);
}

#[test]
fn the_comparison_serialises_without_prose() {
    let base = set(Side::Base, &[("b.xml", BASE)]).unwrap();
    let head = set(Side::Head, &[("h.xml", HEAD)]).unwrap();
    let json = serde_json::to_value(compare(&base, &head)).unwrap();
    assert_eq!(
        json["vanished"][0],
        serde_json::json!({"id": {"classname": "m", "name": "gone"}, "base": "passed"})
    );
    assert_eq!(json["head"]["total"], 6);
}

// ---- the dialects, as the real tools write them ---------------------------------------------

/// One dialect's expectations: (classname, name) lists.
struct Dialect {
    dir: &'static str,
    base: &'static str,
    head: &'static str,
    vanished: &'static [(&'static str, &'static str)],
    newly_skipped: &'static [(&'static str, &'static str)],
    added: &'static [(&'static str, &'static str)],
    counts: [(usize, usize); 2], // (total, skipped) at base, at head
}

fn ids(list: &[(&str, &str)]) -> Vec<TestId> {
    let mut ids: Vec<TestId> = list.iter().map(|(c, n)| id(c, n)).collect();
    ids.sort();
    ids
}

fn check(d: &Dialect) {
    let root = fixtures().join(d.dir);
    let base = ReportSet::load(&root, d.base, Side::Base).unwrap();
    let head = ReportSet::load(&root, d.head, Side::Head).unwrap();
    let c = compare(&base, &head);
    let got = |v: Vec<TestId>| v;
    assert_eq!(
        got(c.vanished.iter().map(|v| v.id.clone()).collect()),
        ids(d.vanished),
        "{}: vanished",
        d.dir
    );
    assert_eq!(
        got(c.newly_skipped.iter().map(|v| v.id.clone()).collect()),
        ids(d.newly_skipped),
        "{}: newly skipped",
        d.dir
    );
    assert_eq!(
        got(c.added.iter().map(|v| v.id.clone()).collect()),
        ids(d.added),
        "{}: added",
        d.dir
    );
    assert_eq!(
        [
            (c.base.total, c.base.skipped),
            (c.head.total, c.head.skipped)
        ],
        d.counts,
        "{}: counts",
        d.dir
    );
    assert!(c.vanished.iter().all(|v| v.base == Status::Passed));
    // Each side against itself is clean.
    assert!(compare(&base, &base).is_clean() && compare(&head, &head).is_clean());
}

#[test]
fn pytest_junitxml() {
    // Head: test_tax_rate deselected by `addopts` (no test file touched), test_total
    // renamed, test_currency_table `@pytest.mark.skip`, TestRefund `xfail(run=False)`.
    check(&Dialect {
        dir: "pytest",
        base: "base.xml",
        head: "head.xml",
        vanished: &[
            ("tests.test_invoice", "test_tax_rate"),
            ("tests.test_invoice", "test_total"),
        ],
        newly_skipped: &[
            ("tests.test_invoice", "test_currency_table"),
            ("tests.test_invoice.TestRefund", "test_refund_rounds"),
        ],
        added: &[("tests.test_invoice", "test_invoice_total")],
        counts: [(8, 2), (7, 4)],
    });
    let base = ReportSet::load(&fixtures().join("pytest"), "base.xml", Side::Base).unwrap();
    assert_eq!(
        base.status(&id("tests.test_invoice", "test_round[a-b]")),
        Some(Status::Skipped)
    );
    assert_eq!(
        base.status(&id("tests.test_invoice", "test_negative")),
        Some(Status::Skipped),
        "xfail is reported (and counted) as skipped"
    );
}

#[test]
fn pytest_collection_error_loses_every_test_of_the_module() {
    // A real pytest run whose test module fails to import: one <error> case with an
    // empty classname stands for the module, and every test in it is gone.
    let root = fixtures().join("pytest");
    let base = ReportSet::load(&root, "base.xml", Side::Base).unwrap();
    let head = ReportSet::load(&root, "head-collection-error.xml", Side::Head).unwrap();
    let c = compare(&base, &head);
    assert_eq!(c.vanished.len(), 6, "{c:?}");
    assert_eq!(
        c.dropped_skipped,
        [
            id("tests.test_invoice", "test_negative"),
            id("tests.test_invoice", "test_round[a-b]")
        ]
    );
    assert_eq!(
        c.added,
        [Added {
            id: id("", "tests.test_invoice"),
            head: Status::Error
        }]
    );
    assert_eq!((c.head.total, c.head.errors), (1, 1));
}

#[test]
fn jest_junit() {
    // jest-junit's default naming: classname and name are both "<describe> <test>".
    // `test.todo` is written as a passing case (no <skipped>) by jest-junit 16.
    check(&Dialect {
        dir: "jest",
        base: "base.xml",
        head: "head.xml",
        vanished: &[
            ("invoice tax rate", "invoice tax rate"),
            ("invoice total", "invoice total"),
        ],
        newly_skipped: &[("invoice currency table", "invoice currency table")],
        added: &[("invoice invoice total", "invoice invoice total")],
        counts: [(7, 0), (6, 1)],
    });
}

#[test]
fn gotestsum_junitfile() {
    check(&Dialect {
        dir: "gotestsum",
        base: "base.xml",
        head: "head.xml",
        vanished: &[
            ("example.com/invoice", "TestTaxRate"),
            ("example.com/invoice", "TestTotal"),
        ],
        newly_skipped: &[("example.com/invoice", "TestCurrencyTable")],
        added: &[("example.com/invoice", "TestInvoiceTotal")],
        counts: [(6, 0), (5, 1)],
    });
}

#[test]
fn cargo_nextest_junit() {
    // nextest leaves ignored tests out of its JUnit report altogether, so the test that
    // gained `#[ignore]` shows as vanished, not as newly skipped: it still blocks.
    check(&Dialect {
        dir: "nextest",
        base: "base.xml",
        head: "head.xml",
        vanished: &[
            ("invoice", "tests::tax_rate"),
            ("invoice", "tests::total_adds_tax"),
            ("invoice", "tests::currency_table"),
        ],
        newly_skipped: &[],
        added: &[("invoice", "tests::invoice_total")],
        counts: [(4, 0), (2, 0)],
    });
}

#[test]
fn maven_surefire_several_files_per_side() {
    check(&Dialect {
        dir: "surefire",
        base: "base/TEST-*.xml",
        head: "head/TEST-*.xml",
        vanished: &[
            ("example.InvoiceTest", "taxRate"),
            ("example.InvoiceTest", "total"),
        ],
        newly_skipped: &[("example.InvoiceTest", "currencyTable")],
        added: &[("example.InvoiceTest", "invoiceTotal")],
        counts: [(4, 0), (3, 1)],
    });
    let head = ReportSet::load(&fixtures().join("surefire"), "head/*.xml", Side::Head).unwrap();
    assert_eq!(head.files.len(), 2);
}

#[test]
fn gradle_recorded() {
    check(&Dialect {
        dir: "gradle",
        base: "base/TEST-*.xml",
        head: "head/TEST-*.xml",
        vanished: &[
            ("example.InvoiceTest", "taxRate()"),
            ("example.InvoiceTest", "total()"),
        ],
        newly_skipped: &[("example.InvoiceTest", "currencyTable()")],
        added: &[("example.InvoiceTest", "invoiceTotal()")],
        counts: [(5, 0), (4, 1)],
    });
}

#[test]
fn every_fixture_dialect_is_tested() {
    let tested = [
        "pytest",
        "jest",
        "gotestsum",
        "nextest",
        "surefire",
        "gradle",
    ];
    for entry in std::fs::read_dir(fixtures()).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_dir() {
            let name = entry.file_name().into_string().unwrap();
            assert!(
                tested.contains(&name.as_str()),
                "fixtures/junit/{name} has no test"
            );
        }
    }
}

#[test]
fn a_whole_fixtures_tree_loads_with_double_star() {
    let all = ReportSet::load(&fixtures(), "**/*.xml", Side::Head).unwrap();
    assert_eq!(all.files.len(), 15);
}

#[test]
fn bad_entities_and_non_xml_are_malformed() {
    let out = shown(
        &junit::parse(
            Path::new("r.xml"),
            "<testsuites><testcase name=\"a&bogus;\"/></testsuites>",
        )
        .unwrap_err(),
    );
    assert!(
        out.starts_with("error: r.xml:1:13: malformed test report: ") && out.contains("bogus"),
        "{out}"
    );
    let out = shown(&junit::parse(Path::new("r.zip"), "PK\u{3}\u{4}binary").unwrap_err());
    assert!(
        out.starts_with("error: r.zip: malformed test report: the file holds no XML element\n"),
        "{out}"
    );
}

#[test]
fn a_byte_order_mark_a_doctype_and_comments_are_fine() {
    let xml = "\u{feff}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE testsuites>\n<!-- written by a tool -->\n\
               <testsuites><testsuite name=\"s\"><testcase classname=\"c\" name=\"t\"/></testsuite></testsuites>\n";
    assert_eq!(
        cases(xml),
        [("c".to_string(), "t".to_string(), Status::Passed)]
    );
}
