#!/usr/bin/env python3
"""Differential test of Chimera's rules against Fairy-Stockfish (pyffish, `pip install pyffish`).

Plays seeded random games with pyffish in every built-in variant (pyffish.variants()) and every
section of Fairy-Stockfish's variants.ini (tests/data/fsf/variants.ini), and at sampled plies
compares what `chimera probe` answers with what pyffish says:

  moves     the legal-move list (Fairy-Stockfish's notation, sorted)
  perft2    perft 2 (every --perft-every'th sampled position)
  perft3    perft 3 where perft 2 is at most --perft3-max
  end       whether the game is over and its value for the side to move (win/draw/loss):
            no legal move (game_result), the variant's own ends (is_immediate_game_end), the
            optional ends (is_optional_game_end: move-count rule, repetition, counting) and
            insufficient material on both sides (has_insufficient_material)
  replay    Chimera refuses a move of the game, or the game's start
  fen-out   the FEN Chimera writes, read by pyffish, refused or with other legal moves
  fen-in    the FEN pyffish writes, read by Chimera, refused or with other legal moves

Differences listed in tests/data/fsf/deliberate-differences.txt (`variant | kind | regex |
reason`, see that file; a reason starting `open:` is a known bug not fixed yet) are counted
apart, and the open ones listed by reason.
Prints a summary and every other difference with what reproduces it; the exit code is 1 when
there is an unexplained difference.

usage: fsf_diff.py [--chimera PATH] [--ini FILE] [--slice ci|K/N] [--variant V[,V..]]
                   [--seed S] [--games-per-variant G] [--max-plies P] [--every K] [--jobs J]
                   [--perft-every N] [--perft3-max N] [--time-budget SECONDS]
                   [--deliberate FILE] [--show N]

  --slice ci   the CI slice: every 8th variant of the sorted list (about 33)
  --slice K/N  the K-th (0-based) of N interleaved parts of the sorted list
"""

import argparse
import multiprocessing
import os
import random
import re
import subprocess
import sys
import time

import pyffish

from pyffish_perft import perft as fsf_perft  # tools/, beside this file

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INI = os.path.join(ROOT, "tests", "data", "fsf", "variants.ini")
DELIBERATE = os.path.join(ROOT, "tests", "data", "fsf", "deliberate-differences.txt")
KINDS = ["replay", "moves", "perft2", "perft3", "end", "fen-out", "fen-in"]

OPTS = None
PROBE = None


def value_word(v):
    return "win" if v > 0 else "loss" if v < 0 else "draw"


class Probe:
    """One `chimera probe` process, asked one line at a time."""

    def __init__(self, exe, ini):
        self.args = [exe, "--variants", ini, "probe"]
        self.start()

    def start(self):
        self.proc = subprocess.Popen(
            self.args,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )

    def ask(self, variant, fen, moves, depth):
        line = "\t".join([variant, fen, " ".join(moves), str(depth)])
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
            answer = self.proc.stdout.readline()
        except BrokenPipeError:
            answer = ""
        if not answer:
            # Chimera died on this line: a crash is a difference too; start a new one.
            self.start()
            return ("error", "chimera probe died")
        f = answer.rstrip("\n").split("\t")
        if f[0] != "ok":
            return ("error", f[1] if len(f) > 1 else answer)
        legal = f[1].split() if f[1] else []
        perft = None if f[2] == "-" else int(f[2])
        return ("ok", legal, perft, f[3], f[4])


def fsf_end(variant, fen, moves, legal):
    """(value word, reason) of the game's end by Fairy-Stockfish, or None."""
    if not legal:
        return value_word(pyffish.game_result(variant, fen, moves)), "no move"
    over, value = pyffish.is_immediate_game_end(variant, fen, moves)
    if over:
        return value_word(value), "variant end"
    over, value = pyffish.is_optional_game_end(variant, fen, moves)
    if over:
        return value_word(value), "optional end"
    white, black = pyffish.has_insufficient_material(variant, fen, moves)
    if white and black:
        return "draw", "insufficient material"
    return None


# pyffish.validate_fen's answers: FEN_OK, and FEN_INVALID_CASTLING_INFO, which it gives for
# some of Fairy-Stockfish's own FENs (gating and castling rights of S-Chess, extra armies): its
# checker is stricter than its reader, so such a FEN is judged by the moves read from it.
FEN_READABLE = (1, -5)


def fen_code(variant, fen):
    """pyffish.validate_fen's code for `fen`; what Fairy-Stockfish prints about a bad one is
    dropped."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = (os.dup(1), os.dup(2))
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    try:
        return pyffish.validate_fen(fen, variant)
    except Exception:
        return 0
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        os.close(saved[0])
        os.close(saved[1])
        os.close(null)


def list_diff(fsf, chimera):
    a, b = set(fsf), set(chimera)
    only_f = sorted(a - b)
    only_c = sorted(b - a)
    return "FSF %d, Chimera %d; only FSF: %s; only Chimera: %s" % (
        len(fsf),
        len(chimera),
        " ".join(only_f[:12]) + (" ..." if len(only_f) > 12 else ""),
        " ".join(only_c[:12]) + (" ..." if len(only_c) > 12 else ""),
    )


def compare(variant, start, moves, fsf_legal, sample_no, out):
    """Compares one position; appends (kind, variant, fen, start, moves, detail) to out.
    Returns the Fairy-Stockfish end (None while the game goes on)."""
    o = OPTS
    fen = pyffish.get_fen(variant, start, moves)
    end = fsf_end(variant, start, moves, fsf_legal)
    stats = {"positions": 1, "perft2": 0, "perft3": 0}

    def diff(kind, detail):
        out.append((kind, variant, fen, start, list(moves), detail))

    want2 = end is None and sample_no % o.perft_every == 0
    a = PROBE.ask(variant, start, moves, 2 if want2 else 1)
    if a[0] != "ok":
        diff("replay", a[1])
        return end, stats
    _, legal, perft, c_end, c_fen = a
    c_value = None if c_end == "-" else c_end.split(":")[0]
    f_value = None if end is None else end[0]
    if c_value != f_value:
        diff("end", "FSF %s, Chimera %s" % (end and "%s (%s)" % end, c_end))
    if end is None or end[1] != "variant end":
        if sorted(fsf_legal) != legal:
            diff("moves", list_diff(sorted(fsf_legal), legal))
    if want2 and sorted(fsf_legal) == legal:
        n2 = sum(len(pyffish.legal_moves(variant, start, moves + [m])) for m in fsf_legal)
        stats["perft2"] = 1
        if n2 != perft:
            diff("perft2", "FSF %d, Chimera %d" % (n2, perft))
        elif n2 <= o.perft3_max:
            n3 = fsf_perft(variant, start, moves, 3)
            a3 = PROBE.ask(variant, start, moves, 3)
            stats["perft3"] = 1
            if a3[0] != "ok" or a3[2] != n3:
                diff("perft3", "FSF %d, Chimera %s" % (n3, a3[2] if a3[0] == "ok" else a3[1]))
    # FEN both ways, each against what pyffish reads from its own FEN (a FEN holds no history:
    # a double pass, bikjang after a pass, repetitions are not in it).
    from_fen = None
    if end is None or end[1] != "variant end":
        from_fen = sorted(pyffish.legal_moves(variant, fen, []))
    # Chimera's FEN read by pyffish.
    code = fen_code(variant, c_fen)
    if code not in FEN_READABLE:
        diff("fen-out", "pyffish refuses Chimera's FEN %s (validate_fen %d)" % (c_fen, code))
    elif from_fen is not None:
        back = from_fen if c_fen == fen else sorted(pyffish.legal_moves(variant, c_fen, []))
        if back != from_fen:
            diff("fen-out", "from Chimera's FEN %s: %s" % (c_fen, list_diff(from_fen, back)))
    # pyffish's FEN read by Chimera.
    b = PROBE.ask(variant, fen, [], 0)
    if b[0] != "ok":
        diff("fen-in", "Chimera refuses: %s" % b[1])
    elif from_fen is not None and b[1] != from_fen:
        diff("fen-in", "from FSF's FEN: " + list_diff(from_fen, b[1]))
    return end, stats


def play(task):
    """Plays one game of `variant`; returns (variant, stats, differences)."""
    variant, game = task
    o = OPTS
    out = []
    stats = {"positions": 0, "perft2": 0, "perft3": 0, "games": 1}
    if o.deadline and time.time() > o.deadline:
        stats["games"] = 0
        return variant, stats, out
    rng = random.Random("%d:%s:%d" % (o.seed, variant, game))
    start = pyffish.start_fen(variant)
    moves = []
    sample_no = 0
    for ply in range(o.max_plies + 1):
        legal = pyffish.legal_moves(variant, start, moves)
        # Sample every --every plies (from a ply that differs from game to game), and always
        # where there is no legal move (pyffish lists none once the variant's rules end the
        # game) or the game reaches --max-plies. An optional end (move-count rule, repetition)
        # is seen only at a sampled ply; the game stops there.
        over = not legal or ply == o.max_plies
        if not over and (ply - game) % o.every != 0:
            moves.append(rng.choice(sorted(legal)))
            continue
        end, s = compare(variant, start, moves, legal, sample_no, out)
        sample_no += 1
        for k in ("positions", "perft2", "perft3"):
            stats[k] += s[k]
        if end is not None or not legal:
            break
        moves.append(rng.choice(sorted(legal)))
    return variant, stats, out


def init_worker(opts):
    global OPTS, PROBE
    OPTS = opts
    PROBE = Probe(opts.chimera, opts.ini)


def read_deliberate(path):
    rules = []
    if not os.path.exists(path):
        return rules
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = [p.strip() for p in line.split(" | ", 3)]
            if len(parts) != 4:
                sys.exit("%s:%d: expected 'variant | kind | regex | reason'" % (path, n))
            kind = ".*" if parts[1] == "*" else parts[1]
            rules.append((re.compile(parts[0]), re.compile(kind), re.compile(parts[2]), parts[3]))
    return rules


def explain(rules, d):
    kind, variant, fen, _start, _moves, detail = d
    for v, k, rx, reason in rules:
        if v.fullmatch(variant) and k.fullmatch(kind) and rx.search(fen + " " + detail):
            return reason
    return None


def all_variants(ini):
    builtin = set(pyffish.variants())
    with open(ini) as f:
        pyffish.load_variant_config(f.read())
    every = set(pyffish.variants())
    return sorted(every), sorted(builtin), sorted(every - builtin)


def main():
    global OPTS
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chimera", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release", "chimera"))
    ap.add_argument("--ini", default=INI)
    ap.add_argument("--deliberate", default=DELIBERATE)
    ap.add_argument("--slice", default=None)
    ap.add_argument("--variant", default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games-per-variant", type=int, default=4)
    ap.add_argument("--max-plies", type=int, default=120)
    ap.add_argument("--every", type=int, default=7)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--perft-every", type=int, default=2)
    ap.add_argument("--perft3-max", type=int, default=300)
    ap.add_argument("--time-budget", type=float, default=0)
    ap.add_argument("--show", type=int, default=200)
    o = ap.parse_args()
    if not os.path.exists(o.chimera):
        sys.exit("no Chimera binary at %s (build it, or give --chimera)" % o.chimera)
    o.ini = os.path.abspath(o.ini)
    rules = read_deliberate(o.deliberate)
    every, builtin, sections = all_variants(o.ini)
    names = every
    if o.variant:
        names = [v for v in o.variant.split(",") if v]
        unknown = [v for v in names if v not in every]
        if unknown:
            sys.exit("unknown variant(s): %s" % " ".join(unknown))
    elif o.slice == "ci":
        names = every[::8]
    elif o.slice:
        k, n = (int(x) for x in o.slice.split("/"))
        names = every[k::n]
    o.deadline = time.time() + o.time_budget if o.time_budget else 0
    OPTS = o
    tasks = [(v, g) for g in range(o.games_per_variant) for v in names]
    t0 = time.time()
    stats = {"positions": 0, "perft2": 0, "perft3": 0, "games": 0}
    diffs = []
    if o.jobs > 1:
        with multiprocessing.get_context("fork").Pool(o.jobs, init_worker, (o,)) as pool:
            results = pool.imap_unordered(play, tasks, chunksize=1)
            for _v, s, d in results:
                for k in stats:
                    stats[k] += s[k]
                diffs.extend(d)
    else:
        init_worker(o)
        for t in tasks:
            _v, s, d = play(t)
            for k in stats:
                stats[k] += s[k]
            diffs.extend(d)
    secs = time.time() - t0
    by_kind = {k: [0, 0, 0] for k in KINDS}  # unexplained, deliberate, open
    unexplained = []
    explained = {}  # reason -> (count, variants)
    for d in sorted(diffs, key=lambda d: (d[1], d[0], len(d[4]))):
        reason = explain(rules, d)
        if reason is None:
            by_kind[d[0]][0] += 1
            unexplained.append(d)
            continue
        by_kind[d[0]][2 if reason.startswith("open:") else 1] += 1
        n, vs = explained.get(reason, (0, set()))
        explained[reason] = (n + 1, vs | {d[1]})
    nb = sum(1 for v in names if v in builtin)
    print("fsf_diff: pyffish %s, seed %d, %d variants (%d built-in, %d sections), %d games, "
          "%d positions, perft 2 at %d, perft 3 at %d, %.0f s"
          % (".".join(map(str, pyffish.version())), o.seed, len(names), nb, len(names) - nb,
             stats["games"], stats["positions"], stats["perft2"], stats["perft3"], secs))
    print("differences by kind (unexplained / deliberate / open):")
    for k in KINDS:
        u, dl, op = by_kind[k]
        print("  %-8s %5d %5d %5d" % (k, u, dl, op))
    for reason, (n, vs) in sorted(explained.items()):
        print("  %4d x %s [%s]" % (n, reason, " ".join(sorted(vs))))
    seen = set()
    shown = 0
    for kind, variant, fen, start, moves, detail in unexplained:
        # One line per variant, kind and detail text: the same bug seen twice is shown once.
        key = (variant, kind, detail)
        if key in seen or shown >= o.show:
            continue
        seen.add(key)
        shown += 1
        print("\n[%s] %s: %s\n  fen   %s\n  start %s\n  moves %s" % (variant, kind, detail, fen, start, " ".join(moves)))
    total = sum(v[0] for v in by_kind.values())
    print("\nunexplained differences: %d" % total)
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
