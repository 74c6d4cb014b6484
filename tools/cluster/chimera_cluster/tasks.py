"""What runs on the workers: one datagen shard (`run_shard`) or one game pair (`run_pair`),
each a run of the Chimera binary found at the same path on every machine, and the progress
actor the shards report to.

These are plain functions; the drivers wrap them with `ray.remote`. They reach the workers as
part of this package, which the drivers ship through Ray's runtime environment (`py_modules`),
so a worker needs Ray and Python but not this package installed.

Failures are sorted in two: `Misconfigured` (a missing binary, net, engine or openings file,
another binary than the driver's) stops the whole run, since retrying on the same machine
cannot help and the user must fix the machine; anything else (Chimera killed, a worker or node
lost) is retried by the driver. A task writes only to a scratch directory of its own on the
worker and hands its output back whole, so a task that dies leaves nothing half-written
behind in the output.
"""

import hashlib
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time


class Misconfigured(Exception):
    """The worker's machine lacks what the run needs; retrying elsewhere would hide it."""


class TaskFailed(Exception):
    """Chimera did not finish the task (killed, or it failed); the driver retries it."""


def node_label() -> str:
    """This worker's machine, as an error message names it: host, address and Ray node id."""
    node, ip = "?", "?"
    ray = sys.modules.get("ray")  # imported by the worker already; never imported here
    if ray is not None and ray.is_initialized():
        try:
            node = ray.get_runtime_context().get_node_id()[:12]
            ip = ray.util.get_node_ip_address()
        except Exception:
            pass
    return f"node {socket.gethostname()} ({ip}, id {node})"


def _die_with_parent():
    """Runs in the child before exec: Chimera is killed when its worker dies (Linux), so a
    lost worker leaves no orphaned engine playing on; elsewhere nothing happens."""
    try:
        import ctypes
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except Exception:
        pass


_digests = {}


def file_digest(path: str) -> str:
    """sha256 of a file, remembered per (path, size, mtime) for the worker's life."""
    st = os.stat(path)
    key = (path, st.st_size, st.st_mtime_ns)
    if key not in _digests:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        _digests[key] = h.hexdigest()
    return _digests[key]


def check_files(binary: str, binary_sha: str, files):
    """Raises `Misconfigured`, naming this node, unless the binary is here, executable and the
    driver's own (same digest: another build could play other games and write another data
    layout), and every other needed file is here."""
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        raise Misconfigured(
            f"{node_label()}: the Chimera binary {binary} is not there (or not executable); "
            "every machine needs it at the same path (see tools/cluster/README.md)")
    if binary_sha and file_digest(binary) != binary_sha:
        raise Misconfigured(
            f"{node_label()}: {binary} is another build than the driver's "
            f"(sha256 {file_digest(binary)[:12]}, the driver's {binary_sha[:12]})")
    for f in files:
        if not os.path.isfile(f):
            raise Misconfigured(f"{node_label()}: {f} is not there; every machine needs it at "
                                "the same path")


def _failure(what: str, rc: int, tail: str) -> TaskFailed:
    how = f"was killed by signal {-rc}" if rc < 0 else f"exited with code {rc}"
    return TaskFailed(f"{node_label()}: {what} {how}: {tail.strip()[-400:]}")


POSITIONS = re.compile(rb"(\d+) positions")


class Progress:
    """The live position counts of the shards under way, for the driver's progress bar.

    Shards report as they go (Chimera prints a progress line after each game); a count is
    kept per shard and attempt, so a retried shard starts again from zero. The driver reads
    the counts of the shards it still waits for and ignores the rest.
    """

    def __init__(self):
        self.live = {}

    def report(self, shard: int, attempt: int, positions: int):
        old = self.live.get(shard)
        if old is None or old[0] <= attempt:
            self.live[shard] = (attempt, positions)

    def snapshot(self) -> dict:
        return {k: v[1] for k, v in self.live.items()}


def run_shard(job: dict, shard: int, seed: int, attempt: int, progress=None) -> dict:
    """Plays one shard: `chimera datagen --threads 1` into a scratch file; returns its bytes.

    `job` holds the run's settings (binary, variant, nodes, games per shard, ...). The data
    file is read back only when Chimera exited cleanly; the driver checks it again before it
    keeps it.
    """
    files = [job["net"]] if job.get("net") and job["net"] != "hand" else []
    check_files(job["chimera"], job.get("chimera_sha256"), files + list(job.get("variants", [])))
    scratch = tempfile.mkdtemp(prefix=f"chimera-shard-{shard}-", dir=job.get("tmp_dir"))
    out = os.path.join(scratch, "shard.data")
    cmd = [job["chimera"], "datagen", "--out", out, "--threads", "1",
           "--variant", job["variant"], "--nodes", str(job["nodes"]),
           "--games", str(job["games"]), "--seed", str(seed),
           "--random-plies", str(job["random_plies"]), "--max-plies", str(job["max_plies"]),
           "--hash", str(job["hash"])]
    if job.get("net"):
        cmd += ["--net", job["net"]]
    for v in job.get("variants", []):
        cmd += ["--variants", v]
    started = time.time()
    try:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, preexec_fn=_die_with_parent)
        tail = b""
        last_report = 0.0
        # Chimera redraws its progress line after each game; the last count in what was read
        # is the shard's positions so far.
        while True:
            chunk = os.read(proc.stderr.fileno(), 4096)
            if not chunk:
                break
            tail = (tail + chunk)[-4096:]
            counts = POSITIONS.findall(tail)
            now = time.time()
            if progress is not None and counts and now - last_report >= 1.0:
                progress.report.remote(shard, attempt, int(counts[-1]))
                last_report = now
        rc = proc.wait()
        if rc != 0:
            raise _failure(f"chimera datagen (shard {shard})", rc,
                           tail.decode("utf-8", "replace"))
        with open(out, "rb") as f:
            data = f.read()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return {"shard": shard, "data": data, "node": node_label(),
            "seconds": time.time() - started}


def engine_program(spec: str):
    """The program an `--engine` spec starts (the first word of its cmd=), or None."""
    try:
        for word in shlex.split(spec):
            key, _, value = word.partition("=")
            if key == "cmd":
                words = shlex.split(value)
                return words[0] if words else None
    except ValueError:
        pass
    return None


def run_pair(job: dict, pair: int, games: int, attempt: int) -> dict:
    """Plays game pair `pair` (games 2*pair and 2*pair+1 of the match, or the last odd one):
    `chimera match --first-pair PAIR --games N` into a scratch PGN; returns the PGN's text
    and Chimera's output."""
    needed = list(job.get("variants", []))
    if job.get("openings"):
        needed.append(job["openings"])
    check_files(job["chimera"], job.get("chimera_sha256"), needed)
    for spec in job["engines"]:
        program = engine_program(spec)
        if program and "/" in program and not os.access(program, os.X_OK):
            raise Misconfigured(f"{node_label()}: the engine {program} is not there "
                                "(or not executable); every machine needs it at the same path")
        if program and "/" not in program and shutil.which(program) is None:
            raise Misconfigured(f"{node_label()}: the engine {program} is not on the PATH")
    scratch = tempfile.mkdtemp(prefix=f"chimera-pair-{pair}-", dir=job.get("tmp_dir"))
    pgn = os.path.join(scratch, "pair.pgn")
    cmd = [job["chimera"], "match"]
    for spec in job["engines"]:
        cmd += ["--engine", spec]
    cmd += ["--games", str(games), "--first-pair", str(pair), "--concurrency", "1",
            "--pgn", pgn] + list(job["match_args"])
    started = time.time()
    try:
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True,
                              preexec_fn=_die_with_parent)
        text = proc.stdout.decode("utf-8", "replace")
        err = proc.stderr.decode("utf-8", "replace")
        if proc.returncode > 0:
            # Chimera refused the match (an engine that will not start, a bad option): the
            # same would happen on every retry.
            raise Misconfigured(f"{node_label()}: chimera match failed for pair {pair}: "
                                f"{(err or text).strip()[-600:]}")
        if proc.returncode < 0:
            raise _failure(f"chimera match (pair {pair})", proc.returncode, err or text)
        with open(pgn, encoding="utf-8") as f:
            pgn_text = f.read()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return {"pair": pair, "pgn": pgn_text, "output": text, "node": node_label(),
            "seconds": time.time() - started}
