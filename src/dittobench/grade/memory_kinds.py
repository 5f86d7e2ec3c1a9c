"""The typed check of each memory answer kind: one function per kind, keyed by kind in ``CHECKS``.

Each check returns a score in [0, 1] and never raises. A tally reads the slot and prose together
(a count and the day of the first, both needed). Checks that look for a stated value (value,
number, list, ordered list, duration) read the answer slot first and, when it is empty or falls
short, the prose, keeping the better score. Checks that weigh what an answer *says* about a value
(reversal, persistence, decline, acknowledge) read the slot and prose together, so "pottery" in
the slot and "you gave it up" in the prose make one answer.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from types import MappingProxyType
from typing import Final

from dittobench.core import text
from dittobench.core.errors import DittobenchError
from dittobench.core.text import content_words as words_of_content
from dittobench.grade.dates import ISO_DAY, days_in, states_day, uncounted_days
from dittobench.grade.guards import (
    candidate_numbers,
    candidate_spans,
    named_as_answer,
    offers_candidate,
    phrases_outside,
)
from dittobench.grade.lexicon import (
    ACKNOWLEDGE,
    DECLINE,
    DELETION_OUTCOMES,
    USED_TO,
    lexicon,
)
from dittobench.grade.match import (
    Prepared,
    has_negated,
    has_phrase,
    has_unnegated,
    hit,
    in_order,
    masked,
    negations,
    normalize,
    prepare,
    spans,
)
from dittobench.grade.numbers import (
    bare_days,
    durations_in_days,
    exact_duration,
    number_spans,
    stated_durations,
    without_sums,
)
from dittobench.spec.memory import MemoryCase
from dittobench.spec.versions import GRADING_1, GradingPolicy


@dataclass(frozen=True, slots=True)
class Answer:
    """A response as the checks read it: the answer slot, the prose and both together, each
    normalised once; ``abstain`` is the harness's decline flag."""

    slot: Prepared
    prose: Prepared
    full: Prepared
    abstain: bool | None = None
    rules: GradingPolicy = GRADING_1
    """The policy whose rules the checks apply."""
    heard: bool = False
    """grading-6: the reply names, and sets aside, a value the user's history said of the case
    (a look-alike, someone else's): a decline so grounded knows the history."""


Check = Callable[[MemoryCase, Answer], float]

STOP_WORDS: Final = text.STOP_WORDS | text.wordset(
    "actually another anybody anyone anything aren aware below called cannot couldn deleted "
    "didn doesn either everyone everything find found gave give hadn hasn haven herself "
    "himself hmm however info information isn itself kind knew known let lot lots may "
    "memories memory mention mentioned mentions might mine myself name names neither nobody "
    "nor note noted notes nothing okay ones onto ought ours ourselves per please recall "
    "recalled record recorded records remember remind reminded saved says shall share shared "
    "shouldn somebody someone something sorry sort state stated stored stuff sure tell theirs "
    "think thought time times told type upon via wasn weren whatever whenever wherever whose "
    "won wouldn yeah yes yourself "
)
"""Words that never ground a decline: the shared function words, the verbs of remembering and
telling, and the nouns any question may use ("name", "thing")."""

_ACK_BLOCKERS: Final = tuple(p for p in DECLINE if p not in DELETION_OUTCOMES)
_HEDGE = re.compile(r" ?(?:-|/|or|to|or maybe|or perhaps|or possibly) ?")


def _best(answer: Answer, judge: Callable[[Prepared], float]) -> float:
    score = judge(answer.slot) if answer.slot.norm else 0.0
    if score < 1.0:
        score = max(score, judge(answer.prose))
    return score


def _agreed(
    answer: Answer, judge: Callable[[Prepared], float], says: Callable[[Prepared], bool]
) -> float:
    """With ``parts_agree``: the lowest score of the parts (slot, prose) that say anything
    ``says`` looks for, so one guess in the slot and another in the prose is no answer;
    otherwise the better part (``_best``)."""
    if not answer.rules.parts_agree:
        return _best(answer, judge)
    parts = [part for part in (answer.slot, answer.prose) if part.norm and says(part)]
    return min((judge(part) for part in parts), default=0.0)


def _distinct(values: Iterable[str]) -> tuple[str, ...]:
    seen: dict[str, str] = {}
    for value in values:
        key = normalize(value)
        if key and key not in seen:
            seen[key] = value
    return tuple(seen.values())


def whole_number(text: str) -> int | None:
    """The whole number ``text`` is exactly (digits or one number word), else None."""
    prepared = prepare(text)
    spans = number_spans(prepared)
    if len(spans) == 1 and spans[0][0] == 0 and spans[0][1] == len(prepared.norm):
        return spans[0][2]
    return None


def content_words(text: str | Prepared) -> frozenset[str]:
    """Stems of the words of three letters or more that are not ``STOP_WORDS``."""
    return _content_words(prepare(text).norm)


@lru_cache(maxsize=4096)
def _content_words(norm: str) -> frozenset[str]:
    """Memoised: a question's words are read again for every answer to it."""
    return words_of_content(norm, STOP_WORDS, stems=True)


# --- the checks --------------------------------------------------------------------------------


def check_value(case: MemoryCase, answer: Answer) -> float:
    """The expected value or an accepted form is named (with ``former_values_excused``, at least
    once not as a former value: "you switched from X" does not name X as the answer)."""
    forms = (case.expected_answer, *case.accepted)
    rules = answer.rules
    if not rules.former_values_excused:
        return _best(answer, lambda text: float(any(hit(text, form) for form in forms)))
    wider = rules.former_cues_more
    return _best(
        answer, lambda text: float(any(named_as_answer(text, form, wider) for form in forms))
    )


def _states(text: Prepared, expected: int) -> bool:
    """``expected`` is among the numbers, at least once not as one end of a hedge ("3 or 4",
    "3-4", "three to four", "between 3 and 4")."""
    spans = number_spans(text)
    norm = text.norm

    def hedged(a: tuple[int, int, int], b: tuple[int, int, int]) -> bool:
        if a[2] == b[2]:
            return False
        gap = norm[a[1] : b[0]]
        return _HEDGE.fullmatch(gap) is not None or (
            gap == " and " and norm[: a[0]].endswith("between ")
        )

    for i, span in enumerate(spans):
        if span[2] != expected:
            continue
        if i > 0 and hedged(spans[i - 1], span):
            continue
        if i + 1 < len(spans) and hedged(span, spans[i + 1]):
            continue
        return True
    return False


def check_number(case: MemoryCase, answer: Answer) -> float:
    """The exact number, in digits or words, not hedged between two numbers."""
    expected = whole_number(case.expected_answer)
    if expected is None:
        return 0.0
    if answer.rules.one_candidate_number:
        # Slot and prose are one answer: a candidate anywhere beside the right one is a hedge.
        return float(candidate_numbers(answer.full) == {expected})
    return _best(answer, lambda text: float(_states(text, expected)))


TALLY_ASIDE_DAYS = 2
"""grading-4: days an answer may name beyond its count (the day of something it did not
count); the earliest it names must still be the first."""

TALLY_DAYS_MAX = 2
"""A tally may name the first and the latest day; more days is a list of guesses."""


def check_tally(case: MemoryCase, answer: Answer) -> float:
    """The count (exactly one candidate number, the expected one) and the day of the first
    (``answer_items[0]``, an ISO date; at most two days named in all)."""
    expected = whole_number(case.expected_answer)
    first = _iso_day(case.answer_items[0]) if case.answer_items else None
    if expected is None or first is None:
        return 0.0
    named = days_in(answer.full)
    if not states_day(named, first):
        return 0.0
    if answer.rules.tally_listing:
        # The days of what it counted, listed: no more than the count, none before the first.
        # grading-5: the day the question is set on ("my notes from September 21") is no answer.
        start = (first.month, first.day)
        asked = {(m, d) for m, d, _y in days_in(prepare(case.question))} - {start}
        asked = asked if answer.rules.readings_5 else set()
        # grading-6: a day said as not counted ("I haven't counted September 25") is none
        uncounted = uncounted_days(answer.full) - {start} if answer.rules.readings_6 else set()
        listed = [(m, d, y) for m, d, y in named if (m, d) not in asked | uncounted]
        most = max(TALLY_DAYS_MAX, expected + TALLY_ASIDE_DAYS)
        too_early = any((m, d) < start and y in (None, first.year) for m, d, y in listed)
        if too_early or len({(m, d) for m, d, _y in listed}) > most:
            return 0.0
        return float(_claimed_counts(case, answer) == {expected})
    if len({(m, d) for m, d, _y in named}) > TALLY_DAYS_MAX:
        return 0.0
    counted = candidate_numbers(prepare(ISO_DAY.sub(" ", answer.full.norm)))
    return float(counted == {expected})


def _claimed_counts(case: MemoryCase, answer: Answer) -> frozenset[int]:
    """The counts an answer claims: from the slot when it states one; else the numbers it says
    count something the question counts ("5 times", "three books"), or failing those every
    candidate number (grading-4)."""
    if answer.slot.norm:
        in_slot = candidate_numbers(prepare(ISO_DAY.sub(" ", answer.slot.norm)))
        if in_slot:
            return in_slot
    text = prepare(ISO_DAY.sub(" ", answer.full.norm))
    nouns = {w for w in content_words(case.question) if len(w) >= 3 and not w.isdigit()}
    spans = candidate_spans(text)
    if answer.rules.readings_7 and not _TIMES_ASKED.search(case.question.lower()):
        # only beside another count: "I counted the lantern once" alone may be the count
        spans = [(s, e, v) for s, e, v in spans if not _how_counted(text.norm, s, e)] or spans
    claimed = frozenset(
        value
        for start, end, value in spans
        if (_counts_noun(text.norm, end, nouns) or _TIMES_WORD.fullmatch(text.norm, start, end))
        and _AS_OF.search(text.norm, max(0, start - 60), start) is None
        and _SUPPOSING.search(text.norm, max(0, start - 80), start) is None
        and not (answer.rules.readings_5 and _aside_5(text.norm, start, end))
        and _UNCOUNTED.search(text.norm, max(0, start - 80), start) is None
    )
    return claimed or frozenset(value for _start, _end, value in spans)


_AS_OF = re.compile(
    r"(?<![^\W_])(?:by|as of|up to|until|till) (?:the )?(?:[0-9]{1,2}(?:st|nd|rd|th)? (?:of )?)?"
    r"(?:january|february|march|april|may|june|july|august|september|october|november|december|"
    r"jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)(?:[^.!?;]*)$"
)
"""A count said as of an earlier day ("by 7 November it had come up five times") is a part,
not the claim."""

_SUPPOSING = re.compile(r"(?:^|[.!?;] )(?:if|had|were|should) [^.!?;]*$")


def _aside_5(norm: str, start: int, end: int) -> bool:
    """grading-5: a number that is no claimed count, said without one of what was counted
    ("leave it out and it's 9") or as a frequency ("once in every chat")."""
    return (
        _SUPPOSING_5.search(norm, max(0, start - 80), start) is not None
        or _FREQUENCY.match(norm, end) is not None
    )


_FREQUENCY = re.compile(r" (?:in |for )?(?:every|each|a|an|per)(?![^\W_])")

_SUPPOSING_5 = re.compile(
    r"(?<![^\W_])(?:(?:leave|leaving|take|taking|drop|dropping) (?:it|that|this|them|those|one)"
    r"(?: out| away| off)?|without (?:it|that|this|them|those)|minus (?:it|that|this|them|one))"
    r"[^.!?;]*$"
)
"""grading-5: a count said without one of what was counted ("leave it out and it's 9")."""
_UNCOUNTED = re.compile(
    r"(?<![^\W_])(?:(?:didn't|did not|don't|won't|haven't|not) count(?:ed|ing)?|left out|leave "
    r"out|excluding|except)[^.!?;]*$"
)
"""A number in what an answer did not count ("I didn't count two other mentions") is no claim."""
"""A count in a sentence that supposes ("If you count that, it's 3") is not the claim."""

_NEXT_WORDS = re.compile(r"(?: [^\W_]+){1,3}")


def _counts_noun(norm: str, end: int, nouns: set[str]) -> bool:
    """The number at ``end`` is followed, within three words, by one the question counts."""
    following = _NEXT_WORDS.match(norm, end)
    if following is None:
        return False
    said = following.group().split()
    return bool(_COUNTED.intersection(said)) or not nouns.isdisjoint(
        content_words(following.group())
    )


_HOW_COUNTED = re.compile(
    r"(?<![^\W_])counted (?:the|your)(?: (?!(?:it|is|was|be|came|got|and|again|may|might|could|"
    r"would|when|if|strictly|entries|ones|times)(?![^\W_]))[^\W_]+){1,5} $"
)
"""An item named after "counted" ("I counted the Breirgru Lantern once"): never a pronoun, which
may be the whole set ("I counted them twice")."""


def _how_counted(norm: str, start: int, end: int) -> bool:
    """grading-7: where a tally counts things, not times, "once" after "counted" and the item
    ("I counted the Breirgru Lantern once") says how that item was counted, not how many there
    were."""
    if norm[start:end] != "once" or _HEDGE_AFTER.match(norm, end):
        return False
    return _HOW_COUNTED.search(norm, max(0, start - 80), start) is not None


_HEDGE_AFTER = re.compile(r"\W*(?:maybe|perhaps|or|i think|probably)(?![^\W_])")


_TIMES_ASKED = re.compile(r"(?<![^\W_])(?:times|often|mentions?|occasions?)(?![^\W_])")
"""A tally question that counts times, where "once" is a count."""
_TIMES_WORD = re.compile(r"(?<![^\W_])(?:once|twice|thrice)(?![^\W_])")


_COUNTED: Final = frozenset(("time", "times", "mention", "mentions", "occasion", "occasions"))


def _iso_day(raw: str) -> date | None:
    try:
        return date.fromisoformat(raw)
    except ValueError:
        return None


def check_list(case: MemoryCase, answer: Answer) -> float:
    """The fraction of the distinct items named, in any order."""
    items = _distinct(case.answer_items)
    if not items:
        return 0.0
    return _best(answer, lambda text: sum(hit(text, item) for item in items) / len(items))


def check_ordered_list(case: MemoryCase, answer: Answer) -> float:
    """Every item named, each after the previous one; otherwise nothing."""
    items = tuple(item for item in case.answer_items if normalize(item))
    if not items:
        return 0.0
    if not answer.rules.order_items_once:
        return _best(answer, lambda text: float(in_order(text, items)))

    if answer.rules.committed_scans:
        # What counts is the order an answer first names them in; naming one again later
        # ("so Digital Photography Basics is the latest") restates, it does not reorder.
        return _agreed(
            answer,
            lambda text: float(_first_named_in_order(text, items)),
            lambda text: any(hit(text, item) for item in items),
        )

    def once_in_order(text: Prepared) -> float:
        # A permutation dump names each item several times; one answer names each once.
        once = all(len(spans(text, item)) == 1 for item in items)
        return float(once and in_order(text, items))

    return _agreed(answer, once_in_order, lambda text: any(hit(text, item) for item in items))


def _first_named_in_order(text: Prepared, items: tuple[str, ...]) -> bool:
    """Every item named, and the first mention of each comes after the first of the one
    before."""
    firsts = []
    for item in items:
        found = spans(text, item)
        if not found:
            return False
        firsts.append(found[0][0])
    return all(a < b for a, b in itertools.pairwise(firsts))


def check_duration(case: MemoryCase, answer: Answer) -> float:
    """The first duration stated (or a bare number, read as days) is within max(2, e // 2) days
    of the expected e days."""
    expected = whole_number(case.expected_answer)
    if expected is None or expected < 0:
        return 0.0
    if answer.rules.exact_durations:
        rules = answer.rules
        sums = rules.committed_scans  # grading-4: the sum shown is working, not another answer

        def exact(text: Prepared) -> float:
            return float(exact_duration(without_sums(text) if sums else text, expected, rules))

        return _agreed(answer, exact, lambda text: bool(stated_durations(text)))
    tolerance = max(2, expected // 2)

    def judge(text: Prepared) -> float:
        found = durations_in_days(text)
        stated = found[0] if found else bare_days(text)
        return float(stated is not None and abs(stated - expected) <= tolerance)

    return _best(answer, judge)


def _names_activity(case: MemoryCase, answer: Answer) -> bool:
    activity = case.answer_items[0] if case.answer_items else case.expected_answer
    return any(hit(answer.full, form) for form in (activity, *case.accepted))


@dataclass(frozen=True, slots=True)
class _Determination:
    """What an answer says about an activity, counting only cues the question does not use."""

    ended: bool
    goes_on: bool
    """Said to go on with a strong cue ("still", "haven't given up")."""
    current: bool
    """Placed in the present with a weak cue ("these days", "yes"), which also fits an ended
    activity ("you don't do it these days")."""


@lru_cache(maxsize=1024)
def _status_cues(
    question: str, lexicon_id: str
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """(cessation, strong persistence, weak persistence) cues the question does not use:
    memoised, a case is graded against many answers."""
    words = lexicon(lexicon_id)
    cessation = phrases_outside(question, words.cessation)
    strong = phrases_outside(question, words.strong_persistence)
    present = words.persistence
    weak = phrases_outside(question, tuple(p for p in present if p not in strong))
    return cessation, strong, weak


def _determine(case: MemoryCase, answer: Answer) -> _Determination:
    full = answer.full
    cessation, strong, weak = _status_cues(case.question, answer.rules.lexicon)
    if answer.rules.more_phrasings:  # "You gave pottery up" says "gave it up"
        full = _activity_as_it(case, full)
    ended_said, ended_denied = negations(full, cessation)  # "gave up", "haven't given up"
    goes_on_said, goes_on_denied = negations(full, strong)  # "still", "not still"
    ended = ended_said or goes_on_denied or has_phrase(full, USED_TO)
    goes_on = goes_on_said or ended_denied
    return _Determination(ended, goes_on, has_unnegated(full, weak))


def says_the_other_status(case: MemoryCase, text: Prepared, rules: GradingPolicy) -> bool:
    """Whether ``text`` (a sentence about some other activity) says the opposite of what the
    case asks to be said: that it goes on, where the case's activity ended, or that it ended,
    where it goes on (grading-4: "the hobbies still going are glassblowing…" beside an ending is
    context, not a second answer)."""
    said = _determine(case, Answer(text, text, text, None, rules))
    if case.answer_kind == "reversal":
        return (said.goes_on or said.current) and not said.ended
    if case.answer_kind == "persistence":
        return said.ended and not said.goes_on
    return False


def _activity_as_it(case: MemoryCase, text: Prepared) -> Prepared:
    """``text`` with each mention of the activity (or an accepted form, with "the", "your" or
    "my" before it) read as "it"."""
    activity = case.answer_items[0] if case.answer_items else case.expected_answer
    forms = [f for f in (activity, *case.accepted) if normalize(f)]
    owned = [f"{owner} {form}" for owner in ("the", "your", "my") for form in forms]
    return masked(text, [*owned, *forms], by="it")


def check_reversal(case: MemoryCase, answer: Answer) -> float:
    """The activity is named and said to have ended: an unnegated cessation phrase ("gave it
    up") or a negated persistence phrase ("not still"). With ``typed_determination`` the cues
    must not come from the question, and an answer also saying it goes on fails."""
    if answer.rules.typed_determination:
        said = _determine(case, answer)
        return float(said.ended and not said.goes_on and _names_activity(case, answer))
    full, words = answer.full, lexicon(answer.rules.lexicon)
    ended = has_unnegated(full, words.cessation) or has_negated(full, words.persistence)
    return float(ended and _names_activity(case, answer))


def check_persistence(case: MemoryCase, answer: Answer) -> float:
    """The activity is named and said to go on ("still", "haven't given up"), with no suggestion
    that it ended: no unnegated cessation phrase, no negated persistence phrase ("not still"),
    no "used to". With ``typed_determination`` the cues must not come from the question."""
    if answer.rules.typed_determination:
        said = _determine(case, answer)
        on = said.goes_on or said.current
        return float(on and not said.ended and _names_activity(case, answer))
    full, words = answer.full, lexicon(answer.rules.lexicon)
    goes_on = has_unnegated(full, words.persistence) or has_negated(full, words.cessation)
    ended = (
        has_unnegated(full, words.cessation)
        or has_negated(full, words.persistence)
        or has_phrase(full, USED_TO)
    )
    return float(goes_on and not ended and _names_activity(case, answer))


def check_decline(case: MemoryCase, answer: Answer) -> float:
    """A grounded decline: the abstain flag or an unnegated decline phrase, in an answer that
    shares a content word with the question ("no record of your grandfather's name" declines
    grounded; a bare "I don't know." does not)."""
    rules = answer.rules
    phrases = lexicon(rules.lexicon).decline
    declined = answer.abstain is True or has_unnegated(answer.full, phrases)
    need = answer.rules.decline_grounding_words
    if need <= 1:
        grounded = not content_words(case.question).isdisjoint(content_words(answer.full))
        return float(declined and grounded)
    offered = offers_candidate(answer.full, rules.phrasings_4, rules.readings_6, rules.readings_7)
    if answer.rules.decline_offer_fails and offered:
        return 0.0
    said = content_words(answer.full)
    asked = content_words(case.question)
    subject = any(
        (words_of := content_words(item)) and words_of <= said for item in case.answer_items
    )
    grounded = subject or len(asked & said) >= min(need, len(asked))
    grounded = grounded or (rules.readings_6 and answer.heard)
    return float(declined and grounded and bool(said or answer.heard))


def check_acknowledge(case: MemoryCase, answer: Answer) -> float:
    """An unnegated acknowledgement ("Saved!", "Done, it's deleted") and no decline other than a
    completed delete's ("it has been deleted")."""
    full = answer.full
    return float(has_unnegated(full, ACKNOWLEDGE) and not has_unnegated(full, _ACK_BLOCKERS))


CHECKS: Final[MappingProxyType[str, Check]] = MappingProxyType(
    {
        "value": check_value,
        "number": check_number,
        "tally": check_tally,
        "list": check_list,
        "ordered_list": check_ordered_list,
        "duration": check_duration,
        "reversal": check_reversal,
        "persistence": check_persistence,
        "decline": check_decline,
        "acknowledge": check_acknowledge,
    }
)
"""The check of every answer kind (``spec.memory.ANSWER_KINDS``, one each)."""


class UnknownAnswerKindError(DittobenchError, ValueError):
    """A memory case names an answer kind no check exists for (datasets read from JSON are
    refused before grading; this guards cases built in code)."""


def check(case: MemoryCase, answer: Answer) -> float:
    """The typed score of ``answer``: the check of the case's kind."""
    try:
        judge = CHECKS[case.answer_kind]
    except KeyError:
        raise UnknownAnswerKindError(
            f"memory case {case.id}: unknown answer kind {case.answer_kind!r}"
        ) from None
    return judge(case, answer)
