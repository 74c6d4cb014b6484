"""Chimera data files on the driver's side: checking a shard, committing it, and gathering the
shards into one output file that `chimera train` reads, with a sidecar manifest that makes the
output resumable.

The data format (nnue/src/data.rs) is text: a header line `#chimera-data 1 variant=V
layout=H`, then per game its position lines and a closing `#game I plies=P kept=K result=R`
line; other lines starting with `#` are comments. Every shard file starts with the same header
(same binary, same variant), so the output is that header once, then each shard's lines after
its header, in shard order, each shard announced by a comment `#shard K seed=S games=G
positions=N` (readers skip it; it lets a check see every shard once, in order).

Files beside the output `OUT`:

- `OUT.cluster.json`, the manifest: the settings the shards were made with, the header, and
  the shards already in `OUT` with their sizes, counts and digests, and `OUT`'s length after
  the last of them. Written to a temporary file and renamed, so it is always whole.
- `OUT.shards/`, finished shards not yet in `OUT` (a later shard finished before an earlier
  one, or the run stopped); each is written to a temporary name and renamed when whole, so a
  file there is always a complete shard.

The order of a commit (append to `OUT`, flush it to disk, then rename the new manifest in)
means a crash leaves `OUT` at most one shard longer than the manifest says; the next run cuts
it back and commits that shard again, so no game is ever in `OUT` twice or missing.
"""

import hashlib
import json
import os
import re

HEADER_PREFIX = "#chimera-data 1 "
MANIFEST_FORMAT = 1
GAME_LINE = re.compile(rb"^#game \d+ plies=\d+ kept=(\d+) result=\S+$")


class ShardError(Exception):
    """A shard's bytes are not a whole, well-formed data file."""


class ManifestError(Exception):
    """The output and its manifest disagree, or were made with other settings."""


def parse_shard(data: bytes, games: int):
    """Checks a shard file's bytes and splits them: returns `(header, body, positions)`.

    `header` is the first line without its newline (str), `body` every line after it (bytes,
    ending in a newline), `positions` the position lines. The shard must hold exactly `games`
    games, each closed by its `#game` line whose `kept=` matches the positions before it, and
    nothing after the last one: a shard cut short by a dying worker is refused, never merged.
    """
    newline = data.find(b"\n")
    if newline < 0:
        raise ShardError("no header line")
    header = data[:newline].decode("utf-8", "replace")
    if not header.startswith(HEADER_PREFIX):
        raise ShardError(f"not a Chimera data file (first line {header[:60]!r})")
    body = data[newline + 1:]
    if body and not body.endswith(b"\n"):
        raise ShardError("the last line is cut short")
    seen_games = 0
    positions = 0
    in_game = 0
    for line in body.split(b"\n")[:-1] if body else []:
        if line.startswith(b"#game "):
            m = GAME_LINE.match(line)
            if not m:
                raise ShardError(f"a bad game line {line[:80]!r}")
            if int(m.group(1)) != in_game:
                raise ShardError(f"game {seen_games} says kept={m.group(1)} but has {in_game}")
            seen_games += 1
            in_game = 0
        elif line.startswith(b"#") or not line.strip():
            continue
        else:
            if line.count(b"\t") != 2:
                raise ShardError(f"not a position line {line[:80]!r}")
            positions += 1
            in_game += 1
    if in_game:
        raise ShardError("positions after the last game line (a game cut short)")
    if seen_games != games:
        raise ShardError(f"{seen_games} games, not {games}")
    return header, body, positions


def shard_banner(shard: int, seed: int, games: int, positions: int) -> bytes:
    """The comment line that opens a shard's part of the output."""
    return f"#shard {shard} seed={seed} games={games} positions={positions}\n".encode()


def manifest_path(out: str) -> str:
    return out + ".cluster.json"


def shard_dir(out: str) -> str:
    return out + ".shards"


def shard_file(out: str, shard: int) -> str:
    return os.path.join(shard_dir(out), f"shard-{shard:06d}.data")


def write_atomically(path: str, data: bytes):
    """Writes `data` to `path` through a temporary file, flushed and renamed: readers (and a
    later run after a crash) see the old file or the whole new one, never part of it."""
    tmp = f"{path}.tmp-{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class Output:
    """The output file, its manifest and its directory of finished shards."""

    def __init__(self, out: str, settings: dict):
        self.out = out
        self.settings = settings
        self.manifest = None

    # The manifest ---------------------------------------------------------------------------

    def open(self):
        """Loads or starts the manifest and puts the output back in step with it.

        A new output needs `OUT` absent or empty. An existing one needs the same settings
        (another node count or variant would mix two kinds of data in one file, and the seeds
        would no longer say what the shards hold); `OUT` longer than the manifest says is cut
        back (a commit interrupted between the append and the manifest), shorter is an error.
        """
        path = manifest_path(self.out)
        if os.path.exists(path):
            with open(path) as f:
                m = json.load(f)
            if m.get("format") != MANIFEST_FORMAT:
                raise ManifestError(f"{path}: an unknown manifest format")
            old = m["settings"]
            diff = [k for k in sorted(set(old) | set(self.settings)) if old.get(k) != self.settings.get(k)]
            if diff:
                what = ", ".join(f"{k}: {old.get(k)!r} there, {self.settings.get(k)!r} now" for k in diff)
                raise ManifestError(
                    f"{self.out} was made with other settings ({what}); "
                    "give another --out, or the same settings to add to it")
            size = os.path.getsize(self.out) if os.path.exists(self.out) else 0
            if size < m["out_bytes"]:
                raise ManifestError(
                    f"{self.out} is {size} bytes, shorter than the {m['out_bytes']} its "
                    f"manifest {path} records: it was changed by something else")
            if size > m["out_bytes"]:
                # An append whose manifest never landed: that shard is still on disk in
                # OUT.shards (it is deleted only after the manifest) and is committed again.
                with open(self.out, "r+b") as f:
                    f.truncate(m["out_bytes"])
            self.manifest = m
        else:
            if os.path.exists(self.out) and os.path.getsize(self.out) > 0:
                raise ManifestError(
                    f"{self.out} exists and has no manifest ({path}): it was not made by "
                    "chimera_cluster; give a new --out")
            self.manifest = {
                "format": MANIFEST_FORMAT,
                "settings": self.settings,
                "header": None,
                "out_bytes": 0,
                "shards": [],
            }
        os.makedirs(shard_dir(self.out), exist_ok=True)
        return self

    def save_manifest(self):
        write_atomically(manifest_path(self.out),
                         (json.dumps(self.manifest, indent=1) + "\n").encode())

    # Shards ---------------------------------------------------------------------------------

    @property
    def committed(self) -> int:
        """Shards in `OUT`: shards 0 to committed - 1."""
        return len(self.manifest["shards"])

    @property
    def committed_positions(self) -> int:
        return sum(s["positions"] for s in self.manifest["shards"])

    def check_header(self, header: str, shard: int):
        want = self.manifest["header"]
        if want is not None and header != want:
            raise ShardError(
                f"shard {shard}'s header {header!r} is not the output's {want!r} "
                "(another Chimera binary on some worker?)")

    def store(self, shard: int, data: bytes, games: int) -> int:
        """Checks a finished shard and keeps it in `OUT.shards/` (atomically); returns its
        positions. A shard already there is left as it was (a duplicate from a retry)."""
        header, _, positions = parse_shard(data, games)
        self.check_header(header, shard)
        path = shard_file(self.out, shard)
        if not os.path.exists(path):
            write_atomically(path, data)
        return positions

    def stored(self):
        """Finished shards waiting in `OUT.shards/` beyond those committed: {shard: path}.
        Leftover temporary files (a driver killed mid-write) are removed."""
        found = {}
        d = shard_dir(self.out)
        for name in os.listdir(d):
            path = os.path.join(d, name)
            m = re.fullmatch(r"shard-(\d+)\.data", name)
            if m:
                k = int(m.group(1))
                if k >= self.committed:
                    found[k] = path
                else:
                    os.remove(path)  # committed already; its removal was interrupted
            elif ".tmp-" in name:
                os.remove(path)
        return found

    def positions_of_stored(self, shard: int, games: int) -> int:
        with open(shard_file(self.out, shard), "rb") as f:
            return parse_shard(f.read(), games)[2]

    def commit(self, shard: int, seed: int, games: int):
        """Appends stored shard `shard` (the next one in order) to `OUT` and records it."""
        assert shard == self.committed, (shard, self.committed)
        path = shard_file(self.out, shard)
        with open(path, "rb") as f:
            data = f.read()
        header, body, positions = parse_shard(data, games)
        self.check_header(header, shard)
        text = shard_banner(shard, seed, games, positions) + body
        with open(self.out, "ab") as f:
            if self.manifest["header"] is None:
                self.manifest["header"] = header
                f.write((header + "\n").encode())
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
            size = f.tell()
        self.manifest["shards"].append({
            "shard": shard,
            "seed": seed,
            "games": games,
            "positions": positions,
            "bytes": len(text),
            "sha256": sha256(text),
        })
        self.manifest["out_bytes"] = size
        self.save_manifest()
        os.remove(path)
        return positions
