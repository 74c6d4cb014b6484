//! Zero-shot nets: a variant without a net of its own plays with a built-in net lent to it by
//! transfer when it is won the same way and every one of its men has a counterpart, and keeps
//! the hand-made evaluation otherwise; the lent net judges like a player would.

use chimera_engine::registry::{self, builtin};
use chimera_engine::Position;
use chimera_nnue::builtin::{self as nets, Source};

#[test]
fn who_lends_to_whom() {
    let source = |name: &str| nets::choose(&builtin(name).unwrap(), None, true).source;
    for (variant, from) in [
        ("gothic", "capablanca"),
        ("embassy", "capablanca"),
        ("janus", "capablanca"),
        ("nocastle", "chess"),
        ("berolina", "chess"),
        // Capablanca with drops: crazyhouse's net, its archbishop and chancellor compounds.
        ("capahouse", "crazyhouse"),
        // Makruk's men and counting: its net, the Thai family's.
        ("asean", "makruk"),
        ("ai-wok", "makruk"),
        // Janggi's men under other rules of the game (repetition, points, bikjang).
        ("janggimodern", "janggi"),
        ("janggicasual", "janggi"),
    ] {
        assert_eq!(source(variant), Source::LentNet(from), "{variant}");
    }
    // Other goals, hands, palaces, counting, men no net knows, or a board far from the net's:
    // the hand-made evaluation.
    for variant in [
        "kingofthehill",
        "3check",
        "nocheckatomic",
        "antichess",
        "minixiangqi",
        "cambodian",
        "checkshogi",
        "knightmate",
        "vanguard",
        // Men a net knows, on a board far smaller than the net's own (shogi's 9x9, chess's 8x8).
        "minishogi",
        "gardner",
    ] {
        assert_eq!(source(variant), Source::Hand, "{variant}");
    }
    // Use NNUE off: the hand-made evaluation, lent nets or not.
    assert_eq!(
        nets::choose(&builtin("gothic").unwrap(), None, false).source,
        Source::Hand
    );
}

#[test]
fn a_lent_net_judges_material() {
    // Gothic with Capablanca's net: level at the start (within a pawn), a side without its
    // queen, chancellor and archbishop clearly lost, from either side's view.
    let v = builtin("gothic").unwrap();
    let choice = nets::choose(&v, None, true);
    let eval = |fen: &str| {
        let pos = Position::from_fen(&v, fen).unwrap();
        choice.eval.evaluate(&pos)
    };
    let start = eval(v.start_fen());
    assert!(start.abs() < 100, "start {start}");
    let down = eval("rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNB2K1BNR w KQkq - 0 1");
    assert!(down < -500, "white without Q, C, A: {down}");
    let up = eval("rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNB2K1BNR b KQkq - 0 1");
    assert!(up > 500, "black against it: {up}");
}

#[test]
fn every_variant_chooses_without_error() {
    // Building the lent nets for every built-in variant neither panics nor lends a net whose
    // layout does not fit.
    for name in registry::builtin_names() {
        let v = builtin(&name).unwrap();
        let _ = nets::choose(&v, None, true);
    }
}
