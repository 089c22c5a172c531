//! A helper's parameters bound to the arguments of the one call a test makes, so that
//! checks moved into a helper read as the test wrote them inline: `assert_totals
//! @invoice, net: 1510` with `def assert_totals(invoice, net:)` and `assert_equal net,
//! invoice.net_total` reads `assert_equal 1510, @invoice.net_total`; Kotlin's
//! `cart.shouldHaveTotals(subtotal = 2900)` with `fun Cart.shouldHaveTotals(subtotal:
//! Long) { subtotalCents shouldBe subtotal }` reads `cart.subtotalCents shouldBe 2900`.

use std::collections::HashMap;

use super::checks::{self, split_top};
use super::model::{Model, Unit};
use super::rules::{Language, Rules};
use super::source::matching_close;

/// What a helper's names stand for in one call: its parameters, and for an extension
/// function, the receiver its members are read on.
#[derive(Debug, Default)]
pub(super) struct Bindings {
    values: HashMap<String, String>,
    receiver: Option<String>,
}

/// The bindings of `helper`'s parameters in `call` (the call's text, squeezed), when
/// every argument finds its parameter.
pub(super) fn bind(model: &Model, helper: &Unit, call: &str) -> Option<Bindings> {
    let leaf = helper.leaf.as_str();
    let code = &model.src.code[helper.span.clone()];
    // (The declaration comes first: the name's first call-like occurrence.)
    let end = code
        .match_indices(leaf)
        .filter(|(at, _)| !code[..*at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
        .map(|(at, _)| at + leaf.len())
        .find(|&end| code[end..].trim_start().starts_with('('))?;
    let open = end + (code[end..].len() - code[end..].trim_start().len());
    let close = matching_close(code.as_bytes(), open)?;
    let extension = code[..end - leaf.len()].ends_with('.');
    let params: Vec<Param> = split_top(&code[open + 1..close])
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .filter_map(|p| param(model.language, p))
        .collect();
    let (receiver, args) = arguments(call, leaf)?;
    let mut bindings = Bindings {
        receiver: (extension && model.language == Language::Java)
            .then_some(receiver)
            .flatten(),
        ..Bindings::default()
    };
    let mut positional = params.iter().filter(|p| !p.implicit);
    for (name, value) in args {
        let param = match name {
            Some(name) => params.iter().find(|p| p.name == name)?,
            None => {
                let p = positional.next()?;
                if p.receiver {
                    // (C#'s `this Cart cart`: the call's receiver, not an argument.)
                    positional.next()?
                } else {
                    p
                }
            }
        };
        bindings.values.insert(param.name.clone(), value);
    }
    if let Some(p) = params.iter().find(|p| p.receiver) {
        bindings
            .values
            .insert(p.name.clone(), arguments(call, leaf)?.0?);
    }
    (!bindings.values.is_empty() || bindings.receiver.is_some()).then_some(bindings)
}

/// `key` (a check of the helper, canonical) with its names read as the call gave
/// them, canonical again.
pub(super) fn apply(bindings: &Bindings, key: &str, rules: &Rules) -> String {
    let mut text = substitute(key, &bindings.values);
    // (An extension function's bare member, `subtotalCents shouldBe subtotal`, is the
    // receiver's.)
    if let Some(receiver) = &bindings.receiver {
        text = substitute(&text, &HashMap::from([("this".into(), receiver.clone())]));
        let first = text
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(text.len());
        let word = &text[..first];
        if first > 0
            && text[first..].starts_with([' ', '.'])
            && !["should", "assert", "expect", "verify"]
                .iter()
                .any(|v| word.starts_with(v))
            && !bindings.values.contains_key(word)
        {
            text = format!("{receiver}.{text}");
        }
    }
    checks::canonical(&text, rules)
}

/// A parameter: its name; `implicit` when the call does not pass it (`self`, `cls`);
/// `receiver` for C#'s `this T name` of an extension method.
struct Param {
    name: String,
    implicit: bool,
    receiver: bool,
}

fn param(language: Language, text: &str) -> Option<Param> {
    let text = text.trim();
    let before_default = text.split('=').next().unwrap_or(text).trim();
    let ident = |w: &str| -> Option<String> {
        let w = w.trim().trim_start_matches(['*', '&', '.', '$']);
        let w = w.strip_prefix("mut ").unwrap_or(w).trim();
        (!w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
            .then(|| w.to_string())
    };
    let name = match language {
        Language::Go => ident(before_default.split_whitespace().next()?)?,
        Language::CSharp => ident(before_default.split_whitespace().last()?)?,
        // (Kotlin's `name: Type`; Java's `Type name`.)
        Language::Java if before_default.contains(':') => ident(
            before_default
                .split(':')
                .next()?
                .split_whitespace()
                .last()?,
        )?,
        Language::Java => ident(before_default.split_whitespace().last()?)?,
        _ => ident(before_default.split([':', '?']).next()?)?,
    };
    Some(Param {
        implicit: matches!(name.as_str(), "self" | "cls") && language != Language::CSharp,
        receiver: language == Language::CSharp && text.starts_with("this "),
        name,
    })
}

/// The receiver a call is made on (`cart` in `cart.total(…)`), and its arguments,
/// each with its name when named (`net: 1510`, `net=1510`, `subtotal = 2900`).
type Arguments = (Option<String>, Vec<(Option<String>, String)>);

fn arguments(call: &str, leaf: &str) -> Option<Arguments> {
    let at = call.match_indices(leaf).map(|(at, _)| at).find(|&at| {
        !call[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
            && !call[at + leaf.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
    })?;
    let receiver = call[..at]
        .strip_suffix('.')
        .filter(|r| !r.is_empty() && !matches!(*r, "self" | "this" | "s" | "suite"))
        .map(str::to_string);
    let rest = &call[at + leaf.len()..];
    let inner = if rest.starts_with('(') {
        let close = matching_close(rest.as_bytes(), 0)?;
        if !rest[close + 1..].trim().is_empty() {
            return None;
        }
        &rest[1..close]
    } else {
        rest.trim()
    };
    let args = split_top(inner)
        .into_iter()
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .map(|a| {
            let name_end = a
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(a.len());
            let after = a[name_end..].trim_start();
            let named = name_end > 0
                && (after.starts_with(':') && !after.starts_with("::")
                    || after.starts_with('=') && !after.starts_with("=="));
            match named {
                true => (
                    Some(a[..name_end].to_string()),
                    after[1..].trim().to_string(),
                ),
                false => (None, a.to_string()),
            }
        })
        .collect();
    Some((receiver, args))
}

/// `text` with each bound name (a whole word, not a member `x.name`, an instance
/// variable `@name` or a symbol `:name`, and outside quotes) replaced by its value, in
/// one pass.
fn substitute(text: &str, values: &HashMap<String, String>) -> String {
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = String::with_capacity(text.len());
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if let Some(q) = quote {
            if c == b'\\' && i + 1 < b.len() {
                out.push_str(&text[i..i + 2]);
                i += 2;
                continue;
            }
            if c == q {
                quote = None;
            }
        } else if matches!(c, b'"' | b'\'' | b'`') {
            quote = Some(c);
        } else if word(c) && (i == 0 || !word(b[i - 1])) {
            let end = (i..b.len()).find(|&j| !word(b[j])).unwrap_or(b.len());
            let prior = i.checked_sub(1).map(|p| b[p]);
            let member = matches!(prior, Some(b'.' | b'@' | b'$' | b':'));
            let named_arg = b.get(end) == Some(&b':') && b.get(end + 1) != Some(&b':');
            if let Some(value) = values.get(&text[i..end]).filter(|_| !member && !named_arg) {
                out.push_str(value);
                i = end;
                continue;
            }
            out.push_str(&text[i..end]);
            i = end;
            continue;
        }
        let len = text[i..].chars().next().map_or(1, char::len_utf8);
        out.push_str(&text[i..i + len]);
        i += len;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_replaced_as_whole_words_only_outside_members_symbols_and_quotes() {
        let values = HashMap::from([
            ("net".to_string(), "1510".to_string()),
            ("invoice".to_string(), "@invoice".to_string()),
        ]);
        assert_eq!(
            substitute("assert_equal(net,invoice.net_total)", &values),
            "assert_equal(1510,@invoice.net_total)"
        );
        assert_eq!(
            substitute("expect(x.net).to eq(\"net\") if :net", &values),
            "expect(x.net).to eq(\"net\") if :net"
        );
    }

    #[test]
    fn arguments_are_read_by_position_and_by_name() {
        let (receiver, args) = arguments(
            "cart.shouldHaveTotals(subtotal=2900,vat=551,total=3451)",
            "shouldHaveTotals",
        )
        .unwrap();
        assert_eq!(receiver.as_deref(), Some("cart"));
        assert_eq!(args[1], (Some("vat".to_string()), "551".to_string()));
        let (receiver, args) = arguments(
            "assert_totals @invoice,net:1510,vat:286.90",
            "assert_totals",
        )
        .unwrap();
        assert_eq!(receiver, None);
        assert_eq!(args[0], (None, "@invoice".to_string()));
        assert_eq!(args[2], (Some("vat".to_string()), "286.90".to_string()));
        // (A comparison is no named argument.)
        assert_eq!(arguments("check(a==b)", "check").unwrap().1[0].0, None);
    }

    #[test]
    fn parameters_are_named_as_each_language_declares_them() {
        let name = |l, t| param(l, t).map(|p| p.name);
        assert_eq!(
            name(Language::Java, "long subtotal").as_deref(),
            Some("subtotal")
        );
        assert_eq!(
            name(Language::Java, "subtotal: Long").as_deref(),
            Some("subtotal")
        );
        assert_eq!(name(Language::Go, "got int").as_deref(), Some("got"));
        assert_eq!(
            name(Language::CSharp, "int expected = 3").as_deref(),
            Some("expected")
        );
        assert_eq!(
            name(Language::Python, "expected: int = 3").as_deref(),
            Some("expected")
        );
        assert_eq!(name(Language::Ruby, "net:").as_deref(), Some("net"));
        assert_eq!(name(Language::Rust, "mut s: &Store").as_deref(), Some("s"));
        assert!(param(Language::Python, "self").unwrap().implicit);
        assert!(param(Language::CSharp, "this Cart cart").unwrap().receiver);
    }
}
