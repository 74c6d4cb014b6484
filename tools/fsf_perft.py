#!/usr/bin/env python3
"""Cross-check tool: reads FENs (one per line) on stdin and prints each with its perft counts
from Fairy-Stockfish, in the format of tests/data/perft/*.epd (`<FEN> ;D1 n ;D2 n ...`).

usage: fsf_perft.py VARIANT MAXDEPTH [ENGINE] [VARIANTS_INI] < fens.txt
(ENGINE defaults to /usr/games/fairy-stockfish, Debian's package)."""

import subprocess
import sys


def main():
    variant, depth = sys.argv[1], int(sys.argv[2])
    engine = sys.argv[3] if len(sys.argv) > 3 else "/usr/games/fairy-stockfish"
    ini = sys.argv[4] if len(sys.argv) > 4 else None
    proc = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    def read_until(prefix):
        lines = []
        while True:
            line = proc.stdout.readline()
            if not line:
                raise SystemExit("engine died")
            lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return lines

    send("uci")
    read_until("uciok")
    if ini:
        send(f"setoption name VariantPath value {ini}")
    send(f"setoption name UCI_Variant value {variant}")
    send("isready")
    read_until("readyok")
    for fen in sys.stdin:
        fen = fen.strip()
        if not fen or fen.startswith("#"):
            continue
        counts = []
        for d in range(1, depth + 1):
            send(f"position fen {fen}")
            send(f"go perft {d}")
            out = read_until("Nodes searched")
            counts.append(int(out[-1].split(":")[1]))
        print(fen + "".join(f" ;D{d} {n}" for d, n in enumerate(counts, 1)), flush=True)
    send("quit")


if __name__ == "__main__":
    main()
