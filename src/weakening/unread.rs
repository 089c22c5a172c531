//! A call that throws on failure swapped for its sibling that returns the failure,
//! the result left unread: fast-check's `fc.assert(…)` → `fc.check(…)` (the
//! counterexample is returned), Kotlin's `withTimeout(…) { … }` →
//! `withTimeoutOrNull(…) { … }` (a block that never finishes gives `null`, and the
//! checks in it never run). The test reads the same and can no longer fail there.
//! Likewise a failure given a fallback in place: Rust's `.unwrap()` or `.expect(…)` →
//! `.unwrap_or_default()` (or `let _ = …;`), and a JavaScript act awaited with
//! `.catch(() => {})` before the checks.

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
    if let Some(why) = fallback_given(old, new, rb.clone()) {
        return Some((rb, why));
    }
    let why = SWAPS
        .iter()
        .find(|(a, b, _)| was == *a && now == *b)
        .map(|s| s.2)?;
    let line = new[..rb.start].rsplit('\n').next().unwrap_or("").trim();
    matches!(line, "" | "await" | "return" | "void").then_some((rb, why))
}

/// Rust's failing unwraps, and their siblings that hand back a fallback.
const UNWRAPS: &[&str] = &[".unwrap()", ".expect("];
const FALLBACKS: &[&str] = &[
    ".unwrap_or_default()",
    ".unwrap_or(",
    ".unwrap_or_else(",
    ".ok()",
];

/// Why the one line `new` changed (`changed` is the change's range in it) no longer
/// fails where its old line did: an unwrap given a fallback or its result dropped
/// (`let _ = …;`), or an awaited call (the act, checks after it) given an empty
/// `.catch`.
fn fallback_given(old: &str, new: &str, changed: std::ops::Range<usize>) -> Option<&'static str> {
    let line = |text: &str, at: usize| {
        let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
        start..end
    };
    let new_line = line(new, changed.start);
    if changed.end > new_line.end {
        return None;
    }
    // (The same line of `old`: what precedes the change is the same text.)
    let old_line = line(old, changed.start);
    let (was, now) = (old[old_line.clone()].trim(), new[new_line.clone()].trim());
    for unwrap in UNWRAPS {
        for (at, _) in was.match_indices(unwrap) {
            let open = at + unwrap.len() - 1;
            let Some(close) = super::source::matching_close(was.as_bytes(), open) else {
                continue;
            };
            let (base, tail) = (&was[..at], &was[close + 1..]);
            let given = FALLBACKS.iter().any(|f| {
                now.strip_prefix(base)
                    .and_then(|r| r.strip_suffix(tail))
                    .is_some_and(|mid| {
                        // (Still failing: `.unwrap_or_else(|e| panic!("{e}"))`,
                        // `.ok().unwrap()`.)
                        mid.starts_with(f)
                            && !["panic!", "unreachable!", ".unwrap()", ".expect("]
                                .iter()
                                .any(|w| mid.contains(w))
                    })
            });
            // (`x.unwrap();` → `let _ = x;`, and `let v = x.expect(…);` is
            // not: `let _` throws the value away.)
            // (A thread's `h.join()` dropped is read with the checks in the thread.)
            let dropped = !base.starts_with("let ")
                && !base.ends_with(".join()")
                && tail.trim() == ";"
                && now
                    .strip_prefix("let _ =")
                    .is_some_and(|r| r.trim_start() == format!("{base};"));
            if given || dropped {
                return Some(
                    "a failure now gives a fallback value (or is dropped) instead of \
                     failing the test",
                );
            }
        }
    }
    // `await q.drain()` → `await q.drain().catch(() => {})`, checks after it.
    let added = &new[changed.clone()];
    let empty_catch = added
        .strip_prefix(".catch(")
        .and_then(|r| r.strip_suffix(')'))
        .is_some_and(|handler| {
            let handler: String = handler.chars().filter(|c| !c.is_whitespace()).collect();
            let body = handler.split_once("=>").map_or("", |(_, b)| b);
            matches!(body, "{}" | "undefined" | "null" | "void0")
        });
    let rest = &new[new_line.end..];
    (empty_catch
        && old[old_line].trim() == now.replace(added, "").trim()
        && now.starts_with("await ")
        && (rest.contains("expect(") || rest.contains("assert")))
    .then_some(
        "the awaited call's failure is now caught and dropped, so the checks after it \
         pass on what it left",
    )
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
        assert!(read(
            "  let cfg = Config::from_toml(s).unwrap();\n  assert_eq!(cfg.port, 80);",
            "  let cfg = Config::from_toml(s).unwrap_or_default();\n  assert_eq!(cfg.port, 80);"
        ));
        assert!(read(
            "  let cfg = parse(s).expect(\"valid\");\n",
            "  let cfg = parse(s).unwrap_or(Config::new());\n"
        ));
        assert!(read(
            "  timeout(d, w.shutdown()).await.expect(\"hung\");\n",
            "  let _ = timeout(d, w.shutdown()).await;\n"
        ));
        assert!(!read(
            "  let cfg = parse(s).unwrap();\n",
            "  let cfg = parse(s)?;\n"
        ));
        assert!(!read(
            "  let cfg = parse(s).unwrap();\n",
            "  let cfg = parse(s).unwrap_or_else(|e| panic!(\"{e}\"));\n"
        ));
        assert!(!read(
            "  let cfg = parse(s).unwrap();\n",
            "  let cfg = parse(s).ok().unwrap();\n"
        ));
        assert!(!read(
            "  let cfg = parse(s).unwrap();\n",
            "  let _ = parse(s);\n"
        ));
        assert!(read(
            "  await q.drain();\n  expect(q.size).toBe(0);",
            "  await q.drain().catch(() => {});\n  expect(q.size).toBe(0);"
        ));
        assert!(!read(
            "  expect(q.size).toBe(0);\n  await q.close();\n",
            "  expect(q.size).toBe(0);\n  await q.close().catch(() => {});\n"
        ));
        assert!(!read(
            "  await q.drain();\n  expect(q.size).toBe(0);",
            "  await q.drain().catch((e) => { throw e; });\n  expect(q.size).toBe(0);"
        ));
    }
}
