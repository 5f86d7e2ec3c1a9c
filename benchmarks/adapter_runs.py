"""Print each adapter's scores on full runs, read by the offline extractive reader, beside the
built-in baseline on the same seeds: mean ± SE of the composite, the tool mean and the memory mean,
and how many answers differ from the lexical adapter's.

Each adapter is served as a user serves it (`dittobench harness serve --adapter NAME`, a real
process on a free port) and scored by a real `dittobench run`. Figures only, never assertions.
Run from the repository root:

    python benchmarks/adapter_runs.py [--seeds 101,202,303] [--adapters lexical,mcp,embedding]

`mcp` needs `make unit` to have installed server-memory (.cache/npm) and the `mcp` extra;
`embedding` the `embedding` extra; `mem0` the `mem0` extra and a configuration naming its model
and embeddings endpoints (`--mem0-config FILE`, the adapter's config); without one, mem0 runs on
the test suite's scripted model server (each statement of the user as a fact, wordllama
embeddings), which measures mem0's storage and search, not a model's extraction.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SERVER_MEMORY = ROOT / ".cache/npm/node_modules/@modelcontextprotocol/server-memory/dist/index.js"


@contextmanager
def mem0_of(work: Path, mem0_config: Path | None) -> Iterator[dict[str, object]]:
    if mem0_config is not None:
        yield json.loads(mem0_config.read_text(encoding="utf-8"))
        return
    sys.path.insert(0, str(ROOT))
    from tests.adapters.test_mem0_adapter import mem0_settings
    from tests.helpers.scripted_llm import scripted_llm

    with scripted_llm() as (url, _script):
        yield {"mem0": mem0_settings(url, work / "mem0")}


def configs(work: Path) -> dict[str, dict[str, object]]:
    return {
        "lexical": {},
        "mcp": {
            "command": ["node", str(SERVER_MEMORY)],
            "env": {"MEMORY_FILE_PATH": str(work / "mcp-memory.jsonl")},
        },
        "embedding": {},
    }


@contextmanager
def served(adapter: str, config: dict[str, object]) -> Iterator[str]:
    command = [sys.executable, "-m", "dittobench", "harness", "serve", "--port", "0"]
    command += ["--adapter", adapter, "--adapter-config", json.dumps(config)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline() if process.stdout else ""
        if not line.startswith("listening on "):
            error = process.stderr.read() if process.stderr else ""
            raise SystemExit(f"{adapter}: the harness did not start: {error.strip()[:300]}")
        yield line.split()[-1]
    finally:
        process.terminate()
        process.wait(timeout=30)


def run(name: str, harness: str, seed: int, work: Path) -> dict[str, object]:
    out = work / f"report-{name}-{seed}.json"
    command = [sys.executable, "-m", "dittobench", "run", "--harness", harness, "--seed", str(seed)]
    command += ["--run-size", "full", "--db", str(work / "runs.db"), "--out-dir", str(work)]
    command += ["--json", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"run on {harness} failed: {done.stderr.strip()[-300:]}")
    report: dict[str, object] = json.loads(out.read_text(encoding="utf-8"))
    return report


def mean_se(values: list[float]) -> str:
    if len(values) < 2:
        return f"{values[0]:.4f}"
    return f"{statistics.fmean(values):.4f} ± {statistics.stdev(values) / len(values) ** 0.5:.4f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="101,202,303")
    parser.add_argument("--adapters", default="lexical,mcp,embedding")
    parser.add_argument("--mem0-config", type=Path)
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        known = configs(work)
        rows = [("builtin", [run("builtin", "builtin", seed, work) for seed in seeds])]
        for adapter in args.adapters.split(","):
            with contextlib.ExitStack() as stack:
                if adapter == "mem0":
                    config = stack.enter_context(mem0_of(work, args.mem0_config))
                else:
                    config = known[adapter]
                url = stack.enter_context(served(adapter, config))
                rows.append((adapter, [run(adapter, url, seed, work) for seed in seeds]))
    print(f"full runs, seeds {args.seeds}, offline extractive reader (mean ± SE over seeds)")
    print(f"{'harness':<10} {'composite':<17} {'tool mean':<17} {'memory mean':<17} measured")
    for name, reports in rows:
        figures = [
            mean_se([float(r[key]) for r in reports])  # type: ignore[arg-type]
            for key in ("composite", "tool_mean", "memory_mean")
        ]
        identity = reports[0].get("identity") or {}
        system = identity.get("system", "") if isinstance(identity, dict) else ""
        print(f"{name:<10} {figures[0]:<17} {figures[1]:<17} {figures[2]:<17} {system}")


if __name__ == "__main__":
    main()
