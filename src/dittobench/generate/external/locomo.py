"""LoCoMo's ``locomo10.json`` (snap-research/locomo, data/locomo10.json) read into users and
questions.

Each sample (``sample_id``) is one user: a conversation between two people, ``speaker_a`` and
``speaker_b``, over numbered sessions. Each ``session_N`` that holds turns becomes a wave, in
order of N (the README: the numbers are the sessions' chronological order), stamped with its
``session_N_date_time`` ("1:56 pm on 8 May, 2023", read as UTC). Its turns are paired in order,
two consecutive turns to a pair: the first as the prompt, the second as the response, each
prefixed with its speaker's name ("Caroline: …"), a turn that shared an image followed by
"[shared <its caption>]"; an odd last turn makes a pair with an empty response. The sample's
questions (``qa``) are asked after its last wave, dated by the last session's date-time.

Categories, as LoCoMo's own evaluation reads them (task_eval/evaluation.py): 1 multi-hop,
2 temporal, 3 open-domain, 4 single-hop, 5 adversarial. Category 5 has no ``answer`` (its
``adversarial_answer`` is the trap): the right reply says it was not mentioned, so it is graded
as a decline. Category 3 asks for an inference and goes to the judge; the others are graded by
rules when the gold is one short value (``classify``).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any, Final

from dittobench.core.dates import MONTH_OF
from dittobench.core.ids import opaque_id
from dittobench.generate.external.classify import facts_of, graded_by_of
from dittobench.generate.external.shape import Source, kind_of
from dittobench.spec.external import (
    LOCOMO_CATEGORIES,
    ExternalQuestion,
    ExternalUser,
    Selection,
)
from dittobench.spec.vocab import GradedBy
from dittobench.spec.wire import Pair, SeedRequest

CATEGORIES: Final = LOCOMO_CATEGORIES
QUESTION_TYPES: Final = tuple(CATEGORIES.values())
ADVERSARIAL: Final = 5
OPEN_CATEGORIES: Final = frozenset((3,))

_SESSION = re.compile(r"session_([1-9][0-9]*)")
_DATE_TIME = re.compile(
    r"([0-9]{1,2}):([0-9]{2}) ?([ap])\.?m\.?\s+on\s+([0-9]{1,2}) ([a-z]+),? ([0-9]{4})", re.I
)


def moment(source: Source, raw: Any, path: str) -> str:
    """A LoCoMo date-time ("1:56 pm on 8 May, 2023") as RFC 3339 in UTC (the file gives no
    zone)."""
    text = source.text(raw, path).strip()
    match = _DATE_TIME.fullmatch(text)
    month = MONTH_OF.get(match.group(5).lower()) if match else None
    if match is None or month is None:
        raise source.fail(
            path, f'expected a date-time like "1:56 pm on 8 May, 2023", got {text!r:.60}'
        )
    hour, minute, half, day, year = (
        int(match.group(1)),
        int(match.group(2)),
        match.group(3).lower(),
        int(match.group(4)),
        int(match.group(6)),
    )
    if not 1 <= hour <= 12:
        raise source.fail(path, f"{text!r}: the hour of a 12-hour clock is 1 to 12")
    hour = hour % 12 + (12 if half == "p" else 0)
    try:
        when = datetime(year, month, day, hour, minute, tzinfo=UTC)
    except ValueError as exc:
        raise source.fail(path, f"{text!r}: {exc}") from None
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def read_locomo(
    source: Source, data: Any, selection: Selection
) -> tuple[list[ExternalUser], list[ExternalQuestion], int]:
    """The users, the questions and the number of sessions without turns, of the samples and
    questions ``selection`` keeps."""
    samples = source.array(data, "$")
    users: list[ExternalUser] = []
    questions: list[ExternalQuestion] = []
    seen: dict[str, str] = {}
    skipped = 0
    for index, raw in enumerate(samples):
        path = f"$[{index}]"
        sample = source.obj(raw, path)
        sample_id = source.text(source.member(sample, "sample_id", path), f"{path}.sample_id")
        if sample_id in seen:
            raise source.fail(f"{path}.sample_id", f"{sample_id!r} is also {seen[sample_id]}")
        seen[sample_id] = path
        user_id = f"user:{sample_id}"
        conversation = source.obj(
            source.member(sample, "conversation", path), f"{path}.conversation"
        )
        waves, last, empty = _waves(
            source, conversation, f"{path}.conversation", sample_id, user_id
        )
        asked = _questions(
            source, sample, path, sample_id, user_id, last, selection, len(questions)
        )
        if not asked:
            continue
        skipped += empty
        users.append(ExternalUser(user_id, waves))
        questions.extend(asked)
    return users, questions, skipped


def _waves(
    source: Source, conversation: dict[str, Any], path: str, sample_id: str, user_id: str
) -> tuple[tuple[SeedRequest, ...], str, int]:
    """The sessions as waves, the last wave's date-time and how many sessions had no turn."""
    for key in ("speaker_a", "speaker_b"):
        source.text(source.member(conversation, key, path), f"{path}.{key}")
    numbered = sorted(
        (int(m.group(1)), key) for key in conversation if (m := _SESSION.fullmatch(key)) is not None
    )
    if not numbered:
        raise source.fail(path, "no session_N in the conversation")
    waves: list[SeedRequest] = []
    last = ""
    empty = 0
    for number, key in numbered:
        turns = source.array(conversation[key], f"{path}.{key}")
        if not turns:
            empty += 1
            continue
        stamp_key = f"{key}_date_time"
        when = moment(source, source.member(conversation, stamp_key, path), f"{path}.{stamp_key}")
        said = [_turn(source, turn, f"{path}.{key}[{n}]") for n, turn in enumerate(turns)]
        session = opaque_id("s", "locomo", sample_id, number)
        pairs = tuple(
            Pair(
                opaque_id("p", "locomo", sample_id, number, k // 2),
                session,
                when,
                said[k],
                said[k + 1] if k + 1 < len(said) else "",
            )
            for k in range(0, len(said), 2)
        )
        waves.append(SeedRequest(user_id=user_id, wave=len(waves), pairs=pairs))
        last = when
    if not waves:
        raise source.fail(path, "no session holds a turn")
    return tuple(waves), last, empty


def _turn(source: Source, raw: Any, path: str) -> str:
    """One turn as stored: the speaker's name, the text, and the caption of an image shared."""
    turn = source.obj(raw, path)
    speaker = source.text(source.member(turn, "speaker", path), f"{path}.speaker")
    text = source.text(source.member(turn, "text", path), f"{path}.text")
    said = f"{speaker}: {text}"
    caption = turn.get("blip_caption")
    if caption is not None:
        said += f" [shared {source.text(caption, f'{path}.blip_caption')}]"
    return said


def _questions(
    source: Source,
    sample: dict[str, Any],
    path: str,
    sample_id: str,
    user_id: str,
    asked_on: str,
    selection: Selection,
    kept: int,
) -> list[ExternalQuestion]:
    out: list[ExternalQuestion] = []
    items = source.array(source.member(sample, "qa", path), f"{path}.qa")
    for index, raw in enumerate(items):
        where = f"{path}.qa[{index}]"
        item = source.obj(raw, where)
        category = source.member(item, "category", where)
        if (
            not isinstance(category, int)
            or isinstance(category, bool)
            or category not in CATEGORIES
        ):
            got = category if isinstance(category, int) else kind_of(category)
            raise source.fail(f"{where}.category", f"expected a number from 1 to 5, got {got}")
        name = CATEGORIES[category]
        if selection.types and name not in selection.types:
            continue
        if selection.limit and kept + len(out) >= selection.limit:
            break
        out.append(_question(source, item, where, sample_id, index, category, user_id, asked_on))
    return out


def _question(
    source: Source,
    item: dict[str, Any],
    where: str,
    sample_id: str,
    index: int,
    category: int,
    user_id: str,
    asked_on: str,
) -> ExternalQuestion:
    question = source.text(source.member(item, "question", where), f"{where}.question")
    evidence = source.texts(item.get("evidence", []), f"{where}.evidence")
    facts: tuple[str, ...] = ()
    not_answers: tuple[str, ...] = ()
    graded_by: GradedBy
    if category == ADVERSARIAL:
        trap = item.get("adversarial_answer")
        not_answers = (source.answer(trap, f"{where}.adversarial_answer"),) if trap else ()
        gold, graded_by = "", "decline"
    else:
        gold = source.answer(source.member(item, "answer", where), f"{where}.answer")
        graded_by = "open" if category in OPEN_CATEGORIES else graded_by_of(gold)
        if category in OPEN_CATEGORIES:  # LoCoMo's own evaluation reads the part before ";"
            facts = facts_of(gold.split(";")[0])
        elif graded_by == "open":
            facts = facts_of(gold)
    return ExternalQuestion(
        id=f"{sample_id}:{index}",
        user_id=user_id,
        question=question,
        gold=gold,
        question_date=asked_on,
        source_type=CATEGORIES[category],
        source_id=f"{sample_id}.qa[{index}]",
        abstention=category == ADVERSARIAL,
        graded_by=graded_by,
        facts=facts,
        not_answers=not_answers,
        evidence=evidence,
    )


__all__ = ["CATEGORIES", "QUESTION_TYPES", "moment", "read_locomo"]
