//! An order check made blind to order: a sort added before the comparison of a test
//! about order (`drains_in_priority_order`: `ids.sort_unstable()` then `assert_eq!(ids,
//! …)`), or one whose expected list is rewritten as its own sorted copy in the same
//! change (`[334, 333, 333]` → `sort()` and `[333, 333, 334]`). The check still reads
//! as an exact comparison; the order it was there for no longer matters. A sort added
//! where the order was never specified (map keys) is neither. (A check itself made
//! blind to order, `sorted(x)` in it or `containsExactlyInAnyOrder`, is read with the
//! checks: `checks::order_dropped`.) Likewise a mock's expected calls let out of
//! their order: gomock's `gomock.InOrder(…)` or mockall's `.in_sequence(&mut seq)`
//! dropped while the expectations stay.

/// Words that sort a value, or tell a comparison to ignore order. (`.sort` as a whole
/// word: Ruby's `.sort`, JavaScript's `.sort()`; Rust's `.sort_unstable()` below.)
const SORTS: &[&str] = &[
    ".sort",
    ".sort_unstable(",
    ".sort_by(",
    ".sort_by_key(",
    ".sort_unstable_by",
    ".sort_by ",
    ".sort_by{",
    ".sort_by {",
    "sorted(",
    ".sorted()",
    ".sortedBy",
    ".sortBy(",
    ".sortWith(",
    "sort.Strings(",
    "sort.Ints(",
    "sort.Slice(",
    "slices.Sort(",
    "SortSlices(",
    "Collections.sort(",
    ".OrderBy(",
    "ignoreOrder",
];

/// Words in a test's name (lower-cased, separators dropped) that say order is its
/// point. (Not a bare "order": a shop's order is no sequence.)
const ORDER_WORDS: &[&str] = &[
    "inorder",
    "ordered",
    "ordering",
    "orderof",
    "sortorder",
    "keepsorder",
    "preservesorder",
    "priority",
    "fifo",
    "lifo",
    "sequence",
    "rank",
    "newest",
    "oldest",
    "latest",
    "earliest",
    "ascending",
    "descending",
    "chronolog",
    "insertion",
];

/// Where `word` is written in `code` (`.sort` only as a whole word).
fn places<'a>(code: &'a str, word: &'a str) -> impl Iterator<Item = usize> + 'a {
    code.match_indices(word)
        .filter(move |(at, _)| {
            word != ".sort"
                || !code[at + word.len()..]
                    .starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
        })
        .map(|(at, _)| at)
}

fn sorts(code: &str) -> usize {
    SORTS.iter().map(|s| places(code, s).count()).sum()
}

/// Where the first sort written in `new` and not in `old` is, if the test (`name`) is
/// about order or its expected list became its own sorted copy. (`old` and `new` with
/// strings and comments blanked; `raw`, the two as written, for the lists.)
pub(super) fn sort_added((old, new): (&str, &str), raw: (&str, &str), name: &str) -> Option<usize> {
    if sorts(new) <= sorts(old) {
        return None;
    }
    let lower: String = name
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect();
    let about_order = ORDER_WORDS.iter().any(|w| lower.contains(w));
    if !about_order && !expected_sorted(raw.0, raw.1) {
        return None;
    }
    SORTS
        .iter()
        .filter(|s| places(new, s).count() > places(old, s).count())
        .filter_map(|s| places(new, s).next())
        .min()
}

/// A list literal's items: `[2, 3, 1]`, `vec![2, 3, 1]`, `%w[b a]`.
fn lists(code: &str) -> Vec<Vec<String>> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    for (open, _) in code.match_indices('[') {
        let Some(close) = super::source::matching_close(b, open) else {
            continue;
        };
        let inner = &code[open + 1..close];
        let words = code[..open].ends_with("%w") || code[..open].ends_with("%i");
        let items: Vec<String> = if words {
            inner.split_whitespace().map(str::to_string).collect()
        } else {
            if inner.contains(['[', '(', '{', '\n']) {
                continue;
            }
            inner
                .split(',')
                .map(|i| i.trim().to_string())
                .filter(|i| !i.is_empty())
                .collect()
        };
        if items.len() >= 2 {
            out.push(items);
        }
    }
    out
}

fn sorted(items: &[String]) -> bool {
    let numbers: Option<Vec<f64>> = items
        .iter()
        .map(|i| {
            i.trim_end_matches(|c: char| c.is_ascii_alphabetic())
                .replace('_', "")
                .parse()
                .ok()
        })
        .collect();
    match numbers {
        Some(n) => n.windows(2).all(|w| w[0] <= w[1]),
        None => items.windows(2).all(|w| w[0] <= w[1]),
    }
}

/// Whether an unsorted list of `old` is written sorted in `new` (and not as it was).
fn expected_sorted(old: &str, new: &str) -> bool {
    let (a, b) = (lists(old), lists(new));
    b.iter().filter(|l| sorted(l) && !a.contains(l)).any(|l| {
        let mut key = l.clone();
        key.sort();
        a.iter().any(|o| {
            let mut k = o.clone();
            k.sort();
            k == key && !sorted(o) && !b.contains(o)
        })
    })
}

/// Where `new` (a test's code) makes the expectations `old` ordered without their
/// order: a gomock `InOrder(` or a mockall `.in_sequence(` fewer, the expectations
/// (`.EXPECT()`, `.expect_`) as many as before.
pub(super) fn call_order_dropped(old: &str, new: &str) -> Option<usize> {
    for (order, expectation) in [
        ("gomock.InOrder(", ".EXPECT()"),
        (".in_sequence(", ".expect_"),
    ] {
        // (gomock's `.After(prev)` orders calls one by one.)
        if new.matches(order).count() < old.matches(order).count()
            && new.matches(expectation).count() >= old.matches(expectation).count()
            && new.matches(".After(").count() <= old.matches(".After(").count()
        {
            return new.find(expectation);
        }
    }
    None
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_sort_before_an_order_check_is_read() {
        let sort_added = |a: &str, b: &str, name: &str| super::sort_added((a, b), (a, b), name);
        // A test about order.
        assert!(
            sort_added(
                "let ids = q.drain();\nassert_eq!(ids, vec![2, 3, 1]);",
                "let mut ids = q.drain();\nids.sort_unstable();\nassert_eq!(ids, vec![2, 3, 1]);",
                "drains_in_priority_order"
            )
            .is_some()
        );
        // The expected list rewritten as its sorted copy.
        assert!(
            sort_added(
                "expect(split(1000, 3)).toEqual([334, 333, 333]);",
                "expect([...split(1000, 3)].sort()).toEqual([333, 333, 334]);",
                "shares differ by one cent"
            )
            .is_some()
        );
        assert!(
            sort_added(
                "assert_equal %w[TEA MUG], all.map(&:sku)",
                "assert_equal %w[MUG TEA], all.map(&:sku).sort",
                "test_imports_rows"
            )
            .is_some()
        );
        // Map keys sorted, their expected list already in order: no.
        assert!(
            sort_added(
                "got := l.Keys()\nif !reflect.DeepEqual(got, []string{\"a\", \"b\"}) {",
                "got := l.Keys()\nsort.Strings(got)\nif !reflect.DeepEqual(got, []string{\"a\", \"b\"}) {",
                "TestKeys"
            )
            .is_none()
        );
    }
}
