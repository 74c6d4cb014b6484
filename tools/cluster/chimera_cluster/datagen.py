"""`python3 -m chimera_cluster datagen`: self-play data made on every core of a Ray cluster
and gathered into one data file that `chimera train` reads.

The work is cut into shards (`plan`): shard k is `chimera datagen --threads 1 --games G
--seed S_k` on one core of some worker. Shards are started lowest number first, as many as the
cluster has cores and as the target still needs; each finished one is checked and kept in
`OUT.shards/`, and the shards are appended to `OUT` strictly in shard order (`datafile`), the
run ending at the first shard that brings the output to the positions asked for. So the output
is the same bytes on one core or a hundred. A shard whose worker died, or whose Chimera was
killed, is started again from scratch (a shard is kept whole or not at all); a machine that
lacks the binary stops the run with its name. Shards finished beyond the end stay on disk, and
running the command again with the same output adds the next shards, those first.
"""

import os
import sys
import time

from . import cluster, datafile, plan, tasks


def settings_of(args, chimera_sha, net_sha):
    """What the shards' bytes depend on besides their seeds: kept in the manifest, and
    required to be the same when a run adds to an existing output."""
    return {
        "variant": args.variant,
        "nodes": args.nodes,
        "net": args.net or "",
        "net_sha256": net_sha,
        "random_plies": args.random_plies,
        "max_plies": args.max_plies,
        "hash": args.hash,
        "seed": args.seed,
        "shard_games": args.shard_games,
        "variants": [datafile.file_sha256(v) for v in args.variants],
        "chimera_sha256": chimera_sha,
    }


def run(args) -> int:
    chimera = os.path.abspath(args.chimera)
    if not (os.path.isfile(chimera) and os.access(chimera, os.X_OK)):
        raise SystemExit(f"chimera_cluster: --chimera {chimera} is not an executable here; the "
                         "binary must be at the same path on this machine and every worker")
    net = args.net
    if net and net != "hand":
        net = os.path.abspath(net)
        if not os.path.isfile(net):
            raise SystemExit(f"chimera_cluster: --net {net} is not there")
    args.net = net
    args.variants = [os.path.abspath(v) for v in args.variants]
    chimera_sha = datafile.file_sha256(chimera)
    net_sha = datafile.file_sha256(net) if net and net != "hand" else ""
    out = datafile.Output(os.path.abspath(args.out), settings_of(args, chimera_sha, net_sha))
    try:
        out.open()
    except datafile.ManifestError as e:
        raise SystemExit(f"chimera_cluster: {e}")
    job = {
        "chimera": chimera,
        "chimera_sha256": chimera_sha,
        "variant": args.variant,
        "nodes": args.nodes,
        "games": args.shard_games,
        "random_plies": args.random_plies,
        "max_plies": args.max_plies,
        "hash": args.hash,
        "net": net,
        "variants": args.variants,
        "tmp_dir": args.tmp_dir,
    }
    ray = cluster.connect(args.address, args.local_cpus)
    return Driver(ray, args, out, job).run()


class Driver:
    """One run's scheduling loop, with its counts for the progress line and the summary."""

    def __init__(self, ray, args, out, job):
        self.ray, self.args, self.out, self.job = ray, args, out, job
        self.bar = cluster.Bar(args.quiet)
        self.games = args.shard_games
        self.sizes = {}  # finished shard -> positions (stored, not yet committed)
        self.in_flight = {}  # object ref -> (shard, attempt)
        self.attempts = {}  # shard -> attempts started
        self.start_committed = out.committed
        self.target = out.committed_positions + args.positions
        self.made = 0  # positions of the shards finished by this run
        self.made_shards = 0
        self.retried = 0
        # Positions per shard seen (the last run's first): how many shards the target needs.
        self.seen = [s["positions"] for s in out.manifest["shards"][-32:]]

    def seed(self, shard):
        return plan.shard_seed(self.args.seed, shard)

    def commit_ready(self):
        """Appends the stored shards that come next in order, up to the target: the output
        keeps the fewest leading shards that hold the positions asked for, decided on the
        prefix only, never on whichever shards happened to finish first."""
        while (self.out.committed_positions < self.target
               and self.out.committed in self.sizes):
            k = self.out.committed
            self.out.commit(k, self.seed(k), self.games)
            del self.sizes[k]

    def next_shards(self, n):
        """The `n` lowest shard numbers not committed, stored or under way."""
        busy = {s for s, _ in self.in_flight.values()}
        k, found = self.out.committed, []
        while len(found) < n:
            if k not in self.sizes and k not in busy:
                found.append(k)
            k += 1
        return found

    def launch(self, remote, progress, shard):
        attempt = self.attempts.get(shard, 0) + 1
        self.attempts[shard] = attempt
        ref = remote.remote(self.job, shard, self.seed(shard), attempt, progress)
        self.in_flight[ref] = (shard, attempt)

    def live_positions(self, progress):
        if progress is None or not self.in_flight:
            return 0
        try:
            snap = self.ray.get(progress.snapshot.remote(), timeout=2)
        except Exception:
            return 0
        busy = {s for s, _ in self.in_flight.values()}
        return sum(n for s, n in snap.items() if s in busy)

    def draw(self, progress, started, force=False):
        """The progress line: this run's positions (finished shards and those under way)
        against the positions asked for, and the rate over the whole cluster."""
        base = self.target - self.args.positions  # the output's positions when the run began
        done = self.out.committed_positions + sum(self.sizes.values()) - base
        live = self.live_positions(progress)
        secs = max(1e-3, time.time() - started)
        rate = (self.made + live) / secs
        self.bar.show(
            min(done + live, self.args.positions), self.args.positions,
            f"{done + live}/{self.args.positions} positions, {rate:.0f} pos/s, "
            f"{len(self.in_flight)} shards running, "
            f"{self.out.committed - self.start_committed} in the file, {secs:.0f} s",
            force)

    def run(self) -> int:
        ray, args, out = self.ray, self.args, self.out
        for k, path in sorted(out.stored().items()):
            try:
                self.sizes[k] = out.positions_of_stored(k, self.games)
                self.seen.append(self.sizes[k])
            except datafile.ShardError:
                os.remove(path)  # cannot happen with atomic writes; a hand-made file
        if self.sizes:
            self.bar.say(f"chimera_cluster: {len(self.sizes)} finished shards from an earlier "
                         "run are used first")
        self.commit_ready()
        remote = ray.remote(tasks.run_shard).options(num_cpus=args.cpus_per_shard, max_retries=0)
        progress = None
        try:
            # Pinned to the driver's node: the actor must outlive any worker node lost.
            from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy
            here = ray.get_runtime_context().get_node_id()
            progress = ray.remote(tasks.Progress).options(
                num_cpus=0, scheduling_strategy=NodeAffinitySchedulingStrategy(here, soft=False)
            ).remote()
        except Exception as e:
            self.bar.say(f"chimera_cluster: no live progress ({cluster.short_error(e)})")
        started = time.time()
        cluster.watch_head(ray, self.vanished)
        status = 0
        try:
            while out.committed_positions < self.target:
                cap = cluster.capacity(ray, args.cpus_per_shard)
                # Holes first (a shard that failed, below others finished or under way): the
                # file cannot move on past them.
                free = max(0, cap - len(self.in_flight))
                for k in self.holes()[:max(free, 0 if self.in_flight else 1)]:
                    self.launch(remote, progress, k)
                have = out.committed_positions + sum(self.sizes.values())
                n = plan.shards_wanted(have, self.seen[-32:], self.target,
                                       len(self.in_flight), cap)
                if n == 0 and not self.in_flight:
                    n = 1  # below the target with nothing under way: one more shard
                for k in self.next_shards(n):
                    self.launch(remote, progress, k)
                ready, _ = ray.wait(list(self.in_flight), num_returns=1, timeout=1.0)
                for ref in ready:
                    self.finish(ref)
                self.commit_ready()
                self.draw(progress, started)
        except cluster.ClusterLost as e:
            status = self.lost(str(e))
        except KeyboardInterrupt:
            status = self.lost("interrupted")
        except SystemExit:
            self.cancel_all()
            raise
        except Exception as e:
            if "ray" not in type(e).__module__:
                raise
            status = self.lost(cluster.short_error(e))
        if status == 0:
            self.draw(progress, started, force=True)
            self.bar.close()
            self.cancel_all()
        kept_shards = out.committed - self.start_committed
        secs = time.time() - started
        print(f"chimera_cluster: datagen: {kept_shards} shards, "
              f"{out.committed_positions - (self.target - args.positions)} positions added to "
              f"{out.out} ({out.committed} shards, {out.committed_positions} positions in all); "
              f"{self.made} positions made in {secs:.1f} s = {self.made / max(secs, 1e-3):.1f} "
              f"pos/s; {self.retried} shard attempts retried"
              + (f"; {len(self.sizes)} finished shards kept for the next run" if self.sizes else ""))
        return status

    def holes(self):
        """Shards below the highest one finished or under way that are neither."""
        busy = {s for s, _ in self.in_flight.values()}
        top = max(list(busy) + list(self.sizes), default=self.out.committed - 1)
        return [k for k in range(self.out.committed, top)
                if k not in busy and k not in self.sizes]

    def finish(self, ref):
        """One task ended: keep its shard, or sort its failure."""
        shard, attempt = self.in_flight.pop(ref)
        try:
            result = self.ray.get(ref)
        except Exception as e:
            if cluster.is_fatal(e):
                self.bar.close()
                raise SystemExit(f"chimera_cluster: {cluster.short_error(e)}") from None
            self.retry(shard, attempt, cluster.short_error(e))
            return
        try:
            positions = self.out.store(shard, result["data"], self.games)
        except datafile.ShardError as e:
            if "header" in str(e):
                raise SystemExit(f"chimera_cluster: {result['node']}: {e}") from None
            self.retry(shard, attempt, f"{result['node']}: shard {shard}: {e}")
            return
        self.sizes[shard] = positions
        self.seen.append(positions)
        self.made += positions
        self.made_shards += 1

    def retry(self, shard, attempt, why):
        if attempt > self.args.retries:
            raise SystemExit(f"chimera_cluster: shard {shard} failed {attempt} times, the last: "
                             f"{why}")
        self.retried += 1
        self.bar.say(f"chimera_cluster: shard {shard} attempt {attempt} failed ({why}); "
                     "starting it again")
        # Not relaunched here: the loop starts the lowest missing shards first, this one.

    def cancel_all(self):
        for ref in list(self.in_flight):
            try:
                self.ray.cancel(ref, force=True)
            except Exception:
                pass
        self.in_flight.clear()

    def vanished(self, why):
        """The head is gone (called from the watch thread): say what is kept and exit now;
        Ray cannot be shut down cleanly without its head."""
        self.bar.close()
        print(f"chimera_cluster: datagen stopped ({why}); {self.out.out} holds "
              f"{self.out.committed} whole shards ({self.out.committed_positions} positions) "
              f"and {len(self.sizes)} more are kept; run the same command again to go on",
              flush=True)
        sys.stderr.flush()
        os._exit(3)

    def lost(self, why) -> int:
        self.bar.close()
        self.cancel_all()
        print(f"chimera_cluster: datagen stopped ({why}); {self.out.out} holds "
              f"{self.out.committed} whole shards ({self.out.committed_positions} positions) "
              f"and {len(self.sizes)} more are kept; run the same command again to go on")
        return 3
