"""Print how long the generator takes: in-process builds and the whole `generate --sha` process.

Figures only, never assertions (the machines are shared and noisy). Usage:
    python benchmarks/generate_speed.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from dittobench.core.canonical import canonical_bytes
from dittobench.generate.assemble import build_dataset


def _median_seconds(action, runs: int) -> float:  # type: ignore[no-untyped-def]
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7, help="repetitions per figure (median shown)")
    runs = parser.parse_args().runs

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


if __name__ == "__main__":
    main()
