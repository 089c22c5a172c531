//! A call that throws on failure swapped for its sibling that returns the failure,
//! the result left unread: fast-check's `fc.assert(…)` → `fc.check(…)` (the
//! counterexample is returned), Kotlin's `withTimeout(…) { … }` →
//! `withTimeoutOrNull(…) { … }` (a block that never finishes gives `null`, and the
//! checks in it never run). The test reads the same and can no longer fail there.

/// (Throwing, returning) calls, with what the swap means.
const SWAPS: &[(&str, &str, &str)] = &[
    (
        "fc.assert",
        "fc.check",
        "`fc.check` returns a counterexample instead of throwing it, so the property \
         no longer fails the test",
    ),
    (
        "withTimeout",
        "withTimeoutOrNull",
        "a block that runs out of time now gives `null` instead of failing, so the \
         checks in it may never run",
    ),
    (
        "Promise.all",
        "Promise.allSettled",
        "`Promise.allSettled` resolves whether or not each promise failed, so the \
         checks in them no longer fail the test",
    ),
];

/// Where the returning call is written in `new`, and what the swap means, when `new`
/// is `old` with one throwing call swapped and its result unread.
pub(super) fn unread_failure(
    old: &str,
    new: &str,
) -> Option<(std::ops::Range<usize>, &'static str)> {
    let (ra, rb) = super::source::difference(old, new);
    let (was, now) = (&old[ra], &new[rb.clone()]);
    // `asyncio.gather(…, return_exceptions=True)`, awaited as a statement: each
    // failure comes back as a value nobody reads.
    if now
        .strip_suffix("return_exceptions=True")
        .is_some_and(|n| n.trim_end_matches([',', ' ']) == was.trim_end_matches([',', ' ']))
    {
        let line = new[..rb.start]
            .rsplit('\n')
            .next()
            .unwrap_or("")
            .trim_start();
        let line = line.strip_prefix("await ").unwrap_or(line);
        return (line.starts_with("asyncio.gather(") || line.starts_with("gather(")).then_some((
            rb,
            "`return_exceptions=True` hands each failure back as a value, so the checks \
             in the gathered coroutines no longer fail the test",
        ));
    }
    let why = SWAPS
        .iter()
        .find(|(a, b, _)| was == *a && now == *b)
        .map(|s| s.2)?;
    let line = new[..rb.start].rsplit('\n').next().unwrap_or("").trim();
    matches!(line, "" | "await" | "return" | "void").then_some((rb, why))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_failure_returned_and_unread_is_read() {
        let read = |a: &str, b: &str| super::unread_failure(a, b).is_some();
        assert!(read(
            "  fc.assert(\n fc.property(",
            "  fc.check(\n fc.property("
        ));
        assert!(read("  await fc.assert(p);", "  await fc.check(p);"));
        assert!(!read("  fc.assert(p);", "  const r = fc.check(p);"));
        assert!(read(
            "  withTimeout(1_000) {\n ch.receive() shouldBe 1\n }",
            "  withTimeoutOrNull(1_000) {\n ch.receive() shouldBe 1\n }"
        ));
        assert!(read(
            "  await asyncio.gather(*checks)\n",
            "  await asyncio.gather(*checks, return_exceptions=True)\n"
        ));
        assert!(!read(
            "  results = await asyncio.gather(*jobs)\n",
            "  results = await asyncio.gather(*jobs, return_exceptions=True)\n"
        ));
        assert!(read(
            "  await Promise.all(checks);",
            "  await Promise.allSettled(checks);"
        ));
        assert!(!read(
            "  withTimeout(1_000) {",
            "  val got = withTimeoutOrNull(1_000) {"
        ));
    }
}
