//! Kinship of variants, for lending nets: men's moves as board vectors, the same on any board
//! and under any spelling, and which variants are won the same way.

use chimera_engine::registry::builtin;
use chimera_engine::variant::MoveVector;

fn vectors_of(variant: &str, letter: char) -> Vec<MoveVector> {
    let v = builtin(variant).unwrap();
    v.move_vectors(v.piece_by_letter(letter).unwrap())
}

#[test]
fn vectors_do_not_depend_on_the_board_or_the_spelling() {
    // The rook of chess (stride of an 8-file board) and of Grand (10 files) move alike.
    assert_eq!(vectors_of("chess", 'r'), vectors_of("grand", 'r'));
    // Capablanca's archbishop is exactly a bishop's and a knight's moves.
    let mut bn = vectors_of("chess", 'b');
    bn.extend(vectors_of("chess", 'n'));
    bn.sort();
    assert_eq!(vectors_of("capablanca", 'a'), bn);
    // A knight has eight leaps, a queen eight unlimited slides.
    let n = vectors_of("chess", 'n');
    assert_eq!(n.len(), 8);
    assert!(n.iter().all(|m| m.range == 1 && m.quiet && m.capture));
    let q = vectors_of("chess", 'q');
    assert_eq!(q.len(), 8);
    assert!(q.iter().all(|m| m.range == 0));
    // A pawn's double step is an initial move and is left out: one quiet step forward,
    // two diagonal captures.
    let p = vectors_of("chess", 'p');
    assert_eq!(p.len(), 3, "{p:?}");
    assert!(p
        .iter()
        .any(|m| (m.dx, m.dy, m.quiet, m.capture) == (0, 1, true, false)));
    // Xiangqi's cannon hops to capture.
    assert!(vectors_of("xiangqi", 'c').iter().any(|m| m.hops));
}

#[test]
fn objectives_alike_and_unlike() {
    let v = |name: &str| builtin(name).unwrap();
    let chess = v("chess");
    for alike in [
        "capablanca",
        "grand",
        "nocastle",
        "gothic",
        "berolina",
        "seirawan",
    ] {
        assert!(chess.same_objective(&v(alike)), "{alike}");
    }
    for unlike in [
        "kingofthehill",
        "3check",
        "atomic",
        "antichess",
        "crazyhouse",
        "xiangqi",
        "makruk",
        "horde",
        "racingkings",
        "aliceguard",
        "pioneer",
        "extinction",
    ] {
        assert!(!chess.same_objective(&v(unlike)), "{unlike}");
    }
}
