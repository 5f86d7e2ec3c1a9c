"""What an answer commits to (grading-4): which of the values it names it puts forward as the
user's fact, and which it sets aside.

A careful assistant names more than its answer: the old value it replaced ("you moved there from
Valencia"), someone else's ("Ernest is Nerys's gramps"), a look-alike to beware of ("the similar
VK-T8U… belongs to Osvaldo, not you"), a claim the user denied ("you said it's not true you
finished it"), what it left out of a count ("Bruges doesn't count"), a first try the user
corrected ("you first wrote skateboard"). Each mention of a candidate value (every value the key
lists: the answer and its forms, distractors, forbidden and dump-guard values) is read in its
sentence: a cue that sets it aside, close before or after it with no other candidate in between,
makes it *set aside*; otherwise it is *committed*. Mentions joined only by list glue ("A, B and
then C") are one group and share a cue ("before that: A, B and C").

The reading is the same for every value, the right answer included: an answer that sets every
candidate aside commits to none (and earns nothing), one that commits to several hedges, and
only what is committed is scanned. So wrapping values in cues gains a guess nothing: it can
still commit to one value only.

Temporal cues depend on the question: a value said to come *later* ("you only switched to X on
the 18th", "until", "came after") is set aside where the question asks for the value at a point
in time, and committed elsewhere (the latest value answers "what is it now?").

Pure: no clock, no I/O, and no exception for any string.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from dittobench.grade.cues import (
    AFTER_ANY,
    ASSERTED_BEFORE_7,
    BEFORE_ANY,
    CORRECTED_FROM,
    CORRECTION_REMARK,
    CORRECTION_REMARK_6,
    DECLINED_CONTEXT,
    DECLINED_CONTEXT_6,
    FORWARD,
    FORWARD_5,
    FORWARD_6,
    HEDGED_BEFORE_7,
    HYPOTHETICAL_AFTER,
    HYPOTHETICAL_BEFORE,
    MOOD_AFTER,
    MOOD_AFTER_7,
    MOOD_BEFORE,
    NEGATORS,
    NOT_A_CUE_5,
    NOT_THIS,
    OTHERS_AFTER,
    OUT_AFTER,
    PLEASANTRIES,
    REPORTED_NEGATION,
    STATUS,
    TAKEN_BACK,
    TAKEN_BACK_7,
    TOKEN,
    first_words,
    last_words,
)
from dittobench.grade.match import Prepared, hit, maybe_in, normalized, prepare, spans
from dittobench.grade.people import (
    another_event,
    belief_pattern,
    names_near,
    possessive_pattern,
    question_words,
)
from dittobench.grade.timing import (
    AFTER_BEFORE,
    AT_A_TIME,
    BEFORE_IT_WAS,
    CHAINED,
    CONTINUED,
    CURRENT_AFTER,
    CURRENT_BEFORE,
    HISTORY,
    LATEST,
    LATEST_HISTORY,
    timed_aside,
)

WINDOW_WORDS: Final = 10
"""How far before or after a mention a cue is looked for (words, within its sentence)."""

NEGATION_WORDS: Final = 8
"""How far before a mention a negator reaches (words, not across a comma or colon)."""

_SENTENCE_END = re.compile(r"[.!?;\n]+(?=\s|$)|[!?;\n]")

CONTRAST = re.compile(
    r"[,:\u2013\u2014(\s-]*(?:unlike|not|rather than|instead of|as opposed to|but|whereas|while|"
    r"except|apart from|compared (?:to|with))(?![^\W_])"
)
"""What turns a sentence from the activity asked about to another ("…, unlike judo")."""

_CLAUSE_END = re.compile(r"[,:\u2013\u2014(](?=[^,:\u2013\u2014(]*$)")
"""The last clause break before a point."""

GAPPED = re.compile(
    r"[\s,;]*(?:and|while|whereas|but) ([^\W_]+) (?:(?:in|with|on|at|for|from|to|a|an|the|"
    r"had|has|was|is|picked|chose|went for)\s+)*"
)
"""Another person's like for like, the verb left out after the one before ("Wilhelmina learned in
a Vauxhall Corsa and Leocadia in a Pontiac Sunfire"): set aside as the mention before it is."""

_GLUE = re.compile(
    r"(?:\([^()]{0,40}\)|[\s,&/\"'+]|\b(?:and|or|then|finally|nor|plus|also|the|a|an|your)\b)*"
)
"""What may stand between the mentions of one group ("A, B and then the C")."""


@dataclass(frozen=True, slots=True)
class Mention:
    """One place a candidate value is named: offsets in the answer's ``key``."""

    value: str
    start: int
    end: int
    committed: bool


def _sentences(key: str, protected: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sentence bounds of ``key``; an end mark inside a mention ("St. Ives") does not count."""
    spans = sorted(protected)
    starts = [s for s, _e in spans]
    bounds, start = [], 0
    for m in _SENTENCE_END.finditer(key):
        # Mentions do not overlap, so only the last one starting before the mark can hold it.
        index = bisect_left(starts, m.start()) - 1
        if index >= 0 and m.start() < spans[index][1]:
            continue
        bounds.append((start, m.end()))
        start = m.end()
    bounds.append((start, len(key)))
    return bounds


def _sentence_of(sentences: list[tuple[int, int]], starts: list[int], pos: int) -> int | None:
    """The index of the sentence holding ``pos`` (``starts``: the sentences' starts; sentences
    are consecutive and in order, so one bisection finds it), None when none does."""
    index = bisect_right(starts, pos) - 1
    if index >= 0 and sentences[index][0] <= pos < sentences[index][1]:
        return index
    return None


@dataclass(frozen=True, slots=True)
class _Pool:
    """The candidates worth looking for (none the question itself names), longest first, and
    the words they are made of."""

    values: tuple[str, ...]
    own: frozenset[str]


@lru_cache(maxsize=4096)
def _pool(question: str, candidates: tuple[str, ...]) -> _Pool:
    """Memoised: a case is graded against many answers."""
    asked = prepare(question)
    pool = [v for v in dict.fromkeys(candidates) if normalized(v) and not hit(asked, v)]
    own = frozenset(w for v in pool for w in TOKEN.findall(normalized(v)))
    return _Pool(tuple(sorted(pool, key=len, reverse=True)), own)


def _locate(text: Prepared, pool: _Pool) -> list[tuple[int, int, str]]:
    """Every bounded occurrence of the values (longest first), without overlaps; a value whose
    first word the text lacks is not looked for."""
    taken: list[tuple[int, int, str]] = []  # in order: they never overlap, so starts and
    starts: list[int] = []  # ends both rise, and only the last one starting before a span's
    ends: list[int] = []  # end can overlap it (a long answer names hundreds)
    for index in maybe_in(text, pool.values):
        value = pool.values[index]
        for start, end in spans(text, value):
            at = bisect_left(starts, end)
            if at == 0 or ends[at - 1] <= start:
                taken.insert(at, (start, end, value))
                starts.insert(at, start)
                ends.insert(at, end)
    return taken


_RUN = re.compile(r"[^\W_]+")
"""A run of letters and digits."""


@dataclass(frozen=True, slots=True, eq=False)
class _Setting:
    """What reading an answer takes from its case whatever the answer (``_setting``; one per
    case, so compared and hashed by identity)."""

    pool: _Pool
    names: frozenset[str]
    """The people who are not words of the candidates."""
    unusual: frozenset[str]
    """The names that are not letters and digits only (``_near``)."""
    possessive: re.Pattern[str]
    belief: re.Pattern[str]
    asked: frozenset[str]


@lru_cache(maxsize=4096)
def _setting(
    question: str, candidates: tuple[str, ...], people: frozenset[str], readings_5: bool
) -> _Setting:
    """Memoised: a case is graded against many answers, and each answer is read two to four
    times (slot, prose, ...), so this is looked up once per reading, not piece by piece."""
    pool = _pool(question, candidates)
    names = people - pool.own
    return _Setting(
        pool,
        names,
        frozenset(n for n in names if not n.isalnum()),
        possessive_pattern(names, normalized(question)),
        belief_pattern(names, readings_5),
        question_words(question),
    )


def _near(setting: _Setting, key: str) -> frozenset[str]:
    """The names that ``names_near`` may find near a mention in ``key``: a name of letters
    and digits only is found as a whole run of them, and the text around a mention is cut at
    the ends of such runs, so a name that is no run of ``key`` is found near none of its
    mentions (any other name is kept). Most answers name nobody, so most readings then look
    for nobody."""
    names = setting.names
    if not names:
        return names
    return setting.unusual | names.intersection(_RUN.findall(key))


def read_mentions(
    text: Prepared,
    candidates: Iterable[str],
    question: str,
    timing: str = "",
    people: frozenset[str] = frozenset(),
    declining: bool = False,
    activities: bool = False,
    readings_5: bool = False,
    readings_6: bool = False,
    readings_7: bool = False,
) -> list[Mention]:
    """Every mention of the candidates in ``text``, each committed or set aside. ``timing`` is
    ``AT_A_TIME``, ``LATEST`` or empty; ``people`` are the names of others the history talks
    about (``people_in``); ``declining``: the case asks for a decline, so what follows "the only
    film that's come up is" is context; ``activities``: the case asks whether an activity ended
    or goes on, so what an answer says of an activity's status ("you gave up pottery", "no
    longer") is a claim about it, never a cue that sets it aside. A candidate the question itself
    names is no mention. ``readings_5``: grading-5's further readings (``GradingPolicy.readings_5``:
    hypotheticals, pleasantries, introduced companions, like for like, "Not included:", …);
    ``readings_6``: grading-6's (the unreal mood, a value taken back, "Not counted:", the value a
    correction replaced); ``readings_7``: grading-7's (the unreal mood past ", and you said",
    a clause that takes the value out of the answer)."""
    if not text.key:
        return []  # an empty text names nothing (a slot left empty is read for every answer)
    setting = _setting(question, tuple(candidates), people, readings_5)
    found = _locate(text, setting.pool)
    if not found:
        return []
    if len(found) == 1 and found[0][0] == 0 and found[0][1] == len(text.key):
        # The text is one candidate and nothing else (a slot holding the value, a third of all
        # readings): nothing around it to read, so the case alone decides.
        aside = _alone_aside(setting, timing, activities, readings_5, readings_6, readings_7)
        return [Mention(found[0][2], 0, len(text.key), not aside)]
    readings = (readings_5, readings_6, readings_7)
    reader = _Reader(text.key, found, setting, timing, activities, *readings)
    reader.beyond_at(declining)
    out: list[Mention] = []
    for group in _groups(text.key, found, reader.sentences):
        aside = reader.aside(group, out)
        out.extend(Mention(value, s, e, not aside) for s, e, value in group)
    return _aside_in_sentence(out, reader.sentences)


@lru_cache(maxsize=4096)
def _alone_aside(
    setting: _Setting,
    timing: str,
    activities: bool,
    readings_5: bool,
    readings_6: bool,
    readings_7: bool,
) -> bool:
    """Whether a mention that is the whole text is set aside, read as any mention is: its
    sentence, the words before and after it and the text before it are all empty, and what
    the answer says after it ("your other trips…") comes after it, so the same reading of an
    empty mention in an empty text tells (memoised per case: a case's slots name its value)."""
    empty = [(0, 0, "")]
    readings = (readings_5, readings_6, readings_7)
    return _Reader("", empty, setting, timing, activities, *readings).aside(empty, [])


class _Reader:
    """One answer read for what sets its mentions aside (``read_mentions``)."""

    def __init__(
        self,
        key: str,
        found: list[tuple[int, int, str]],
        setting: _Setting,
        timing: str,
        activities: bool,
        readings_5: bool = False,
        readings_6: bool = False,
        readings_7: bool = False,
    ) -> None:
        self.key, self.found, self.timing, self.names = key, found, timing, setting.names
        self.activities, self.readings_5, self.readings_6 = activities, readings_5, readings_6
        self.readings_7 = readings_7
        self.near = _near(setting, key)
        self.possessive, self.belief, self.asked = setting.possessive, setting.belief, setting.asked
        self.sentences = _sentences(key, [(s, e) for s, e, _ in found])
        self.starts = [b for b, _e in self.sentences]
        self.place: dict[tuple[int, int, str], int] = {}
        for index, mention in enumerate(found):
            self.place.setdefault(mention, index)  # as found.index: the first occurrence
        told = HISTORY.search(key) or (LATEST_HISTORY.search(key) if timing == LATEST else None)
        self.history = told.end() if told is not None else None
        self.beyond: int | None = None
        self.later_before = False  # the group before was set aside as later than the asked time

    def beyond_at(self, declining: bool) -> None:
        """Where the rest of the answer turns to the other values ("your other trips…")."""
        others = OTHERS_AFTER.search(self.key) or (
            (
                DECLINED_CONTEXT.search(self.key)
                or (DECLINED_CONTEXT_6.search(self.key) if self.readings_6 else None)
            )
            if declining
            else None
        )
        self.beyond = others.end() if others is not None else None

    def aside(self, group: list[tuple[int, int, str]], out: list[Mention]) -> bool:
        """Whether the mentions of ``group`` (consecutive in ``found``) are set aside."""
        key, first, last = self.key, group[0], group[-1]
        at = _sentence_of(self.sentences, self.starts, first[0])
        sentence = self.sentences[at] if at is not None else (0, len(key))
        index = self.place[first]
        before_from = max(sentence[0], self.found[index - 1][1] if index else 0)
        after_to = sentence[1]
        if self.place[last] + 1 < len(self.found):
            after_to = min(after_to, self.found[self.place[last] + 1][0])
        before = last_words(key[before_from : first[0]], WINDOW_WORDS)
        after = first_words(key[last[1] : after_to], WINDOW_WORDS)
        timed = timed_aside(self.timing, key, sentence[0], first[0], before, after)
        aside = self._cued(before, after) or self._said(sentence[0], first[0], before, after)
        # grading-7: a clause later in the sentence takes the value out of the answer
        if self.readings_7 and not aside and HEDGED_BEFORE_7.search(before) is None:
            aside = TAKEN_BACK_7.match(key, last[1], after_to) is not None
        aside = aside or timed or (self.beyond is not None and self.beyond < first[0])
        if not aside and self.history is not None and self.history < first[0]:
            # Telling how it changed: history, unless named as the current value (asked about
            # a time, the current value is history too).
            current = CURRENT_BEFORE.search(before) or CURRENT_AFTER.match(after)
            aside = self.timing == AT_A_TIME or current is None
        aside = aside or another_event(before, after, self.asked)
        if not aside and index:
            aside, timed = self._continued(index, sentence[0], first[0], out, timed)
        self.later_before = timed and self.timing == AT_A_TIME
        return aside

    def _cued(self, before: str, after: str) -> bool:
        """A cue right before or after the group, a negator, a possessive or a person."""
        # grading-5: a remark on what was first said ("(you said Dubrovnik first, then
        # corrected it)") is about that slip, not the value before it
        remark = CORRECTION_REMARK_6 if self.readings_6 else CORRECTION_REMARK
        cue_after = AFTER_ANY.match(remark.sub(" ", after) if self.readings_5 else after)
        cue = BEFORE_ANY.search(before)
        if self.readings_5 and cue is not None and NOT_A_CUE_5.match(cue.group()):
            cue = None
        hypothetical = self.readings_5 and (
            HYPOTHETICAL_BEFORE.search(before) is not None
            or HYPOTHETICAL_AFTER.match(after) is not None
        )
        # grading-6: the unreal mood, a value taken back, the value a correction replaced
        unreal = self.readings_6 and (
            MOOD_BEFORE.search(before) is not None
            or MOOD_AFTER.match(after) is not None
            or (
                self.readings_7
                and MOOD_AFTER_7.match(after) is not None
                and ASSERTED_BEFORE_7.search(before) is None
            )
            or TAKEN_BACK.match(after) is not None
            or CORRECTED_FROM.search(before) is not None
        )
        if self.activities:  # asked whether an activity ended, its status is a claim
            cue = None if cue is None or STATUS.search(cue.group()) else cue
            cue_after = None if cue_after is None or STATUS.search(cue_after.group()) else cue_after
        return (
            hypothetical
            or unreal
            or (cue is not None and TOKEN.findall(cue.group())[0] not in self.asked)
            or cue_after is not None
            or OUT_AFTER.match(after) is not None
            or (not self.activities and _negated_before(before, self.readings_5))
            or self.possessive.search(before) is not None
            or self.possessive.search(after) is not None
            or names_near(self.near, self.asked, before, after, self.readings_5)
        )

    def _said(self, start: int, at: int, before: str, after: str) -> bool:
        """A cue earlier in the sentence that reaches the group ("don't confuse it with: …",
        "Bettina thinks …")."""
        return (
            FORWARD.search(self.key, start, at) is not None
            or (self.readings_5 and FORWARD_5.search(self.key, start, at) is not None)
            or (self.readings_6 and FORWARD_6.search(self.key, start, at) is not None)
            or self.belief.search(self.key, start, at) is not None
        )

    def _continued(
        self, index: int, start: int, at: int, out: list[Mention], timed: bool
    ) -> tuple[bool, bool]:
        """(set aside, as later) by what goes on from the mention before: "before the moped it
        was a motorbike", "after A, then B", at a time "…, and in late November B"."""
        key, previous = self.key, self.found[index - 1]
        between = key[previous[1] : at]
        if AFTER_BEFORE.search(key, start, previous[0]) and BEFORE_IT_WAS.fullmatch(between):
            return True, timed
        if CHAINED.fullmatch(between) and out and not out[-1].committed:
            return True, self.later_before
        if self.later_before and CONTINUED.fullmatch(between):
            return True, True
        gapped = GAPPED.fullmatch(between) if self.readings_5 else None
        if gapped and gapped.group(1) in self.names and out and not out[-1].committed:
            return True, timed
        return False, timed


def _aside_in_sentence(mentions: list[Mention], sentences: list[tuple[int, int]]) -> list[Mention]:
    """A value set aside somewhere in a sentence is set aside wherever that sentence names it
    again ("before that a motorbike (you first said express bus, then corrected it to
    motorbike)")."""
    if all(m.committed for m in mentions):
        return mentions  # nothing set aside (most answers)
    starts = [b for b, _e in sentences]

    def where_is(m: Mention) -> int:
        at = _sentence_of(sentences, starts, m.start)
        if at is None:
            raise StopIteration  # as a scan that finds no sentence would
        return at

    aside = {(normalized(m.value), where_is(m)) for m in mentions if not m.committed}
    out = []
    for m in mentions:
        where = where_is(m)
        if m.committed and (normalized(m.value), where) in aside:
            m = Mention(m.value, m.start, m.end, False)
        out.append(m)
    return out


def _ends_between(ends: list[int], low: int, high: int) -> bool:
    """Some sentence ends at an offset from ``low`` to ``high``, both included."""
    index = bisect_left(ends, low)
    return index < len(ends) and ends[index] <= high


def _groups(
    key: str, found: list[tuple[int, int, str]], sentences: list[tuple[int, int]]
) -> list[list[tuple[int, int, str]]]:
    """Mentions joined only by list glue ("A, B and then C") within a sentence are one group."""
    groups: list[list[tuple[int, int, str]]] = []
    ends = [end for _start, end in sentences]  # in order: sentences are consecutive
    for mention in found:
        last = groups[-1][-1] if groups else None
        if (
            last is not None
            and not _ends_between(ends, last[1], mention[0])
            and _GLUE.fullmatch(key[last[1] : mention[0]])
        ):
            groups[-1].append(mention)
        else:
            groups.append([mention])
    return groups


def _negated_before(before: str, readings_5: bool = False) -> bool:
    """A negator within ``NEGATION_WORDS`` words before the mention, with no comma or colon in
    between ("you don't wear a size 44", "it wasn't a Vauxhall Nova"); with grading-5, not in a
    pleasantry ("no problem, your number is")."""
    if readings_5:
        before = PLEASANTRIES.sub(" ", before)
    tail = before[max(before.rfind(","), before.rfind(":")) + 1 :]  # after the last barrier
    words = [w.replace("'", "") for w in TOKEN.findall(tail)][-NEGATION_WORDS:]
    if not NEGATORS.isdisjoint(words):
        return True
    # a contraction ("don't" is read as the word "dont", so it is found in the text itself)
    return "n't" in tail and any(w.endswith("nt") and w[:-2] + "n't" in tail for w in words)


def sentences_about(
    text: Prepared, mentions: list[Mention], subject: Iterable[str], clauses: bool = False
) -> Prepared:
    """``text`` without the sentences that name some other candidate and not the subject: what
    it says about other activities ("unlike tai chi, which you dropped") says nothing of this
    one. With ``clauses`` (grading-5), such a sentence keeps the clauses before the other one
    ("you're still going strong, unlike judo, which you dropped")."""
    wanted = {normalized(v) for v in subject}
    key = text.key
    sentences = _sentences(key, [(m.start, m.end) for m in mentions])
    kept = []
    for begin, end in sentences:
        inside = [m for m in mentions if begin <= m.start < end]
        named = [m for m in inside if normalized(m.value) in wanted]
        if inside and not named:
            # "you're still going strong, unlike judo, which you dropped": the clause before
            # the other one is still about this one
            clause = _CLAUSE_END.search(key, begin, inside[0].start) if clauses else None
            if clause is not None and CONTRAST.match(key, clause.start(), inside[0].start):
                kept.append(text.norm[begin : clause.start()])
            continue
        if named and all(NOT_THIS.search(key, begin, m.start) for m in named):
            continue  # "that's the one you dropped, not surfing": about the other one
        kept.append(text.norm[begin:end])
    return prepare(" ".join(kept))


def sentences_of(text: Prepared) -> list[Prepared]:
    """``text`` cut into its sentences (as ``read_mentions`` reads them)."""
    return [prepare(text.norm[b:e]) for b, e in _sentences(text.key, []) if text.norm[b:e].strip()]


def reported_negation_as_not(text: Prepared) -> Prepared:
    """``text`` with a negated report ("you haven't said anything about giving it up",
    "nothing suggests you've stopped") read as a plain "not", so the phrase after it reads as
    negated."""
    if REPORTED_NEGATION.search(text.norm) is None:
        return text
    return prepare(REPORTED_NEGATION.sub("not", text.norm))


_LINE_END = re.compile(r"(?<=[^\s.!?;:])[ \t]*\n")


def lines_as_sentences(raw: str) -> str:
    """``raw`` with a full stop at each line end that has none, so a line break (which
    normalising folds into a space) still ends a sentence, and "&" read as "and"."""
    if "\n" in raw:  # most answers are one line: no scan of every position
        raw = _LINE_END.sub(".\n", raw)
    return raw.replace(" & ", " and ")


def committed_text(text: Prepared, mentions: list[Mention]) -> Prepared:
    """``text`` with every set-aside mention blanked out: what the answer commits to."""
    aside = [m for m in mentions if not m.committed]
    if not aside:
        return text
    pieces, pos = [], 0
    for m in sorted(aside, key=lambda m: m.start):
        if m.start < pos:
            continue
        pieces.append(text.norm[pos : m.start])
        pieces.append(" ; ")
        pos = m.end
    pieces.append(text.norm[pos:])
    return prepare("".join(pieces))


__all__ = [
    "Mention",
    "committed_text",
    "lines_as_sentences",
    "read_mentions",
    "reported_negation_as_not",
    "sentences_about",
    "sentences_of",
]
