"""LongMemEval's files (``longmemeval_s.json``, ``longmemeval_m.json``, ``longmemeval_oracle.json``
and the ``_cleaned`` re-releases) read into users and questions.

Each instance is its own user, so no instance's history reaches another's question. Its
``haystack_sessions`` become its waves in date order (``haystack_dates``; a tie keeps file order,
and a session with no turn makes no wave); each wave's pairs are the session's turns taken in
order, a user turn and the assistant turn after it making one pair (a turn with no partner makes
a pair with an empty other side), every pair stamped with the session's date. The question is
asked after the last wave, on ``question_date``. A ``question_id`` ending in ``_abs`` is an
abstention question (graded as a decline); ``single-session-preference`` answers are rubrics
(graded by the judge); the rest are graded by rules when the gold is one short value
(``classify``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Final

from dittobench.core.ids import opaque_id
from dittobench.generate.external.classify import facts_of, graded_by_of
from dittobench.generate.external.shape import Source
from dittobench.spec.external import (
    LONGMEMEVAL_TYPES,
    ExternalQuestion,
    ExternalUser,
    Selection,
)
from dittobench.spec.vocab import GradedBy
from dittobench.spec.wire import Pair, SeedRequest

QUESTION_TYPES: Final = LONGMEMEVAL_TYPES

ABSTENTION_SUFFIX: Final = "_abs"
OPEN_TYPES: Final = frozenset(("single-session-preference",))
"""Types whose answer is a rubric of what a good reply does, never a value."""

_DATE = re.compile(
    r"([0-9]{4})/([0-9]{1,2})/([0-9]{1,2})(?: \([a-z]{3}\))? ([0-9]{1,2}):([0-9]{2})", re.I
)


def moment(source: Source, raw: Any, path: str) -> str:
    """A LongMemEval date ("2023/05/30 (Tue) 23:40") as RFC 3339 in UTC (the files give no
    zone)."""
    text = source.text(raw, path).strip()
    match = _DATE.fullmatch(text)
    if match is None:
        raise source.fail(path, f'expected a date like "2023/05/30 (Tue) 23:40", got {text!r:.60}')
    year, month, day, hour, minute = (int(g) for g in match.groups())
    try:
        when = datetime(year, month, day, hour, minute, tzinfo=UTC)
    except ValueError as exc:
        raise source.fail(path, f"{text!r}: {exc}") from None
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def read_longmemeval(
    source: Source, data: Any, selection: Selection
) -> tuple[list[ExternalUser], list[ExternalQuestion], int]:
    """The users, the questions and the number of sessions without turns, of the instances
    ``selection`` keeps."""
    instances = source.array(data, "$")
    users: list[ExternalUser] = []
    questions: list[ExternalQuestion] = []
    seen: dict[str, str] = {}
    skipped = 0
    for index, raw in enumerate(instances):
        path = f"$[{index}]"
        item = source.obj(raw, path)
        qid = source.text(source.member(item, "question_id", path), f"{path}.question_id")
        if qid in seen:
            raise source.fail(f"{path}.question_id", f"{qid!r} is also {seen[qid]}")
        seen[qid] = path
        qtype = source.text(source.member(item, "question_type", path), f"{path}.question_type")
        if qtype not in QUESTION_TYPES:
            raise source.fail(
                f"{path}.question_type", f"{qtype!r} is not one of {', '.join(QUESTION_TYPES)}"
            )
        if not _kept(selection, qtype, len(questions)):
            continue
        user_id = f"user:{qid}"
        waves, empty = _waves(source, item, path, qid, user_id)
        skipped += empty
        users.append(ExternalUser(user_id, waves))
        questions.append(_question(source, item, path, qid, qtype, user_id))
    return users, questions, skipped


def _kept(selection: Selection, qtype: str, kept: int) -> bool:
    if selection.types and qtype not in selection.types:
        return False
    return not selection.limit or kept < selection.limit


def _question(
    source: Source, item: dict[str, Any], path: str, qid: str, qtype: str, user_id: str
) -> ExternalQuestion:
    question = source.text(source.member(item, "question", path), f"{path}.question")
    gold = source.answer(source.member(item, "answer", path), f"{path}.answer")
    date = moment(source, source.member(item, "question_date", path), f"{path}.question_date")
    evidence = source.texts(item.get("answer_session_ids", []), f"{path}.answer_session_ids")
    abstention = qid.endswith(ABSTENTION_SUFFIX)
    graded_by: GradedBy
    if abstention:
        graded_by = "decline"
    elif qtype in OPEN_TYPES:
        graded_by = "open"
    else:
        graded_by = graded_by_of(gold)
    facts = facts_of(gold) if graded_by == "open" else ()
    return ExternalQuestion(
        id=qid,
        user_id=user_id,
        question=question,
        gold=gold,
        question_date=date,
        source_type=qtype,
        source_id=qid,
        abstention=abstention,
        graded_by=graded_by,
        facts=facts,
        evidence=evidence,
    )


def _waves(
    source: Source, item: dict[str, Any], path: str, qid: str, user_id: str
) -> tuple[tuple[SeedRequest, ...], int]:
    """The instance's sessions as waves in date order, and how many sessions had no turn."""
    sessions = source.array(
        source.member(item, "haystack_sessions", path), f"{path}.haystack_sessions"
    )
    dates = source.array(source.member(item, "haystack_dates", path), f"{path}.haystack_dates")
    ids = source.texts(
        source.member(item, "haystack_session_ids", path), f"{path}.haystack_session_ids"
    )
    if not len(sessions) == len(dates) == len(ids):
        raise source.fail(
            f"{path}.haystack_sessions",
            f"{len(sessions)} sessions, {len(dates)} haystack_dates and {len(ids)} "
            "haystack_session_ids: expected one of each per session",
        )
    stamped = [
        (moment(source, dates[k], f"{path}.haystack_dates[{k}]"), k) for k in range(len(sessions))
    ]
    waves: list[SeedRequest] = []
    empty = 0
    for when, k in sorted(stamped):
        where = f"{path}.haystack_sessions[{k}]"
        turns = _turns(source, sessions[k], where)
        if not turns:
            empty += 1
            continue
        session = opaque_id("s", "longmemeval", qid, ids[k], k)
        pairs = tuple(
            Pair(opaque_id("p", "longmemeval", qid, k, n), session, when, prompt, response)
            for n, (prompt, response) in enumerate(pair_turns(turns))
        )
        waves.append(SeedRequest(user_id=user_id, wave=len(waves), pairs=pairs))
    return tuple(waves), empty


def _turns(source: Source, raw: Any, path: str) -> list[tuple[str, str]]:
    out = []
    for n, turn in enumerate(source.array(raw, path)):
        where = f"{path}[{n}]"
        body = source.obj(turn, where)
        role = source.text(source.member(body, "role", where), f"{where}.role")
        if role not in ("user", "assistant"):
            raise source.fail(f"{where}.role", f"expected user or assistant, got {role!r:.40}")
        out.append((role, source.text(source.member(body, "content", where), f"{where}.content")))
    return out


def pair_turns(turns: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """(prompt, response) pairs of (role, content) turns: each user turn with the assistant
    turn right after it; a user turn followed by another user turn, or an assistant turn with
    no user turn before it, makes a pair with an empty other side."""
    pairs: list[tuple[str, str]] = []
    prompt: str | None = None
    for role, content in turns:
        if role == "user":
            if prompt is not None:
                pairs.append((prompt, ""))
            prompt = content
        else:
            pairs.append((prompt or "", content))
            prompt = None
    if prompt is not None:
        pairs.append((prompt, ""))
    return pairs


__all__ = ["ABSTENTION_SUFFIX", "QUESTION_TYPES", "moment", "pair_turns", "read_longmemeval"]
