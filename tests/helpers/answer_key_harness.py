"""A harness that tries to buy a board place with a seed (issue 26, item 4): told the seed its
owner will submit with, it builds that dataset with the public generator, answers every case
from the answer key (the study's oracle) and serves the replies over HTTP with the machinery of
``dittobench replay``. On any other seed it finds no case it knows and answers nothing.

    python tests/helpers/answer_key_harness.py --seed S [--run-size small] [--bench-version V]

It prints ``PORT <n>`` once listening on loopback and serves until killed.
"""

from __future__ import annotations

import argparse
import threading
from typing import Any

from dittobench.engine.blind import Answers, BlindLabels, Reply
from dittobench.engine.replay import replay_harness
from dittobench.generate.assemble import build_dataset
from dittobench.spec.dataset import Dataset
from dittobench.spec.versions import CURRENT_VERSION
from dittobench.spec.wire import RunResponse, ToolCall
from dittobench.study.oracle import oracle_memory, oracle_tool


def _labelled(value: Any, pairs: dict[str, str]) -> Any:
    """``value`` with each dataset pair id written as the replay's placeholder for it, so the
    replay names the pair by the id this run's /seed showed (write cases update and delete)."""
    if isinstance(value, str) and value in pairs:
        return "{{" + pairs[value] + "}}"
    if isinstance(value, list):
        return [_labelled(v, pairs) for v in value]
    if isinstance(value, dict):
        return {k: _labelled(v, pairs) for k, v in value.items()}
    return value


def _reply(
    label: str, response: RunResponse, calls: tuple[ToolCall, ...], pairs: dict[str, str]
) -> Reply:
    made = tuple((call.name, _labelled(call.args, pairs)) for call in calls)
    return Reply(label, response.final_text, response.answer, response.abstain, made)


def answer_key_replies(dataset: Dataset) -> Answers:
    """The oracle's reply to every case of ``dataset``, by the case's blind label."""
    labels = BlindLabels.of(dataset)
    fixtures = {f.case_id: f for f in dataset.tool_fixtures}
    replies: dict[str, Reply] = {}
    for case in dataset.tool_cases:
        response, calls = oracle_tool(case, fixtures[case.id])
        label = labels.case[case.id]
        replies[label] = _reply(label, response, calls, labels.pair)
    for question in dataset.memory_cases:
        response = oracle_memory(question, dataset)
        label = labels.case[question.id]
        replies[label] = _reply(label, response, response.tool_calls, labels.pair)
    return Answers(replies)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--run-size", default="small")
    parser.add_argument("--bench-version", default=CURRENT_VERSION)
    args = parser.parse_args()
    dataset = build_dataset(args.seed, args.bench_version, args.run_size)
    with replay_harness(dataset, answer_key_replies(dataset)) as url:
        print(f"PORT {url.rsplit(':', 1)[1]}", flush=True)
        threading.Event().wait()


if __name__ == "__main__":
    main()
