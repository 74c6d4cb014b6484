//! The search's root features that the protocols use: the root-move filter (`searchmoves`,
//! `exclude`), MultiPV lines, a stop requested before the search thread starts (the race
//! that `Searcher::arm` closes), the last line reported belonging to the move played, and a
//! stopped search playing only a move that some search finished showing best.
//! One line and no filter must search exactly as before, which the bench signature checks
//! elsewhere; here, a filtered or multi-line search must give the same best move as a plain
//! one whenever the plain best move is allowed.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use chimera_engine::registry::builtin;
use chimera_engine::search::{IterationInfo, Limits, Score, SearchReport, Searcher, Silent};
use chimera_engine::{Move, Position};
use chimera_eval::VariantEval;

/// Keeps every iteration report.
#[derive(Default)]
struct Keep(Vec<IterationInfo>);

impl SearchReport for Keep {
    fn iteration(&mut self, info: &IterationInfo) {
        self.0.push(info.clone());
    }
}

fn setup(variant: &str, fen: &str) -> (Position, VariantEval) {
    let v = builtin(variant).unwrap();
    (Position::from_fen(&v, fen).unwrap(), VariantEval::new(&v))
}

fn moves(pos: &Position, texts: &[&str]) -> Vec<Move> {
    let mut p = pos.clone();
    texts.iter().map(|t| p.parse_move(t).unwrap()).collect()
}

/// A one-thread search of `pos` stopped by a limit of `nodes`: the move played and every line
/// reported.
fn search_nodes(
    pos: &Position,
    eval: &VariantEval,
    nodes: u64,
) -> (Option<Move>, Vec<IterationInfo>) {
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let mut kept = Keep::default();
    let r = Searcher::new(8, 1).search(pos, &limits, eval, &mut kept);
    (r.best, kept.0)
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn root_filter_searches_only_the_given_moves() {
    let (pos, eval) = setup("chess", START);
    let allowed = moves(&pos, &["a2a3", "h2h3", "b1a3"]);
    let limits = Limits {
        depth: Some(5),
        root_moves: allowed.clone(),
        ..Limits::default()
    };
    let mut keep = Keep::default();
    let r = Searcher::new(8, 1).search(&pos, &limits, &eval, &mut keep);
    assert!(allowed.contains(&r.best.unwrap()));
    assert_eq!(keep.0.len(), 5);
    for info in &keep.0 {
        assert!(allowed.contains(&info.pv[0]), "{:?}", info.pv);
        assert_eq!(info.multipv, 1);
    }
    // With helper threads too.
    let r = Searcher::new(8, 3).search(&pos, &limits, &eval, &mut Silent);
    assert!(allowed.contains(&r.best.unwrap()));
}

#[test]
fn root_filter_naming_no_legal_move_is_ignored() {
    // The filter names a move of another position: the search still plays a legal move.
    let (other, _) = setup("chess", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    let (pos, eval) = setup("chess", START);
    let limits = Limits {
        depth: Some(3),
        root_moves: moves(&other, &["a1a8"]),
        ..Limits::default()
    };
    let r = Searcher::new(8, 1).search(&pos, &limits, &eval, &mut Silent);
    assert!(pos.clone().is_legal(r.best.unwrap()));
}

#[test]
fn multipv_reports_distinct_lines_best_first() {
    let (pos, eval) = setup("chess", START);
    let limits = Limits {
        depth: Some(4),
        multipv: 3,
        ..Limits::default()
    };
    let mut keep = Keep::default();
    let r = Searcher::new(8, 1).search(&pos, &limits, &eval, &mut keep);
    assert_eq!(keep.0.len(), 4 * 3);
    for (d, group) in keep.0.chunks(3).enumerate() {
        let ks: Vec<u32> = group.iter().map(|i| i.multipv).collect();
        assert_eq!(ks, [1, 2, 3]);
        assert!(group.iter().all(|i| i.depth == d as u32 + 1));
        let firsts: Vec<Move> = group.iter().map(|i| i.pv[0]).collect();
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
        let cp = |s: Score| match s {
            Score::Cp(c) => c,
            Score::Mate(m) => 100_000 * m.signum(),
        };
        assert!(cp(group[0].score) >= cp(group[1].score));
        assert!(cp(group[1].score) >= cp(group[2].score));
    }
    assert_eq!(
        r.best,
        Some(keep.0[9].pv[0]),
        "the best line's move is played"
    );
}

#[test]
fn multipv_stops_at_the_number_of_root_moves() {
    // Three legal moves only (the king's).
    let (pos, eval) = setup("chess", "7k/8/8/8/8/8/8/R6K b - - 0 1");
    assert_eq!(pos.clone().legal_moves().len(), 3);
    let limits = Limits {
        depth: Some(3),
        multipv: 5,
        ..Limits::default()
    };
    let mut keep = Keep::default();
    Searcher::new(8, 1).search(&pos, &limits, &eval, &mut keep);
    assert_eq!(keep.0.len(), 3 * 3);
    // With a filter, lines come only from the filtered moves.
    let (pos, eval) = setup("chess", START);
    let limits = Limits {
        depth: Some(2),
        multipv: 4,
        root_moves: moves(&pos, &["e2e4", "d2d4"]),
        ..Limits::default()
    };
    let mut keep = Keep::default();
    Searcher::new(8, 1).search(&pos, &limits, &eval, &mut keep);
    assert_eq!(keep.0.len(), 2 * 2);
}

#[test]
fn multipv_mate_limit_ends_the_search() {
    let (pos, eval) = setup("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    let limits = Limits {
        mate: Some(1),
        multipv: 2,
        ..Limits::default()
    };
    let r = Searcher::new(8, 1).search(&pos, &limits, &eval, &mut Silent);
    assert_eq!(pos.move_text(r.best.unwrap()), "a1a8");
    assert_eq!(r.score, Score::Mate(1));
}

#[test]
fn a_stop_before_the_search_starts_is_kept_after_arm() {
    let (pos, eval) = setup("chess", START);
    let infinite = Limits {
        infinite: true,
        ..Limits::default()
    };
    for threads in [1, 2] {
        let mut s = Searcher::new(8, threads);
        s.arm();
        // The stop arrives after the launcher armed the searcher but before the search runs.
        s.stop_handle().store(true, Ordering::SeqCst);
        let t = Instant::now();
        let r = s.search(&pos, &infinite, &eval, &mut Silent);
        assert!(t.elapsed() < Duration::from_secs(5), "the stop was lost");
        assert!(r.best.is_some(), "a stopped search still names a move");
        // Without arm, a new search clears an old stop and runs to its limits.
        let r = s.search(
            &pos,
            &Limits {
                depth: Some(3),
                ..Limits::default()
            },
            &eval,
            &mut Silent,
        );
        assert_eq!(r.depth, 3);
    }
}

#[test]
fn a_depth_limit_holds_for_helper_threads_too() {
    // Helpers skip some depths; one that skipped the limit must not answer from beyond it.
    let (pos, eval) = setup("chess", START);
    for depth in 1..=8 {
        let mut s = Searcher::new(8, 2);
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let r = s.search(&pos, &limits, &eval, &mut Silent);
        assert_eq!(r.depth, depth);
    }
}

#[test]
fn a_two_thread_search_reports_the_line_it_plays() {
    // Whichever thread's result is chosen (a helper's when it completed a deeper iteration
    // first), the last report is the move played, at the depth the result says, at least the
    // depth asked for.
    let (pos, eval) = setup(
        "chess",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    );
    for depth in [7, 8, 9] {
        let mut keep = Keep::default();
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let r = Searcher::new(8, 2).search(&pos, &limits, &eval, &mut keep);
        let last = keep.0.last().expect("at least one iteration");
        assert!(
            r.depth >= depth,
            "depth {depth}: result at depth {}",
            r.depth
        );
        assert_eq!(last.depth, r.depth, "depth {depth}");
        assert_eq!(last.pv.first(), r.best.as_ref(), "depth {depth}");
        assert_eq!(last.pv, r.pv, "depth {depth}");
    }
}

#[test]
fn the_last_line_reported_starts_with_the_move_played() {
    // Stopped at many points, some of them inside an iteration whose new best move has beaten
    // the last reported one (2000 nodes from the start position is one).
    for fen in [
        START,
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    ] {
        let (pos, eval) = setup("chess", fen);
        for nodes in (2_000..=60_000).step_by(3_000) {
            let (best, lines) = search_nodes(&pos, &eval, nodes);
            let last = lines.last().and_then(|info| info.pv.first().copied());
            assert_eq!(last, best, "{fen}: nodes {nodes}");
        }
    }
}

#[test]
fn a_root_move_whose_test_was_cut_short_is_not_played() {
    // After 1.d4 Black's best score is just below zero, where the value of a null-window test
    // of a later root move that the node limit cuts short (0) would look like a fail-high:
    // such a move, never the choice of a finished iteration, must not be played. Every move
    // played here is one that some finished iteration chose, or the reported move of the
    // unfinished one (whose test finished).
    let (pos, eval) = setup(
        "chess",
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1",
    );
    let mut chosen: Vec<Move> = Vec::new();
    let mut played: Vec<(u64, Move)> = Vec::new();
    for nodes in (2_000..200_000).step_by(1_777) {
        let (best, lines) = search_nodes(&pos, &eval, nodes);
        // A last line with the depth of the one before it is the unfinished iteration's move
        // (see `the_last_line_reported_starts_with_the_move_played`), not a finished choice.
        let n = lines.len();
        let unfinished = n >= 2 && lines[n - 1].depth == lines[n - 2].depth;
        let finished = &lines[..n - unfinished as usize];
        chosen.extend(finished.iter().filter_map(|info| info.pv.first().copied()));
        // A root move whose null-window test finished above the best move's value is played
        // when the budget runs out during its full re-search, by design; the search reports it
        // as the unfinished iteration's line. It counts as chosen only when so reported.
        if unfinished && lines[n - 1].pv.first() == best.as_ref() {
            chosen.extend(best);
        }
        played.push((nodes, best.unwrap()));
    }
    for (nodes, mv) in played {
        assert!(
            chosen.contains(&mv),
            "nodes {nodes}: {mv:?} was never chosen"
        );
    }
}
