//! Unit tests of the guard.toml schema: defaults, positions in errors, validation.

use super::*;

fn error_of(text: &str) -> String {
    format!(
        "{:#}",
        Config::parse(text.as_bytes(), "guard.toml").unwrap_err()
    )
}

#[test]
fn the_example_file_states_exactly_the_defaults() {
    assert_eq!(
        Config::parse(EXAMPLE.as_bytes(), "x").unwrap(),
        Config::default()
    );
}

#[test]
fn an_empty_file_is_the_defaults() {
    assert_eq!(Config::parse(b"", "x").unwrap(), Config::default());
}

#[test]
fn partial_sections_keep_the_other_defaults() {
    let c = Config::parse(b"[override]\nmin_reason_chars = 5\n", "x").unwrap();
    assert_eq!(c.approval.min_reason_chars, 5);
    assert_eq!(c.approval.label, "allow-test-edits");
    assert_eq!(c.protect, Protect::default());
}

#[test]
fn unknown_key_names_key_line_and_column() {
    let e = error_of("[protect]\npaths = []\n  colour = true\n");
    assert!(
        e.starts_with("guard.toml:3:3: unknown field `colour`"),
        "{e}"
    );
}

#[test]
fn unknown_section_is_an_error() {
    let e = error_of("[protection]\npaths = []\n");
    assert!(
        e.starts_with("guard.toml:1:2: unknown field `protection`"),
        "{e}"
    );
}

#[test]
fn syntax_error_names_line_and_column() {
    let e = error_of("[override]\nlabel = \n");
    assert!(e.starts_with("guard.toml:2:9:"), "{e}");
}

#[test]
fn wrong_type_names_position() {
    let e = error_of("[override]\nmin_reason_chars = \"many\"\n");
    assert!(e.starts_with("guard.toml:2:20:"), "{e}");
}

#[test]
fn wrong_type_names_the_key_with_file_line_and_column() {
    let e = error_of("[override]\nmin_reason_chars = \"twenty\"\n");
    assert!(
        e.starts_with(
            "guard.toml:2:20: [override] min_reason_chars: expected an integer, found a string \"twenty\""
        ),
        "{e}"
    );
    let e = error_of("[weakening]\nenabled = 1\n");
    assert!(
        e.starts_with(
            "guard.toml:2:11: [weakening] enabled: expected a boolean, found an integer 1"
        ),
        "{e}"
    );
    let e = error_of("[protect]\npaths = [\"tests/**\", 3]\n");
    assert!(
        e.starts_with("guard.toml:2:22: [protect] paths[1]: expected a string, found an integer 3"),
        "{e}"
    );
    let e = error_of("[ledger]\nmax_attempts = [1]\n");
    assert!(
        e.starts_with("guard.toml:2:16: [ledger] max_attempts: "),
        "{e}"
    );
    let e = error_of("[weakening.markers.python]\nskip = \"@x\"\n");
    assert!(
        e.starts_with("guard.toml:2:8: [weakening.markers.python] skip: expected an array"),
        "{e}"
    );
}

#[test]
fn unknown_finding_and_language_are_errors() {
    assert!(error_of("[weakening]\nblock = [\"skipped\"]\n").contains("`skipped`"));
    let e = error_of("[weakening.markers.cobol]\nskip = [\"X\"]\n");
    assert!(e.contains("weakening.markers.cobol"), "{e}");
}

#[test]
fn markers_parse() {
    let c = Config::parse(b"[weakening.markers.python]\nskip = [\"@my_skip\"]\n", "x").unwrap();
    assert_eq!(c.weakening.markers["python"].skip, vec!["@my_skip"]);
}

#[test]
fn binary_garbage_is_an_error_not_a_panic() {
    let e = Config::parse(&[0xff, 0xfe, 0x00, 0x80], "guard.toml").unwrap_err();
    assert!(format!("{e:#}").contains("not UTF-8"));
}

#[test]
fn protect_keys_parse_and_a_user_table_replaces_the_default_one() {
    let c = Config::parse(
        b"[protect.keys]\n\"tox.ini\" = [\"testenv.commands\", 'tool.\"a.b\".c']\n",
        "x",
    )
    .unwrap();
    assert_eq!(c.protect.keys.len(), 1);
    let keys = &c.protect.keys[&KeyFile::try_from("tox.ini".to_string()).unwrap()];
    assert_eq!(keys[0].segments(), ["testenv", "commands"]);
    assert_eq!(keys[1].segments(), ["tool", "a.b", "c"]);
    // Without a [protect.keys] table, the default one applies.
    let c = Config::parse(b"[protect]\npaths = []\n", "x").unwrap();
    assert_eq!(c.protect.keys, Protect::default().keys);
    assert!(c.protect.paths.is_empty());
}

#[test]
fn invalid_protect_keys_name_the_key_line_and_column() {
    for (key, why) in [
        ("tool..pytest", "empty segment"),
        (".tool", "empty segment"),
        ("tool.", "ends with a dot"),
        ("tool pytest", "` ` is not allowed"),
        ("tool.\\\"pytest", "quote is not closed"),
        ("", "empty"),
        ("tool.*", "`*` is not allowed"),
    ] {
        let e = error_of(&format!(
            "[protect.keys]\n\"pyproject.toml\" = [\"{key}\"]\n"
        ));
        assert!(e.starts_with("guard.toml:2:"), "{key}: {e}");
        assert!(e.contains("invalid key"), "{key}: {e}");
        assert!(e.contains(why), "{key}: {e}");
    }
    let e = error_of("[protect.keys]\n\"Makefile\" = [\"test\"]\n");
    assert!(e.starts_with("guard.toml:2:"), "{e}");
    assert!(e.contains("`Makefile`"), "{e}");
    let e = error_of("[protect.keys]\n\"config/\" = [\"a\"]\n");
    assert!(e.contains("names a directory"), "{e}");
    let e = error_of("[protect.keys]\n\"setup.cfg\" = \"tool:pytest\"\n");
    assert!(e.starts_with("guard.toml:2:"), "{e}");
}

#[test]
fn notes_ref_must_live_under_refs_notes() {
    assert!(error_of("[override]\nnotes_ref = \"refs/heads/x\"\n").contains("notes_ref"));
    assert!(error_of("[override]\nnotes_ref = \"refs/notes/a..b\"\n").contains("notes_ref"));
}

#[test]
fn additions_is_allow_or_ask() {
    assert_eq!(Config::default().protect.additions, Additions::Allow);
    let c = Config::parse(b"[protect]\nadditions = \"ask\"\n", "x").unwrap();
    assert_eq!(c.protect.additions, Additions::Ask);
    let e = error_of("[protect]\nadditions = \"sometimes\"\n");
    assert!(e.starts_with("guard.toml:2:13:"), "{e}");
}

#[test]
fn ruby_and_csharp_markers_parse() {
    let c = Config::parse(
        b"[weakening.markers.ruby]\nskip = [\"skip_on_ci\"]\n[weakening.markers.csharp]\nskip = [\"[Quarantine\"]\n",
        "x",
    )
    .unwrap();
    assert_eq!(c.weakening.markers["ruby"].skip, vec!["skip_on_ci"]);
    assert_eq!(c.weakening.markers["csharp"].skip, vec!["[Quarantine"]);
}
