#!/usr/bin/env python3
"""Chimera under real clients that no one here wrote: cutechess-cli and fastchess.

Each client plays complete games of Chimera against itself in every variant it shares with
Chimera, and the games are summarised: how many ended, how (the client's own words), and how
many were lost to a protocol slip the client's referee saw (an illegal move, a false result
claim, a disconnection or a stall), and, apart, how many on time. Under cutechess-cli one side speaks UCI and
the other XBoard, so that both dialects are refereed in every game; an XBoard engine claims
results, which cutechess-cli checks against its own rules.

    tools/clients.py [--games 20] [--tc 1+0.01] [--variants brief|all|V,V..]
                     [--only cutechess|fastchess] [--overhead MS] [--timemargin MS]
                     [--maxmoves N]
                     [--chimera PATH]
                     [--cutechess PATH] [--fastchess PATH] [--out DIR]

The clients are looked up on PATH (cutechess-cli, fastchess) unless given; a client that is
not there is skipped with a line saying so. Build them from their public sources (cutechess:
Qt 6 and CMake, `make cli`; fastchess: `make`). Games run one at a time, under `nice`.
Exit code 1 when a game was lost to a protocol slip or a client could not run.
"""

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The variants cutechess-cli and Chimera both know, under the same names (cutechess's
# "standard" is chess). "brief" is the list #78 names; "all" every shared one.
BRIEF = [
    "standard", "fischerandom", "capablanca", "caparandom", "gothic", "janus", "embassy",
    "grand", "seirawan", "crazyhouse", "atomic", "losers", "3check", "kingofthehill",
    "horde", "antichess", "giveaway", "berolina",
]
MORE = [
    "5check", "ai-wok", "almost", "amazon", "asean", "cambodian", "chancellor", "chessgi",
    "chigorin", "codrus", "coregal", "courier", "dobutsu", "euroshogi", "extinction",
    "gustav3", "hoppelpoppel", "jesonmor", "judkins", "karouk", "kinglet", "knightmate", "loop",
    "losalamos", "makruk", "minishogi", "modern", "newzealand", "placement", "pocketknight",
    "racingkings", "shatranj", "shogi", "sittuyin", "suicide", "threekings",
]

# How a client words a game lost to a protocol slip (cutechess-cli and fastchess): a move or
# claim its referee refused, or an engine that stopped answering. Time losses are counted
# apart: on a loaded machine they also come from the engine's time use, not only from slips.
SLIP = re.compile(
    r"illegal|disconnect|stall|crash|false|invalid|forfeit|unterminated"
    r"|abandon|connection|no response",
    re.I,
)
TIME_LOSS = re.compile(r"on time|timeout|timed out", re.I)
# Ends that a client's own rules decide, whose words look like a slip's: cutechess's shogi
# family ends a repetition with the side to move in check as an "Illegal perpetual", a loss
# for the checker (by its rules, not Fairy-Stockfish's, which need every move of the cycle to
# be a check). Nobody slipped: the referee ended the game.
RULE_END = re.compile(r"^Illegal perpetual$", re.I)
FINISHED = re.compile(r"^Finished game (\d+) \((.*?) vs (.*?)\): (\S+) \{(.*)\}")


def frc_openings(path, count, seed):
    """`count` Chess960 start positions (Shredder-FEN castling letters), seeded."""
    rng = random.Random(seed)
    lines = []
    while len(lines) < count:
        rank = [None] * 8
        rank[rng.choice(range(0, 8, 2))] = "B"
        rank[rng.choice(range(1, 8, 2))] = "B"
        free = [i for i in range(8) if rank[i] is None]
        rank[free.pop(rng.randrange(len(free)))] = "Q"
        rank[free.pop(rng.randrange(len(free)))] = "N"
        rank[free.pop(rng.randrange(len(free)))] = "N"
        a, k, h = free  # rook, king, rook: the king between his rooks
        rank[a], rank[k], rank[h] = "R", "K", "R"
        white = "".join(rank)
        rights = "ABCDEFGH"[h] + "ABCDEFGH"[a]
        fen = (f"{white.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white} w "
               f"{rights}{rights.lower()} - 0 1")
        if white != "RNBQKBNR" and fen not in lines:
            lines.append(fen)
    with open(path, "w") as f:
        f.write("".join(line.split(" 0 1")[0] + "\n" for line in lines))


def chess_openings(path, count, seed):
    """`count` positions after 4 random legal plies from chess's start (python-chess), or
    None when python-chess is not installed."""
    try:
        import chess
    except ImportError:
        return None
    rng = random.Random(seed)
    fens = []
    while len(fens) < count:
        board = chess.Board()
        for _ in range(4):
            board.push(rng.choice(sorted(board.legal_moves, key=str)))
        epd = board.epd()
        if epd not in fens:
            fens.append(epd)
    with open(path, "w") as f:
        f.write("".join(e + "\n" for e in fens))
    return path


def run(cmd, log):
    """Runs `cmd` under nice, its output to `log`; the finished games and the exit code."""
    start = time.time()
    with open(log, "w") as out:
        # In the output folder: fastchess leaves its config.json where it runs.
        rc = subprocess.call(["nice"] + cmd, stdout=out, stderr=subprocess.STDOUT,
                             cwd=os.path.dirname(log))
    games = []
    with open(log, errors="replace") as f:
        for line in f:
            m = FINISHED.match(line.strip())
            if m:
                games.append((m.group(4), m.group(5)))
    return games, rc, time.time() - start


def summary(client, variant, games, rc, secs, want):
    slips = [g for g in games if SLIP.search(g[1]) and not RULE_END.search(g[1])]
    time_losses = [g for g in games if TIME_LOSS.search(g[1])]
    score = {r: sum(1 for g in games if g[0] == r) for r in ("1-0", "0-1", "1/2-1/2")}
    reasons = {}
    for _, why in games:
        reasons[why] = reasons.get(why, 0) + 1
    top = ", ".join(f"{n} {w}" for w, n in sorted(reasons.items(), key=lambda x: -x[1])[:4])
    ok = not slips and rc == 0 and len(games) >= want
    print(f"{client:10} {variant:13} {len(games):3} games  +{score['1-0']} -{score['0-1']} "
          f"={score['1/2-1/2']}  slips {len(slips)}  time {len(time_losses)}  rc {rc}  "
          f"{secs:5.0f} s  {'ok' if ok else 'FAIL'}  [{top}]", flush=True)
    for g in slips:
        print(f"    slip: {g[0]} {{{g[1]}}}", flush=True)
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chimera", default=os.path.join(ROOT, "target", "release", "chimera"))
    ap.add_argument("--cutechess", default=shutil.which("cutechess-cli"))
    ap.add_argument("--fastchess", default=shutil.which("fastchess"))
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--tc", default="1+0.01")
    ap.add_argument("--variants", default="brief")
    ap.add_argument("--only", choices=["cutechess", "fastchess"])
    ap.add_argument("--out", default=os.path.join(ROOT, "target", "clients"))
    ap.add_argument("--seed", type=int, default=78)
    ap.add_argument("--overhead", type=int, default=None,
                    help="Chimera's Move Overhead in ms (its default, 50, when not given): "
                    "room for the time a loaded machine takes to pass a move along")
    ap.add_argument("--timemargin", type=int, default=None,
                    help="the clients' timemargin in ms: how far past its clock a move may "
                    "come before the client calls it a time loss (none when not given)")
    ap.add_argument("--maxmoves", type=int, default=300,
                    help="cutechess-cli adjudicates a draw after this many moves a side "
                    "(0: never). Its asean has no draw but the bare king's count, and "
                    "two engines that each hold a drawn position would play it forever")
    ap.add_argument("--summarize", action="store_true",
                    help="play nothing: summarise the logs already in --out")
    args = ap.parse_args()
    if args.summarize:
        ok = True
        for log in sorted(os.listdir(args.out)):
            if log.endswith(".log"):
                client, variant = log[:-4].split("-", 1)
                found = []
                with open(os.path.join(args.out, log), errors="replace") as f:
                    for line in f:
                        m = FINISHED.match(line.strip())
                        if m:
                            found.append((m.group(4), m.group(5)))
                ok &= summary(client, variant, found, 0, 0, args.games)
        sys.exit(0 if ok else 1)
    os.makedirs(args.out, exist_ok=True)
    chimera = os.path.abspath(args.chimera)
    if not os.access(chimera, os.X_OK):
        sys.exit(f"no Chimera binary at {chimera} (cargo build --release)")
    variants = {"brief": BRIEF, "all": BRIEF + MORE}.get(args.variants)
    if variants is None:
        variants = args.variants.split(",")
    games = args.games + args.games % 2  # pairs of games, colours reversed
    options = ["option.Hash=16"]
    if args.timemargin is not None:
        options.append(f"timemargin={args.timemargin}")
    if args.overhead is not None:
        options.append(f"option.Move Overhead={args.overhead}")
    all_ok = True

    if args.only in (None, "cutechess"):
        if not args.cutechess:
            print("SKIPPED cutechess: no cutechess-cli on PATH (--cutechess PATH)", flush=True)
        else:
            for variant in variants:
                pgn = os.path.join(args.out, f"cutechess-{variant}.pgn")
                if os.path.exists(pgn):
                    os.remove(pgn)
                cmd = [args.cutechess, "-variant", variant,
                       "-engine", f"cmd={chimera}", "arg=uci", "proto=uci", "name=chimera-uci",
                       "-engine", f"cmd={chimera}", "arg=xboard", "proto=xboard",
                       "name=chimera-xboard",
                       "-each", f"tc={args.tc}", *options,
                       "-games", "2", "-rounds", str(games // 2), "-repeat",
                       "-concurrency", "1", "-pgnout", pgn, "-srand", str(args.seed)]
                if args.maxmoves > 0:
                    cmd += ["-maxmoves", str(args.maxmoves)]
                if variant in ("standard", "fischerandom"):
                    book = os.path.join(args.out, f"{variant}.epd")
                    if variant == "standard":
                        book = chess_openings(book, games // 2, args.seed)
                    else:
                        frc_openings(book, games // 2, args.seed)
                    if book:
                        cmd += ["-openings", f"file={book}", "format=epd", "order=sequential"]
                log = os.path.join(args.out, f"cutechess-{variant}.log")
                found, rc, secs = run(cmd, log)
                all_ok &= summary("cutechess", variant, found, rc, secs, games)

    if args.only in (None, "fastchess"):
        if not args.fastchess:
            print("SKIPPED fastchess: no fastchess on PATH (--fastchess PATH)", flush=True)
        else:
            for variant in ("standard", "fischerandom"):
                book = os.path.join(args.out, f"fast-{variant}.epd")
                if variant == "standard":
                    book = chess_openings(book, games // 2, args.seed + 1)
                else:
                    frc_openings(book, games // 2, args.seed + 1)
                pgn = os.path.join(args.out, f"fastchess-{variant}.pgn")
                cmd = [args.fastchess, "-variant", variant,
                       "-engine", f"cmd={chimera}", "args=uci", "name=chimera-a",
                       "-engine", f"cmd={chimera}", "args=uci", "name=chimera-b",
                       "-each", "proto=uci", f"tc={args.tc}", *options,
                       "-rounds", str(games // 2), "-games", "2", "-repeat",
                       "-concurrency", "1", "-pgnout", f"file={pgn}", "append=false"]
                if book:
                    cmd += ["-openings", f"file={book}", "format=epd", "order=sequential"]
                log = os.path.join(args.out, f"fastchess-{variant}.log")
                found, rc, secs = run(cmd, log)
                all_ok &= summary("fastchess", variant, found, rc, secs, games)

    sys.exit(0 if all_ok else 1)


if __name__ == "__main__":
    main()
