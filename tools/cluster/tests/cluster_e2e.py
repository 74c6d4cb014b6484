#!/usr/bin/env python3
"""The cluster end to end, as CI runs it (tests/play/cluster.rs): a real two-node Ray cluster
on this machine, a datagen and a match through it with a worker killed in each, and the
outputs checked against Chimera run without Ray.

1. `ray start --head` and a second node `ray start --address`, one core each, in a private
   temporary directory, each in a process group of its own so that all of it can be stopped
   by process id at the end, whatever happened (never `ray stop`, which would stop every
   Ray on the machine).
2. datagen: about 1500 positions in shards of 3 games; one shard's `chimera datagen` is
   killed mid-shard. Checks: the kill was retried; every shard is in the file once, in order;
   the file's bytes equal the shards made again one by one with plain `chimera datagen` and
   joined (so they depend on the seeds only); `chimera train` reads it. Then a second run on
   the same output adds shards after the first ones, leaving those bytes as they were.
3. match: a strong and a weak Chimera (nodes=) under an SPRT that decides within a few pairs;
   the second node's raylet is killed while pairs are being played. Checks: the lost pair
   was played again; the SPRT stopped the match before its end; the PGN's games are numbered
   1..N in order, equal move for move to a one-machine `chimera match` of N games, and every
   result is the one python-chess (an independent referee) finds on the board. Then a match
   naming an engine that no machine has must stop with an error naming the machine.

usage: cluster_e2e.py --chimera PATH [--keep]     exit code 0: passed, 1: failed
"""

import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time

MARK = "CHIMERA_CLUSTER_TEST"
HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE_ROOT = os.path.dirname(HERE)
sys.path.insert(0, PACKAGE_ROOT)

from chimera_cluster import pgn as pgnlib  # noqa: E402


def log(text):
    print(f"[{time.strftime('%H:%M:%S')}] {text}", flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def processes_with(marker):
    """(pid, argv) of this user's processes whose command line or environment contains
    `marker`. The environment too: Ray's workers rename themselves (`ray::IDLE`), but they
    inherit the marker the test puts in the cluster's environment."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = [a.decode("utf-8", "replace") for a in f.read().split(b"\0") if a]
            with open(f"/proc/{pid}/environ", "rb") as f:
                env = f.read()
        except OSError:
            continue
        if any(marker in a for a in argv) or f"{MARK}={marker}".encode() in env:
            found.append((int(pid), argv))
    return found


class Cluster:
    """Two Ray nodes on this machine, started and stopped by process id."""

    def __init__(self, root):
        self.root = root
        self.port = free_port()
        self.node2_port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.groups = []
        # No token authentication: a cluster on the loopback of a test machine, and a token
        # in ~/.ray from some earlier Ray would otherwise have to match.
        self.env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", RAY_AUTH_MODE="disabled",
                        **{MARK: root})
        self.env.pop("RAY_ADDRESS", None)

    def start_node(self, extra, name):
        out = open(os.path.join(self.root, f"{name}.log"), "w")
        cmd = ["ray", "start", "--block", "--num-cpus=1", "--disable-usage-stats",
               "--object-store-memory=80000000"] + extra
        # A session of its own: the whole node (raylet, workers, Chimera under them) is one
        # process group to stop at the end.
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=self.env,
                             start_new_session=True)
        self.groups.append(p)
        return p

    def start(self):
        self.start_node([f"--port={self.port}", "--head", "--include-dashboard=false",
                         f"--temp-dir={self.root}/ray"], "head")
        self.wait_cpus(1, 90)
        self.start_node([f"--address={self.address}",
                         f"--node-manager-port={self.node2_port}"], "node2")
        self.wait_cpus(2, 90)

    def wait_cpus(self, n, limit):
        deadline = time.time() + limit
        probe = ("import ray,sys; ray.init(address=sys.argv[1], logging_level='ERROR');"
                 "print(int(ray.cluster_resources().get('CPU', 0)))")
        while time.time() < deadline:
            r = subprocess.run([sys.executable, "-c", probe, self.address], capture_output=True,
                               text=True, env=self.env, timeout=60)
            if r.returncode == 0 and r.stdout.strip().splitlines()[-1:] == [str(n)]:
                log(f"the cluster has {n} CPUs")
                return
            time.sleep(1)
        raise AssertionError(f"the cluster did not reach {n} CPUs:\n{self.logs()}")

    def node2_raylet(self):
        for pid, argv in processes_with(f"--node_manager_port={self.node2_port}"):
            if "raylet" in os.path.basename(argv[0]):
                return pid
        return None

    def logs(self):
        text = ""
        for name in ("head", "node2"):
            path = os.path.join(self.root, f"{name}.log")
            if os.path.exists(path):
                text += f"--- {name}.log\n" + open(path).read()[-3000:]
        return text

    def stop(self):
        """Stops both nodes: SIGTERM to each node's process group, SIGKILL to what is left
        after a grace period, then to any process still carrying the test's marker (workers
        live in process groups of their own)."""
        for p in self.groups:
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        deadline = time.time() + 8
        while time.time() < deadline and processes_with(self.root):
            time.sleep(0.5)
        for _ in range(3):
            for p in self.groups:
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            for pid, _ in processes_with(self.root):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            for p in self.groups:
                try:
                    p.wait(2)
                except subprocess.TimeoutExpired:
                    pass
            if not processes_with(self.root):
                break
            time.sleep(0.5)


def parent(pid):
    """The parent process id of `pid` (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return 0


def cli(args, env, timeout=240, background=False):
    cmd = [sys.executable, "-m", "chimera_cluster"] + args
    env = dict(env, PYTHONPATH=PACKAGE_ROOT)
    if background:
        return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, env=env)
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)


def kill_first(marker, what, limit=60, after=0.2, proc=None):
    """Waits for a process whose command line holds `marker` and SIGKILLs it; returns its
    argv."""
    deadline = time.time() + limit
    while time.time() < deadline:
        found = processes_with(marker)
        found = [(pid, argv) for pid, argv in found if what(argv)]
        if found:
            time.sleep(after)
            pid, argv = found[0]
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                continue
            return argv
        if proc is not None and proc.poll() is not None:
            break
        time.sleep(0.05)
    raise AssertionError(f"no process with {marker} to kill")


def check(cond, text):
    if not cond:
        raise AssertionError(text)


def datagen_part(chimera, cl, root):
    out = os.path.join(root, "data", "chess.data")
    os.makedirs(os.path.dirname(out))
    scratch = os.path.join(root, "scratch")
    os.makedirs(scratch)
    common = ["datagen", "--address", cl.address, "--chimera", chimera, "--variant", "chess",
              "--nodes", "600", "--shard-games", "3", "--seed", "7", "--out", out,
              "--tmp-dir", scratch]
    log("datagen: 1500 positions on the cluster, one shard's chimera killed")
    p = cli(common + ["--positions", "1500"], cl.env, background=True)
    argv = kill_first(scratch, lambda a: "datagen" in a and os.path.basename(a[0]) == "chimera",
                      proc=p)
    log(f"killed chimera datagen --seed {argv[argv.index('--seed') + 1]}")
    text, _ = p.communicate(timeout=240)
    print(text)
    check(p.returncode == 0, "datagen failed")
    check(re.search(r"shard \d+ attempt 1 failed \(.*killed by signal 9", text),
          "the killed shard was not retried")
    manifest = json.load(open(out + ".cluster.json"))
    # The bytes are checked once, after the second run, which must leave these as they are.
    first = check_data(chimera, out, manifest, root, remake=False)
    check(sum(s["positions"] for s in manifest["shards"]) >= 1500, "too few positions")
    log("datagen again on the same output: 300 more positions")
    r = cli(common + ["--positions", "300"], cl.env)
    print(r.stdout + r.stderr)
    check(r.returncode == 0, "the second datagen failed")
    manifest2 = json.load(open(out + ".cluster.json"))
    check(manifest2["shards"][:len(manifest["shards"])] == manifest["shards"],
          "the second run changed the first run's shards")
    check(len(manifest2["shards"]) > len(manifest["shards"]), "no shard added")
    data = open(out, "rb").read()
    check(data.startswith(first), "the second run changed the first run's bytes")
    check_data(chimera, out, manifest2, root)
    # chimera train reads the whole file.
    r = subprocess.run([chimera, "train", "--data", out, "--out", os.path.join(root, "t.net"),
                        "--epochs", "1", "--hidden", "16"], capture_output=True, text=True)
    check(r.returncode == 0, f"chimera train failed: {r.stderr}")
    m = re.search(r"(\d+) positions of chess read", r.stderr)
    total = sum(s["positions"] for s in manifest2["shards"])
    check(m and int(m.group(1)) == total, f"train read {m and m.group(1)}, want {total}")
    log(f"datagen checked: {len(manifest2['shards'])} shards, {total} positions, "
        "train reads them all")


def check_data(chimera, out, manifest, root, remake=True):
    """Every shard once and in order, and (with `remake`) the file equal to the shards made
    again without Ray, one plain `chimera datagen` per shard seed, joined as the format says."""
    data = open(out, "rb").read()
    banners = re.findall(rb"^#shard (\d+) seed=(\d+) games=(\d+) positions=(\d+)$", data, re.M)
    shards = [int(b[0]) for b in banners]
    check(shards == list(range(len(manifest["shards"]))),
          f"shards in the file: {shards}, manifest: {len(manifest['shards'])}")
    check(len(data) == manifest["out_bytes"], "the file's length is not the manifest's")
    if not remake:
        return data
    expect = b""
    for s in manifest["shards"]:
        ref = os.path.join(root, f"ref-{s['shard']}.data")
        if os.path.exists(ref):
            os.remove(ref)
        r = subprocess.run([chimera, "datagen", "--out", ref, "--threads", "1", "--variant",
                            "chess", "--nodes", "600", "--games", str(s["games"]), "--seed",
                            str(s["seed"]), "--random-plies", "8", "--max-plies", "400",
                            "--hash", "16"], capture_output=True)
        check(r.returncode == 0, r.stderr.decode())
        body = open(ref, "rb").read()
        header, _, body = body.partition(b"\n")
        if not expect:
            expect = header + b"\n"
        expect += (f"#shard {s['shard']} seed={s['seed']} games={s['games']} "
                   f"positions={s['positions']}\n").encode() + body
    check(data == expect, "the file is not the shards made again without Ray")
    return data


REFEREE = r"""
import sys, chess, chess.pgn
bad = 0
games = 0
with open(sys.argv[1]) as h:
    while (g := chess.pgn.read_game(h)) is not None:
        games += 1
        assert not g.errors, g.errors
        board = g.end().board()
        result = g.headers["Result"]
        plies = len(list(g.mainline_moves()))
        assert plies == int(g.headers["PlyCount"]), "PlyCount"
        if board.is_checkmate():
            want = "0-1" if board.turn == chess.WHITE else "1-0"
        elif board.is_stalemate() or board.is_insufficient_material() or \
                board.can_claim_draw() or board.is_fivefold_repetition():
            want = "1/2-1/2"
        elif plies >= 2 * int(sys.argv[2]):
            want = "1/2-1/2"  # the move limit
        else:
            want = "no end on the board"
        if want != result:
            bad += 1
            print(f"game {g.headers['Round']}: PGN says {result}, the board says {want}")
print(f"{games} games refereed, {bad} disagree")
sys.exit(1 if bad else 0)
"""


def match_part(chimera, cl, root):
    pgn = os.path.join(root, "match.pgn")
    scratch = os.path.join(root, "scratch")
    strong = f"cmd={chimera} proto=uci name=Strong nodes=1500"
    weak = f"cmd={chimera} proto=uci name=Weak nodes=1"
    args = ["--engine", strong, "--engine", weak, "--variant", "chess", "--tc", "inf",
            "--random-plies", "4", "--seed", "3", "--max-moves", "100"]
    log("match: 20 games under an SPRT, the second node's raylet killed")
    p = cli(["match", "--address", cl.address, "--chimera", chimera, "--games", "20",
             "--pgn", pgn, "--tmp-dir", scratch, "--sprt", "elo0=0", "elo1=1000"] + args,
            cl.env, background=True)
    # Kill the second node while it plays a pair: a `chimera match` whose worker is a child
    # of that node's raylet.
    raylet = cl.node2_raylet()
    check(raylet is not None, "no raylet of the second node found")
    deadline = time.time() + 60
    worker = None
    while time.time() < deadline and worker is None and p.poll() is None:
        for pid, argv in processes_with(scratch):
            if "match" not in argv:
                continue
            # The worker is the ancestor whose parent is the node's raylet.
            chain = [pid]
            while chain[-1] > 1 and len(chain) < 8:
                chain.append(parent(chain[-1]))
            if raylet in chain:
                worker = chain[chain.index(raylet) - 1]
        time.sleep(0.02)
    check(worker is not None, "no pair was played on the second node")
    # The whole node at once, as when its machine goes: the worker playing the pair (its
    # Chimera dies with it) and the raylet. The raylet alone is not enough: a worker already
    # playing finishes its pair and hands the result straight to the driver.
    os.kill(worker, signal.SIGKILL)
    os.kill(raylet, signal.SIGKILL)
    log(f"killed the second node (raylet {raylet} and worker {worker}) while it played a pair")
    text, _ = p.communicate(timeout=240)
    print(text)
    check(p.returncode == 0, "match failed")
    check(re.search(r"pair \d+ attempt 1 failed", text), "the lost pair was not played again")
    check("SPRT elo0=0 elo1=1000" in text and "H1 accepted" in text, "the SPRT did not decide")
    games = pgnlib.split_games(open(pgn).read())
    n = len(games)
    check(4 <= n < 20 and n % 2 == 0, f"{n} games: the SPRT should stop at a whole pair")
    rounds = [int(pgnlib.tags(g)["Round"]) for g in games]
    check(rounds == list(range(1, n + 1)), f"rounds {rounds}")
    # The same games as one machine plays them.
    ref = os.path.join(root, "ref.pgn")
    r = subprocess.run([chimera, "match"] + args + ["--games", str(n), "--pgn", ref],
                       capture_output=True, text=True)
    check(r.returncode == 0, r.stderr)

    def moves(text):
        # Without the dates and the comments (each move's time), and with whitespace
        # collapsed: the writer wraps lines by their length, comments included.
        return [" ".join(re.sub(r"\{[^}]*\}|\[Date [^\]]*\]", "", g).split())
                for g in pgnlib.split_games(text)]
    check(moves(open(pgn).read()) == moves(open(ref).read()),
          "the cluster's games differ from one machine's")
    has_chess = subprocess.run([sys.executable, "-c", "import chess.pgn"],
                               capture_output=True).returncode == 0
    if has_chess:
        r = subprocess.run([sys.executable, "-c", REFEREE, pgn, "100"], capture_output=True,
                           text=True)
        print(r.stdout + r.stderr)
        check(r.returncode == 0, "python-chess disagrees with a result")
    else:
        print("*** SKIPPED the independent referee: python-chess is not installed "
              "(pip install chess); the games were checked against one machine's only ***")
    r = subprocess.run([chimera, "pgn-check", pgn], capture_output=True, text=True)
    check(r.returncode == 0, f"chimera pgn-check: {r.stdout}{r.stderr}")
    log(f"match checked: {n} games, equal to one machine's, refereed"
        + (" by python-chess" if has_chess else ""))
    # A machine without a program the run needs stops the run, naming the machine.
    r = cli(["match", "--address", cl.address, "--chimera", chimera, "--games", "2",
             "--engine", "cmd=/nonexistent/engine proto=uci", "--engine", strong,
             "--tc", "inf"], cl.env, timeout=120)
    print(r.stdout + r.stderr)
    check(r.returncode != 0 and re.search(r"node \S+ \(.*\): the engine /nonexistent/engine "
                                          r"is not there", r.stdout + r.stderr),
          "a missing engine was not reported with its node")
    log("a missing engine stops the run, naming the node")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--chimera", required=True)
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    a = ap.parse_args()
    chimera = os.path.abspath(a.chimera)
    # Short: Ray's socket paths live under it and a Unix socket path has ~107 bytes.
    root = tempfile.mkdtemp(prefix="chray", dir="/tmp")
    cl = Cluster(root)
    started = time.time()
    status = 1
    try:
        cl.start()
        datagen_part(chimera, cl, root)
        match_part(chimera, cl, root)
        status = 0
        log(f"passed in {time.time() - started:.0f} s")
    except AssertionError as e:
        print(f"FAILED: {e}\n{cl.logs()}", flush=True)
    finally:
        cl.stop()
        left = processes_with(root)
        if left:
            print(f"FAILED: processes left behind: {left}")
            status = 1
        if not a.keep:
            subprocess.run(["rm", "-rf", root])
    return status


if __name__ == "__main__":
    sys.exit(main())
