"""Slot makers: how a tool prompt's pinned values are drawn (coined names, addresses, codes,
dates, timetables), every word and format from the content pack's ``values.json``.

Each maker is ``maker(stream, words)``; the pack's categories name a maker (or a plain pool) per
slot. The draw order of each maker is part of the dataset's bytes (docs/determinism.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from dittobench.core import codes
from dittobench.core.dates import ordinal
from dittobench.core.prng import Stream

_LOWER = "abcdefghjkmnpqrstuvwxyz23456789"
_DIGITS = "0123456789"


@dataclass(frozen=True, slots=True)
class ValueWords:
    """``values.json``: named pools, the coined-name syllables, formats and timetable forms."""

    pools: Mapping[str, tuple[str, ...]]
    syllables: codes.Syllables
    formats: Mapping[str, str]
    minutes: tuple[str, ...]
    schedules: Mapping[str, str]

    def pool(self, name: str) -> tuple[str, ...]:
        return self.pools[name]


Maker = Callable[[Stream, ValueWords], str]


def coined_word(stream: Stream, words: ValueWords) -> str:
    """An invented capitalised word of two syllables, e.g. for product or project names."""
    return codes.coined_name(stream, 2, words.syllables)


def first_name(stream: Stream, words: ValueWords) -> str:
    return stream.choice(words.pool("first_names"))


def weekday(stream: Stream, words: ValueWords) -> str:
    return stream.choice(words.pool("weekdays"))


def _coined_thing(stream: Stream, words: ValueWords, pool: str) -> str:
    name = coined_word(stream, words)
    return words.formats["coined_thing"].format(name=name, thing=stream.choice(words.pool(pool)))


def routine_name(stream: Stream, words: ValueWords) -> str:
    return _coined_thing(stream, words, "routine_nouns")


def meeting_title(stream: Stream, words: ValueWords) -> str:
    return _coined_thing(stream, words, "meeting_kinds")


def news_topic(stream: Stream, words: ValueWords) -> str:
    return _coined_thing(stream, words, "news_things")


def coined_topic(stream: Stream, words: ValueWords) -> str:
    name = coined_word(stream, words)
    thing = stream.choice(words.pool("topic_things"))
    return words.formats["coined_topic"].format(name=name, thing=thing)


def person_name(stream: Stream, words: ValueWords) -> str:
    first = first_name(stream, words)
    return words.formats["person_name"].format(first=first, last=coined_word(stream, words))


def email_address(stream: Stream, words: ValueWords) -> str:
    first = first_name(stream, words).lower()
    last = codes.coined_name(stream, 2, words.syllables).lower()
    domain = codes.coined_name(stream, 2, words.syllables).lower()
    tld = stream.choice(words.pool("tlds"))
    return words.formats["email"].format(first=first, last=last, domain=domain, tld=tld)


def url(stream: Stream, words: ValueWords) -> str:
    host = codes.coined_name(stream, 3, words.syllables).lower()
    section = stream.choice(words.pool("link_sections"))
    slug = codes.coin_string(stream, 6, alphabet=_LOWER)
    tld = stream.choice(words.pool("tlds"))
    return words.formats["link"].format(host=host, tld=tld, section=section, slug=slug)


def image_url(stream: Stream, words: ValueWords) -> str:
    host = codes.coined_name(stream, stream.between(2, 3), words.syllables).lower()
    folder = stream.choice(words.pool("image_folders"))
    slug = codes.coin_string(stream, stream.between(6, 8), alphabet=_LOWER)
    extension = stream.choice(words.pool("image_extensions"))
    tld = stream.choice(words.pool("tlds"))
    return words.formats["image_link"].format(
        host=host, tld=tld, folder=folder, slug=slug, extension=extension
    )


def pair_id(stream: Stream, words: ValueWords) -> str:
    return words.formats["pair_id"].format(
        code=codes.coin_string(stream, 8, alphabet="0123456789abcdef")
    )


def error_code(stream: Stream, words: ValueWords) -> str:
    return words.formats["error_code"].format(code=codes.coin_string(stream, 4, alphabet=_DIGITS))


def job_id(stream: Stream, words: ValueWords) -> str:
    return words.formats["job_id"].format(code=codes.coin_string(stream, 8))


def digit_code(stream: Stream, words: ValueWords) -> str:
    """A lock or door code of 4 to 6 digits."""
    length = stream.between(4, 6)
    return str(stream.between(10 ** (length - 1), 10**length - 1))


def reference_code(stream: Stream, words: ValueWords) -> str:
    """A booking or membership reference such as ``QX7K2MP``."""
    return codes.coin_string(stream, 7)


def calendar_date(stream: Stream, words: ValueWords) -> str:
    month = stream.choice(words.pool("months"))
    return words.formats["calendar_date"].format(month=month, day=stream.between(1, 28))


def _time(words: ValueWords, hour: int, minutes: str, half: str) -> str:
    return words.formats["time"].format(hour=hour, minutes=minutes, half=words.formats[half])


def meeting_time(stream: Stream, words: ValueWords) -> str:
    """A working-hours time such as ``9:30 am`` or ``2 pm``."""
    hour = stream.between(8, 17)
    minutes = stream.choice(words.minutes)
    return _time(words, (hour - 1) % 12 + 1, minutes, "morning" if hour < 12 else "afternoon")


def _any_time(stream: Stream, words: ValueWords) -> str:
    """A morning, afternoon or evening hour, or noon."""
    kind = stream.below(4)
    if kind == 0:
        return _time(words, stream.between(6, 11), stream.choice(words.minutes), "morning")
    if kind == 1:
        return _time(words, stream.between(1, 5), stream.choice(words.minutes), "afternoon")
    if kind == 2:
        return _time(words, stream.between(6, 9), stream.choice(words.minutes), "afternoon")
    return words.formats["noon"]


def schedule(stream: Stream, words: ValueWords) -> str:
    """A repeating timetable: nine forms (``values.json`` ``schedules``), drawn in this order."""
    forms = words.schedules
    day = weekday(stream, words)
    form = stream.below(9)
    if form <= 3:
        name = ("every_day_named", "every_weekday", "every_day", "every_other")[form]
        return forms[name].format(day=day, time=_any_time(stream, words))
    if form in (4, 5):
        low, high = (6, 11) if form == 4 else (6, 9)
        clock = f"{stream.between(low, high)}{stream.choice(words.minutes)}"
        return forms["morning" if form == 4 else "evening"].format(day=day, clock=clock)
    if form == 6:
        first, second = sorted(stream.sample(range(7), 2))
        days = words.pool("weekdays")
        time = _any_time(stream, words)
        return forms["two_days"].format(first=days[first], second=days[second], time=time)
    if form == 7:
        month = stream.choice(words.pool("schedule_each_month"))
        nth = ordinal(stream.between(1, 28))
        return forms["month_day"].format(nth=nth, month=month, time=_any_time(stream, words))
    which = stream.choice(words.pool("schedule_ordinals"))
    return forms["month_weekday"].format(ordinal=which, day=day, time=_any_time(stream, words))


MAKERS: Mapping[str, Maker] = MappingProxyType(
    {
        maker.__name__: maker
        for maker in (
            coined_word,
            first_name,
            weekday,
            routine_name,
            meeting_title,
            news_topic,
            coined_topic,
            person_name,
            email_address,
            url,
            image_url,
            pair_id,
            error_code,
            job_id,
            digit_code,
            reference_code,
            calendar_date,
            meeting_time,
            schedule,
        )
    }
)
"""Every maker a pack's slot may name."""

SCHEDULE_FORMS: tuple[str, ...] = (
    "every_day_named",
    "every_weekday",
    "every_day",
    "every_other",
    "morning",
    "evening",
    "two_days",
    "month_day",
    "month_weekday",
)
"""The ``values.json`` ``schedules`` forms ``schedule`` reads."""

NEEDS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = MappingProxyType(
    {
        "coined_word": ((), ()),
        "first_name": (("first_names",), ()),
        "weekday": (("weekdays",), ()),
        "routine_name": (("routine_nouns",), ("coined_thing",)),
        "meeting_title": (("meeting_kinds",), ("coined_thing",)),
        "news_topic": (("news_things",), ("coined_thing",)),
        "coined_topic": (("topic_things",), ("coined_topic",)),
        "person_name": (("first_names",), ("person_name",)),
        "email_address": (("first_names", "tlds"), ("email",)),
        "url": (("link_sections", "tlds"), ("link",)),
        "image_url": (("image_folders", "image_extensions", "tlds"), ("image_link",)),
        "pair_id": ((), ("pair_id",)),
        "error_code": ((), ("error_code",)),
        "job_id": ((), ("job_id",)),
        "digit_code": ((), ()),
        "reference_code": ((), ()),
        "calendar_date": (("months",), ("calendar_date",)),
        "meeting_time": ((), ("time", "morning", "afternoon")),
        "schedule": (
            ("weekdays", "schedule_each_month", "schedule_ordinals"),
            ("time", "morning", "afternoon", "noon"),
        ),
    }
)
"""Per maker: the ``values.json`` pools and formats it reads by name (``schedule`` also reads
every form of ``SCHEDULE_FORMS``), so ``pack lint`` can name one a pack lacks."""
