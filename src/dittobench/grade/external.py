"""Grade an external suite's run: value questions and abstention questions by fixed rules, open
questions by the locked judge's recorded verdicts, reported per source type with the judged part
apart (docs/external.md, "Grading"). The result is never a dittobench score.

- value: ``grade.external_values`` (the answer commits to the gold value and to nothing else);
- decline (LongMemEval ``_abs``, LoCoMo category 5): the reply declines (the abstain flag, or an
  unnegated decline phrase: grading-4's, with LoCoMo's own "not mentioned" and "no information
  available"), grounded in the question (``STATE_WORDS`` of its content words outside any echo),
  offering no candidate ("maybe it was…") and asserting no value the source marks as the trap;
- open: a rubric made from the gold answer (``open_case``: one fact to state per item of a gold
  list, else the gold as one fact), judged like bench 8.0's open questions
  (``grade.judging.nuance_score``); unjudged without a judge.

Pure: the same suite and transcript give the same report on every machine.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final, Literal

from dittobench.core.errors import DittobenchError
from dittobench.grade.commitment import committed_text, lines_as_sentences, read_mentions
from dittobench.grade.external_values import grade_value, read_gold, rivals_for
from dittobench.grade.guards import mask_echo, offers_candidate
from dittobench.grade.judging import answer_text, nuance_score
from dittobench.grade.lexicon import lexicon
from dittobench.grade.match import has_unnegated, hit, prepare
from dittobench.grade.memory import LONG_REPLY
from dittobench.grade.memory_kinds import content_words
from dittobench.grade.stats import mean, std_err
from dittobench.spec.external import ExternalQuestion, ExternalSuite
from dittobench.spec.external_report import (
    EXTERNAL_GRADING,
    ExternalReport,
    ExternalVerdict,
    Part,
    TypeSummary,
)
from dittobench.spec.external_transcript import ExternalTranscript
from dittobench.spec.judging import (
    JUDGE_1,
    JudgeConfigError,
    JudgeProtocol,
    OpenVerdict,
    prompt_of,
)
from dittobench.spec.open import OpenCase, RubricItem
from dittobench.spec.vocab import ExternalReason
from dittobench.spec.wire import RunResponse

EXTERNAL_DECLINE: Final = (
    *lexicon("lex-4").decline,
    "not mentioned",
    "wasn't mentioned",
    "isn't mentioned",
    "no information available",
    "no information about",
)
"""The decline phrases of an abstention question: grading-4's and the ones LoCoMo's own
evaluation accepts (task_eval/evaluation.py: "not mentioned", "no information available")."""

_REJECTS_PREMISE: Final = re.compile(
    r"(?:^|[.!?]\s+)(?:nothing|no one|nobody|none)\b"
    r"|\b(?:didn't|did not|never|wasn't|was not|hasn't|has not|hadn't|had not)\b[^.!?]{0,60}?"
    r"\b(?:anything|anyone|anybody|any)\b",
    re.IGNORECASE,
)
"""A reply that rejects the question's premise ("Nothing. Jon didn't lose anything at a bank."):
LoCoMo's adversarial questions ask about what someone else did, so saying it did not happen is
the right decline, as much as "that was never mentioned"."""

STATE_WORDS: Final = 2
"""Content words of the question a decline states (all of them when it has fewer)."""


class ExternalGradeError(DittobenchError, ValueError):
    """A transcript that is not of the suite given."""

    http_status = 422


def grade_decline(
    question: ExternalQuestion, response: RunResponse | None
) -> tuple[float, Literal["", ExternalReason]]:
    """(score, reason) of a reply to an abstention question: 1.0 only for a grounded decline
    that offers no candidate and asserts no trap value; the reason is one of ``undelivered``,
    ``empty``, ``dump``, ``answered`` (no decline), ``offered``, ``asserted``, ``ungrounded``."""
    if response is None:
        return 0.0, "undelivered"
    raw = "\n".join(t for t in ((response.answer or "").strip(), response.final_text or "") if t)
    if not raw.strip() and response.abstain is not True:
        return 0.0, "empty"
    if len(raw) > LONG_REPLY:
        return 0.0, "dump"
    full = mask_echo(prepare(lines_as_sentences(raw)), question.question)
    declined = has_unnegated(full, EXTERNAL_DECLINE) or bool(_REJECTS_PREMISE.search(raw))
    if not (response.abstain is True or declined):
        return 0.0, "answered"
    if offers_candidate(full, asked_only=True, places=True):
        return 0.0, "offered"
    if question.not_answers:
        mentions = read_mentions(
            full, question.not_answers, question.question, declining=True, readings_5=True,
            readings_6=True,
        )  # fmt: skip
        said = committed_text(full, mentions)
        if any(hit(said, value) for value in question.not_answers):
            return 0.0, "asserted"
    asked = content_words(question.question)
    stated = content_words(full)
    if not stated or len(asked & stated) < min(STATE_WORDS, len(asked)):
        return 0.0, "ungrounded"
    return 1.0, ""


def open_case(question: ExternalQuestion, protocol: JudgeProtocol = JUDGE_1) -> OpenCase:
    """The rubric an open question is judged by: each fact of the gold answer to state (``S1``
    …), about "the answer to the question", over the period up to the question's day."""
    try:
        about = prompt_of(protocol).answer
    except JudgeConfigError:  # a protocol whose prompt this build lacks: its calls never hold
        about = prompt_of(JUDGE_1).answer
    facts = question.facts or (question.gold,)
    return OpenCase(
        id=question.id,
        open_kind=question.source_type,
        question=question.question,
        user_id=question.user_id,
        run_after_wave=0,
        period_from="",
        period_to=question.question_date[:10],
        must_state=tuple(RubricItem(f"S{k}", about, fact) for k, fact in enumerate(facts, 1)),
    )


def grade_external(
    suite: ExternalSuite,
    transcript: ExternalTranscript,
    types: Sequence[str] = (),
    official: JudgeProtocol | None = JUDGE_1,
) -> ExternalReport:
    """The report of ``transcript`` (a run of ``suite``). ``types``: the format's source types in
    report order (others follow in the order met); ``official``: the judge protocol whose
    verdicts are official for external suites."""
    if transcript.suite_sha256 != suite.sha256:
        raise ExternalGradeError(
            f"the transcript ran suite {transcript.suite_sha256[:12]}…, not this one "
            f"({suite.sha256[:12]}…)"
        )
    records = {r.case_id: r.response for r in transcript.records}
    rivals = _rival_pools(suite)
    verdicts: dict[str, ExternalVerdict] = {}
    opened = [q for q in suite.questions if q.graded_by == "open"]
    protocol = transcript.judge.protocol if transcript.judge is not None else (official or JUDGE_1)
    cases = [open_case(q, protocol) for q in opened]
    answers = {q.id: answer_text(records.get(q.id)) for q in opened}
    nuance = nuance_score(cases, answers, transcript.judge, official)
    judged = {v.case_id: v for v in nuance.per_case}
    for question in suite.questions:
        response = records.get(question.id)
        if question.graded_by == "open":
            verdicts[question.id] = _open_verdict(question, judged[question.id])
            continue
        if question.graded_by == "decline":
            score, reason = grade_decline(question, response)
        else:
            found = grade_value(question.question, question.gold, response, rivals[question.id])
            score, reason = found.score, found.reason
        verdicts[question.id] = ExternalVerdict(
            question.id, question.source_type, question.graded_by, question.abstention,
            "graded", score, reason,
        )  # fmt: skip
    ordered = tuple(verdicts[q.id] for q in suite.questions)
    return ExternalReport(
        format=suite.source.format,
        release=suite.source.release,
        source_sha256=suite.source.sha256,
        suite_sha256=suite.sha256,
        transcript_sha256=transcript.sha256,
        harness=transcript.harness,
        grading=EXTERNAL_GRADING,
        rules=_part([v for v in ordered if v.graded_by != "open"]),
        judged=_part([v for v in ordered if v.graded_by == "open"]),
        per_type=_per_type(ordered, types),
        per_question=ordered,
        nuance=nuance,
        allow_unknown=suite.source.allow_unknown,
        identity=dict(transcript.identity),
        selection=suite.selection,
    )


def _open_verdict(question: ExternalQuestion, verdict: OpenVerdict) -> ExternalVerdict:
    return ExternalVerdict(
        question.id, question.source_type, "open", question.abstention, verdict.status,
        verdict.score, "",
    )  # fmt: skip


def _rival_pools(suite: ExternalSuite) -> dict[str, tuple[str, ...]]:
    """Per value question, the other gold values it is checked against: those of the same user
    first, then those of the same source type, text values only (numbers, days and durations
    are told apart by kind)."""
    values = [q for q in suite.questions if q.graded_by == "value"]
    texts = {q.id: read_gold(q.gold).kind == "text" for q in values}
    by_user: dict[str, list[ExternalQuestion]] = {}
    by_type: dict[str, list[ExternalQuestion]] = {}
    for q in values:
        if texts[q.id]:
            by_user.setdefault(q.user_id, []).append(q)
            by_type.setdefault(q.source_type, []).append(q)
    out: dict[str, tuple[str, ...]] = {}
    for q in values:
        others = [o.gold for o in (*by_user.get(q.user_id, ()), *by_type.get(q.source_type, ()))
                  if o.id != q.id]  # fmt: skip
        out[q.id] = rivals_for(q.gold, others)
    return out


def _part(verdicts: Sequence[ExternalVerdict]) -> Part:
    scores = [v.score for v in verdicts if v.score is not None]
    if not scores:
        return Part(len(verdicts), 0, None)
    return Part(len(verdicts), len(scores), round(mean(scores), 6), round(std_err(scores), 6))


def _per_type(verdicts: Sequence[ExternalVerdict], types: Sequence[str]) -> tuple[TypeSummary, ...]:
    order = list(dict.fromkeys([*types, *(v.source_type for v in verdicts)]))
    out = []
    for name in order:
        mine = [v for v in verdicts if v.source_type == name]
        if not mine:
            continue
        opened = [v for v in mine if v.graded_by == "open"]
        out.append(
            TypeSummary(
                name,
                len(mine),
                _part([v for v in mine if v.graded_by != "open"]),
                _part(opened),
                judge_errors=sum(1 for v in opened if v.status == "judge_error"),
                not_judged=sum(1 for v in opened if v.status == "not_judged"),
            )
        )
    return tuple(out)


__all__ = [
    "EXTERNAL_DECLINE",
    "STATE_WORDS",
    "ExternalGradeError",
    "grade_decline",
    "grade_external",
    "open_case",
]
