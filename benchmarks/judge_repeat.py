"""Judge one transcript's open answers several times and print how much the verdicts vary.

Figures only, never assertions. Needs a running OpenAI-compatible judge (docs/judge.md). Run from
the repository root:

    python benchmarks/judge_repeat.py RUN_FOLDER --judge-url http://127.0.0.1:8765/v1 \
        [--judge-model ID] [--repeats 3]

RUN_FOLDER holds dataset.json and transcript.json (a run's output folder). Prints, per repeat, the
nuance score and the seconds per verdict (one panel call); then how many item verdicts agree across
every repeat, the spread of the nuance score, and the judge errors.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from dittobench.engine.judging import JudgeEndpoint, judge_transcript
from dittobench.grade.judging import answer_text, nuance_score
from dittobench.spec.dataset import dataset_from_json
from dittobench.spec.transcript import Transcript
from dittobench.spec.versions import get_policy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("--judge-url", required=True)
    parser.add_argument("--judge-model", default="")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    dataset = dataset_from_json(json.loads((args.run / "dataset.json").read_text()))
    transcript = Transcript.from_json(json.loads((args.run / "transcript.json").read_text()))
    official = get_policy(dataset.bench_version).judge
    if official is None:
        raise SystemExit(f"bench {dataset.bench_version} has no judge")
    protocol = official.with_model(args.judge_model) if args.judge_model else official
    endpoint = JudgeEndpoint(args.judge_url)
    records = {c.case_id: c for c in transcript.cases}
    answers = {
        c.id: answer_text(records[c.id].response if c.id in records else None)
        for c in dataset.open_cases
    }
    verdicts: list[dict[tuple[str, str], str]] = []
    scores = []
    print(f"judge {protocol.model}, panel {protocol.panel}, {len(dataset.open_cases)} open cases")
    for repeat in range(1, args.repeats + 1):
        started = time.perf_counter()
        record = judge_transcript(endpoint, protocol, dataset, transcript)
        seconds = time.perf_counter() - started
        calls = sum(len(j.calls) for j in record.judgements)
        nuance = nuance_score(dataset.open_cases, answers, record, official)
        scores.append(nuance.score)
        verdicts.append(
            {
                (v.case_id, item): said
                for v in nuance.per_case
                for item, said in (v.verdicts or {}).items()
            }
        )
        print(
            f"repeat {repeat}: nuance {nuance.score}, judged {nuance.scored}, "
            f"judge errors {nuance.judge_errors}, {calls} calls, "
            f"{seconds / max(1, calls):.2f} s per verdict, official {nuance.official}"
        )
    items = set.intersection(*(set(v) for v in verdicts)) if verdicts else set()
    same = sum(1 for key in items if len({v[key] for v in verdicts}) == 1)
    print(f"item verdicts identical in every repeat: {same} of {len(items)}")
    known = [s for s in scores if s is not None]
    if len(known) > 1:
        print(
            f"nuance spread: {min(known):.4f} to {max(known):.4f} "
            f"(sd {statistics.stdev(known):.4f})"
        )


if __name__ == "__main__":
    main()
