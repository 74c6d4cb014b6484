#!/usr/bin/env python3
"""Side-by-side search profile of UCI engines: nodes and time to each depth, the effective
branching factor, and nodes per second, on the same positions.

Each engine searches each position from a fresh `ucinewgame` to a fixed depth (one thread, the
same hash); the `info depth D ... nodes N time T` line that closes each iteration gives the cost
of reaching depth D. Per depth the script prints the geometric mean over the positions of the
nodes and of the time, and the effective branching factor between consecutive depths (the
ratio of their geometric-mean nodes). Depths are each engine's own: Fairy-Stockfish counts
plies differently (its extensions and reductions differ), so the comparison that matters is
time to a depth together with the strength at it, and the growth rate of the cost.

usage: tools/search_profile.py --depth 14 --engine CMD [--engine CMD ...]
           [--variant chess] [--fens FILE] [--hash 16]

FENs default to a built-in set for chess; with --fens, one FEN a line (a variant's own FENs
with --variant).
"""

import argparse
import math
import shlex
import subprocess
import sys
import time

CHESS_FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
    "2r2rk1/pp1bqppp/3p1n2/4p3/2B1P3/2NQ1P2/PPP3PP/2KR3R b - - 3 15",
    "8/5pk1/6p1/3R4/7P/6P1/r4P2/6K1 w - - 0 40",
    "4r1k1/1p3pp1/p1p4p/3n4/3P4/P1N1R2P/1P3PP1/6K1 b - - 1 28",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "rnbqkb1r/pp3ppp/4pn2/2pp4/3P4/2PBPN2/PP3PPP/RNBQK2R b KQkq - 0 5",
    "r2q1rk1/1b1nbppp/p2ppn2/1p6/3NPP2/1BN1B3/PPPQ2PP/R4RK1 w - - 2 12",
    "2kr3r/ppp2ppp/2n1bn2/2b1p3/4P3/2NP1N2/PPP1BPPP/R1B2RK1 w - - 4 10",
    "r4rk1/pp3ppp/2p1b3/q3P3/3n4/2NB4/PP1Q1PPP/R4RK1 w - - 0 16",
    "6k1/pp3ppp/2p5/8/3P4/2P3P1/P4P1P/6K1 w - - 0 30",
]


class Engine:
    """One UCI engine process."""

    def __init__(self, cmd, variant, hash_mb):
        self.cmd = cmd
        self.proc = subprocess.Popen(
            shlex.split(cmd),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.send("uci")
        self.wait_for("uciok")
        self.send("setoption name Threads value 1")
        self.send(f"setoption name Hash value {hash_mb}")
        if variant != "chess":
            self.send(f"setoption name UCI_Variant value {variant}")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, word):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit(f"{self.cmd}: exited before '{word}'")
            lines.append(line.strip())
            if line.split()[:1] == [word]:
                return lines

    def search(self, fen, depth):
        """Returns {depth: (nodes, ms)} for every completed iteration, and the wall time."""
        self.send("ucinewgame")
        self.send("isready")
        self.wait_for("readyok")
        self.send(f"position fen {fen}")
        start = time.monotonic()
        self.send(f"go depth {depth}")
        lines = self.wait_for("bestmove")
        wall = (time.monotonic() - start) * 1000
        per_depth = {}
        for line in lines:
            words = line.split()
            if words[:1] != ["info"] or "depth" not in words or "nodes" not in words:
                continue
            if "upperbound" in words or "lowerbound" in words:
                continue
            d = int(words[words.index("depth") + 1])
            nodes = int(words[words.index("nodes") + 1])
            ms = int(words[words.index("time") + 1]) if "time" in words else None
            per_depth[d] = (nodes, ms)
        return per_depth, wall

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except (BrokenPipeError, subprocess.TimeoutExpired):
            self.proc.kill()


def geomean(values):
    values = [max(v, 1) for v in values]
    return math.exp(sum(math.log(v) for v in values) / len(values))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", action="append", required=True, help="a UCI engine's command")
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--variant", default="chess")
    ap.add_argument("--fens", help="a file of FENs, one a line")
    ap.add_argument("--hash", type=int, default=16)
    args = ap.parse_args()
    if args.fens:
        with open(args.fens) as f:
            fens = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    elif args.variant == "chess":
        fens = CHESS_FENS
    else:
        sys.exit("--fens FILE is needed for a variant other than chess")

    for cmd in args.engine:
        engine = Engine(cmd, args.variant, args.hash)
        runs = []
        for fen in fens:
            runs.append(engine.search(fen, args.depth))
        engine.quit()
        print(f"## {cmd} ({args.variant}, {len(fens)} positions, depth {args.depth})")
        print("depth  nodes(geo)  ms(geo)  EBF")
        prev = None
        for d in range(1, args.depth + 1):
            reached = [r[0][d] for r in runs if d in r[0]]
            if len(reached) < len(runs):
                continue
            nodes = geomean([n for n, _ in reached])
            times = [ms for _, ms in reached if ms is not None]
            ms = geomean(times) if times else float("nan")
            ebf = f"{nodes / prev:5.2f}" if prev else "    -"
            print(f"{d:5}  {nodes:10.0f}  {ms:7.1f}  {ebf}")
            prev = nodes
        total_nodes = sum(max(r[0].values())[0] if r[0] else 0 for r in runs)
        total_ms = sum(r[1] for r in runs)
        print(f"total nodes {total_nodes}, wall {total_ms / 1000:.1f} s, "
              f"{total_nodes / max(total_ms, 1) * 1000:.0f} nps")
        print()


if __name__ == "__main__":
    main()
