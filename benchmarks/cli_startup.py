"""Print what starting the command line costs, each figure beside its yardstick.

1. The start-up CPU (user + system) of `run`, `serve` and `worker`, each at two points: when the
   command's own function is entered (the command line's part: typer, the command's module, its
   options parsed) and when its work starts (`run`: `drive.runs.drive_run` is called, the store
   open and the signing key read; `serve`: uvicorn is about to listen, the app built; `worker`:
   `workers.process.serve_worker` is called, Celery not yet imported). The process stops there,
   so no harness, port or broker is ever reached. Beside them: `dittobench --help`, a bare
   interpreter, the ratio of each to the bare interpreter, whether each is within 0.15 s, and
   the floor under each command: the third-party libraries its work needs, imported alone.
2. `generate --sha` (full) beside a script that imports only the generator, and the wall time
   from `harness serve` to its first answered `/health`.

Every process runs with compiled bytecode, as an installed package does (a scratch
``PYTHONPYCACHEPREFIX``, filled by one run of each command that is not counted), whatever
``PYTHONDONTWRITEBYTECODE`` says. Figures only, never assertions, with the load average (this
machine's 2 cores are shared). Run from the repository root:
    python benchmarks/cli_startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

PY = sys.executable
TARGET_S = 0.15
GENERATOR_ONLY = (
    "import hashlib, sys\n"
    "from dittobench.core.canonical import canonical_bytes\n"
    "from dittobench.generate.assemble import build_dataset\n"
    "data = canonical_bytes(build_dataset(123456789, run_size='full').to_json())\n"
    "print(hashlib.sha256(data).hexdigest())\n"
)

# Runs `dittobench ARGS` in this process and ends it (exit 0) at a point named by a module and
# an attribute: a function of that module, replaced as soon as the module is loaded, or with
# `@` a command's function as registered on the app (`@dittobench.cli.running:run`).
STOP_AT = r"""
import functools, importlib.abc, importlib.util, os, sys
where, args = sys.argv[1], sys.argv[2:]
module_name, attribute = where.lstrip("@").split(":")

def stop(*_args, **_kwargs):
    os._exit(0)

def patch(module):
    if not where.startswith("@"):
        owner, _, name = attribute.rpartition(".")
        setattr(getattr(module, owner) if owner else module, name, stop)
        return
    from dittobench.cli.common import app
    for info in app.registered_commands:
        if info.callback is not None and info.callback.__name__ == attribute:
            info.callback = functools.wraps(info.callback)(stop)

class Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name != module_name:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        load = spec.loader.exec_module
        def exec_module(module):
            load(module)
            patch(module)
        spec.loader.exec_module = exec_module
        return spec

sys.meta_path.insert(0, Finder())
sys.argv = ["dittobench", *args]
from dittobench.cli.app import main
main()
sys.exit(f"never reached {where}")
"""

HTTPX_ALONE = "import sys; sys.modules.setdefault('httpx._main', None); "
"""How the command line imports httpx (``cli/app.py``: without its own command-line client)."""


def cpu_seconds(command: list[str], runs: int, env: dict[str, str] | None = None) -> float:
    """Median CPU time (user + system) of ``command`` over ``runs`` runs, after one more that
    is not counted (it compiles what the command imports)."""
    subprocess.run(command, check=True, capture_output=True, env=env)
    samples = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(command, check=True, capture_output=True, env=env)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        samples.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return statistics.median(samples)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve_to_health(runs: int) -> float:
    """Median wall time from starting `harness serve` to its first answered /health."""
    samples = []
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    for _ in range(runs):
        port = free_port()
        start = time.perf_counter()
        process = subprocess.Popen(
            [PY, "-m", "dittobench", "harness", "serve", "--port", str(port)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            while True:
                try:
                    with opener.open(f"http://127.0.0.1:{port}/health", timeout=1):
                        break
                except OSError:
                    time.sleep(0.005)
            samples.append(time.perf_counter() - start)
        finally:
            process.terminate()
            process.wait(timeout=10)
    return statistics.median(samples)


def commands(home: Path) -> dict[str, tuple[list[str], str, str, str]]:
    """Each measured command: its arguments, where its function is entered, where its work
    starts, and the third-party libraries that work needs (the floor under it)."""
    db = str(home / "runs.db")
    return {
        "run": (
            ["run", "--harness", "http://127.0.0.1:9", "--seed", "1", "--db", db,
             "--out-dir", str(home / "runs")],
            "@dittobench.cli.running:run",
            "dittobench.drive.runs:drive_run",
            "typer, sqlalchemy, httpx, cryptography.hazmat.primitives.asymmetric.ed25519",
        ),
        "serve": (
            ["serve", "--port", "0", "--db", db],
            "@dittobench.cli.serving:serve",
            "dittobench.service.app:serve",
            "typer, sqlalchemy, httpx, cryptography.hazmat.primitives.asymmetric.ed25519, "
            "fastapi, pydantic_settings, jinja2",
        ),
        "worker": (
            ["worker", "--broker", "redis://127.0.0.1:9/0", "--db", db, "--data-dir", str(home)],
            "@dittobench.cli.working:worker",
            "dittobench.workers.process:serve_worker",
            "typer, sqlalchemy, httpx, cryptography.hazmat.primitives.asymmetric.ed25519",
        ),
    }  # fmt: skip


def line(label: str, seconds: float, bare: float, note: str = "") -> str:
    """One figure: CPU, its ratio to the bare interpreter and whether it is within the target."""
    verdict = "meets" if seconds <= TARGET_S else "over"
    return (
        f"{label:<34}{seconds * 1000:7.1f} ms CPU {seconds / bare:6.1f}x bare  "
        f"{verdict} {TARGET_S:.2f} s{note}"
    )


def startup(runs: int, bare: float) -> None:
    """The start-up figures of `run`, `serve` and `worker`, in a scratch home with a run store
    and a signing key made by one first `run` (not counted)."""
    with tempfile.TemporaryDirectory() as scratch:
        home = Path(scratch)
        env = dict(os.environ, HOME=scratch, XDG_DATA_HOME=scratch)
        env["DITTOBENCH_CONTROL_TOKEN"] = "cli-startup-benchmark-token-0123456789"
        table = commands(home)
        first = table["run"]
        subprocess.run([PY, "-c", STOP_AT, first[2], *first[0]], check=True, env=env,
                       capture_output=True)  # fmt: skip
        for name, (args, entered, working, floor) in table.items():
            try:
                at_entry = cpu_seconds([PY, "-c", STOP_AT, entered, *args], runs, env)
                at_work = cpu_seconds([PY, "-c", STOP_AT, working, *args], runs, env)
            except subprocess.CalledProcessError as exc:
                last = (exc.stderr or b"").decode(errors="replace").strip().splitlines()
                print(f"{name}: failed before its work started: {last[-1] if last else '?'}")
                continue
            alone = cpu_seconds([PY, "-c", HTTPX_ALONE + "import " + floor], runs)
            print(line(f"{name}: command entered", at_entry, bare))
            print(line(f"{name}: work starts", at_work, bare))
            print(line(f"{name}: floor (libraries alone)", alone, bare, f"  ({floor})"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7, help="runs per figure (median shown)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as bytecode:
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        os.environ["PYTHONPYCACHEPREFIX"] = bytecode
        figures(args.runs)


def figures(runs: int) -> None:
    """Every figure, in one pass."""
    loads = os.getloadavg()
    bare = cpu_seconds([PY, "-c", "pass"], runs)
    helped = cpu_seconds([PY, "-m", "dittobench", "--help"], runs)
    print(f"{'bare interpreter':<34}{bare * 1000:7.1f} ms CPU")
    print(line("dittobench --help", helped, bare))
    startup(runs, bare)
    script = cpu_seconds([PY, "-c", GENERATOR_ONLY], runs)
    sha = cpu_seconds(
        [PY, "-m", "dittobench", "generate", "--seed", "123456789", "--run-size", "full", "--sha"],
        runs,
    )
    health = serve_to_health(runs)
    print(f"{'generator-only script, full':<34}{script * 1000:7.1f} ms CPU")
    ratio = sha / script
    print(f"{'generate --sha, full':<34}{sha * 1000:7.1f} ms CPU {ratio:6.2f}x script (<= 1.3x)")
    print(f"{'harness serve to /health':<34}{health * 1000:7.1f} ms wall  (<= 500 ms)")
    after = os.getloadavg()
    print(f"load average {loads[0]:.2f} at the start, {after[0]:.2f} at the end (2 cores)")


if __name__ == "__main__":
    main()
