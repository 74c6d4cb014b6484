"""Ray itself: importing it with a clear message when it is missing, connecting to a cluster
(or starting a local one), shipping this package to the workers, and the driver-side
bookkeeping both commands share (how many tasks fit, failures sorted into fatal and
retryable, the progress line).
"""

import os
import socket
import sys
import threading
import time

INSTALL_HINT = "python3 -m pip install 'ray[default]'   (or: pip install ray)"


class NoRay(Exception):
    """Ray is not installed here."""


class ClusterLost(Exception):
    """The cluster went away under the driver."""


def require_ray():
    """Imports Ray, or raises `NoRay` with the command that installs it."""
    try:
        import ray  # noqa: F401
    except ImportError as e:
        raise NoRay(f"Ray is not installed for {sys.executable} ({e}); install it with:\n"
                    f"    {INSTALL_HINT}\n"
                    "on this machine and on every machine of the cluster (the same version)") \
            from None
    return ray


def connect(address, local_cpus=None):
    """Joins the cluster at `address` (`auto`: the one started on this machine with `ray
    start`), or starts a private local Ray for this run when `address` is None, so the same
    command works on a laptop. The package travels to the workers in the runtime
    environment: a worker needs Ray, not chimera_cluster."""
    ray = require_ray()
    package = os.path.dirname(os.path.abspath(__file__))
    runtime_env = {"py_modules": [package]}
    kwargs = dict(runtime_env=runtime_env, logging_level="WARNING", log_to_driver=False)
    if address is None:
        # A private instance: without address=None spelled out as local, Ray would join a
        # cluster named by RAY_ADDRESS, which would surprise a user who asked for none.
        os.environ.pop("RAY_ADDRESS", None)
        ray.init(num_cpus=local_cpus, include_dashboard=False, **kwargs)
    else:
        ray.init(address=address, **kwargs)
    return ray


def watch_head(ray, on_lost, every=5.0, misses=3):
    """Calls `on_lost()` from a background thread when the cluster's head stops answering.

    Without it a driver whose cluster vanished would hang until Ray's own timeout ends the
    process (60 s, with a message about the GCS that says nothing of what was kept). The
    check is a plain TCP connection to the head's GCS port: cheap, and it fails at once when
    the head is gone. `on_lost` is expected to end the process: what is on disk is always
    whole (see datafile), so an exit at any moment loses nothing finished.
    """
    try:
        host, port = ray.get_runtime_context().gcs_address.rsplit(":", 1)
        port = int(port)
    except Exception:
        return None

    def watch():
        missed = 0
        while True:
            time.sleep(every)
            try:
                with socket.create_connection((host, port), timeout=every):
                    missed = 0
            except OSError:
                missed += 1
                if missed >= misses:
                    on_lost(f"the cluster's head {host}:{port} stopped answering")
                    return

    t = threading.Thread(target=watch, name="chimera-cluster-head-watch", daemon=True)
    t.start()
    return t


def capacity(ray, cpus_per_task: float) -> int:
    """Tasks the cluster can run at once now (nodes come and go, so this is asked again)."""
    try:
        total = ray.cluster_resources().get("CPU", 0) + 0.0
    except Exception as e:  # the head is gone
        raise ClusterLost(str(e)) from e
    return max(1, int(total // max(cpus_per_task, 1e-9)))


def is_fatal(err) -> bool:
    """Whether a task's failure must stop the run: a machine lacking what the run needs.
    Everything else (Chimera killed, a worker or a node lost) is worth a retry."""
    from . import tasks
    return isinstance(err, tasks.Misconfigured) or "Misconfigured" in type(err).__name__


def short_error(err) -> str:
    """The useful line of a task's failure: Ray wraps the worker's exception with its
    traceback; the last line of it says what happened."""
    text = str(err).strip()
    lines = [l for l in text.splitlines() if l.strip()]
    for line in reversed(lines):
        if ": " in line and not line.startswith(" "):
            return line.strip()
    return lines[-1].strip() if lines else type(err).__name__


class Bar:
    """A progress bar on standard error: redrawn in place on a terminal, a line every few
    seconds otherwise (a log file should not fill with carriage returns)."""

    def __init__(self, quiet=False):
        self.quiet = quiet
        self.tty = sys.stderr.isatty()
        self.last = 0.0
        self.drawn = False

    def show(self, done, total, text, force=False):
        if self.quiet:
            return
        now = time.time()
        if not force and now - self.last < (0.25 if self.tty else 5.0):
            return
        self.last = now
        width = 30
        filled = min(width, int(width * done / total)) if total > 0 else width
        line = f"[{'#' * filled}{'.' * (width - filled)}] {text}"
        if self.tty:
            sys.stderr.write("\r" + line + "\033[K")
            self.drawn = True
        else:
            sys.stderr.write(line + "\n")
        sys.stderr.flush()

    def say(self, text):
        """A message line that does not overwrite the bar."""
        if self.tty and self.drawn:
            sys.stderr.write("\n")
            self.drawn = False
        sys.stderr.write(text + "\n")
        sys.stderr.flush()

    def close(self):
        if self.tty and self.drawn:
            sys.stderr.write("\n")
            self.drawn = False
