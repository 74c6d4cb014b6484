#!/usr/bin/env python3
"""Runs an EPD test suite (bm in SAN) on another UCI engine, the way `chimera epd` runs it on
Chimera: one thread, a fresh game (and so a cleared table) per position, a fixed time per
position, the move played at the end compared with the bm moves. Prints the failures and
`solved N/M` last, so that Chimera's figure can be set beside a reference engine's on the
same machine.

usage: tools/epd_external.py ENGINE [SUITE] [--movetime MS] [--hash MB]
  defaults: tests/data/wac.epd, 1000 ms, 64 MB (the table `chimera epd` uses)
needs: python-chess (`pip install chess`)
"""

import argparse
import sys

import chess
import chess.engine

import epd_read


def records(path):
    """Yields (board, best moves, id) for each EPD line of `path` that has bm moves."""
    for number, board, ops in epd_read.positions(path):
        best = [board.parse_san(s) for s in epd_read.moves(ops, "bm")]
        if best:
            yield board, best, epd_read.ident(ops, number)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("suite", nargs="?", default="tests/data/wac.epd")
    ap.add_argument("--movetime", type=int, default=1000)
    ap.add_argument("--hash", type=int, default=64)
    args = ap.parse_args()
    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    try:
        options = {"Threads": 1, "Hash": args.hash}
        engine.configure({k: v for k, v in options.items() if k in engine.options})
        solved = total = 0
        for board, best, ident in records(args.suite):
            # A new game object per position makes python-chess send ucinewgame.
            result = engine.play(board, chess.engine.Limit(time=args.movetime / 1000), game=object())
            total += 1
            if result.move in best:
                solved += 1
            else:
                played = board.san(result.move) if result.move else "(none)"
                expected = " ".join(board.san(m) for m in best)
                print(f"{ident:<10} FAIL   {played:<8} expected {expected}", flush=True)
        print(f"solved {solved}/{total}")
    finally:
        engine.quit()


if __name__ == "__main__":
    sys.exit(main())
