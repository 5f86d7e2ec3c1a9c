"""Print how the baseline harness takes a long history: the seconds to seed 10,000 pairs through
real HTTP in parts of at most 1 MiB (``spec.wire.seed_parts``, as the engine sends them), the
cost per pair against seeding a full run's waves in the same run (the anchor), and the peak RSS
of the baseline process for each, beside the machine's load average.

The 10,000 pairs are a full dataset's (seed 7) pairs repeated with new pair, session and subject
ids, timestamps shifted past the previous copy's last one, and each copy's texts marked with its
number, so every copy is indexed as new text; their links and subjects come along. Both
harnesses are real processes (``python -m dittobench_baseline``, memory in a file, as a run
starts it) and are seeded with the engine's own client and ``seed_wave``.

Figures only, never assertions. Run from the repository root:
    python benchmarks/baseline_seed.py [--pairs N] [--limit BYTES] [--repeat N]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path

from dittobench.engine.client import ClientLimits, HarnessClient
from dittobench.engine.seeding import SeedSending, seed_wave
from dittobench.generate.assemble import build_dataset
from dittobench.spec.dataset import Dataset
from dittobench.spec.versions import CURRENT_VERSION
from dittobench.spec.wire import SEED_BYTES_LIMIT, Link, Pair, SeedRequest, Subject, seed_parts

STAMP = "%Y-%m-%dT%H:%M:%SZ"


def long_history(dataset: Dataset, pairs: int) -> SeedRequest:
    """``pairs`` pairs for one user in one wave: the dataset's pairs (every wave, every user,
    oldest first) copied over and over with new ids and later timestamps, links and subjects
    following their pairs."""
    source = sorted(
        (pair for wave in dataset.memory_waves for pair in wave.pairs), key=lambda p: p.timestamp
    )
    links = [link for wave in dataset.memory_waves for link in wave.links]
    subjects = {s.id: s for wave in dataset.memory_waves for s in wave.subjects}
    first = datetime.fromisoformat(source[0].timestamp)
    span = datetime.fromisoformat(source[-1].timestamp) - first + timedelta(days=1)
    out_pairs: list[Pair] = []
    out_links: list[Link] = []
    out_subjects: dict[str, Subject] = {}
    copy = 0
    while len(out_pairs) < pairs:
        taken = source[: pairs - len(out_pairs)]
        kept = {p.pair_id for p in taken}
        for pair in taken:
            moment = datetime.fromisoformat(pair.timestamp) + span * copy
            out_pairs.append(
                Pair(
                    f"{pair.pair_id}-{copy}",
                    f"{pair.session_id}-{copy}",
                    moment.strftime(STAMP),
                    f"{pair.prompt} (copy {copy})",
                    pair.response,
                )
            )
        for link in links:
            if link.pair_id in kept:
                out_links.append(Link(f"{link.subject_id}-{copy}", f"{link.pair_id}-{copy}"))
                subject = subjects[link.subject_id]
                out_subjects.setdefault(
                    f"{subject.id}-{copy}", replace(subject, id=f"{subject.id}-{copy}")
                )
        copy += 1
    return SeedRequest("miner", 0, tuple(out_pairs), tuple(out_subjects.values()), tuple(out_links))


@dataclass
class Baseline:
    """A baseline harness process: its URL and pid."""

    url: str
    pid: int

    def peak_rss_mib(self) -> float:
        """The process's peak resident set so far (``VmHWM``), in MiB."""
        return _status_kib(self.pid, "VmHWM") / 1024

    def rss_mib(self) -> float:
        return _status_kib(self.pid, "VmRSS") / 1024


def _status_kib(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{key}:"):
            return int(line.split()[1])
    return 0


@contextlib.contextmanager
def baseline(db: Path) -> Iterator[Baseline]:
    """The baseline harness started as ``dittobench run`` starts it (memory in ``db``)."""
    command = [sys.executable, "-m", "dittobench_baseline", "--port", "0", "--db", str(db)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
    try:
        assert process.stdout is not None
        line = process.stdout.readline().decode().strip()
        if not line.startswith("listening on "):
            raise SystemExit(f"the baseline did not start: {line!r}")
        yield Baseline(line.removeprefix("listening on "), process.pid)
    finally:
        process.terminate()
        process.wait(timeout=10)


async def _seed(url: str, waves: list[SeedRequest], limit: int) -> tuple[float, int]:
    """Seconds to send ``waves`` in parts of at most ``limit`` bytes, and the parts sent."""
    async with HarnessClient(url, ClientLimits()) as client:
        await client.wait_healthy()
        started = time.perf_counter()
        parts = 0
        for wave in waves:
            how = SeedSending(limit, (), wave.user_id, f"wave {wave.wave}")
            parts += await seed_wave(client, wave, how, lambda _note: None)
        return time.perf_counter() - started, parts


def measure(waves: list[SeedRequest], limit: int, folder: Path, name: str) -> tuple[float, ...]:
    """Seed ``waves`` into a fresh baseline: (seconds, parts, RSS at start, peak RSS), MiB."""
    with baseline(folder / f"{name}.db") as harness:
        before = harness.rss_mib()
        seconds, parts = asyncio.run(_seed(harness.url, waves, limit))
        return seconds, parts, before, harness.peak_rss_mib()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", type=int, default=10_000, help="pairs in the long history")
    parser.add_argument("--limit", type=int, default=SEED_BYTES_LIMIT, help="bytes a part")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each; the best is shown")
    args = parser.parse_args()
    dataset = build_dataset(7, CURRENT_VERSION, "full")
    full = list(dataset.memory_waves)
    full_pairs = sum(len(w.pairs) for w in full)
    long = long_history(dataset, args.pairs)
    started = time.perf_counter()
    seed_parts(long, args.limit)
    split_s = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        anchors = [measure(full, args.limit, folder, f"full-{i}") for i in range(args.repeat)]
        longs = [measure([long], args.limit, folder, f"long-{i}") for i in range(args.repeat)]
    anchor, best = min(anchors), min(longs)
    per_anchor, per_long = anchor[0] / full_pairs, best[0] / args.pairs
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average {load} ({os.cpu_count()} cores); best of {args.repeat}")
    print(
        f"full run's waves: {full_pairs} pairs in {len(full)} waves, {anchor[1]:.0f} /seed: "
        f"{anchor[0]:.3f} s ({per_anchor * 1e3:.3f} ms a pair); baseline RSS "
        f"{anchor[2]:.1f} MiB at start, peak {anchor[3]:.1f} MiB"
    )
    print(
        f"{args.pairs:,} pairs, one wave, {best[1]:.0f} parts of at most {args.limit:,} bytes: "
        f"{best[0]:.3f} s ({per_long * 1e3:.3f} ms a pair; splitting alone {split_s:.3f} s); "
        f"baseline RSS {best[2]:.1f} MiB at start, peak {best[3]:.1f} MiB"
    )
    print(f"ratio per pair, long history / full run: {per_long / per_anchor:.2f}")


if __name__ == "__main__":
    main()
