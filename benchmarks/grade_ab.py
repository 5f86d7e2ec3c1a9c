"""Write the report JSON of many transcripts, one file each, for a before/after comparison.

Run from the repository root, once before a change and once after, then compare the folders:
    python benchmarks/grade_ab.py OUT_DIR
    cmp -s ... (or: diff -r BEFORE_DIR AFTER_DIR)
Transcripts: seeds 1..5 × small/medium/full with the oracle, paraphrased, canned, declining and
dumping strategies, and every honest-corpus transcript under tests/corpus/honest.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from dittobench import study as T
from dittobench.core.canonical import canonical_bytes
from dittobench.generate.assemble import build_dataset
from dittobench.grade.run import grade_run
from dittobench.spec.dataset import Dataset
from dittobench.spec.transcript import Transcript
from dittobench.spec.versions import CURRENT_VERSION

ROOT = Path(__file__).resolve().parent.parent
STRATEGIES = {
    "oracle": {},
    "paraphrase": {"memory": T.paraphrase_memory},
    "canned": {"memory": T.canned("67 days. Done, saved. 1, 2, 3, 4, 5, 6, 7"), "tool": T.no_tools},
    "decline": {"memory": T.always_decline, "tool": T.no_tools},
    "dump": {"memory": T.dump_everything, "tool": T.no_tools},
    "unobserved": {"observe": False},
}


def _write(out: Path, name: str, dataset: Dataset, transcript: Transcript) -> None:
    report = grade_run(dataset, transcript).report
    (out / f"{name}.json").write_bytes(canonical_bytes(report.to_json()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out_dir", type=Path, help="the folder the reports are written to")
    out = parser.parse_args().out_dir
    out.mkdir(parents=True, exist_ok=True)
    for seed in range(1, 6):
        for size in ("small", "medium", "full"):
            dataset = build_dataset(seed, CURRENT_VERSION, run_size=size)
            for name, options in STRATEGIES.items():
                transcript = T.build(dataset, **options)  # type: ignore[arg-type]
                _write(out, f"{seed}-{size}-{name}", dataset, transcript)
    for folder in sorted((ROOT / "tests" / "corpus" / "honest").iterdir()):
        meta = json.loads((folder / "run.json").read_text())
        dataset = build_dataset(meta["seed"], meta["bench_version"], run_size=meta["run_size"])
        transcript = Transcript.from_json(json.loads((folder / "transcript.json").read_text()))
        _write(out, f"corpus-{folder.name}", dataset, transcript)
    print(f"{len(list(out.iterdir()))} reports written to {out}")


if __name__ == "__main__":
    main()
