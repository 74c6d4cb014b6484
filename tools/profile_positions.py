#!/usr/bin/env python3
"""Middlegame positions of a variant for tools/search_profile.py: each from a game of the given
random opening plies, played on by a UCI engine at a fixed node count a move (every move from a
fresh `ucinewgame`, so the games do not depend on the order they are played in), kept at a
fixed ply. pyffish (Fairy-Stockfish's Python binding) lists the legal moves and writes the FENs,
so the engine only has to choose; a game that ends before the ply is dropped.

usage: tools/profile_positions.py --variant xiangqi --engine target/release/chimera
           [--count 12] [--ply 28] [--random 8] [--nodes 4000] [--seed 5] > positions.fen
"""

import argparse
import random
import subprocess

import pyffish


class Engine:
    """A UCI engine that chooses one move at a time."""

    def __init__(self, command, variant):
        self.proc = subprocess.Popen(
            [command], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.wait("uciok")
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")

    def wait(self, prefix):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the engine closed its output")
            if line.startswith(prefix):
                return line

    def choose(self, fen, moves, nodes):
        self.send("ucinewgame")
        self.send(f"position fen {fen} moves {' '.join(moves)}".rstrip())
        self.send(f"go nodes {nodes}")
        return self.wait("bestmove").split()[1]

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", required=True)
    parser.add_argument("--engine", required=True)
    parser.add_argument("--count", type=int, default=12)
    parser.add_argument("--ply", type=int, default=28)
    parser.add_argument("--random", type=int, default=8)
    parser.add_argument("--nodes", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    engine = Engine(args.engine, args.variant)
    start = pyffish.start_fen(args.variant)
    found = []
    while len(found) < args.count:
        moves = []
        while len(moves) < args.ply:
            legal = pyffish.legal_moves(args.variant, start, moves)
            if not legal:
                break
            if len(moves) < args.random:
                moves.append(rng.choice(legal))
            else:
                moves.append(engine.choose(start, moves, args.nodes))
        if len(moves) == args.ply and pyffish.legal_moves(args.variant, start, moves):
            found.append(pyffish.get_fen(args.variant, start, moves))
    engine.close()
    print("\n".join(found))


if __name__ == "__main__":
    main()
