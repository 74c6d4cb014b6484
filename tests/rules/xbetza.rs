//! Every XBetza string in the rules reference (docs/rules.md: Pawn Vault, Pioneer's extra pieces,
//! Vanguard's diagram) compiles and runs: each piece is put in a small variant, placed in the
//! middle of a board among friends and enemies, and its moves are generated, made and unmade.
//! Strings with an element the engine cannot execute are rejected with an error naming it.

use chimera_engine::registry::Registry;
use chimera_engine::Position;

/// (where it comes from, XBetza)
const STRINGS: &[(&str, &str)] = &[
    ("Pawn Vault FIDE pawn", "fmWfcFifmnD"),
    ("Pawn Vault Berolina pawn", "fmFfcWifmnA"),
    ("Pawn Vault castellan", "fK"),
    ("Pawn Vault FIDE pawn hop", "fmWfcFifmnDfpafmW"),
    ("Pawn Vault Berolina pawn hop", "fmFfcWifmnAfpafmF"),
    ("Pawn Vault castellan hop", "fKfpafmK"),
    ("Pawn Vault dragon", "BN"),
    ("Pawn Vault hero", "RN"),
    ("Pioneer mastodon", "KAD"),
    ("Pioneer chancellor", "RN"),
    ("Pioneer archbishop", "BN"),
    ("Pioneer amazon", "QN"),
    ("Pioneer camel", "C"),
    ("Pioneer kwagga", "CmCC"),
    ("Pioneer consul", "CDD"),
    ("Pioneer adjutant", "BDD"),
    ("Pioneer llama", "mWD"),
    ("Pioneer alpaca", "WmD"),
    ("Pioneer guanaco", "WmDD"),
    ("Pioneer vicuna", "mW D mDD"),
    ("Pioneer swedish cannon part", "pR"),
    ("Pioneer culverin step", "mK"),
    ("Pioneer culverin capture", "mKpcQ"),
    ("Pioneer trebuchet step", "mQ2"),
    ("Pioneer belfry step", "mR"),
    ("Pioneer divaricator step", "mQ2"),
    ("Pioneer murmillo step", "mB"),
    ("Vanguard pawn", "fmWfcFifmR4"),
    ("Vanguard knight", "WNC"),
    ("Vanguard princess", "BN"),
    ("Vanguard falconer", "FADCG"),
    ("Vanguard nightrider", "NN"),
    ("Vanguard prince", "FN"),
    ("Vanguard soldier", "fsmWfcFifmR4"),
    ("Vanguard wizard", "FafsFafsafFudFudNudC"),
    ("Vanguard berserker", "KNADcaKmcabK"),
    ("Vanguard archer", "mF3caibN"),
    ("Vanguard bowman", "nNafsafmpafzcabmpafzK"),
    ("Vanguard lancer", "N2ncDncH"),
    ("Vanguard helepolis", "RcamfRidaufmRsb(caf)14R"),
    ("Vanguard helepolis (prose)", "RcamfRifdaufmRsb(caf)14R"),
    ("Vanguard general", "BnDD"),
    ("Vanguard sergeant", "fFfW3smW"),
    ("Vanguard spy", "W2N"),
    ("Vanguard lancer, diagonal option", "N2ncDncHncAncG"),
];

fn variant_for(betza: &str) -> Result<chimera_engine::VariantRef, String> {
    let ini = format!(
        "[probe]\nmaxFile = 12\nmaxRank = 12\ncastling = false\nking = k\ncustomPiece1 = x:{betza}\npawn = p\n\
         startFen = 12/4k7/12/3p1p6/12/3P1X1p4/12/3P1p6/12/12/12/4K7 w - - 0 1\n"
    );
    let mut r = Registry::new();
    r.load_text(&ini, "probe.ini", "probe")
        .into_result()
        .map_err(|e| format!("{e:?}"))?;
    Ok(r.get("probe").unwrap())
}

#[test]
fn every_rules_string_compiles_and_runs() {
    for (what, betza) in STRINGS {
        let v = variant_for(betza).unwrap_or_else(|e| panic!("{what} ({betza}): {e}"));
        let mut pos = Position::startpos(&v);
        let moves = pos.legal_moves();
        let from = v.geometry().parse_square("f7").unwrap();
        let own: Vec<_> = moves.iter().filter(|m| m.from == from).collect();
        assert!(
            !own.is_empty(),
            "{what} ({betza}): no move from f7 in {}",
            pos.fen()
        );
        for &m in moves.iter() {
            let before = pos.fen();
            pos.make_move(m);
            assert!(
                pos.validate().is_ok(),
                "{what}: {} left a broken position",
                pos.move_text(m)
            );
            pos.unmake_move();
            assert_eq!(pos.fen(), before);
        }
        // Two plies more, counted both ways.
        let n = pos.perft(2);
        assert_eq!(
            n,
            pos.perft_divide(2, false).iter().map(|d| d.1).sum::<u64>(),
            "{what}"
        );
    }
}

#[test]
fn unexecutable_elements_are_named() {
    // e.p. on a later leg, a friend lifted and never put down, t, a chiral set on a later leg.
    for (betza, element) in [
        ("KcaeK", "caeK"),
        ("FdafF", "dafF"),
        ("tK", "tK"),
        ("NahrN", "ahrN"),
    ] {
        let err = variant_for(betza)
            .err()
            .unwrap_or_else(|| panic!("{betza} was accepted"));
        assert!(
            err.contains(element),
            "{betza}: the error does not name '{element}': {err}"
        );
    }
}
