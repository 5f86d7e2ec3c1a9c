"""Print what starting the command line costs: CPU time of `dittobench --help`, of
`generate --sha` (full) beside a script that imports only the generator, and the wall time from
`harness serve` to its first answered `/health`, each as a ratio to its yardstick.

Figures only, never assertions. Run from the repository root:
    python benchmarks/cli_startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import resource
import socket
import statistics
import subprocess
import sys
import time
import urllib.request

PY = sys.executable
GENERATOR_ONLY = (
    "import hashlib, sys\n"
    "from dittobench.core.canonical import canonical_bytes\n"
    "from dittobench.generate.assemble import build_dataset\n"
    "data = canonical_bytes(build_dataset(123456789, run_size='full').to_json())\n"
    "print(hashlib.sha256(data).hexdigest())\n"
)


def cpu_seconds(command: list[str], runs: int) -> float:
    """Median CPU time (user + system) of ``command`` over ``runs`` runs."""
    samples = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(command, check=True, capture_output=True)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7, help="runs per figure (median shown)")
    args = parser.parse_args()
    bare = cpu_seconds([PY, "-c", "pass"], args.runs)
    helped = cpu_seconds([PY, "-m", "dittobench", "--help"], args.runs)
    script = cpu_seconds([PY, "-c", GENERATOR_ONLY], args.runs)
    sha = cpu_seconds(
        [PY, "-m", "dittobench", "generate", "--seed", "123456789", "--run-size", "full", "--sha"],
        args.runs,
    )
    health = serve_to_health(args.runs)
    print(f"bare interpreter            {bare * 1000:7.1f} ms CPU")
    ratio = helped / bare
    print(f"dittobench --help           {helped * 1000:7.1f} ms CPU   {ratio:5.1f}x bare (<= 8x)")
    print(f"generator-only script, full {script * 1000:7.1f} ms CPU")
    ratio = sha / script
    print(f"generate --sha, full        {sha * 1000:7.1f} ms CPU   {ratio:5.2f}x script (<= 1.3x)")
    print(f"harness serve to /health    {health * 1000:7.1f} ms wall  (<= 500 ms)")


if __name__ == "__main__":
    main()
