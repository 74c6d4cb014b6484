//! Chimera's evaluation crate: per-variant piece values and square tables (`tables`), the
//! evaluation function behind the engine's [`Evaluator`] trait (`evaluate`), the weights of its
//! positional terms (`terms`), the pawn helpers they need (`pawns`) with the per-thread cache
//! of pawn formations (`pawn_cache`), and the flat list of named weights that tuners change
//! (`tuning`).
//!
//! [`Evaluator`]: chimera_engine::search::Evaluator
#![deny(missing_docs)]

pub mod evaluate;
mod pawn_cache;
pub mod pawns;
pub mod tables;
pub mod terms;
pub mod tuning;

pub use evaluate::{EvalScratch, VariantEval};
pub use tables::{PieceInfo, Tables, ValueSource, Weights};
pub use terms::Terms;

#[cfg(test)]
mod tests {
    use super::*;
    use chimera_engine::registry::builtin;
    use chimera_engine::search::Evaluator;
    use chimera_engine::Position;

    fn value(t: &Tables, letter: char) -> i32 {
        t.pieces
            .iter()
            .find(|p| p.letter == letter)
            .unwrap()
            .value_mg
    }

    #[test]
    fn chess_values_come_out_in_the_usual_order() {
        let t = Tables::new(&builtin("chess").unwrap());
        let (p, n, b, r, q) = (
            value(&t, 'P'),
            value(&t, 'N'),
            value(&t, 'B'),
            value(&t, 'R'),
            value(&t, 'Q'),
        );
        assert!(
            p < n && n <= b + 30 && b < r && r < q,
            "{p} {n} {b} {r} {q}"
        );
        // Against the pawn, in the ranges engines' material tables use (tuned or not).
        let pawns = |v: i32| v as f64 / p as f64;
        assert!((2.8..=7.0).contains(&pawns(n)), "{n} {p}");
        assert!((4.5..=11.0).contains(&pawns(r)), "{r} {p}");
        assert!(q > r + n && pawns(q) <= 20.0, "{q} {r} {n} {p}");
        assert_eq!(value(&t, 'K'), 0);
        assert!(
            t.pieces
                .iter()
                .find(|p| p.letter == 'B')
                .unwrap()
                .colour_bound
        );
        assert!(
            !t.pieces
                .iter()
                .find(|p| p.letter == 'N')
                .unwrap()
                .colour_bound
        );
    }

    #[test]
    fn start_positions_evaluate_near_zero_in_every_builtin_variant() {
        for name in ["chess", "capablanca", "grand", "berolina", "seirawan"] {
            let v = builtin(name).unwrap();
            let e = VariantEval::new(&v);
            let pos = Position::startpos(&v);
            let s = e.evaluate(&pos);
            assert!(s.abs() <= 40, "{name}: {s}");
            assert!(!e.tables().to_text().is_empty());
        }
    }

    #[test]
    fn the_evaluation_is_symmetric() {
        let v = builtin("chess").unwrap();
        let e = VariantEval::new(&v);
        let a = Position::from_fen(
            &v,
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        )
        .unwrap();
        let b = Position::from_fen(
            &v,
            "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4",
        )
        .unwrap();
        assert_eq!(e.evaluate(&a), e.evaluate(&b));
    }

    /// The evaluation of `fen` for the side to move, in chess.
    fn chess_eval(fen: &str) -> i32 {
        let v = builtin("chess").unwrap();
        VariantEval::new(&v).evaluate(&Position::from_fen(&v, fen).unwrap())
    }

    #[test]
    fn doubled_and_isolated_pawns_cost() {
        // The same material: White's pawns whole on f, g, h against doubled and isolated.
        let healthy = chess_eval("6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1");
        let broken = chess_eval("6k1/5ppp/8/8/8/7P/5P1P/6K1 w - - 0 1");
        assert!(healthy > broken, "{healthy} {broken}");
    }

    #[test]
    fn a_rook_on_an_open_file_is_better() {
        let open = chess_eval("3r2k1/5ppp/8/8/8/8/1PP3PP/3R2K1 w - - 0 1");
        let closed = chess_eval("1r4k1/5ppp/8/8/8/8/1PP3PP/1R4K1 w - - 0 1");
        assert!(open > closed, "{open} {closed}");
    }

    #[test]
    fn a_pawn_attacking_a_knight_is_a_threat() {
        // Black to move with a knight attacked by a pawn: worse for Black than without it.
        let attacked = chess_eval("4k3/8/8/3n4/4P3/8/8/4K3 b - - 0 1");
        let safe = chess_eval("4k3/8/8/3n4/8/4P3/8/4K3 b - - 0 1");
        assert!(attacked < safe, "{attacked} {safe}");
    }

    #[test]
    fn a_passer_is_worth_more_the_freer_its_way() {
        // The passer terms' share of one position's value: with them and without them.
        let v = builtin("chess").unwrap();
        let with = VariantEval::new(&v);
        let none = Terms {
            passer_free: (0, 0),
            passer_safe_step: (0, 0),
            ..Terms::default()
        };
        let without = VariantEval::with_weights(&v, &Weights::default(), &none);
        let share = |fen: &str| {
            let pos = Position::from_fen(&v, fen).unwrap();
            with.evaluate(&pos) - without.evaluate(&pos)
        };
        // The pawn on a6: nothing watches a7 and a8; a rook watches a8 only; a bishop a7; its
        // own knight stands on a7.
        let free = share("6k1/8/P7/8/8/8/8/6K1 w - - 0 1");
        let last_square_watched = share("1r4k1/8/P7/8/8/8/8/6K1 w - - 0 1");
        let next_square_watched = share("1b4k1/8/P7/8/8/8/8/6K1 w - - 0 1");
        let next_square_taken = share("6k1/N7/P7/8/8/8/8/6K1 w - - 0 1");
        assert!(
            free > last_square_watched
                && last_square_watched > 0
                && next_square_watched == 0
                && next_square_taken == 0,
            "{free} {last_square_watched} {next_square_watched} {next_square_taken}"
        );
    }

    #[test]
    fn the_lazy_margin_covers_the_positional_terms() {
        // The lazy evaluation stops after material, square tables and pairs when they are
        // LAZY_MARGIN outside the window; that is only sound if the terms it skips rarely add up
        // to more. Measured on the tactical positions of Win At Chess, where they are largest
        // (men hanging, royal men under attack).
        let v = builtin("chess").unwrap();
        let e = VariantEval::new(&v);
        let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/wac.epd");
        let text = std::fs::read_to_string(suite).unwrap();
        let mut gaps = Vec::new();
        for line in text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        {
            let fields: Vec<&str> = line.split_whitespace().take(4).collect();
            let pos = Position::from_fen(&v, &format!("{} 0 1", fields.join(" "))).unwrap();
            // A window far below any real score makes the lazy evaluation stop early.
            let (partial, complete) = e.evaluate_lazy(&pos, -30_000, -29_999);
            assert!(!complete);
            gaps.push((e.evaluate(&pos) - partial).abs());
        }
        gaps.sort_unstable();
        let beyond = gaps.iter().filter(|&&g| g >= evaluate::LAZY_MARGIN).count();
        let median = gaps[gaps.len() / 2];
        assert!(gaps.len() >= 290, "{}", gaps.len());
        assert!(
            beyond * 50 <= gaps.len() && median * 4 <= evaluate::LAZY_MARGIN,
            "{beyond} of {} positions beyond the margin; median {median}, largest {:?}",
            gaps.len(),
            &gaps[gaps.len() - 5..]
        );
    }
}
