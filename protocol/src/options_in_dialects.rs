//! The options table against both dialects: every option is announced where it is offered,
//! announced exactly as before the table, refused out of range in each dialect's form, and an
//! option left out of a dialect is left out on purpose.

use chimera_engine::registry::Registry;

use crate::driver::Driver;
use crate::options::*;
use crate::state::{Capture, Output};
use crate::uci::Uci;
use crate::xboard::Xboard;

/// Options that XBoard does not offer, each with what XBoard has instead. A new option is
/// offered in both dialects unless it is added here (or to [`XBOARD_ONLY`]) with its reason,
/// which is what keeps an option added on one side from being forgotten on the other.
const UCI_ONLY: &[(&str, &str)] = &[
    ("Hash", "XBoard's `memory` command"),
    ("Threads", "XBoard's `cores` command"),
    ("Ponder", "XBoard's `hard` and `easy` commands"),
    ("UCI_Chess960", "XBoard's variant `fischerandom`"),
    (
        "UCI_Variant",
        "XBoard's `variants` feature and `variant` command",
    ),
    ("UCI_AnalyseMode", "sent by UCI GUIs unasked"),
    ("UCI_ShowWDL", "sent by UCI GUIs unasked"),
];

/// Options that UCI does not offer, with the reason.
const XBOARD_ONLY: &[(&str, &str)] =
    &[("RankBase", "XBoard's `-rankOffset`; UCI has no such choice")];

fn uci() -> (Driver<Uci>, Capture) {
    let (out, cap) = Output::capture();
    (Driver::new(Registry::new(), out, Uci::new), cap)
}

fn xboard() -> (Driver<Xboard>, Capture) {
    let (out, cap) = Output::capture();
    (Driver::new(Registry::new(), out, Xboard::new), cap)
}

fn said<D: crate::dialect::Dialect>(
    d: &mut Driver<D>,
    cap: &Capture,
    lines: &[&str],
) -> Vec<String> {
    for l in lines {
        d.feed(l);
    }
    cap.take()
}

#[test]
fn every_option_is_in_both_dialects_or_left_out_of_one_for_a_reason() {
    let (mut u, ucap) = uci();
    let uci_lines = said(&mut u, &ucap, &["uci"]);
    let (mut x, xcap) = xboard();
    let xb_lines = said(&mut x, &xcap, &["xboard", "protover 2"]);
    for option in OPTIONS {
        let name = option.name;
        let in_uci = uci_lines
            .iter()
            .filter(|l| l.starts_with(&format!("option name {name} type ")))
            .count();
        let in_xboard = xb_lines
            .iter()
            .filter(|l| l.starts_with(&format!("feature option=\"{name} -")))
            .count();
        assert_eq!(
            in_uci,
            usize::from(option.listed_on(Front::Uci)),
            "{name} in UCI"
        );
        assert_eq!(
            in_xboard,
            usize::from(option.listed_on(Front::Xboard)),
            "{name} in XBoard"
        );
        let uci_only = UCI_ONLY.iter().any(|(n, _)| *n == name);
        let xboard_only = XBOARD_ONLY.iter().any(|(n, _)| *n == name);
        assert_eq!(
            option.offered_on(Front::Uci),
            !xboard_only,
            "{name}: offered in UCI?"
        );
        assert_eq!(
            option.offered_on(Front::Xboard),
            !uci_only,
            "{name}: offered in XBoard?"
        );
    }
    // Nothing is announced that the table does not hold.
    let announced = uci_lines
        .iter()
        .filter(|l| l.starts_with("option name "))
        .count()
        + xb_lines
            .iter()
            .filter(|l| l.starts_with("feature option="))
            .count();
    let listed = OPTIONS
        .iter()
        .map(|o| usize::from(o.listed_on(Front::Uci)) + usize::from(o.listed_on(Front::Xboard)))
        .sum::<usize>();
    assert_eq!(announced, listed);
}

/// Whether `wanted` are among `lines` in this order, a line fitting each (other lines may come
/// between them, so that an option added later does not break the test).
fn in_order(lines: &[String], wanted: &[&str], fits: impl Fn(&str, &str) -> bool) -> bool {
    let mut rest = lines.iter();
    wanted.iter().all(|w| rest.any(|l| fits(l, w)))
}

/// The lines that were written by hand before the table, for a fresh engine, come out as
/// they were. XBoard's options now come in the table's order (MultiPV before Move Overhead),
/// and XBoard gained the `Clear Hash` button that UCI always had.
#[test]
fn the_announcements_keep_their_wire_form() {
    let (mut u, ucap) = uci();
    let lines = said(&mut u, &ucap, &["uci"]);
    let uci_before = [
        "id name Chimera",
        "option name Hash type spin default 16 min 1 max 65536",
        "option name Threads type spin default 1 min 1 max 256",
        "option name MultiPV type spin default 1 min 1 max 256",
        "option name Ponder type check default false",
        "option name UCI_Chess960 type check default false",
        "option name Move Overhead type spin default 50 min 0 max 5000",
        "option name UCI_Variant type combo default chess var chess var standard var normal var ",
        "option name VariantPath type string default <empty>",
        "option name EvalFile type string default <empty>",
        "option name Use NNUE type check default true",
        "option name Clear Hash type button",
        "uciok",
    ];
    // The start of each line: the variants after UCI_Variant's first ones are the registry's.
    assert!(
        in_order(&lines, &uci_before, |l, w| l.starts_with(w)),
        "{lines:?}"
    );

    let (mut x, xcap) = xboard();
    let lines = said(&mut x, &xcap, &["xboard", "protover 2"]);
    let xboard_before = [
        "feature done=0",
        "feature option=\"MultiPV -spin 1 1 256\"",
        "feature option=\"Move Overhead -spin 50 0 5000\"",
        "feature option=\"RankBase -spin 1 0 1\"",
        "feature option=\"VariantPath -file \"",
        "feature option=\"EvalFile -file \"",
        "feature option=\"Use NNUE -check 1\"",
        "feature option=\"Clear Hash -button\"",
        "feature done=1",
    ];
    assert!(in_order(&lines, &xboard_before, |l, w| l == w), "{lines:?}");
}

#[test]
fn values_out_of_range_are_refused_in_each_dialects_form() {
    for option in OPTIONS.iter() {
        let Some((min, max)) = option.range() else {
            continue;
        };
        let name = option.name;
        for bad in [
            (min - 1).to_string(),
            (max + 1).to_string(),
            "many".to_string(),
        ] {
            if option.offered_on(Front::Uci) {
                let (mut u, cap) = uci();
                let before = option.current(&u.dialect.state);
                let out = said(
                    &mut u,
                    &cap,
                    &[&format!("setoption name {name} value {bad}")],
                );
                assert_eq!(
                    out,
                    [format!(
                        "info string error: bad value '{bad}' for option '{name}' ({min}..{max})"
                    )]
                );
                assert_eq!(option.current(&u.dialect.state), before, "{name}={bad}");
            }
            if option.offered_on(Front::Xboard) {
                let (mut x, cap) = xboard();
                let before = option.current(&x.dialect.state);
                let out = said(&mut x, &cap, &[&format!("option {name}={bad}")]);
                assert_eq!(
                    out,
                    [format!(
                        "Error (bad value '{bad}' for option '{name}' ({min}..{max})): option {name}"
                    )]
                );
                assert_eq!(option.current(&x.dialect.state), before, "{name}={bad}");
            }
        }
    }
}

#[test]
fn values_in_range_are_set_alike_in_both_dialects() {
    let (mut u, ucap) = uci();
    let out = said(
        &mut u,
        &ucap,
        &[
            "setoption name multipv value 3",
            "setoption name Move Overhead value 0",
            "setoption name Use NNUE value false",
            "setoption name Clear Hash",
        ],
    );
    assert!(out.is_empty(), "{out:?}");
    let (mut x, xcap) = xboard();
    let out = said(
        &mut x,
        &xcap,
        &[
            "option MultiPV=3",
            "option Move Overhead=0",
            "option Use NNUE=0",
            "option Clear Hash",
        ],
    );
    assert!(out.is_empty(), "{out:?}");
    for options in [&u.dialect.state.options, &x.dialect.state.options] {
        assert_eq!(
            (options.multipv, options.move_overhead, options.use_nets),
            (3, 0, false)
        );
    }
}

#[test]
fn checks_name_their_values_in_each_dialects_words() {
    let (mut u, ucap) = uci();
    let out = said(&mut u, &ucap, &["setoption name Ponder value Maybe"]);
    assert_eq!(
        out,
        ["info string error: bad value 'Maybe' for option 'Ponder' (true or false)"]
    );
    let (mut x, xcap) = xboard();
    let out = said(&mut x, &xcap, &["option Use NNUE=maybe"]);
    assert_eq!(
        out,
        ["Error (bad value 'maybe' for option 'Use NNUE' (0 or 1)): option Use NNUE"]
    );
}

#[test]
fn options_of_the_other_dialect_and_missing_values_are_refused() {
    let (mut u, ucap) = uci();
    let out = said(
        &mut u,
        &ucap,
        &[
            "setoption name RankBase value 0",
            "setoption name Hash",
            "setoption name UCI_AnalyseMode value true",
        ],
    );
    assert_eq!(
        out,
        [
            "info string error: unknown option 'RankBase'",
            "info string error: option 'Hash' needs a value",
        ]
    );
    let (mut x, xcap) = xboard();
    let out = said(
        &mut x,
        &xcap,
        &[
            "option Hash=64",
            "option Move Overhead",
            "option UCI_AnalyseMode=1",
        ],
    );
    assert_eq!(
        out,
        [
            "Error (unknown option 'Hash'): option Hash",
            "Error (option 'Move Overhead' needs a value): option Move Overhead",
            "Error (unknown option 'UCI_AnalyseMode'): option UCI_AnalyseMode",
        ]
    );
}

#[test]
fn xboard_memory_cores_and_hard_set_the_tables_options_within_their_bounds() {
    let (mut x, xcap) = xboard();
    let out = said(&mut x, &xcap, &["memory 0", "cores 100000", "hard"]);
    assert!(out.is_empty(), "{out:?}");
    let options = &x.dialect.state.options;
    assert_eq!(
        (options.hash_mb, options.threads, options.ponder),
        (1, 256, true)
    );
    let out = said(&mut x, &xcap, &["cores 0", "memory 32", "easy"]);
    assert!(out.is_empty(), "{out:?}");
    let options = &x.dialect.state.options;
    assert_eq!(
        (options.hash_mb, options.threads, options.ponder),
        (32, 1, false)
    );
}

#[test]
fn what_a_setter_tells_comes_out_in_each_dialects_form() {
    let zoo = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/variants/ok/zoo.ini"
    );
    let (mut u, ucap) = uci();
    let out = said(
        &mut u,
        &ucap,
        &[&format!("setoption name VariantPath value {zoo}")],
    );
    assert_eq!(out, ["info string loaded variants: zoo"]);
    let out = said(&mut u, &ucap, &["setoption name UCI_Variant value zoo"]);
    assert!(
        out.len() == 1 && out[0].starts_with("info string variant zoo files "),
        "{out:?}"
    );
    let (mut x, xcap) = xboard();
    let out = said(&mut x, &xcap, &[&format!("option VariantPath={zoo}")]);
    assert_eq!(out, ["# loaded variants: zoo"]);
    // The value in effect is what a second handshake announces.
    let out = said(&mut x, &xcap, &["protover 2"]);
    assert!(
        out.contains(&format!("feature option=\"VariantPath -file {zoo}\"")),
        "{out:?}"
    );
}

#[test]
fn names_are_unique_and_every_spin_starts_in_its_range() {
    let (u, _) = uci();
    for (i, option) in OPTIONS.iter().enumerate() {
        assert!(
            OPTIONS[..i]
                .iter()
                .all(|o| !o.name.eq_ignore_ascii_case(option.name)),
            "{} twice",
            option.name
        );
        if let (Some((min, max)), Current::Number(n)) =
            (option.range(), option.current(&u.dialect.state))
        {
            assert!(
                (min..=max).contains(&n),
                "{}: {n} outside {min}..{max}",
                option.name
            );
        }
    }
}

/// The kinds no option has yet are written in CECP's forms too.
#[test]
fn xboard_writes_combos_strings_and_paths_in_cecp_forms() {
    let (u, _) = uci();
    let state = &u.dialect.state;
    let combo = EngineOption {
        name: "Style",
        fronts: Fronts::XBOARD,
        kind: Kind::Combo {
            choices: |_| vec!["Solid".into(), "Normal".into(), "Risky".into()],
            get: |_| "Normal".into(),
            set: |_, _, _| Ok(()),
        },
    };
    assert_eq!(
        xboard_feature(&combo, state),
        "feature option=\"Style -combo Solid /// *Normal /// Risky\""
    );
    assert_eq!(
        uci_line(&combo, state),
        "option name Style type combo default Normal var Solid var Normal var Risky"
    );
    for (form, word) in [(TextForm::Plain, "string"), (TextForm::Path, "path")] {
        let text = EngineOption {
            name: "Book",
            fronts: Fronts::XBOARD,
            kind: Kind::Text {
                form,
                get: |_| "a b".into(),
                set: |_, _, _| Ok(()),
            },
        };
        assert_eq!(
            xboard_feature(&text, state),
            format!("feature option=\"Book -{word} a b\"")
        );
        assert_eq!(
            uci_line(&text, state),
            "option name Book type string default a b"
        );
    }
}
