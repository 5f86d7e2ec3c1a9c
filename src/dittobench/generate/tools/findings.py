"""The sentences the mock tools serve about a case's subject (``findings_from_pack``, bench 3.0).

Before 3.0 the mock tools framed the needle and the decoy figure in their own words, worded apart
("final audited report" against "early estimate"), so a harness could pick the needle by its
frame. From 3.0 both sentences are expansions of the same symbol, ``finding``, of the pack's
``results`` grammar (tools.json), filled with ``{subject}``, ``{figure}``, ``{unit}`` and
``{date}``: only their content tells them apart. Each is dated; the decoy's date comes
``GAP_DAYS`` before the needle's, or (bench 6.1 ``decoys_either_side``) before or after it,
drawn, so the source the request names tells them apart, not the later date. The calendar runs
over the years of ``pools.years``, each of ``pools.months`` months of ``DAYS_PER_MONTH`` days,
and a date is written as ``formats.finding_date`` (``{month}``, ``{day}``, ``{year}``). Up to
6.0 a reader who compares the dates knows which figure is current; from 6.1 one who reads which
source the request asked for does; one who reads the wording alone never does, and over a span
of years neither date's month says much on its own.
"""

from __future__ import annotations

from types import MappingProxyType

from dittobench.core.prng import Stream
from dittobench.generate.grammar import Grammar, expand, fill, tidy
from dittobench.generate.tools.makers import ValueWords
from dittobench.packs import Pack, PackError

RESULTS = "results"
"""The tools.json key holding the grammar."""
FINDING = "finding"
"""The symbol every served sentence expands."""
DAYS_PER_MONTH = 28
GAP_DAYS = (10, 75)
"""The decoy's date is this many days (inclusive) before the needle's."""

FINDING_NEEDS: tuple[tuple[str, ...], tuple[str, ...]] = (("months", "years"), ("finding_date",))
"""The ``values.json`` pools and formats the dates of findings read."""

_CACHE: dict[str, Grammar] = {}


def results_grammar(pack: Pack) -> Grammar:
    """The pack's ``results`` grammar; ``PackError`` naming the key when it is missing or not a
    grammar (an object of symbols, each a non-empty list of strings, ``finding`` among them)."""
    cached = _CACHE.get(pack.sha256)
    if cached is None:
        cached = _CACHE[pack.sha256] = _read(pack)
    return cached


def _read(pack: Pack) -> Grammar:
    where = f"{pack.path / 'tools'}.json"
    raw = pack.file("tools").get(RESULTS)
    if not isinstance(raw, dict):
        raise PackError(f"{where}: key {RESULTS!r}: must be an object of grammar symbols")
    grammar: dict[str, tuple[str, ...]] = {}
    for symbol, alternatives in raw.items():
        if (
            not isinstance(alternatives, list)
            or not alternatives
            or not all(isinstance(a, str) for a in alternatives)
        ):
            raise PackError(f"{where}: key '{RESULTS}.{symbol}': must be a list of strings")
        grammar[symbol] = tuple(alternatives)
    if FINDING not in grammar:
        raise PackError(f"{where}: key '{RESULTS}.{FINDING}': missing")
    return MappingProxyType(grammar)


def draw_dates(stream: Stream, words: ValueWords, either_side: bool = False) -> tuple[str, str]:
    """(the needle's date, the decoy's date, earlier unless ``either_side``). Draws: the
    needle's day of the calendar, the gap, then (``either_side``) whether the decoy is later."""
    low, high = GAP_DAYS
    days = len(words.pool("years")) * len(words.pool("months")) * DAYS_PER_MONTH
    needle_day = stream.between(high, days - 1 - (high if either_side else 0))
    gap = stream.between(low, high)
    decoy_day = needle_day + gap if either_side and stream.chance(1, 2) else needle_day - gap
    return _date(needle_day, words), _date(decoy_day, words)


def _date(day: int, words: ValueWords) -> str:
    months = words.pool("months")
    year, rest = divmod(day, len(months) * DAYS_PER_MONTH)
    month, day_of_month = divmod(rest, DAYS_PER_MONTH)
    return words.formats["finding_date"].format(
        month=months[month], day=day_of_month + 1, year=words.pool("years")[year]
    )


def finding(
    stream: Stream, grammar: Grammar, subject: str, figure: str, unit: str, date: str
) -> str:
    """One served sentence: ``finding`` expanded, tidied and filled."""
    values = dict(subject=subject, figure=figure, unit=unit, date=date)
    return fill(tidy(expand(grammar, stream, FINDING)), values)
