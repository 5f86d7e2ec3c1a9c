"""Per-case mock-tool fixtures: the invented subject, the needle and the decoy figure.

The needle is the only place a result-usage answer can come from: an invented subject (a coined
name plus a noun), a figure from about 1e8 values and a unit, so the whole sentence has well over
10**15 values. The decoy figure always differs from the needle figure. With a ``results``
grammar (bench 3.0, ``findings.py``) the fixture also carries the two sentences the mock tools
serve, drawn after everything else.
"""

from __future__ import annotations

import re

from dittobench.catalog.content import CONTENT_TOOLS
from dittobench.core import codes
from dittobench.core.prng import Stream
from dittobench.generate.grammar import Grammar
from dittobench.generate.tools import findings, makers
from dittobench.generate.tools.category import Category
from dittobench.generate.tools.makers import ValueWords
from dittobench.spec.dataset import ToolFixture

FIXTURE_NEEDS: tuple[tuple[str, ...], tuple[str, ...]] = (
    ("fixture_nouns", "fixture_units"),
    ("fixture_subject", "needle"),
)
"""The ``values.json`` pools and formats every fixture reads (besides the ``job_id`` and ``url``
makers')."""
FIXTURE_MAKERS = ("job_id", "url")


def make_fixture(
    stream: Stream,
    case_id: str,
    category: Category,
    words: ValueWords,
    results: Grammar | None = None,
    either_side: bool = False,
) -> ToolFixture:
    """Draw the fixture for one case. ``bearer`` is the last content tool the case expects.
    With ``results``, ``needle`` and ``decoy`` are the served sentences (``findings``), the
    decoy dated before the needle or (``either_side``) on either side of it."""
    name = codes.coined_name(stream, 3, words.syllables)
    noun = stream.choice(words.pool("fixture_nouns"))
    subject = words.formats["fixture_subject"].format(name=name, noun=noun)
    unit = stream.choice(words.pool("fixture_units"))
    needle_figure = codes.figure(stream)
    decoy_figure = codes.figure(stream)
    while decoy_figure == needle_figure:
        decoy_figure = codes.figure(stream)
    job_id = makers.job_id(stream, words)
    link = makers.url(stream, words)
    content = [tool for tool in category.tools if tool in CONTENT_TOOLS]
    bearer = content[-1] if content else ""
    needle = (
        words.formats["needle"].format(subject=subject, figure=f"{needle_figure:,}", unit=unit)
        if bearer
        else ""
    )
    decoy = ""
    if results is not None:
        needle_date, decoy_date = findings.draw_dates(stream, words, either_side)
        if bearer:
            needle = findings.finding(
                stream, results, subject, f"{needle_figure:,}", unit, needle_date
            )
        decoy = findings.finding(stream, results, subject, f"{decoy_figure:,}", unit, decoy_date)
    return ToolFixture(
        case_id=case_id,
        subject=subject,
        unit=unit,
        decoy_figure=f"{decoy_figure:,}",
        job_id=job_id,
        link=link,
        bearer=bearer,
        needle=needle,
        needle_figure=f"{needle_figure:,}" if bearer else "",
        fail_first=category.fail_first,
        decoy=decoy,
    )


def fixture_values(
    fixture: ToolFixture, category: Category | None = None, words: ValueWords | None = None
) -> dict[str, str]:
    """The reserved slot values a category's grammar and carried pins read from the fixture.
    Given the ``category`` and ``words`` (bench 5.0, ``fixtures_about_request``), a ``topic``
    slot is the fixture's own subject too, so what the tools find is about what was asked: the
    coined name of the subject where the slot's maker coins a name, else the whole subject."""
    values = {"subject": fixture.subject, "job_id": fixture.job_id, "link": fixture.link}
    if category is not None and words is not None and TOPIC in category.slot_makers:
        named = category.slot_makers[TOPIC] == "coined_word"
        values[TOPIC] = _subject_name(fixture.subject, words) if named else fixture.subject
    return values


TOPIC = "topic"


def _subject_name(subject: str, words: ValueWords) -> str:
    """The coined name inside a subject drawn with the ``fixture_subject`` format."""
    form = re.escape(words.formats["fixture_subject"])
    pattern = form.replace(r"\{name\}", "(?P<name>.+?)").replace(r"\{noun\}", ".+")
    found = re.fullmatch(pattern, subject)
    return found.group("name") if found else subject
