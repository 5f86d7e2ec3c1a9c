"""Does a run survive a harness restart, and an interrupted engine resumed with `--resume`?

Starts a harness process from a command (`--harness-cmd`, with `{port}`, `{data}` and `{python}`
filled in; the built-in baseline harness by default) and scores it three ways on one seed and run
size, each on a fresh harness with a data folder of its own:

1. uninterrupted: one `dittobench run`;
2. restart: the harness is killed (its whole process group, SIGKILL unless `--restart-signal`)
   once the run's store shows `--after-waves` waves seeded and `--after-cases` cases recorded,
   then started again at once (or `--restart-delay` seconds later) with the same command, port
   and data folder (whatever it persisted it keeps); the run goes on. The engine talks to it
   through a forwarder that holds new connections while it restarts, as a supervisor or load
   balancer in front of it would, so the restart falls within the engine's retry window;
   `restart-direct` is the same without it (the engine finds the port closed until the harness
   is back);
3. interrupt: at the same moment `dittobench run` gets SIGINT (Ctrl-C), then
   `dittobench run --resume RUN_ID` finishes it against the same, still running, harness
   (`--restart-on-resume` restarts the harness in between too).

It prints, for each, the cases whose score equals the uninterrupted run's, differs from it,
or is missing, the exit status and final state of the run, and PASS only when every case scores
as uninterrupted (exit 0) or the run failed loudly (a non-zero exit with a reason). `--control`
first repeats the uninterrupted run, since a harness or model that is not deterministic makes
every comparison meaningless. Figures only, never assertions (the exit status is 0). Run from
the repository root:

    python benchmarks/restart_resume.py                  # the baseline harness, memory in process
    python benchmarks/restart_resume.py --run-size medium --control \\
        --harness-cmd "node /srv/openclaw/src/server.js" \\
        --env PORT={port} --env DITTOBENCH_DB={data}/db --env OPENAI_BASE_URL=http://127.0.0.1:8081/v1

The dittobench that runs is the one `{python} -m dittobench` imports (set PYTHONPATH to score
another checkout); `--keep DIR` keeps every run folder, store and harness log.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import selectors
import shlex
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BASELINE_CMD = "{python} -m dittobench harness serve --port {port}"
POLL_S = 0.05


@dataclass
class Harness:
    """A harness process (its own process group), restartable on the same port and data."""

    command: list[str]
    env: dict[str, str]
    cwd: Path
    port: int
    logs: Path
    process: subprocess.Popen[bytes] | None = None
    starts: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, ready_timeout: float) -> float:
        """Start it and wait for `/health` to answer 2xx; returns the seconds that took."""
        self.starts += 1
        log = (self.logs / f"harness-{self.starts}.log").open("wb")
        began = time.monotonic()
        self.process = subprocess.Popen(
            self.command,
            cwd=self.cwd,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        while time.monotonic() - began < ready_timeout:
            if self.process.poll() is not None:
                tail = (self.logs / f"harness-{self.starts}.log").read_text(errors="replace")
                raise SystemExit(
                    f"the harness exited ({self.process.returncode}): {tail.strip()[-600:]}"
                )
            if healthy(self.url):
                return time.monotonic() - began
            time.sleep(POLL_S)
        raise SystemExit(f"the harness did not answer /health within {ready_timeout:g} s")

    def kill(self, sig: int, grace: float = 5.0) -> None:
        process = self.process
        if process is None or process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, sig)
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()

    def open_files(self) -> int | None:
        """File descriptors the harness's process group holds (Linux), or None."""
        if self.process is None or not Path("/proc").is_dir():
            return None
        total = 0
        for proc in Path("/proc").iterdir():
            if not proc.name.isdigit():
                continue
            with contextlib.suppress(OSError, ValueError, IndexError):
                stat = (proc / "stat").read_text()
                pgid = int(stat.rsplit(")", 1)[1].split()[2])
                if pgid == self.process.pid:
                    total += len(list((proc / "fd").iterdir()))
        return total


class Forwarder:
    """A TCP forwarder in front of the harness, as a supervisor or a load balancer would stand:
    a connection made while the harness restarts waits for it (up to `hold` seconds) instead of
    being refused, so the restart falls within any retry window; connections the harness held
    when it died are cut without a reply."""

    def __init__(self, upstream: int, hold: float) -> None:
        self.upstream, self.hold = upstream, hold
        self.listener = socket.create_server(("127.0.0.1", 0), backlog=128)
        self.port = int(self.listener.getsockname()[1])
        self.closed = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self) -> None:
        self.closed.set()
        self.listener.close()

    def _accept(self) -> None:
        while not self.closed.is_set():
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        deadline = time.monotonic() + self.hold
        with client:
            while True:
                try:
                    upstream = socket.create_connection(("127.0.0.1", self.upstream), timeout=1)
                    break
                except OSError:
                    if time.monotonic() > deadline or self.closed.is_set():
                        return
                    time.sleep(POLL_S)
            with upstream:
                upstream.settimeout(None)
                pipe(client, upstream)


def pipe(one: socket.socket, other: socket.socket) -> None:
    """Copy bytes both ways until both sides have finished sending."""
    selector = selectors.DefaultSelector()
    selector.register(one, selectors.EVENT_READ, other)
    selector.register(other, selectors.EVENT_READ, one)
    sending = 2
    with selector:
        while sending:
            for key, _ in selector.select():
                source, target = key.fileobj, key.data
                assert isinstance(source, socket.socket)
                try:
                    data = source.recv(65536)
                    if data:
                        target.sendall(data)
                        continue
                except OSError:
                    return  # a reset (the harness died): cut both sides
                selector.unregister(source)
                sending -= 1
                with contextlib.suppress(OSError):
                    target.shutdown(socket.SHUT_WR)


@dataclass
class Outcome:
    """One scenario: how the run ended and its per-case scores."""

    name: str
    exits: list[int] = field(default_factory=list)
    statuses: list[str] = field(default_factory=list)
    reason: str = ""
    run_id: str = ""
    scores: dict[str, float] = field(default_factory=dict)
    categories: dict[str, str] = field(default_factory=dict)
    reasons: dict[str, str] = field(default_factory=dict)
    composite: float | None = None
    event: str = ""
    noticed: list[str] = field(default_factory=list)
    seconds: float = 0.0
    open_files: int | None = None
    data_files: int = 0


def healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/health", timeout=1.0) as reply:
            return 200 <= int(reply.status) < 300
    except (OSError, urllib.error.URLError, ValueError):
        return False


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def run_row(db: Path) -> dict[str, Any]:
    """The run's row in its store (one run per store here), or {} before it exists."""
    if not db.exists():
        return {}
    try:
        with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)) as c:
            c.row_factory = sqlite3.Row
            row = c.execute("SELECT * FROM runs ORDER BY created_at DESC LIMIT 1").fetchone()
    except sqlite3.Error:
        return {}
    return dict(row) if row is not None else {}


def engine(args: argparse.Namespace, work: Path, extra: list[str]) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "dittobench", "run", *extra]
    command += ["--db", str(work / "runs.db"), "--out-dir", str(work / "runs")]
    command += ["--json", str(work / "report.json")]
    err = (work / f"engine-{len(list(work.glob('engine-*.err'))) + 1}.err").open("w")

    def default_sigint() -> None:  # a background shell may have left SIGINT ignored
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    process = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=err,
        text=True,
        preexec_fn=default_sigint,
    )
    err.close()
    return process


def first_run(args: argparse.Namespace, url: str) -> list[str]:
    return [
        *("--harness", url, "--seed", str(args.seed), "--run-size", args.run_size),
        *("--concurrency", str(args.concurrency), "--case-timeout", str(args.case_timeout)),
    ]


def wait_for(db: Path, process: subprocess.Popen[str], waves: int, cases: float) -> dict[str, Any]:
    """Poll the store until the run has `waves` waves seeded and `cases` cases recorded (below 1:
    that share of its cases); {} when the run ended first."""
    while process.poll() is None:
        row = run_row(db)
        wanted = cases if cases >= 1 else cases * row.get("cases_total", 0)
        if row and row.get("waves_seeded", 0) >= waves and row.get("cases_done", 0) >= wanted:
            return row
        time.sleep(POLL_S)
    return {}


def finish(outcome: Outcome, work: Path, process: subprocess.Popen[str], timeout: float) -> None:
    try:
        outcome.exits.append(process.wait(timeout=timeout))
    except subprocess.TimeoutExpired:
        process.kill()
        outcome.exits.append(process.wait())
    row = run_row(work / "runs.db")
    outcome.run_id = str(row.get("run_id", ""))
    outcome.statuses.append(f"{row.get('status', '?')}/{row.get('stage', '?')}")
    err = sorted(work.glob("engine-*.err"))[-1].read_text(errors="replace").strip()
    last = err.splitlines()[-1] if err else ""
    for line in err.splitlines():  # what the engine said about a restart, if anything
        said = line.split(": ", 1)[-1].strip()
        if "harness restarted" in line and said not in outcome.noticed:
            outcome.noticed.append(said)
    outcome.reason = str(row.get("error") or "") or (last if outcome.exits[-1] else "")


def read_report(outcome: Outcome, work: Path) -> None:
    path = work / "report.json"
    if outcome.exits[-1] != 0 or not path.exists():
        return
    report = json.loads(path.read_text(encoding="utf-8"))
    outcome.composite = report.get("composite")
    for case in report.get("per_case", []):
        outcome.scores[case["case_id"]] = float(case["score"])
        outcome.categories[case["case_id"]] = str(case.get("category", ""))
        outcome.reasons[case["case_id"]] = str(case.get("reason", ""))


def scenario(name: str, args: argparse.Namespace, root: Path) -> Outcome:
    work = root / name
    (work / "data").mkdir(parents=True)
    port = free_port()
    fill = {"port": str(port), "data": str(work / "data"), "python": sys.executable}
    env = dict(os.environ)
    for pair in args.env:
        key, _, value = pair.partition("=")
        env[key] = value.format(**fill)
    command = [part.format(**fill) for part in shlex.split(args.harness_cmd)]
    cwd = Path(args.cwd.format(**fill)) if args.cwd else work / "data"
    harness = Harness(command, env, cwd, port, work)
    outcome = Outcome(name)
    began = time.monotonic()
    harness.start(args.ready_timeout)
    forwarder = Forwarder(port, args.ready_timeout) if name == "restart" else None
    url = f"http://127.0.0.1:{forwarder.port}" if forwarder else harness.url
    try:
        process = engine(args, work, first_run(args, url))
        if name != "uninterrupted" and name != "control":
            interrupt(name, args, work, harness, process, outcome)
        finish(outcome, work, process, args.run_timeout)
        if name == "interrupt" and outcome.run_id and outcome.event.startswith("SIGINT"):
            if args.restart_on_resume:
                harness.kill(signal.Signals[f"SIG{args.restart_signal}"])
                harness.start(args.ready_timeout)
                outcome.event += "; harness restarted before the resume"
            (work / "report.json").unlink(missing_ok=True)
            resume = ["--resume", outcome.run_id, *shlex.split(args.resume_args)]
            finish(outcome, work, engine(args, work, resume), args.run_timeout)
        read_report(outcome, work)
        outcome.open_files = harness.open_files()
    finally:
        harness.kill(signal.SIGTERM)
        if forwarder:
            forwarder.close()
    outcome.data_files = sum(1 for p in (work / "data").rglob("*") if p.is_file())
    outcome.seconds = time.monotonic() - began
    return outcome


def interrupt(
    name: str,
    args: argparse.Namespace,
    work: Path,
    harness: Harness,
    process: subprocess.Popen[str],
    outcome: Outcome,
) -> None:
    """At the chosen moment: restart the harness, or send the engine SIGINT."""
    row = wait_for(work / "runs.db", process, args.after_waves, args.after_cases)
    if not row:
        outcome.event = "the run ended before the moment came: nothing was interrupted"
        return
    moment = (
        f"at {row['cases_done']}/{row['cases_total']} cases, {row['waves_seeded']} waves seeded"
    )
    if name == "interrupt":
        process.send_signal(signal.SIGINT)
        outcome.event = f"SIGINT {moment}"
        return
    sig = signal.Signals[f"SIG{args.restart_signal}"]
    harness.kill(sig)
    time.sleep(args.restart_delay)
    down = args.restart_delay + harness.start(args.ready_timeout)
    held = ", new connections held meanwhile" if name == "restart" else ""
    outcome.event = f"harness {sig.name} {moment}; back after {down:.1f} s{held}"


def compare(base: Outcome, other: Outcome) -> tuple[list[str], list[str], list[str]]:
    equal, differing, missing = [], [], []
    for case, score in base.scores.items():
        if case not in other.scores:
            missing.append(case)
        elif other.scores[case] == score:
            equal.append(case)
        else:
            differing.append(case)
    return equal, differing, missing


def verdict(base: Outcome, other: Outcome) -> str:
    if not other.event.startswith(("harness", "SIGINT")) and other.name != "control":
        return "N/A (nothing was interrupted)"
    _equal, differing, missing = compare(base, other)
    if other.exits[-1] != 0:
        return "PASS (failed loudly)" if other.reason else "FAIL (non-zero exit, no reason)"
    if not differing and not missing and len(other.scores) == len(base.scores):
        return "PASS (the uninterrupted run's scores)"
    cut = sum(other.reasons.get(case) == "undelivered" for case in differing)
    said = f"{cut} of them undelivered, counted in its summary" if cut else "silently wrong"
    return f"FAIL (exit 0, {len(differing)} differing, {len(missing)} missing: {said})"


def describe(base: Outcome, other: Outcome, show: int) -> Iterator[str]:
    equal, differing, missing = compare(base, other)
    exits = "→".join(str(e) for e in other.exits)
    statuses = "→".join(other.statuses)
    composite = "—" if other.composite is None else f"{other.composite:.4f}"
    yield (
        f"{other.name:<11} exit {exits:<6} {statuses:<28} composite {composite:<7} "
        f"{len(equal)} equal, {len(differing)} differing, {len(missing)} missing  "
        f"({other.seconds:.1f} s)"
    )
    if other.event:
        yield f"{'':<12}{other.event}"
    for said in other.noticed[:3]:
        yield f"{'':<12}the engine said: {said[:200]}"
    if other.reason:
        yield f"{'':<12}reason: {other.reason[:300]}"
    files = "" if other.open_files is None else f"{other.open_files} open files, "
    yield f"{'':<12}harness at the end: {files}{other.data_files} files in its data folder"
    for case in differing[:show]:
        yield (
            f"{'':<12}{case} {base.categories[case]:<24} "
            f"{base.scores[case]:.3f} → {other.scores[case]:.3f} {other.reasons[case]}"
        )
    if other.name not in ("uninterrupted", "control"):
        yield f"{'':<12}{verdict(base, other)}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--harness-cmd", default=BASELINE_CMD, help="{port} {data} {python}")
    parser.add_argument("--env", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--cwd", default="", help="the harness's folder (default: {data})")
    parser.add_argument("--seed", type=int, default=20261207)
    parser.add_argument("--run-size", default="small", choices=["small", "medium", "full"])
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--case-timeout", type=float, default=120.0)
    parser.add_argument("--scenarios", default="restart,restart-direct,interrupt")
    parser.add_argument("--control", action="store_true", help="repeat the uninterrupted run")
    parser.add_argument("--after-waves", type=int, default=1)
    parser.add_argument("--after-cases", type=float, default=1, help="0.33: a third of them")
    parser.add_argument("--restart-signal", default="KILL", choices=["KILL", "TERM", "INT"])
    parser.add_argument("--restart-delay", type=float, default=0.0, help="seconds dead, then start")
    parser.add_argument("--restart-on-resume", action="store_true")
    parser.add_argument("--resume-args", default="", help="more options for the --resume")
    parser.add_argument("--ready-timeout", type=float, default=120.0)
    parser.add_argument("--run-timeout", type=float, default=3600.0)
    parser.add_argument("--show", type=int, default=10, help="differing cases listed")
    parser.add_argument("--keep", type=Path, help="keep every run folder here")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    names = ["uninterrupted", *(["control"] if args.control else [])]
    names += [s for s in args.scenarios.split(",") if s]
    with contextlib.ExitStack() as stack:
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            root = Path(tempfile.mkdtemp(prefix="restart-resume-", dir=args.keep))
        else:
            root = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        shown = args.harness_cmd if args.harness_cmd != BASELINE_CMD else "the baseline harness"
        print(f"harness: {shown}")
        print(f"seed {args.seed} · {args.run_size} · concurrency {args.concurrency} · in {root}")
        outcomes = [scenario(name, args, root) for name in names]
        base = outcomes[0]
        for line in describe(base, base, 0):
            print(line)
        if base.exits[-1] != 0:
            print("the uninterrupted run failed: nothing to compare with")
        for other in outcomes[1:]:
            for line in describe(base, other, args.show):
                print(line)
        if args.json:
            figures = []
            for other in outcomes:
                equal, differing, missing = compare(base, other)
                figures.append(
                    {
                        "scenario": other.name,
                        "exits": other.exits,
                        "statuses": other.statuses,
                        "run_id": other.run_id,
                        "composite": other.composite,
                        "event": other.event,
                        "noticed": other.noticed,
                        "reason": other.reason,
                        "equal": len(equal),
                        "differing": differing,
                        "missing": missing,
                        "verdict": verdict(base, other) if other is not base else "",
                        "seconds": round(other.seconds, 2),
                        "open_files": other.open_files,
                        "data_files": other.data_files,
                    }
                )
            args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
