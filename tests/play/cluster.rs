//! The Ray cluster runner (`tools/cluster`, issue #77), from the test suite:
//!
//! - its SPRT, written again in Python, against `chimera_matchplay::stats` on a grid of
//!   win/draw/loss counts (python3 only);
//! - its unit tests (shard plan, data file merge and manifest, PGN, statistics; python3 only);
//! - the whole of it on a real two-node Ray cluster on this machine
//!   (`tools/cluster/tests/cluster_e2e.py`): a datagen and a match with a worker killed in
//!   each, the outputs checked against Chimera run without Ray. It needs Ray (`pip install
//!   ray`, which `.ci/run` tries); without it the test says so loudly and passes.

use std::path::Path;
use std::process::Command;

use chimera_matchplay::stats::{Sprt, Tally};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `python3 ARGS` with the package on the path; `None` when python3 is not there.
fn python(args: &[&str]) -> Option<std::process::Output> {
    Command::new("python3")
        .args(args)
        .env("PYTHONPATH", root().join("tools/cluster"))
        .output()
        .ok()
}

fn have_python() -> bool {
    let ok = python(&["-c", "pass"]).is_some_and(|o| o.status.success());
    if !ok {
        eprintln!(
            "\n*** SKIPPED cluster: python3 is not installed; tools/cluster was NOT tested ***\n"
        );
    }
    ok
}

#[test]
fn the_python_sprt_is_the_rust_one() {
    if !have_python() {
        return;
    }
    // A grid of results, lopsided ones included, under three tests.
    let tests = [(0.0, 5.0), (-10.0, 10.0), (50.0, 100.0), (0.0, 1000.0)];
    let mut cases = Vec::new();
    for w in [0u32, 1, 3, 11, 60, 600] {
        for d in [0u32, 1, 5, 20, 200] {
            for l in [0u32, 1, 2, 20, 200] {
                cases.push((w, d, l));
            }
        }
    }
    let mut script = String::from("from chimera_cluster.sprt import Sprt, Tally\n");
    for (e0, e1) in tests {
        for (w, d, l) in &cases {
            script.push_str(&format!(
                "print(repr(Sprt({e0}, {e1}).llr(Tally({w}, {d}, {l}))))\n"
            ));
        }
    }
    let out = python(&["-c", &script]).expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let mut values = text.lines().map(|l| l.parse::<f64>().unwrap());
    let mut compared = 0;
    for (e0, e1) in tests {
        let sprt = Sprt::parse(&format!("elo0={e0} elo1={e1}")).unwrap();
        for &(wins, draws, losses) in &cases {
            let rust = sprt.llr(&Tally {
                wins,
                draws,
                losses,
            });
            let py = values.next().expect("one value per case");
            assert!(
                (rust - py).abs() <= 1e-9 * rust.abs().max(1.0),
                "elo0={e0} elo1={e1} {wins}-{draws}-{losses}: Rust {rust}, Python {py}"
            );
            compared += 1;
        }
    }
    assert_eq!(compared, 4 * 150);
}

#[test]
fn the_cluster_packages_unit_tests_pass() {
    if !have_python() {
        return;
    }
    let dir = root().join("tools/cluster/tests");
    let out = python(&[
        "-m",
        "unittest",
        "discover",
        "-s",
        dir.to_str().unwrap(),
        "-p",
        "test_*.py",
    ])
    .expect("python3 runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("OK"), "{err}");
}

#[test]
fn datagen_and_a_match_survive_a_lost_worker_on_a_two_node_ray_cluster() {
    if !have_python() {
        return;
    }
    let has_ray = python(&["-c", "import ray"]).is_some_and(|o| o.status.success())
        && Command::new("ray")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
    if !has_ray {
        eprintln!("\n*** SKIPPED cluster: Ray is not installed (pip install ray); the cluster runner was NOT run on a cluster ***\n");
        return;
    }
    let out = python(&[
        root()
            .join("tools/cluster/tests/cluster_e2e.py")
            .to_str()
            .unwrap(),
        "--chimera",
        env!("CARGO_BIN_EXE_chimera"),
    ])
    .expect("python3 runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let tail: Vec<&str> = text.lines().filter(|l| l.starts_with('[')).collect();
    eprintln!("{}", tail.join("\n"));
    assert!(
        out.status.success() && text.contains("passed in"),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
