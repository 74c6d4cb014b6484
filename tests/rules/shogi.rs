//! The shogi family's rules (engine/src/variant/shogi.rs), each with a position where it
//! decides something: nifu, uchifuzume, men promoted and demoted, promoted men captured back to
//! the hand as what they were, dropping promoted (Kyoto), immobile men, promotion on capture
//! only (micro), the FEN and move notation of promoted men; and perft from mid-game positions
//! with men in hand and promoted men, against Fairy-Stockfish's counts (tests/data/fsf).

use std::path::PathBuf;

use chimera_engine::registry::builtin;
use chimera_engine::{Color, Position};

use crate::support;
use support::sorted_moves;

fn position(variant: &str, fen: &str) -> Position {
    let v = builtin(variant).unwrap_or_else(|| panic!("{variant} is built in"));
    Position::from_fen(&v, fen).unwrap_or_else(|e| panic!("{variant} {fen}: {e}"))
}

/// Sho shogi's crown prince (`+e`, the drunk elephant promoted) is one more king: Fairy-
/// Stockfish counts him with the king, and with two of them neither is royal; the last one
/// left is. Counts from pyffish 0.0.90 (`legal_moves`, tools/pyffish_perft.py).
#[test]
fn the_crown_prince_counts_as_a_king() {
    // Issue #78's position: Black has king and crown prince, the prince attacked on f2;
    // pyffish lists 39 moves (perft 39, 1540, 60367), Chimera listed none.
    let mut pos = position(
        "shoshogi",
        "5k2l/2rg1b2+P/l1sp4n/3spP2p/2p6/4P1P2/nG3+B2P/2K2+eESR/L4G1NL b - - 7 53",
    );
    assert_eq!(
        [pos.perft(1), pos.perft(2), pos.perft(3)],
        [39, 1540, 60367]
    );
    // The elephant on f2 may promote (f2e1+ ...: 45 moves, perft 45, 1773, 76495), but
    // Fairy-Stockfish judges that move by the royal men of before it: with the king in
    // check, making a crown prince does not answer the check (after f9g9 i8h8, only the
    // king's two moves).
    let fen = "5k2l/2rg1b2+P/l1sp4n/3spP2p/2p6/4P1P2/nG3+B2P/2K2eESR/L4G1NL b - - 7 53";
    let mut pos = position("shoshogi", fen);
    assert_eq!(
        [pos.perft(1), pos.perft(2), pos.perft(3)],
        [45, 1773, 76495]
    );
    for mv in ["f9g9", "i8h8"] {
        pos.try_play(mv).expect("legal");
    }
    assert_eq!(sorted_moves(&mut pos), ["g9f9", "g9h8"]);
    // The king gone, the crown prince carries on, royal now: perft 31, 1237, 39475.
    let mut pos = position(
        "shoshogi",
        "5+e2l/2rg1b2+P/l1sp4n/3spP2p/2p6/4P1P2/nG3+B2P/2K3ESR/L4G1NL b - - 7 53",
    );
    assert!(pos.position_end().is_none());
    assert_eq!(
        [pos.perft(1), pos.perft(2), pos.perft(3)],
        [31, 1237, 39475]
    );
}

#[test]
fn no_second_pawn_is_dropped_on_a_file() {
    // Nifu: White has a pawn on the a-file, so a pawn in hand may go anywhere but there.
    let mut pos = position("minishogi", "4k/5/5/P4/4K[P] w - - 0 1");
    let drops: Vec<String> = sorted_moves(&mut pos)
        .into_iter()
        .filter(|m| m.starts_with("P@"))
        .collect();
    assert!(!drops.iter().any(|m| m.starts_with("P@a")), "{drops:?}");
    assert!(drops.contains(&"P@b2".to_string()), "{drops:?}");
    // Nor on the last rank, where it could never move.
    assert!(!drops.iter().any(|m| m.ends_with('5')), "{drops:?}");
    assert_eq!(drops.len(), 15, "{drops:?}");
    // Tori shogi allows two swallows on a file, not three.
    let mut tori = position("torishogi", "3k3/7/7/S6/S6/7/3K3[S] w - - 0 1");
    let swallow: Vec<String> = sorted_moves(&mut tori)
        .into_iter()
        .filter(|m| m.starts_with("S@"))
        .collect();
    assert!(!swallow.iter().any(|m| m.starts_with("S@a")), "{swallow:?}");
    let mut tori = position("torishogi", "3k3/7/7/7/S6/7/3K3[S] w - - 0 1");
    let swallow: Vec<String> = sorted_moves(&mut tori)
        .into_iter()
        .filter(|m| m.starts_with("S@a"))
        .collect();
    assert_eq!(swallow, ["S@a1", "S@a2", "S@a4", "S@a5", "S@a6"]);
}

#[test]
fn mate_by_a_pawn_drop_loses() {
    // Uchifuzume: P@a4 leaves Black's king no move; Fairy-Stockfish counts the drop as a legal
    // move and scores the mate as a win for the mated side. A gold dropped there mates.
    let mut pos = position("minishogi", "kp3/5/G4/5/4K[P] w - - 0 1");
    pos.try_play("P@a4").expect("the drop is a move");
    assert!(pos.legal_moves().is_empty());
    let end = pos.outcome().expect("no move: the game is over");
    assert_eq!(end.winner, Some(Color::Black), "{end}");
    let mut pos = position("minishogi", "kp3/5/G4/5/4K[G] w - - 0 1");
    pos.try_play("G@a4").expect("the drop is a move");
    assert_eq!(pos.outcome().expect("mate").winner, Some(Color::White));
    // Where the rule is off (Yari shogi) the same mate by a pawn drop wins.
    let mut pos = position("yarishogi", "kp5/7/G6/7/7/7/7/7/3K3[P] w - - 0 1");
    pos.try_play("P@a8").expect("the drop is a move");
    assert_eq!(pos.outcome().expect("mate").winner, Some(Color::White));
}

#[test]
fn a_promoted_man_goes_back_to_the_hand_as_what_he_was() {
    // White's gold takes Black's dragon (a promoted rook): White's hand gets a rook.
    let mut pos = position("minishogi", "4k/5/1+r3/1G3/K4[] w - - 0 1");
    pos.try_play("b2b3").expect("legal");
    assert_eq!(pos.fen(), "4k/5/1G3/5/K4[R] b - - 0 1");
    // And drops him as a rook, not a dragon.
    let mut pos = position("minishogi", "4k/5/5/5/K4[R] w - - 0 1");
    assert!(sorted_moves(&mut pos).iter().all(|m| !m.starts_with('+')));
}

#[test]
fn shogi_promotion_is_optional_in_the_zone_and_forced_where_a_man_would_be_stuck() {
    // A pawn on the 8th rank: to the 9th he must promote (he could never move again there).
    let mut pos = position("shogi", "4k4/P8/9/9/9/9/9/9/4K4[] w - - 0 1");
    let pawn: Vec<String> = sorted_moves(&mut pos)
        .into_iter()
        .filter(|m| m.starts_with("a8"))
        .collect();
    assert_eq!(pawn, ["a8a9+"]);
    // A silver entering the zone may promote or not; leaving it, too.
    let mut pos = position("shogi", "4k4/9/9/S8/9/9/9/9/4K4[] w - - 0 1");
    let silver = sorted_moves(&mut pos);
    assert!(silver.contains(&"a6a7".to_string()) && silver.contains(&"a6a7+".to_string()));
    let mut pos = position("shogi", "4k4/9/S8/9/9/9/9/9/4K4[] w - - 0 1");
    let silver = sorted_moves(&mut pos);
    assert!(silver.contains(&"a7b6+".to_string()) && silver.contains(&"a7b6".to_string()));
    // The promoted silver is written +S, moves as a gold, and does not promote again.
    pos.try_play("a7b6+").expect("legal");
    assert!(pos.fen().starts_with("4k4/9/9/1+S7/"), "{}", pos.fen());
    // EuroShogi: promotion is compulsory in the zone.
    let mut pos = position("euroshogi", "6k1/8/8/8/B7/8/8/4K3[] w - - 0 1");
    let bishop = sorted_moves(&mut pos);
    assert!(bishop.contains(&"a4c6+".to_string()) && !bishop.contains(&"a4c6".to_string()));
}

#[test]
fn kyoto_men_change_on_every_move_and_drop_either_side_up() {
    let mut pos = position("kyotoshogi", "p+nks+l/5/5/5/+LSK+NP[] w - - 0 1");
    let all = sorted_moves(&mut pos);
    // The pawn promotes to a rook, the promoted lance demotes, the king stays a king.
    assert!(all.contains(&"e1e2+".to_string()) && !all.contains(&"e1e2".to_string()));
    assert!(all.contains(&"a1a2-".to_string()) && !all.contains(&"a1a2".to_string()));
    assert!(all.contains(&"c1c2".to_string()));
    pos.try_play("e1e2+").expect("legal");
    assert_eq!(pos.fen(), "p+nks+l/5/5/4+P/+LSK+N1[] b - - 1 1");
    // A pawn in hand is dropped as a pawn or as a rook.
    let mut pos = position("kyotoshogi", "2k2/5/5/5/2K2[P] w - - 0 1");
    let all = sorted_moves(&mut pos);
    assert!(all.contains(&"P@c3".to_string()) && all.contains(&"+P@c3".to_string()));
    pos.try_play("+P@c3").expect("legal");
    assert_eq!(pos.fen(), "2k2/5/2+P2/5/2K2[] b - - 0 1");
}

#[test]
fn micro_men_change_only_when_capturing() {
    // The promoted rook (a gold) moves as a gold; only a capture demotes him.
    let mut pos = position("micro", "k3/4/1p2/1+R2/3K[] w - - 0 1");
    assert_eq!(
        sorted_moves(&mut pos),
        ["b2a2", "b2a3", "b2b1", "b2b3-", "b2c2", "b2c3", "d1c1", "d1c2", "d1d2"]
    );
    pos.try_play("b2b3-").expect("legal");
    assert_eq!(pos.fen(), "k3/4/1R2/4/3K[P] b - - 0 1");
}

/// The counts of `tests/data/fsf/shogi-midgame.txt` (Fairy-Stockfish's, from pyffish).
#[test]
fn midgame_perft_counts_as_fairy_stockfish_does() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/fsf/shogi-midgame.txt");
    let text = std::fs::read_to_string(path).expect("fixture");
    let mut failures = Vec::new();
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.split(';').collect();
        let (variant, fen) = (f[0], f[1]);
        let depth: u32 = f[2].parse().expect("depth");
        let expected: u64 = f[3].parse().expect("count");
        let mut pos = position(variant, fen);
        // The position reads back as Fairy-Stockfish writes it (the hand in any order).
        let sorted = |f: &str| {
            let mut c: Vec<char> = f.chars().collect();
            if let (Some(a), Some(b)) = (f.find('['), f.find(']')) {
                c[a + 1..b].sort_unstable();
            }
            c.into_iter().collect::<String>()
        };
        assert_eq!(sorted(&pos.fen()), sorted(fen), "{variant}");
        let got = pos.perft(depth);
        if got != expected {
            failures.push(format!("{variant} {fen} d{depth}: {got}, FSF {expected}"));
        }
        checked += 1;
    }
    assert!(checked >= 30, "{checked} positions");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
