//! The demo's small invoice project: its code, its test, the agent's patch, and the
//! runner configuration and test reports of step 5.

pub(super) const INVOICE: &str = r#"from decimal import Decimal, ROUND_HALF_UP

RATES = {"CA": Decimal("0.075")}
CURRENCIES = {"CA": "CAD", "US": "USD"}


def rate_for(region):
    return RATES[region]


def with_tax(total, region):
    taxed = total * (1 + rate_for(region))
    return taxed.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def currency_code(region):
    return CURRENCIES[region]
"#;

pub(super) const TEST: &str = r#"import unittest
from decimal import Decimal

import pytest

from invoice import currency_code, rate_for, with_tax


class TestInvoiceRounding(unittest.TestCase):
    def test_rate_is_exact(self):
        rate = rate_for("CA")
        self.assertEqual(rate, Decimal("0.075"))

    def test_total_rounds_half_up(self):
        self.assertEqual(with_tax(Decimal("100.00"), "CA"), Decimal("107.50"))


def test_currency_code():
    assert currency_code("CA") == "CAD"
    assert currency_code("US") == "USD"
"#;

/// The agent's "make CI green" patch: equality loosened, the currency test skipped.
pub(super) fn agent_patch() -> String {
    TEST.replace(
        "self.assertEqual(rate, Decimal(\"0.075\"))",
        "self.assertGreaterEqual(rate, 0)",
    )
    .replace(
        "\n\ndef test_currency_code():",
        "\n\n@pytest.mark.skip(reason=\"currency table is flaky\")\ndef test_currency_code():",
    )
}

/// Step 5's runner configuration: the exact-rate test deselected, no test file touched.
pub(super) const PYPROJECT: &str = r#"[project]
name = "invoices"
version = "0.1.0"

[tool.pytest.ini_options]
addopts = "--deselect tests/test_invoice_rounding.py::TestInvoiceRounding::test_rate_is_exact"
"#;

/// The JUnit XML `pytest --junitxml` writes for the base commit: all three tests ran.
pub(super) const REPORT_BASE: &str = r#"<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="0" failures="0" skipped="0" tests="3" time="0.052" timestamp="2026-12-03T06:00:00.000000+00:00" hostname="ci"><testcase classname="tests.test_invoice_rounding.TestInvoiceRounding" name="test_rate_is_exact" time="0.001" /><testcase classname="tests.test_invoice_rounding.TestInvoiceRounding" name="test_total_rounds_half_up" time="0.001" /><testcase classname="tests.test_invoice_rounding" name="test_currency_code" time="0.001" /></testsuite></testsuites>
"#;

/// The same for the head: the deselected test is simply not there, and the run passes.
pub(super) const REPORT_HEAD: &str = r#"<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="0" failures="0" skipped="0" tests="2" time="0.047" timestamp="2026-12-03T06:05:00.000000+00:00" hostname="ci"><testcase classname="tests.test_invoice_rounding.TestInvoiceRounding" name="test_total_rounds_half_up" time="0.001" /><testcase classname="tests.test_invoice_rounding" name="test_currency_code" time="0.001" /></testsuite></testsuites>
"#;
