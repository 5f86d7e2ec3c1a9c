"""The false-negative audit sheet: memory answers that passed every disqualifying scan but failed
their typed check. A person labels each row (was the answer actually right?) and the matching
tables improve from what they find; adversarial rejections are not listed."""

from __future__ import annotations

import json
from collections.abc import Iterator

from dittobench.grade.run import Graded
from dittobench.spec.dataset import Dataset
from dittobench.spec.transcript import Transcript

COLUMNS = (
    "label",
    "case_id",
    "question_type",
    "answer_kind",
    "question",
    "expected_answer",
    "accepted",
    "answer_items",
    "answer",
    "final_text",
)
AUDITED_REASONS = frozenset({"typed", "partial"})


def audit_rows(
    dataset: Dataset, transcript: Transcript, graded: Graded
) -> Iterator[dict[str, str]]:
    """One row per audited case, in dataset order; ``label`` is left for the reviewer."""
    records = {c.case_id: c for c in transcript.cases}
    for case in dataset.memory_cases:
        verdict = graded.memory[case.id]
        if verdict.reason not in AUDITED_REASONS:
            continue
        record = records.get(case.id)
        response = record.response if record else None
        yield {
            "label": "",
            "case_id": case.id,
            "question_type": case.question_type,
            "answer_kind": case.answer_kind,
            "question": case.question,
            "expected_answer": case.expected_answer,
            "accepted": " | ".join(case.accepted),
            "answer_items": " | ".join(case.answer_items),
            "answer": (response.answer or "") if response else "",
            "final_text": response.final_text if response else "",
        }


def to_tsv(rows: Iterator[dict[str, str]]) -> str:
    """Tab-separated, one case per line; tabs, newlines and backslashes inside cells escaped."""
    lines = ["\t".join(COLUMNS)]
    for row in rows:
        lines.append("\t".join(_cell(row[c]) for c in COLUMNS))
    return "\n".join(lines) + "\n"


def to_jsonl(rows: Iterator[dict[str, str]]) -> str:
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


def _cell(text: str) -> str:
    return text.translate(_ESCAPES)
