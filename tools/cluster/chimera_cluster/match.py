"""`python3 -m chimera_cluster match`: a `chimera match` whose game pairs are played all over a
Ray cluster, gathered into one PGN in game order, with one running SPRT for the whole match.

A task plays one pair, `chimera match --first-pair K --games 2` (games 2K and 2K+1 share
opening K, colours swapped: the same games, numbered the same, as in a one-machine match with
the same seed). Results are taken strictly in game order: the PGN is written and the SPRT
counted over the finished prefix only, so the games kept and the point where the test stops
depend on the games' results alone, never on which worker was fastest. When the SPRT
decides, the deciding game's pair is finished (both colours of its opening count) and every
other task is cancelled. A pair whose worker died is played again from its start.
"""

import math
import os
import time

from . import cluster, pgn, sprt, tasks


def run(args) -> int:
    chimera = os.path.abspath(args.chimera)
    if not (os.path.isfile(chimera) and os.access(chimera, os.X_OK)):
        raise SystemExit(f"chimera_cluster: --chimera {chimera} is not an executable here; the "
                         "binary must be at the same path on this machine and every worker")
    if len(args.engine) != 2:
        raise SystemExit("chimera_cluster: match needs --engine exactly twice")
    test = None
    if args.sprt is not None:
        try:
            test = sprt.Sprt.parse(args.sprt)
        except ValueError as e:
            raise SystemExit(f"chimera_cluster: {e}")
    # Options handed to every pair's `chimera match` as they are: it checks them.
    passed = ["--variant", args.variant, "--seed", str(args.seed)]
    if args.tc:
        passed += ["--tc", args.tc]
    if args.time_margin is not None:
        passed += ["--time-margin", str(args.time_margin)]
    if args.openings:
        args.openings = os.path.abspath(args.openings)
        passed += ["--openings", args.openings]
    if args.random_plies is not None:
        passed += ["--random-plies", str(args.random_plies)]
    if args.max_moves is not None:
        passed += ["--max-moves", str(args.max_moves)]
    args.variants = [os.path.abspath(v) for v in args.variants]
    for v in args.variants:
        passed += ["--variants", v]
    from . import datafile
    job = {
        "chimera": chimera,
        "chimera_sha256": datafile.file_sha256(chimera),
        "engines": list(args.engine),
        "match_args": passed,
        "openings": args.openings,
        "variants": args.variants,
        "tmp_dir": args.tmp_dir,
    }
    ray = cluster.connect(args.address, args.local_cpus)
    return Match(ray, args, job, test).run()


class Match:
    def __init__(self, ray, args, job, test):
        self.ray, self.args, self.job, self.test = ray, args, job, test
        self.pairs = math.ceil(args.games / 2)
        self.bar = cluster.Bar(True)  # the per-game lines are the progress here
        self.in_flight = {}  # ref -> (pair, attempt)
        self.attempts = {}
        self.done = {}  # pair -> [game texts] finished, not yet taken in order
        self.next_pair = 0  # the first pair not yet taken into the PGN and the tally
        self.tally = sprt.Tally()
        self.decision = None  # (verdict, game number 1-based, llr)
        self.endings = {}
        self.retried = 0

    def games_of(self, pair):
        return min(2, self.args.games - 2 * pair)

    def launch(self, remote, pair):
        attempt = self.attempts.get(pair, 0) + 1
        self.attempts[pair] = attempt
        self.in_flight[remote.remote(self.job, pair, self.games_of(pair), attempt)] = (pair, attempt)

    def to_launch(self, n):
        busy = {p for p, _ in self.in_flight.values()}
        found, p = [], self.next_pair
        while len(found) < n and p < self.pairs:
            if p not in self.done and p not in busy:
                found.append(p)
            p += 1
        return found

    def llr_text(self):
        if self.test is None:
            return ""
        lo, hi = self.test.bounds()
        return f"  LLR {self.test.llr(self.tally):.2f} ({lo:.2f}, {hi:.2f})"

    def elo_text(self):
        e, err = self.tally.elo(), self.tally.elo_error()
        if e is None:
            return "Elo n/a"
        return f"Elo {sprt.signed(e)} +/- {'inf' if err is None else f'{err:.1f}'}"

    def take(self, out):
        """Takes finished pairs in order: PGN, tally, one line per game, the SPRT."""
        # Until the SPRT decides; the deciding pair itself is finished (the loop over its
        # games goes on), so both colours of its opening count.
        while self.next_pair in self.done and self.decision is None:
            for text in self.done.pop(self.next_pair):
                t = pgn.tags(text)
                points = pgn.first_engine_points(t)
                if points is None:
                    raise SystemExit(f"chimera_cluster: game {t.get('Round')} has no result")
                self.tally.add(points)
                if out is not None:
                    out.write(text)
                    out.flush()
                reason = t.get("Termination", "")
                self.endings[reason] = self.endings.get(reason, 0) + 1
                s = self.tally
                print(f"Game {t['Round']} ({t.get('White')} vs {t.get('Black')}): "
                      f"{t.get('Result')} {{{reason}}} | {s.games()} games: "
                      f"{s.wins}-{s.draws}-{s.losses}  score {100 * s.score():.1f}%  "
                      f"{self.elo_text()}{self.llr_text()}", flush=True)
                if self.test is not None and self.decision is None:
                    verdict = self.test.verdict(self.tally)
                    if verdict != "continue":
                        self.decision = (verdict, s.games(), self.test.llr(s))
            self.next_pair += 1

    def run(self) -> int:
        ray, args = self.ray, self.args
        remote = ray.remote(tasks.run_pair).options(num_cpus=args.cpus_per_pair, max_retries=0)
        e = self.job["engines"]
        print(f"Match on the cluster: {args.games} games ({self.pairs} pairs), variant "
              f"{args.variant}, {len(e)} engines: {e[0]!r} vs {e[1]!r}"
              + (f", SPRT {self.test.describe()}" if self.test else ""), flush=True)
        out = open(args.pgn, "a", encoding="utf-8") if args.pgn else None
        started = time.time()
        cluster.watch_head(ray, self.vanished)
        status = 0
        try:
            while self.next_pair < self.pairs and self.decision is None:
                cap = cluster.capacity(ray, args.cpus_per_pair)
                for p in self.to_launch(max(0, cap - len(self.in_flight))):
                    self.launch(remote, p)
                ready, _ = ray.wait(list(self.in_flight), num_returns=1, timeout=1.0)
                for ref in ready:
                    self.finish(ref)
                self.take(out)
        except cluster.ClusterLost as err:
            status = self.lost(str(err))
        except KeyboardInterrupt:
            status = self.lost("interrupted")
        except SystemExit:
            self.cancel_all()
            raise
        except Exception as err:
            if "ray" not in type(err).__module__:
                raise
            status = self.lost(cluster.short_error(err))
        finally:
            if out is not None:
                out.close()
        self.cancel_all()
        self.summary(time.time() - started)
        return status

    def finish(self, ref):
        pair, attempt = self.in_flight.pop(ref)
        try:
            result = self.ray.get(ref)
        except Exception as err:
            if cluster.is_fatal(err):
                raise SystemExit(f"chimera_cluster: {cluster.short_error(err)}") from None
            why = cluster.short_error(err)
            if attempt > self.args.retries:
                raise SystemExit(f"chimera_cluster: pair {pair} failed {attempt} times, the "
                                 f"last: {why}") from None
            self.retried += 1
            print(f"chimera_cluster: pair {pair} attempt {attempt} failed ({why}); playing it "
                  "again", flush=True)
            return
        games = pgn.split_games(result["pgn"])
        rounds = sorted(int(pgn.tags(g)["Round"]) for g in games)
        want = list(range(2 * pair + 1, 2 * pair + 1 + self.games_of(pair)))
        if rounds != want:
            # Chimera exited cleanly with other games than asked: not worth a retry.
            raise SystemExit(f"chimera_cluster: {result['node']}: pair {pair} gave games "
                             f"{rounds}, not {want}")
        games.sort(key=lambda g: int(pgn.tags(g)["Round"]))
        self.done[pair] = games

    def cancel_all(self):
        for ref in list(self.in_flight):
            try:
                self.ray.cancel(ref, force=True)
            except Exception:
                pass
        self.in_flight.clear()

    def vanished(self, why):
        """The head is gone (called from the watch thread): the PGN holds the games taken so
        far, each written whole; exit now, Ray cannot be shut down without its head."""
        print(f"chimera_cluster: match stopped ({why}) after {self.tally.games()} games "
              f"({sprt.result_line(self.tally)}); the PGN holds them", flush=True)
        os._exit(3)

    def lost(self, why) -> int:
        print(f"chimera_cluster: match stopped ({why}) after {self.tally.games()} games; the PGN "
              "holds them", flush=True)
        return 3

    def summary(self, secs):
        t = self.tally
        print(f"Finished {t.games()} games in {secs:.1f} s ({self.retried} pair attempts retried)")
        score = 100.0 * (t.score() or 0.0)
        print(f"first engine: {t.wins} wins, {t.draws} draws, {t.losses} losses; score "
              f"{score:.1f}%; {self.elo_text()} (95%)")
        if self.test is not None:
            if self.decision is None:
                verdict = "no decision yet"
            else:
                v, at, llr = self.decision
                verdict = {"H1": "H1 accepted (an improvement)",
                           "H0": "H0 accepted (not an improvement)"}[v]
                if at != t.games():
                    verdict += f" at game {at} (LLR {llr:.2f})"
            print(f"SPRT {self.test.describe()}: {self.llr_text().strip()}: {verdict}")
        ends = ", ".join(f"{k or '?'} {n}" for k, n in sorted(self.endings.items()))
        print(f"Endings: {ends}")
        print(sprt.result_line(t), flush=True)
