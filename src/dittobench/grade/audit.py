"""The false-negative audit sheet: memory answers that passed every disqualifying scan but failed
their typed check. A person labels each row (was the answer actually right?) and the matching
tables improve from what they find; adversarial rejections are not listed."""

from __future__ import annotations

import json
from collections.abc import Iterator

from dittobench.grade.run import Graded
from dittobench.spec.dataset import Dataset
from dittobench.spec.judging import JudgeProtocol, OpenVerdict, prompt_of
from dittobench.spec.memory import MemoryCase
from dittobench.spec.open import OpenCase, RubricItem
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


def to_tsv(rows: Iterator[dict[str, str]], columns: tuple[str, ...] = COLUMNS) -> str:
    """Tab-separated, one case per line; tabs, newlines and backslashes inside cells escaped."""
    lines = ["\t".join(columns)]
    for row in rows:
        lines.append("\t".join(_cell(row[c]) for c in columns))
    return "\n".join(lines) + "\n"


def to_jsonl(rows: Iterator[dict[str, str]]) -> str:
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


def _cell(text: str) -> str:
    return text.translate(_ESCAPES)


# -- the judge audits the grader ------------------------------------------------------------

JUDGED_KINDS = frozenset({"value", "number", "tally", "list", "ordered_list", "duration"})
"""Answer kinds a typed key can be read as a rubric for (declines, endings and
acknowledgements say no value a judge could be asked about)."""
JUDGE_COLUMNS = (
    "label",
    "case_id",
    "question_type",
    "disagreement",
    "rules_score",
    "rules_reason",
    "judge_status",
    "judge_score",
    "judge_verdicts",
    "question",
    "expected_answer",
    "answer",
)


def audit_rubric(case: MemoryCase, protocol: JudgeProtocol) -> OpenCase | None:
    """A memory case's typed key read as a rubric (None for kinds no value answers): the
    expected value (a tally's count and first day, a list's items, an order as one item) to
    state, its distractors not to assert."""
    words = prompt_of(protocol)
    about = words.answer
    if case.answer_kind not in JUDGED_KINDS:
        return None
    values: list[tuple[str, tuple[str, ...]]]
    if case.answer_kind == "list":
        values = [(item, ()) for item in case.answer_items]
    elif case.answer_kind == "ordered_list":
        values = [(words.in_order.replace("{items}", ", ".join(case.answer_items)), ())]
    elif case.answer_kind == "tally":
        values = [(case.expected_answer, ()), *((day, ()) for day in case.answer_items[:1])]
    else:
        values = [(case.expected_answer, case.accepted)]
    state = tuple(
        RubricItem(f"S{k}", about, value, tuple(forms))
        for k, (value, forms) in enumerate(values, 1)
    )
    named = {v for v, _ in values} | set(case.answer_items) | set(case.accepted)
    wrong = [d for d in dict.fromkeys(case.distractors) if d not in named][:4]
    not_state = tuple(
        RubricItem(f"N{k}", about, value, note="not_answer") for k, value in enumerate(wrong, 1)
    )
    return OpenCase(
        case.id, case.question_type, case.question, case.user_id, case.run_after_wave, "", "",
        state, not_state,
    )  # fmt: skip


def judge_rows(
    dataset: Dataset,
    answers: dict[str, str],
    graded: Graded,
    judged: dict[str, OpenVerdict],
    correct_at: float,
) -> Iterator[dict[str, str]]:
    """One row per judged memory case, in dataset order: the rules' score and the judge's, and
    where they disagree (``rules_fail_judge_pass``: a false-negative candidate;
    ``rules_pass_judge_fail``; ``judge_error``; "" when they agree)."""
    for case in dataset.memory_cases:
        verdict = judged.get(case.id)
        if verdict is None:
            continue
        rules = graded.memory[case.id]
        rules_pass = rules.score >= correct_at
        disagreement: str
        if verdict.score is None:
            disagreement = verdict.status
        else:
            judge_pass = verdict.score >= correct_at
            disagreement = (
                ""
                if judge_pass == rules_pass
                else "rules_fail_judge_pass"
                if judge_pass
                else "rules_pass_judge_fail"
            )
        yield {
            "label": "",
            "case_id": case.id,
            "question_type": case.question_type,
            "disagreement": disagreement,
            "rules_score": f"{rules.score:.3f}",
            "rules_reason": rules.reason,
            "judge_status": verdict.status,
            "judge_score": "" if verdict.score is None else f"{verdict.score:.3f}",
            "judge_verdicts": " ".join(
                f"{k}={v}" for k, v in sorted((verdict.verdicts or {}).items())
            ),
            "question": case.question,
            "expected_answer": case.expected_answer,
            "answer": answers.get(case.id, ""),
        }
