"""Print how fast the engine drives a harness: a full run against an instant loopback harness,
the engine's overhead per case, and the ratio to the ideal against a 100 ms harness, for the
default (safe) schedule, which never sends ``/seed`` while a case is in flight, and for the
``overlap`` schedule a harness may opt into.

Figures only, never assertions. Run from the repository root:
    python benchmarks/engine_speed.py
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.helpers

from tests.helpers.harness_process import harness

from dittobench.engine.client import ClientLimits, HarnessClient
from dittobench.engine.runner import RunOptions, start_run
from dittobench.generate.assemble import build_dataset
from dittobench.spec.vocab import RunSizeName
from dittobench.store import RunStore

LIMITS = ClientLimits(health_interval_s=0.05)


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


def timed_run(
    mode: str, size: RunSizeName, concurrency: int, *args: str, overlap: bool = False
) -> tuple[float, int]:
    server = sleepy(int(args[1])) if mode == "sleepy" else harness(mode, *args)
    with tempfile.TemporaryDirectory() as folder, server as url:
        store = RunStore(RunStore.sqlite_url(Path(folder) / "runs.db"))
        options = RunOptions(
            url, 7, size, "1.1.0", concurrency, Path(folder), LIMITS, overlap=overlap
        )
        start = time.perf_counter()
        outcome = start_run(
            store, "r-bench", options, lambda: "2026-11-30T00:00:00Z", lambda progress: None
        )
        elapsed = time.perf_counter() - start
        store.close()
        return elapsed, outcome.report.n


def main() -> None:
    wall, cases = timed_run("nothing", "full", 8)
    print(
        f"full run, instant harness, concurrency 8: {wall:.2f} s for {cases} cases "
        "(generate, seed, run, grade, store, write)"
    )
    wall1, cases1 = timed_run("nothing", "full", 1)
    print(f"engine overhead per case (concurrency 1): {wall1 / cases1 * 1000:.1f} ms")
    sizes: tuple[RunSizeName, ...] = ("full", "medium")
    for size in sizes:
        wall, cases = timed_run("sleepy", size, 8, "--delay-ms", "100")
        limit = cases * 0.1 / 8
        phased = phase_bound(size, 8, 0.1)
        print(
            f"100 ms harness, {size} ({cases} cases), concurrency 8, safe schedule (default): "
            f"{wall:.2f} s; limit cases x 0.1 s / 8 = {limit:.2f} s, ratio {wall / limit:.2f} "
            f"(every tool case first, then each wave, would allow no less than {phased:.2f} s, "
            f"ratio {phased / limit:.2f})"
        )
        wall, cases = timed_run("sleepy", size, 8, "--delay-ms", "100", overlap=True)
        print(f"  the same with overlap: {wall:.2f} s, ratio {wall / limit:.2f}")


def phase_bound(size: RunSizeName, concurrency: int, seconds: float) -> float:
    """The fastest possible run in phases (every tool case, then each wave's unlocked cases),
    the engine's order before tool cases filled the memory phases: each phase takes
    ceil(cases / concurrency) rounds, since a wave is seeded only after the previous phase."""
    dataset = build_dataset(7, "1.1.0", size)
    phases = [len(dataset.tool_cases)]
    waves = sorted({c.run_after_wave for c in dataset.memory_cases})
    phases += [sum(1 for c in dataset.memory_cases if c.run_after_wave == w) for w in waves]
    return sum(-(-n // concurrency) for n in phases) * seconds


if __name__ == "__main__":
    main()
