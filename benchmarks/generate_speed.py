"""Print how long the generator takes: warm in-process builds of every version that coins values
(bench 3.0.0 on) at small and full, each as a multiple of bench 1.1.0's measured in the same run,
the share of each build that is coining (`coin_library` alone), the one-time cost of loading the
default pack, in-process builds per size and the whole `generate --sha` process.

Figures only, never assertions (the machines are shared and noisy); the load average is printed
beside them. The warm builds and coining are timed in CPU time (``time.process_time``): a build
is one thread that never waits, so its CPU time is its cost without the time other processes
held the cores, which on a loaded 2-core host is much of the wall time; the rest is wall time.
Usage:
    python benchmarks/generate_speed.py [--runs N] [--seeds N] [--sizes small,full]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

from dittobench.core.canonical import canonical_bytes
from dittobench.core.prng import Stream
from dittobench.generate.assemble import build_dataset
from dittobench.generate.persona.coined import coin_library
from dittobench.generate.texts import texts_of
from dittobench.packs import own_pack
from dittobench.spec.versions import POLICIES

REFERENCE_VERSION = "1.1.0"
"""Each figure is also given as a multiple of this version's, measured in the same minutes: a
ratio that holds from machine to machine where milliseconds do not."""

WARM_VERSIONS = (REFERENCE_VERSION, *(v for v, p in POLICIES.items() if p.content.coined_values))
"""The reference and every version that coins values (3.0.0 on)."""

TARGET_RATIOS = {"small": 2.0, "full": 1.5}
TARGETED_FROM = (4, 0, 0)
"""Issue 33's aim for bench 4.0.0 and every later version: a warm build at most this multiple
of 1.1.0's."""

# Run in a fresh interpreter: in this process the pack and its texts are cached already.
PACK_LOAD = (
    "import time\n"
    "from dittobench.generate.texts import texts_of\n"
    "from dittobench.packs import public_pack\n"
    "start = time.perf_counter()\n"
    "pack = public_pack()\n"
    "pack.sha256\n"
    "loaded = time.perf_counter()\n"
    "texts_of(pack)\n"
    "done = time.perf_counter()\n"
    "print(loaded - start, done - loaded)\n"
)


def _median_seconds(action, runs: int) -> float:  # type: ignore[no-untyped-def]
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} ({os.cpu_count()} cores)"


def warm_builds(
    versions: tuple[str, ...], sizes: tuple[str, ...], seeds: int, runs: int
) -> dict[tuple[str, str], tuple[float, float]]:
    """Per (version, size), the median and the slowest over seeds 0..seeds-1 of the fastest of
    ``runs`` warm builds, in CPU ms (the fastest of a seed's runs: the least disturbed by other
    work on the machine). The versions take turns build by build, so a machine that speeds up or
    slows down (shared hosts do, by half and more) moves every version's figure alike and their
    ratios hold."""
    for version in versions:
        for size in sizes:
            build_dataset(0, version, size)  # loads and caches the pack
    samples: dict[tuple[str, str, int], list[float]] = {}
    for seed in range(seeds):
        for _ in range(runs):
            for size in sizes:
                for version in versions:
                    start = time.process_time()
                    build_dataset(seed, version, size)
                    elapsed = time.process_time() - start
                    samples.setdefault((version, size, seed), []).append(elapsed)
    figures = {}
    for version in versions:
        for size in sizes:
            bests = [min(samples[version, size, seed]) * 1000 for seed in range(seeds)]
            figures[version, size] = (statistics.median(bests), max(bests))
    return figures


def coining(version: str, seeds: int, runs: int) -> float:
    """Median over seeds of the fastest of ``runs`` ``coin_library`` calls as a build of
    ``version`` makes them (its own pack), in CPU ms."""
    policy = POLICIES[version]
    texts = texts_of(own_pack(version))
    avoid = texts.pack.file("attributes").get("coin_avoid", [])
    bests = []
    for seed in range(seeds):
        samples = []
        for _ in range(runs):
            stream = Stream.root(seed, policy.content_version).fork("memory/coin")
            start = time.process_time()
            coin_library(texts.library, stream, texts.words.syllables, avoid)
            samples.append(time.process_time() - start)
        bests.append(min(samples) * 1000)
    return statistics.median(bests)


def _targeted(version: str) -> bool:
    return tuple(int(part) for part in version.split(".")) >= TARGETED_FROM


def print_warm(seeds: int, sizes: tuple[str, ...]) -> None:
    """The warm builds of ``WARM_VERSIONS`` at ``sizes``, with their ratios to 1.1.0."""
    print(_load())
    warm = warm_builds(WARM_VERSIONS, sizes, seeds, 3)
    coined = {v: coining(v, seeds, 3) for v in WARM_VERSIONS if POLICIES[v].content.coined_values}
    for size in sizes:
        reference = warm[REFERENCE_VERSION, size][0]
        for version in WARM_VERSIONS:
            ms, slowest = warm[version, size]
            ratio = ms / reference
            aim = f" (aim <= {TARGET_RATIOS[size]:.1f}x)" if _targeted(version) else ""
            coin = f"; coining alone {coined[version]:.1f} ms" if version in coined else ""
            print(
                f"warm build_dataset(seed, {version}, {size:<5}) median of {seeds} seeds "
                f"{ms:6.1f} CPU ms  {ratio:5.2f}x {REFERENCE_VERSION}{aim}  "
                f"(slowest seed {slowest:.1f} ms{coin})"
            )
    print(_load())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7, help="repetitions per figure (median shown)")
    parser.add_argument("--seeds", type=int, default=12, help="seeds per warm-build figure")
    parser.add_argument("--sizes", default="small,full", help="run sizes of the warm builds")
    args = parser.parse_args()
    runs = args.runs

    print_warm(args.seeds, tuple(args.sizes.split(",")))
    load, texts = pack_load(runs)
    print(
        f"one-time default pack load: public_pack() + sha256 {load:.1f} ms, "
        f"texts_of {texts:.1f} ms, together {load + texts:.1f} ms"
    )

    for size in ("small", "medium", "full"):
        build = _median_seconds(lambda s=size: build_dataset(1, run_size=s), runs)
        data = canonical_bytes(build_dataset(1, run_size=size).to_json())
        print(
            f"in-process build_dataset(seed=1, {size:<6}) median {build * 1000:8.1f} ms"
            f"  ({len(data):,} bytes)"
        )

    full_cmd = [
        sys.executable,
        "-m",
        "dittobench",
        "generate",
        "--seed",
        "1",
        "--run-size",
        "full",
        "--sha",
    ]
    whole = _median_seconds(lambda: subprocess.run(full_cmd, check=True, capture_output=True), runs)
    bare = _median_seconds(
        lambda: subprocess.run([sys.executable, "-c", "pass"], check=True, capture_output=True),
        runs,
    )
    print(
        f"whole process `dittobench generate --seed 1 --run-size full --sha` median {whole:.3f} s"
    )
    print(f"bare interpreter start                                          median {bare:.3f} s")
    print(f"ratio whole/bare: {whole / bare:.1f}x")


def pack_load(runs: int) -> tuple[float, float]:
    """Median ms of ``public_pack()`` + its sha256, and of ``texts_of(pack)``, each the first
    call in a fresh interpreter."""
    loads, texts = [], []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", PACK_LOAD], check=True, capture_output=True, text=True
        ).stdout.split()
        loads.append(float(out[0]) * 1000)
        texts.append(float(out[1]) * 1000)
    return statistics.median(loads), statistics.median(texts)


if __name__ == "__main__":
    main()
