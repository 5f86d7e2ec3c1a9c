"""Answering a memory question from the store.

Every recall records one ``search_memories`` call, then answers in the first form that fits the
question: the days between two events ("how long ..."), events in date order ("which came
first ..."), a count ("how many ..."), a date ("when ..."), or the best sentence quoted with the
value it states about the question's topic. Weak evidence gets a decline with ``abstain``.

Every answer, a decline included, lists in ``retrieved`` the pairs its search found, best first
(the ids ``/seed`` showed): the pair the answer quotes, then the other pairs with a sentence that
covers the question (best sentence first), then the rest of the BM25 hits in BM25 order. The
engine reports retrieval from it beside the score (docs/baseline.md).
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date

from dittobench.core.dates import spoken_date
from dittobench.spec.wire import RunResponse
from dittobench_baseline.evidence import (
    QUESTION_FILLER,
    SEARCH_DEPTH,
    Candidate,
    best,
    best_for,
    event_day,
    find_candidates,
    question_stems,
)
from dittobench_baseline.store import MemoryStore
from dittobench_baseline.textutil import (
    STOPWORDS,
    content_stems,
    find_dates,
    is_first_person,
    spoken,
    stem,
    tokens,
)
from dittobench_baseline.tools import CallTrace

DECLINE = "I don't have a record of that"

_ASKS_DURATION = re.compile(r"\bhow (?:long|many (?:days|weeks|months|years))\b", re.I)
_ASKS_ORDER = re.compile(r"\bwhich\b.*\bfirst\b|\bwhat order\b|\bin order\b|\bearliest\b", re.I)
_ASKS_COUNT = re.compile(r"\bhow many\b|\bhow often\b|\bnumber of\b", re.I)
_ASKS_DATE = re.compile(
    r"^\W*(?:\w+\W+){0,3}?when\b|\bwhat (?:date|day)\b|\bwhich (?:date|day)\b", re.I
)
_CODE = re.compile(r"(?<![\w-])(?=[A-Za-z0-9-]*\d)[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+(?![\w-])")
_TWO_EVENTS = (
    r"\bbetween\s+(.+?)\s+and\s+(.+)$",
    r"\b(?:from|since|after)\s+(.+?)\s+(?:until|till|to|and|before)\s+(.+)$",
    r"\b(?:before|after)\s+(.+?)\s+(?:did|was|were|had)\s+(.+)$",
    r"^(.+?)\s+(?:and|before|after)\s+(.+)$",
)
_STATED_VALUE = re.compile(
    r"^(?:'s)?\W*(?:(?:is|are|was|were|has been|have been|will be|to|as|at|in|on|from|of"
    r"|now|currently|called|named|just|finally|actually|became|becomes|with)\b\W*)+"
    r"(?P<value>(?:\b(?:Dr|Mr|Mrs|Ms|St|Mt|Prof)\.\s*|[^.;!?,])+?)"
    r"(?=\s*(?:[.;!?,]|$)|\s+(?:and|but|because|since|so|which|who|these days|at the moment"
    r"|for now|right now|now)\b)",
    re.IGNORECASE,
)


def recall(store: MemoryStore, user: str, question: str, trace: CallTrace) -> RunResponse:
    """Answer ``question`` from ``user``'s stored pairs, listing the pairs its search found
    (see the module docstring)."""
    response = _answer(store, user, question, trace)
    return replace(response, retrieved=retrieved_pairs(store, user, question))


def retrieved_pairs(store: MemoryStore, user: str, question: str) -> tuple[str, ...]:
    """The pairs the search for ``question`` found, best first: the best sentence's pair, the
    other pairs with a covering sentence by their best sentence's score, then the remaining BM25
    hits in BM25 order."""
    hits = store.search(user, question, SEARCH_DEPTH)
    candidates = find_candidates(store, user, question, question_stems(question))
    top = best(candidates)
    rank = {hit.pair_id: index for index, hit in enumerate(hits)}
    scored: dict[str, float] = {}
    for c in candidates:
        scored[c.hit.pair_id] = max(scored.get(c.hit.pair_id, 0.0), c.score)
    covered = sorted(scored, key=lambda pair_id: (-scored[pair_id], rank.get(pair_id, 0)))
    first = [top.hit.pair_id] if top is not None else []
    return tuple(dict.fromkeys([*first, *covered, *(hit.pair_id for hit in hits)]))


def _answer(store: MemoryStore, user: str, question: str, trace: CallTrace) -> RunResponse:
    keywords = " ".join(
        w for w in tokens(question) if w not in STOPWORDS and stem(w) not in QUESTION_FILLER
    )
    queries = [q for q in dict.fromkeys([keywords, question]) if q]
    trace.add("search_memories", {"queries": queries})
    qstems = question_stems(question)
    timed = _duration_answer(store, user, question, trace)
    if timed is not None:
        return timed
    ordered = _order_answer(store, user, question, trace)
    if ordered is not None:
        return ordered
    candidates = find_candidates(store, user, question, qstems)
    top = best(candidates)
    if top is None:
        return decline(question, trace)
    if _ASKS_COUNT.search(question):
        return _count_answer(candidates, top, trace)
    when = event_day(top)
    if _ASKS_DATE.search(question) and when is not None:
        return _date_answer(top, when, trace)
    return _quote_answer(top, when, qstems, trace)


def decline(question: str, trace: CallTrace) -> RunResponse:
    topic = " ".join(w for w in tokens(question) if w not in STOPWORDS)[:160]
    about = f" about {topic}" if topic else ""
    return RunResponse(
        final_text=f"{DECLINE}: nothing we've talked about tells me{about}.",
        tool_calls=tuple(trace.calls),
        abstain=True,
        confidence=0.0,
    )


def _duration_answer(
    store: MemoryStore, user: str, question: str, trace: CallTrace
) -> RunResponse | None:
    if not _ASKS_DURATION.search(question):
        return None
    duration = _duration(store, user, question)
    if duration is None:
        return None
    days, first, second = duration
    return RunResponse(
        final_text=f"{days} days passed between them ({spoken(first)} and {spoken(second)}).",
        tool_calls=tuple(trace.calls),
        answer=f"{days} days",
        confidence=0.5,
    )


def _order_answer(
    store: MemoryStore, user: str, question: str, trace: CallTrace
) -> RunResponse | None:
    ordered = _order(store, user, question)
    if not ordered:
        return None
    return RunResponse(
        final_text="In order, earliest first: " + ", then ".join(ordered) + ".",
        tool_calls=tuple(trace.calls),
        answer=", ".join(ordered),
        confidence=0.4,
    )


def _count_answer(candidates: list[Candidate], top: Candidate, trace: CallTrace) -> RunResponse:
    """How many distinct pairs the user said something about it in, at least one, and the day
    of the first of them (count questions may ask when the first one was)."""
    threshold = max(0.5, top.score * 0.75)
    counted = {
        c.hit.pair_id: c.hit for c in candidates if c.role == "user" and c.score >= threshold
    }
    count = len(counted) or 1
    stamps = sorted(hit.timestamp for hit in counted.values()) or [top.hit.timestamp]
    first = spoken_date(date.fromisoformat(stamps[0][:10]))
    return RunResponse(
        final_text=f"{count}, going by our conversations; the first was on {first}.",
        tool_calls=tuple(trace.calls),
        answer=str(count),
        confidence=0.4,
    )


def _date_answer(top: Candidate, when: date, trace: CallTrace) -> RunResponse:
    """The date the sentence states, else ``when``, the day of the event it tells."""
    stated = find_dates(top.sentence)
    day = stated[0] if stated else when
    return RunResponse(
        final_text=f"That was on {spoken(day)}: \u201c{top.sentence}\u201d",
        tool_calls=tuple(trace.calls),
        answer=spoken(day),
        confidence=round(min(top.score, 1.0), 3),
    )


def _quote_answer(
    top: Candidate, when: date | None, qstems: frozenset[str], trace: CallTrace
) -> RunResponse:
    value = bare_value(top.sentence, qstems)
    said = "you said" if top.role == "user" else "I said"
    on = f" on {spoken(when)}" if when else ""
    return RunResponse(
        final_text=f"Going by what {said}{on}: \u201c{top.sentence}\u201d",
        tool_calls=tuple(trace.calls),
        answer=value,
        confidence=round(min(top.score, 1.0), 3),
    )


def _duration(store: MemoryStore, user: str, question: str) -> tuple[int, date, date] | None:
    """Days between the two events a question names, and the two days, earlier first."""
    parts = _two_events(question)
    if parts is None:
        return None
    first, second = (best_for(store, user, part) for part in parts)
    if first is None or second is None or first.hit.pair_id == second.hit.pair_id:
        return None
    a, b = event_day(first), event_day(second)
    if a is None or b is None:
        return None
    a, b = sorted((a, b))
    return (b - a).days, a, b


def _order(store: MemoryStore, user: str, question: str) -> list[str]:
    """The items a question lists, earliest event first; empty unless every one is dated."""
    if not _ASKS_ORDER.search(question):
        return []
    items = _listed_items(question)
    if len(items) < 2:
        return []
    dated: list[tuple[date, int, str]] = []
    for index, item in enumerate(items):
        found = best_for(store, user, item)
        day = event_day(found) if found else None
        if day is None:
            return []
        dated.append((day, index, item))
    return [item for _, _, item in sorted(dated)]


def _two_events(question: str) -> tuple[str, str] | None:
    q = question.strip().rstrip("?.! ")
    for pattern in _TWO_EVENTS:
        m = re.search(pattern, q, re.IGNORECASE)
        if m and m.group(1).strip() and m.group(2).strip():
            return m.group(1), m.group(2)
    return None


def _listed_items(question: str) -> list[str]:
    q = question.strip().rstrip("?.! ")
    if ":" in q:
        q = q.split(":", 1)[1]
    else:
        m = re.search(r"\b(?:first|order|earliest)\b[,:]?\s+(.+)$", q, re.IGNORECASE)
        if m:
            q = m.group(1)
    parts = re.split(r"\s*,\s*(?:and\s+|or\s+)?|\s+or\s+|\s+and\s+", q)
    return [p.strip() for p in parts if len(content_stems(p)) >= 1]


def bare_value(sentence: str, qstems: frozenset[str]) -> str | None:
    """The value a sentence states about the question's topic, when one stands out: a single
    code-like token, or the words right after the last question word and a linking verb."""
    codes: list[str] = list(dict.fromkeys(_CODE.findall(sentence)))
    if len(codes) == 1:
        return codes[0]
    last_end = -1
    for word in re.finditer(r"[^\W_]+(?:'[^\W_]+)?", sentence):
        if stem(word.group(0)) in qstems:
            last_end = word.end()
    if last_end < 0:
        return None
    m = _STATED_VALUE.match(sentence[last_end:])
    if not m:
        return None
    value = m.group("value").strip(" \"'")
    if not value or len(value.split()) > 6 or is_first_person(value):
        return None
    return value
