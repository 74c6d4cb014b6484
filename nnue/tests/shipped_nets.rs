//! The nets built into the binary (from `nets/`) read, fit the variant they were made for and
//! evaluate like a chess player would: level at the start, a queen up clearly winning, from
//! either side's view.

use chimera_engine::registry::builtin;
use chimera_engine::search::Evaluator;
use chimera_engine::Position;
use chimera_nnue::builtin as nets;
use chimera_nnue::eval::NetEval;

fn chess_net() -> (NetEval, chimera_engine::VariantRef) {
    let net = nets::net_for("chess").expect("chess has a built-in net");
    assert_eq!(net.variant, "chess");
    let v = builtin("chess").unwrap();
    (NetEval::new(net, &v).unwrap(), v)
}

#[test]
fn every_built_in_net_fits_its_variant() {
    let names = nets::variants();
    assert!(names.contains(&"chess"), "{names:?}");
    for name in names {
        let v = builtin(name).unwrap_or_else(|| panic!("{name} is not a built-in variant"));
        let net = nets::net_for(name).unwrap();
        assert!(NetEval::new(net, &v).is_ok(), "{name}");
        let choice = nets::choose(&v, None, true);
        assert_eq!(choice.source, nets::Source::BuiltinNet, "{name}");
    }
}

fn eval(net: &NetEval, v: &chimera_engine::VariantRef, fen: &str) -> i32 {
    let pos = Position::from_fen(v, fen).unwrap();
    let mut cache = net.new_cache();
    net.evaluate_with(&pos, &mut cache)
}

#[test]
fn the_chess_net_judges_material_and_symmetry() {
    let (net, v) = chess_net();
    let start = eval(
        &net,
        &v,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    );
    assert!(start.abs() < 80, "start {start}");
    // White to move without the queen, and the same picture with colours swapped: Black to
    // move without the queen.
    let white_down = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1";
    let black_down = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1";
    let (w, b) = (eval(&net, &v, white_down), eval(&net, &v, black_down));
    assert!(w < -400, "a queen down: {w}");
    // The side to move sees both alike.
    assert!((w - b).abs() < 40, "{w} against {b}");
}

#[test]
fn a_chess_net_is_refused_for_another_variant() {
    let net = nets::net_for("chess").unwrap();
    assert!(NetEval::new(net, &builtin("capablanca").unwrap()).is_err());
}
