"""The command line: `python3 -m chimera_cluster datagen|match ...` (see README.md).

Ray is imported only once a command runs, so `--help` and a missing Ray both give a message
rather than a traceback; a missing Ray exits with code 2 and the command that installs it.
"""

import argparse
import shutil
import sys


def default_chimera():
    """`chimera` on the PATH, else the repository's release build, as an absolute path."""
    import os
    found = shutil.which("chimera")
    if found:
        return os.path.abspath(found)
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.normpath(os.path.join(here, "..", "..", "..", "target", "release", "chimera"))


def common(p):
    p.add_argument("--address", default=None,
                   help="the Ray cluster: 'auto' (the one `ray start` made on this machine) or "
                        "HOST:PORT; without it a private local Ray is started")
    p.add_argument("--chimera", default=default_chimera(),
                   help="the Chimera binary, at this same path on every machine "
                        "(default: chimera on the PATH, else target/release/chimera)")
    p.add_argument("--variants", action="append", default=[],
                   help="a variant file (at the same path on every machine); repeatable")
    p.add_argument("--retries", type=int, default=3,
                   help="times a task whose worker died is started again (3)")
    p.add_argument("--local-cpus", type=int, default=None,
                   help="without --address: the cores the local Ray may use (all)")
    p.add_argument("--tmp-dir", default=None,
                   help="the workers' scratch directory (the system's temporary one)")


def parser():
    top = argparse.ArgumentParser(
        prog="python3 -m chimera_cluster",
        description="Chimera's datagen and match spread over a Ray cluster.")
    sub = top.add_subparsers(dest="command", required=True)

    d = sub.add_parser("datagen", help="self-play data from every core of the cluster")
    common(d)
    d.add_argument("--variant", default="chess")
    d.add_argument("--positions", type=int, required=True,
                   help="positions to add to the output")
    d.add_argument("--nodes", type=int, default=5000, help="nodes per move (5000)")
    d.add_argument("--net", default=None,
                   help="the net the games are played with, or 'hand' (default: the built-in)")
    d.add_argument("--out", required=True, help="the data file (created or added to)")
    d.add_argument("--seed", type=int, default=1, help="the base seed of the shards (1)")
    d.add_argument("--shard-games", type=int, default=20, help="games per shard (20)")
    d.add_argument("--random-plies", type=int, default=8)
    d.add_argument("--max-plies", type=int, default=400)
    d.add_argument("--hash", type=int, default=16, help="MB per shard's search (16)")
    d.add_argument("--cpus-per-shard", type=float, default=1.0)
    d.add_argument("--quiet", action="store_true", help="no progress bar")

    m = sub.add_parser("match", help="an engine match whose game pairs spread over the cluster")
    common(m)
    m.add_argument("--engine", action="append", default=[],
                   help="an engine spec as chimera match reads it; twice")
    m.add_argument("--variant", default="chess")
    m.add_argument("--games", type=int, default=2)
    m.add_argument("--tc", default=None)
    m.add_argument("--time-margin", type=int, default=None)
    m.add_argument("--openings", default=None)
    m.add_argument("--random-plies", type=int, default=None)
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--max-moves", type=int, default=None)
    m.add_argument("--pgn", default=None, help="the PGN file the games are appended to")
    m.add_argument("--sprt", nargs="+", default=None, metavar="KEY=VALUE",
                   help="elo0=X elo1=Y [alpha=A] [beta=B]")
    m.add_argument("--cpus-per-pair", type=float, default=1.0)
    return top


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    from . import cluster
    try:
        cluster.require_ray()
    except cluster.NoRay as e:
        print(f"chimera_cluster: {e}", file=sys.stderr)
        return 2
    if args.command == "datagen":
        if args.positions <= 0 or args.shard_games <= 0 or args.nodes <= 0:
            print("chimera_cluster: --positions, --shard-games and --nodes must be positive",
                  file=sys.stderr)
            return 2
        from . import datagen
        return datagen.run(args)
    if args.games <= 0:
        print("chimera_cluster: --games must be positive", file=sys.stderr)
        return 2
    from . import match
    return match.run(args)


if __name__ == "__main__":
    sys.exit(main())
