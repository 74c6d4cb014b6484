"""Unit tests of the parts of chimera_cluster that need neither Ray nor Chimera: the shard
plan, the data file checks and merge with its manifest, PGN splitting and the SPRT (whose
agreement with the Rust code over many results is tested by tests/play/cluster.rs).

Run: python3 -m unittest discover -s tools/cluster/tests -p 'test_*.py'
"""

import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from chimera_cluster import datafile, pgn, plan, sprt  # noqa: E402

HEADER = "#chimera-data 1 variant=chess layout=c0c35c774c6044ef"


def shard_bytes(games, per_game=2, tag="a"):
    """A shard file of `games` games with `per_game` positions each."""
    lines = [HEADER]
    for g in range(games):
        for i in range(per_game):
            lines.append(f"fen-{tag}-{g}-{i} w - - 0 1\t{i}\t0.5")
        lines.append(f"#game {g} plies=10 kept={per_game} result=1/2-1/2")
    return ("\n".join(lines) + "\n").encode()


class Plan(unittest.TestCase):
    def test_seeds_are_distinct_and_reproducible(self):
        seeds = [plan.shard_seed(1, k) for k in range(10000)]
        self.assertEqual(len(set(seeds)), len(seeds))
        self.assertEqual(seeds[5], plan.shard_seed(1, 5))
        # Nearby bases do not share shards shifted by one.
        self.assertFalse(set(seeds[:1000]) & {plan.shard_seed(2, k) for k in range(1000)})
        self.assertTrue(all(0 <= s < 2 ** 64 for s in seeds))

    def test_shards_wanted(self):
        # Nothing measured yet: fill the cluster.
        self.assertEqual(plan.shards_wanted(0, [], 1000, 0, 8), 8)
        # Shards of ~100: 1000 missing, 3 under way: 7 more, capped by the free cores.
        self.assertEqual(plan.shards_wanted(0, [100, 100], 1000, 3, 20), 7)
        self.assertEqual(plan.shards_wanted(0, [100, 100], 1000, 3, 5), 2)
        self.assertEqual(plan.shards_wanted(1000, [100], 1000, 0, 8), 0)


class DataFile(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.out = os.path.join(self.dir.name, "out.data")
        self.settings = {"variant": "chess", "nodes": 100}

    def tearDown(self):
        self.dir.cleanup()

    def test_parse_shard_refuses_cut_shards(self):
        data = shard_bytes(3)
        header, body, positions = datafile.parse_shard(data, 3)
        self.assertEqual((header, positions), (HEADER, 6))
        with self.assertRaises(datafile.ShardError):
            datafile.parse_shard(data, 4)  # a game missing
        with self.assertRaises(datafile.ShardError):
            datafile.parse_shard(data[:-20], 3)  # cut inside the last game line
        cut = data[: data.rindex(b"#game")]
        with self.assertRaises(datafile.ShardError):
            datafile.parse_shard(cut, 3)  # positions of an unfinished game
        with self.assertRaises(datafile.ShardError):
            datafile.parse_shard(b"hello\n", 0)

    def test_commits_in_order_and_resumes(self):
        o = datafile.Output(self.out, self.settings).open()
        # Shard 1 finishes first: stored, not committed.
        o.store(1, shard_bytes(2, tag="b"), 2)
        self.assertEqual(o.committed, 0)
        o.store(0, shard_bytes(2, tag="a"), 2)
        o.commit(0, 11, 2)
        o.commit(1, 22, 2)
        text = open(self.out).read()
        self.assertEqual(text.count(HEADER), 1)
        self.assertLess(text.index("#shard 0 seed=11"), text.index("#shard 1 seed=22"))
        self.assertLess(text.index("fen-a-"), text.index("fen-b-"))
        self.assertEqual(os.listdir(datafile.shard_dir(self.out)), [])
        # A later run: same settings go on; the bytes so far stay.
        before = open(self.out, "rb").read()
        o2 = datafile.Output(self.out, self.settings).open()
        self.assertEqual((o2.committed, o2.committed_positions), (2, 8))
        o2.store(2, shard_bytes(1, tag="c"), 1)
        o2.commit(2, 33, 1)
        self.assertTrue(open(self.out, "rb").read().startswith(before))
        # Other settings are refused.
        with self.assertRaises(datafile.ManifestError):
            datafile.Output(self.out, {"variant": "chess", "nodes": 200}).open()

    def test_an_interrupted_commit_is_cut_back(self):
        o = datafile.Output(self.out, self.settings).open()
        o.store(0, shard_bytes(1), 1)
        o.commit(0, 1, 1)
        good = open(self.out, "rb").read()
        # An append whose manifest never landed.
        with open(self.out, "ab") as f:
            f.write(b"#shard 1 seed=2 games=1 positions=2\nfen half")
        o2 = datafile.Output(self.out, self.settings).open()
        self.assertEqual(open(self.out, "rb").read(), good)
        self.assertEqual(o2.committed, 1)
        # Shorter than the manifest: changed by something else.
        with open(self.out, "r+b") as f:
            f.truncate(10)
        with self.assertRaises(datafile.ManifestError):
            datafile.Output(self.out, self.settings).open()

    def test_another_header_is_refused(self):
        o = datafile.Output(self.out, self.settings).open()
        o.store(0, shard_bytes(1), 1)
        o.commit(0, 1, 1)
        other = shard_bytes(1).replace(b"c0c35c774c6044ef", b"0000000000000000")
        with self.assertRaises(datafile.ShardError):
            o.store(1, other, 1)

    def test_a_file_not_made_here_is_refused(self):
        with open(self.out, "w") as f:
            f.write(HEADER + "\n")
        with self.assertRaises(datafile.ManifestError):
            datafile.Output(self.out, self.settings).open()

    def test_manifest_is_json(self):
        o = datafile.Output(self.out, self.settings).open()
        o.store(0, shard_bytes(1), 1)
        o.commit(0, 5, 1)
        m = json.load(open(datafile.manifest_path(self.out)))
        self.assertEqual(m["shards"][0]["seed"], 5)
        self.assertEqual(m["out_bytes"], os.path.getsize(self.out))


GAME = """[Event "A vs B (chess)"]
[Site "chimera match"]
[Round "{round}"]
[White "{white}"]
[Black "{black}"]
[Result "{result}"]

1. e4 {{1ms}} e5 {{2ms}} {result}

"""


class Pgn(unittest.TestCase):
    def test_split_and_points(self):
        text = (GAME.format(round=3, white="A", black="B", result="1-0")
                + GAME.format(round=4, white="B", black="A", result="1-0")
                + GAME.format(round=5, white="A", black="A", result="1/2-1/2"))
        games = pgn.split_games(text)
        self.assertEqual(len(games), 3)
        self.assertEqual("".join(games), text)
        t = [pgn.tags(g) for g in games]
        self.assertEqual([pgn.game_number(x) for x in t], [2, 3, 4])
        # Game 2 (0-based, even): the first engine has White and won; game 3: Black lost.
        self.assertEqual([pgn.first_engine_points(x) for x in t], [1.0, 0.0, 0.5])


class Statistics(unittest.TestCase):
    # The values of matchplay/src/stats.rs's own tests.
    def test_llr_matches_the_rust_tests(self):
        s = sprt.Sprt.parse(["elo0=0", "elo1=5"])
        lo, hi = s.bounds()
        self.assertAlmostEqual(lo, -2.944438979, places=8)
        self.assertAlmostEqual(hi, 2.944438979, places=8)
        self.assertAlmostEqual(s.llr(sprt.Tally(60, 20, 20)), 0.707247348, places=8)
        self.assertEqual(s.verdict(sprt.Tally(600, 200, 200)), "H1")
        self.assertEqual(s.verdict(sprt.Tally(200, 200, 600)), "H0")
        s = sprt.Sprt.parse(["elo0=50", "elo1=100"])
        self.assertAlmostEqual(s.llr(sprt.Tally(11, 0, 1)), 1.072614, places=5)
        self.assertAlmostEqual(s.llr(sprt.Tally(13, 0, 1)), 1.299354, places=5)
        self.assertEqual(s.verdict(sprt.Tally(39, 0, 3)), "H1")
        self.assertEqual(s.llr(sprt.Tally()), 0.0)

    def test_elo_and_result_line(self):
        t = sprt.Tally(30, 10, 10)
        self.assertAlmostEqual(t.elo(), 147.190714118, places=6)
        self.assertAlmostEqual(t.elo_error(), 95.138954258, places=6)
        self.assertEqual(sprt.result_line(t),
                         "Result: 30-10-10 50 games, score 70.0%, Elo +147.2 +/- 95.1")
        self.assertEqual(sprt.result_line(sprt.Tally()),
                         "Result: 0-0-0 0 games, score 0.0%, Elo n/a +/- inf")
        self.assertEqual(sprt.result_line(sprt.Tally(0, 2, 0)),
                         "Result: 0-2-0 2 games, score 50.0%, Elo +0.0 +/- inf")

    def test_bad_parameters(self):
        for bad in ([], ["elo0=0"], ["elo0=5", "elo1=0"], ["elo0=0", "elo1=5", "alpha=0.7"],
                    ["elo0=x", "elo1=1"], ["elo0=0", "elo1=100000"], ["foo=1"], ["elo0"]):
            with self.assertRaises(ValueError, msg=str(bad)):
                sprt.Sprt.parse(bad)


class Workers(unittest.TestCase):
    """The checks a worker makes before it runs anything (no Ray needed to call them)."""

    def test_a_worker_without_the_binary_is_named_and_fatal(self):
        from chimera_cluster import cluster, tasks
        job = {"chimera": "/nonexistent/chimera", "chimera_sha256": "", "variant": "chess",
               "nodes": 1, "games": 1, "random_plies": 0, "max_plies": 1, "hash": 1,
               "net": None, "variants": []}
        with self.assertRaises(tasks.Misconfigured) as e:
            tasks.run_shard(job, 0, 1, 1)
        self.assertIn("node ", str(e.exception))
        self.assertIn("/nonexistent/chimera is not there", str(e.exception))
        self.assertTrue(cluster.is_fatal(e.exception))
        self.assertFalse(cluster.is_fatal(tasks.TaskFailed("killed")))

    def test_another_build_is_refused(self):
        from chimera_cluster import tasks
        with tempfile.NamedTemporaryFile(delete=False) as f:
            f.write(b"#!/bin/sh\n")
        try:
            os.chmod(f.name, 0o755)
            tasks.check_files(f.name, tasks.file_digest(f.name), [])
            with self.assertRaises(tasks.Misconfigured) as e:
                tasks.check_files(f.name, "0" * 64, [])
            self.assertIn("another build", str(e.exception))
            with self.assertRaises(tasks.Misconfigured):
                tasks.check_files(f.name, "", ["/nonexistent/net.nnue"])
        finally:
            os.remove(f.name)

    def test_engine_programs(self):
        from chimera_cluster import tasks
        self.assertEqual(tasks.engine_program("cmd=/x/eng proto=uci"), "/x/eng")
        self.assertEqual(tasks.engine_program("cmd='/x/eng --uci' proto=uci name=A"), "/x/eng")
        self.assertIsNone(tasks.engine_program("proto=uci"))


class NoRay(unittest.TestCase):
    def test_a_missing_ray_says_how_to_install_it(self):
        from chimera_cluster import __main__ as cli, cluster
        saved = sys.modules.get("ray")
        sys.modules["ray"] = None  # makes `import ray` fail as if it were not installed
        try:
            with self.assertRaises(cluster.NoRay) as e:
                cluster.require_ray()
            self.assertIn("pip install", str(e.exception))
            self.assertEqual(cli.main(["datagen", "--positions", "10", "--out", "x"]), 2)
        finally:
            if saved is None:
                del sys.modules["ray"]
            else:
                sys.modules["ray"] = saved


if __name__ == "__main__":
    unittest.main()
