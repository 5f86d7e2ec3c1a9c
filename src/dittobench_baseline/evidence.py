"""Stored sentences as evidence for a memory question.

A question is read as its content stems (filler such as "remember" or "ago", dates and month names
left out), the proper nouns it names and the date it is limited to. Each sentence of the user's
best BM25 pairs becomes a ``Candidate`` scored by the share of those stems it covers; sentences
about someone else, planted instructions, and pairs that miss a named proper noun or fall after
the date are left out. ``best`` picks the answer, preferring the most recent near-equal.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from dittobench.core.dates import MONTH_OF
from dittobench_baseline.store import Hit, MemoryStore
from dittobench_baseline.textutil import (
    STOPWORDS,
    content_stems,
    find_dates,
    sentences,
    stem,
    tokens,
    wordset,
)

SEARCH_DEPTH = 30
"""How many pairs BM25 returns for a question before sentences are scored."""

MAX_SENTENCE_CHARS = 1000
"""Stored sentences are read up to this length when scored."""

# What is said, not what about: words that say nothing about the topic of a question.
QUESTION_FILLER = frozenset(
    stem(w)
    for w in wordset(
        """now currently current these days lately recently again exactly remember remind
    recall mention mentioned said say told tell ask asked talk talked ago time times ever anymore
    moment nowadays recall chat chats conversation conversations earlier previously before told
    happen happened point back"""
    )
)

_WEEKDAYS = wordset("Monday Tuesday Wednesday Thursday Friday Saturday Sunday")
_INJECTION = re.compile(
    r"\bignore (?:all |any |the |your )?(?:previous|prior|above|earlier|other)\b"
    r"|\b(?:if|when|whenever)\b[^.]*\b(?:ask|asks|asked|question|questions)\b[^.]*"
    r"\b(?:answer|reply|respond|say|tell|claim|state)\b"
    r"|\b(?:always|must|should)\s+(?:answer|reply|respond|say)\b"
    r"|\bnote (?:to|for) (?:the |any )?(?:assistant|ai|model|bot)\b"
    r"|\b(?:assistant|ai|model|bot)s?\s*(?:,|:)?\s*(?:must|should|always)\b"
    r"|\bsystem prompt\b|\bnew instructions?\b",
    re.IGNORECASE,
)
_ASKS_ASSISTANT = re.compile(
    r"\b(?:did|have|had|do) you\b|\byou (?:\w+ed|said|told|gave|made|came up|thought)\b",
    re.IGNORECASE,
)
_RELATIONS = wordset(
    """colleague colleagues coworker coworkers co-worker friend friends neighbor neighbour boss
    manager cousin sister brother partner wife husband mother father mom mum dad roommate
    flatmate teammate aunt uncle son daughter niece nephew client boyfriend girlfriend fiance
    fiancee grandmother grandfather grandma grandpa"""
)
_POSSESSIVE_NAME = re.compile(r"\b([A-Z][a-z]+)'s\b")
_OTHER_PRONOUN = re.compile(r"\b(?:he|she|his|her|hers|him)\b", re.IGNORECASE)
_FIRST_PERSON_SUBJECT = re.compile(r"\b(?:I|I'm|I've|I'd|I'll)\b")
_RELATIVE_DAYS = (
    (re.compile(r"\byesterday\b|\blast night\b", re.IGNORECASE), -1),
    (re.compile(r"\b(?:the )?day before yesterday\b", re.IGNORECASE), -2),
    (re.compile(r"\blast week\b|\ba week ago\b", re.IGNORECASE), -7),
    (re.compile(r"\b(?:two|2) days ago\b", re.IGNORECASE), -2),
    (re.compile(r"\b(?:three|3) days ago\b", re.IGNORECASE), -3),
)


@dataclass(frozen=True, slots=True)
class Candidate:
    """One stored sentence (said by ``role``: user or assistant) scored against a question;
    ``matched`` holds the question stems it covers."""

    hit: Hit
    role: str
    sentence: str
    matched: frozenset[str]
    score: float


def question_stems(question: str) -> frozenset[str]:
    """The content stems a good answer should cover: no filler, numbers, dates or months."""
    dateless = re.sub(r"\b\d[\d,.:/-]*(?:st|nd|rd|th)?\b", " ", question)
    stems = content_stems(dateless) - QUESTION_FILLER - {stem(m) for m in MONTH_OF}
    return frozenset(stems)


def proper_nouns(question: str) -> frozenset[str]:
    """Stems of capitalised words inside the question (not its first word, not ``I``, not month
    or weekday names): a question naming a place or thing the store never mentions is declined."""
    words = re.findall(r"(?<=[\w,;:] )[A-Z][a-z]{2,}\b", question)
    skip = {m.capitalize() for m in MONTH_OF} | _WEEKDAYS
    return frozenset(stem(w) for w in words if w not in skip and w.lower() not in STOPWORDS)


def about_someone_else(sentence: str, question: str) -> bool:
    """The sentence is about another person (a relation, a named person's possessive, he/she)
    that the question does not ask about, and the user is not its subject."""
    q = question.lower()
    words = tokens(sentence)
    others = [w for w in words if w in _RELATIONS and w not in q]
    others += [m for m in _POSSESSIVE_NAME.findall(sentence) if m.lower() not in q]
    if _OTHER_PRONOUN.search(sentence) and not _OTHER_PRONOUN.search(question):
        others.append("pronoun")
    if not others:
        return False
    return not _FIRST_PERSON_SUBJECT.search(sentence)


def cutoff(question: str) -> date | None:
    """The last day a question is limited to ("on 3 May", "before June"), unless it asks about
    what came after a date."""
    days = find_dates(question)
    if not days:
        return None
    if re.search(r"\bafter\b|\bsince\b", question, re.I):
        return None
    return days[-1]


def find_candidates(
    store: MemoryStore, user: str, question: str, qstems: frozenset[str]
) -> list[Candidate]:
    """Every sentence of the user's best pairs for ``question`` that covers some of ``qstems``."""
    if not qstems:
        return []
    hits = store.search(user, question, SEARCH_DEPTH)
    last_day = cutoff(question)
    wants_assistant = bool(_ASKS_ASSISTANT.search(question))
    proper = proper_nouns(question)
    out: list[Candidate] = []
    for hit in hits:
        if last_day is not None and (hit.moment is None or hit.moment.date() > last_day):
            continue
        pair_stems = content_stems(f"{hit.prompt} {hit.response}")
        if not proper <= pair_stems:
            continue
        out += _pair_candidates(hit, question, qstems, wants_assistant)
    return out


def _pair_candidates(
    hit: Hit, question: str, qstems: frozenset[str], wants_assistant: bool
) -> list[Candidate]:
    """The scored sentences of one pair; none from a user prompt that carries an injection."""
    poisoned = any(_INJECTION.search(s[:MAX_SENTENCE_CHARS]) for s in sentences(hit.prompt))
    out: list[Candidate] = []
    for role, text in (("user", hit.prompt), ("assistant", hit.response)):
        if role == "user" and poisoned:
            continue
        for whole in sentences(text):
            sentence = whole[:MAX_SENTENCE_CHARS]
            if _INJECTION.search(sentence) or about_someone_else(sentence, question):
                continue
            matched = qstems & content_stems(sentence)
            if not matched:
                continue
            score = _coverage(role, sentence, matched, qstems, wants_assistant)
            out.append(Candidate(hit, role, sentence, frozenset(matched), score))
    return out


def _coverage(
    role: str, sentence: str, matched: frozenset[str], qstems: frozenset[str], wants_assistant: bool
) -> float:
    """The share of the question's stems a sentence covers, weighed by who said it: the user's
    own statements slightly ahead, their questions and (when the question asks what the
    assistant said) their sentences behind."""
    score = len(matched) / len(qstems)
    if role == "user" and wants_assistant:
        score *= 0.5
    if role == "user" and sentence.endswith("?"):
        score *= 0.6
    if role == "user" and not wants_assistant:
        score += 0.01
    return score


def best(candidates: Sequence[Candidate], *, recent: bool = True) -> Candidate | None:
    """The best-covering sentence; among near-equals the most recent when ``recent``. None when
    the best one covers too little of the question."""
    if not candidates:
        return None
    top = max(candidates, key=lambda c: (c.score, len(c.sentence) < 400))
    if not (top.score >= 0.5 or len(top.matched) >= 2):
        return None
    if not recent:
        return top
    pool = [
        c
        for c in candidates
        if c.score >= top.score * 0.75 and len(c.matched) >= len(top.matched) - 1
    ]
    return max(
        pool,
        key=lambda c: (
            c.hit.moment is not None,
            c.hit.moment,
            c.hit.seq,
            c.score,
        ),
    )


def best_for(store: MemoryStore, user: str, phrase: str) -> Candidate | None:
    """The sentence that best covers ``phrase`` (one event of a question), recent or not."""
    stems = question_stems(phrase)
    return best(find_candidates(store, user, phrase, stems), recent=False)


def event_day(candidate: Candidate | None) -> date | None:
    """The day a candidate's pair was said, moved back when the sentence says "yesterday",
    "last week" or "two days ago"."""
    if candidate is None or candidate.hit.moment is None:
        return None
    day = candidate.hit.moment.date()
    for pattern, offset in _RELATIVE_DAYS:
        if pattern.search(candidate.sentence):
            return day + timedelta(days=offset)
    return day
