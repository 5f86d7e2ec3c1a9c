"""Print how fast and how lean the engine drives a harness, each figure beside an anchor measured
in the same run:

1. engine CPU per case (the engine process's user + system CPU from the run's start to its
   scoring, over its cases) against an instant harness, at 1 and 8 cases in flight, and its ratio
   to a raw anchor: the same number of ``POST /run`` bodies (the run's own requests, encoded
   beforehand) sent with a bare ``httpx.AsyncClient`` at the same concurrency to the same
   harness, under the engine's connection rules (a fresh connection a request, ``TCP_NODELAY``).
   The same with kept-alive connections, which the engine refuses on purpose (engine.md, "The
   harness client"), is printed beside it for scale. Engine and anchor are measured in turn,
   ``--rounds`` times, medians printed;
2. wall time of a full (and a medium) run against a harness that answers every case after
   100 ms, at concurrency 8, over the ideal ``cases asked x 0.1 s / 8``, for the safe schedule (the
   default) and the overlap one, measured in turn; the whole run (generating the dataset and
   grading included) and its driving alone (from waiting for ``/health`` to scoring). Beside
   them, in turn too, the raw anchor's wall over the same ideal: the run's bodies sent with a
   bare ``httpx.AsyncClient`` 8 at a time, no waves, no store (what the machine's load leaves);
3. the peak RSS of a whole ``dittobench run`` process (``os.wait4``) on a full run against the
   instant harness, beside that of the same command stopped before its first case (its
   imports and its dataset: the floor the run's own data sits on);
4. the load average before and after.

Figures only, never assertions. Run from the repository root:
    python benchmarks/engine_speed.py [--rounds 3] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.helpers

from dittobench.catalog.shown import shown_by
from dittobench.engine.client import ClientLimits, HarnessClient
from dittobench.engine.orchestrate import Progress
from dittobench.engine.packs import run_pack
from dittobench.engine.runner import RunOptions, start_run
from dittobench.generate.assemble import build_dataset
from dittobench.spec.versions import CURRENT_VERSION, get_policy
from dittobench.spec.vocab import RunSizeName
from dittobench.spec.wire import RunRequest, to_wire
from dittobench.store import RunStore

LIMITS = ClientLimits(health_interval_s=0.05)
VERSION = CURRENT_VERSION
SEED = 7


@contextlib.contextmanager
def sleepy(delay_ms: int) -> Iterator[str]:
    """benchmarks/sleepy_harness.py in a subprocess: an asyncio harness that waits exactly
    ``delay_ms`` per case, so the figure measures the engine, not the harness."""
    script = Path(__file__).resolve().parent / "sleepy_harness.py"
    process = subprocess.Popen(
        [sys.executable, str(script), "--delay-ms", str(delay_ms)], stdout=subprocess.PIPE
    )
    try:
        line = process.stdout.readline().decode()  # type: ignore[union-attr]
        url = f"http://127.0.0.1:{line.split()[1]}"
        _ready(url)  # the harness's own start-up is not the engine's time
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)
        process.stdout.close()  # type: ignore[union-attr]


def _ready(url: str) -> None:
    async def wait() -> None:
        async with HarnessClient(url, LIMITS) as client:
            await client.wait_healthy()

    asyncio.run(wait())


@dataclass(frozen=True)
class Driven:
    """One run's figures: wall seconds of the whole run (generating, driving, grading, writing)
    and of its driving alone (from waiting for ``/health`` to scoring), the CPU seconds of the
    process while driving, and the cases it asked the harness."""

    wall: float
    driving: float
    cpu: float
    cases: int


def engine_run(url: str, size: RunSizeName, concurrency: int, *, overlap: bool = False) -> Driven:
    """One whole run in this process, through ``engine.runner.start_run``."""
    marks: dict[str, tuple[float, float]] = {}

    def progress(p: Progress) -> None:
        if p.stage in ("starting", "scoring") and p.stage not in marks:
            marks[p.stage] = (time.perf_counter(), time.process_time())

    with tempfile.TemporaryDirectory() as folder:
        store = RunStore(RunStore.sqlite_url(Path(folder) / "runs.db"))
        options = RunOptions(
            url, SEED, size, VERSION, concurrency, Path(folder), LIMITS, overlap=overlap
        )
        start = time.perf_counter()
        outcome = start_run(store, "r-bench", options, lambda: "2026-11-30T00:00:00Z", progress)
        wall = time.perf_counter() - start
        asked = store.get_run(outcome.run_id).cases_total  # open questions too: report.n omits them
        store.close()
    (wall0, cpu0), (wall1, cpu1) = marks["starting"], marks["scoring"]
    return Driven(wall, wall1 - wall0, cpu1 - cpu0, asked)


def run_bodies(size: RunSizeName) -> list[bytes]:
    """Every case's ``POST /run`` body as the engine sends it (system prompt, prompt, the
    pack's catalog, a tool endpoint and a user), encoded before any timing."""
    dataset = build_dataset(SEED, VERSION, size)
    shown = shown_by(run_pack(VERSION, None), get_policy(VERSION).catalog)
    texts = [c.prompt for c in dataset.tool_cases] + [q[3] for q in dataset.asked()]
    return [
        json.dumps(
            to_wire(
                RunRequest(
                    f"c{n:016x}",
                    shown.system_prompt,
                    text,
                    shown.tools,
                    "http://127.0.0.1:1/t/" + "0" * 43 + "/tool",
                    "u" + "0" * 16,
                )
            ),
            ensure_ascii=False,
            separators=(",", ":"),
        ).encode()
        for n, text in enumerate(texts)
    ]


def raw_run(
    url: str, bodies: list[bytes], concurrency: int, *, keep_alive: bool
) -> tuple[float, float]:
    """CPU and wall seconds to send ``bodies`` with a bare ``httpx.AsyncClient``,
    ``concurrency`` at a time, reading each reply whole and parsing it as JSON."""

    async def send() -> None:
        transport = httpx.AsyncHTTPTransport(
            socket_options=[(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)],
            limits=httpx.Limits(max_keepalive_connections=64 if keep_alive else 0),
        )
        gate = asyncio.Semaphore(concurrency)
        headers = {"content-type": "application/json"}
        async with httpx.AsyncClient(transport=transport) as client:

            async def one(body: bytes) -> None:
                async with gate:
                    reply = await client.post(f"{url}/run", content=body, headers=headers)
                    json.loads(reply.content)

            await asyncio.gather(*(one(b) for b in bodies))

    cpu, wall = time.process_time(), time.perf_counter()
    asyncio.run(send())
    return time.process_time() - cpu, time.perf_counter() - wall


def cpu_figures(rounds: int, size: RunSizeName) -> None:
    """Engine CPU per case and its ratio to the raw anchor, at 1 and 8 cases in flight."""
    bodies = run_bodies(size)
    with sleepy(0) as url:
        for concurrency in (1, 8):
            engine, raw, kept = [], [], []
            for _ in range(rounds):  # in turn, so both see the same load
                run = engine_run(url, size, concurrency)
                engine.append(run.cpu / run.cases)
                raw.append(raw_run(url, bodies, concurrency, keep_alive=False)[0] / len(bodies))
                kept.append(raw_run(url, bodies, concurrency, keep_alive=True)[0] / len(bodies))
            e, r, k = (statistics.median(v) * 1000 for v in (engine, raw, kept))
            print(
                f"engine CPU per case, {size}, {concurrency} in flight: {e:.2f} ms "
                f"({', '.join(f'{v * 1000:.2f}' for v in engine)}); raw httpx, a connection a "
                f"request: {r:.2f} ms; ratio {e / r:.2f} (target <= 1.3); raw with kept-alive "
                f"connections: {k:.2f} ms (engine / that {e / k:.2f})"
            )


def wall_figures(rounds: int, sizes: tuple[RunSizeName, ...]) -> None:
    """Wall over ideal against a 100 ms harness, safe and overlap measured in turn."""
    with sleepy(100) as url:
        for size in sizes:
            bodies = run_bodies(size)
            runs: dict[bool, list[Driven]] = {False: [], True: []}
            raw: list[float] = []
            for _ in range(rounds):
                for overlap in (False, True):
                    runs[overlap].append(engine_run(url, size, 8, overlap=overlap))
                raw.append(raw_run(url, bodies, 8, keep_alive=False)[1])
            cases = runs[False][0].cases
            ideal = cases * 0.1 / 8
            whole = {k: [r.wall / ideal for r in v] for k, v in runs.items()}
            driving = {k: [r.driving / ideal for r in v] for k, v in runs.items()}
            ratios = ", ".join(
                f"{s / o:.2f}" for s, o in zip(whole[False], whole[True], strict=True)
            )
            floor = schedule_floor(size) * 0.1 / ideal
            print(
                f"100 ms harness, {size} ({cases} cases, ideal {ideal:.2f} s; no schedule can "
                f"drive it under {floor:.2f} x ideal, the waves being sequential), concurrency 8, "
                f"whole run wall / ideal: safe {_spread(whole[False])}, overlap "
                f"{_spread(whole[True])}; safe / overlap per round {ratios}; driving alone "
                f"(/health to scoring) / ideal: safe {_spread(driving[False])}, overlap "
                f"{_spread(driving[True])}; raw httpx, the same bodies 8 at a time / ideal: "
                f"{_spread([r / ideal for r in raw])}"
            )


def schedule_floor(size: RunSizeName, places: int = 8) -> float:
    """The least wall time, in rounds of one case per place, that any schedule needs: the memory
    waves go one after another (a wave's cases take ceil(n / places) rounds once it is seeded),
    and the tool cases fill the places those rounds leave free, then take rounds of their own."""
    dataset = build_dataset(SEED, VERSION, size)
    per_wave: dict[int, int] = {}
    for *_, wave in dataset.asked():
        per_wave[wave] = per_wave.get(wave, 0) + 1
    chain = sum(-(-n // places) for n in per_wave.values())
    free = chain * places - sum(per_wave.values())
    return chain + max(0, len(dataset.tool_cases) - free) / places


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def peak_rss(size: RunSizeName) -> None:
    """Peak RSS of ``dittobench run`` subprocesses on a store that exists (a new one would
    import alembic to migrate it): a whole run, and one stopped at its harness's ``/health`` (a
    port nothing listens on, ``--wait`` short)."""
    command = [str(Path(sys.executable).with_name("dittobench")), "run", "--run-size", size]
    command += ["--seed", str(SEED)]
    with sleepy(0) as url, tempfile.TemporaryDirectory() as folder:
        where = ["--db", f"{folder}/runs.db", "--out-dir", folder]
        RunStore(RunStore.sqlite_url(Path(folder) / "runs.db")).close()  # made and migrated
        whole = _rss([*command, *where, "--harness", url])
        dead = f"http://127.0.0.1:{_free_port()}"
        floor = _rss([*command, *where, "--harness", dead, "--wait", "0.2"])
    print(
        f"peak RSS of `dittobench run`, {size}: {whole:.1f} MiB (target <= 64); the same "
        f"command stopped before its first case: {floor:.1f} MiB; the run's own share "
        f"{whole - floor:.1f} MiB"
    )


LAUNCHER = (
    "import os, subprocess, sys\n"
    "p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
    "print(os.wait4(p.pid, 0)[2].ru_maxrss)\n"
)
"""Started from a fresh interpreter: a process forked from this one (large, after the runs in
this process) would count this one's pages in its peak until it execs."""


def _rss(command: list[str]) -> float:
    """The peak RSS of ``command``, in MiB (``os.wait4``)."""
    found = subprocess.run(
        [sys.executable, "-c", LAUNCHER, *command], capture_output=True, check=True, text=True
    )
    return int(found.stdout) / 1024


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="the full size only")
    args = parser.parse_args()
    print(f"load average {' '.join(f'{v:.2f}' for v in os.getloadavg())}; {time.strftime('%F')}")
    cpu_figures(args.rounds, "full")
    wall_figures(args.rounds, ("full",) if args.quick else ("full", "medium"))
    peak_rss("full")
    print(f"load average {' '.join(f'{v:.2f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()
