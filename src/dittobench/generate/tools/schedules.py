"""Slot makers for times and timetables: working-hours meeting times and repeating schedules.

Every value is drawn from the case's stream, so it is new for each seed. Morning and evening
forms carry hours that belong to that part of the day.
"""

from __future__ import annotations

from dittobench.core.dates import ordinal
from dittobench.core.prng import Stream
from dittobench.generate.tools import values

_ORDINAL_WORDS = ("first", "second", "third", "last")


def _any_time(stream: Stream) -> str:
    """A clock time that fits any day: a morning, afternoon or evening hour, or noon."""
    kind = stream.below(4)
    if kind == 0:
        return f"{stream.between(6, 11)}{values.quarter_minutes(stream)} am"
    if kind == 1:
        return f"{stream.between(1, 5)}{values.quarter_minutes(stream)} pm"
    if kind == 2:
        return f"{stream.between(6, 9)}{values.quarter_minutes(stream)} pm"
    return "noon"


def schedule(stream: Stream) -> str:
    """A natural repeating timetable, e.g. ``every weekday at 7:30 am`` or ``on the 15th of each
    month at noon``. Morning and evening forms carry hours that belong to that part of the day."""
    day = values.weekday(stream)
    form = stream.below(9)
    if form == 0:
        return f"every {day} at {_any_time(stream)}"
    if form == 1:
        return f"every weekday at {_any_time(stream)}"
    if form == 2:
        return f"every day at {_any_time(stream)}"
    if form == 3:
        return f"every other {day} at {_any_time(stream)}"
    if form == 4:
        return f"every {day} morning at {stream.between(6, 11)}{values.quarter_minutes(stream)}"
    if form == 5:
        return f"every {day} evening at {stream.between(6, 9)}{values.quarter_minutes(stream)}"
    if form == 6:
        first, second = sorted(stream.sample(range(7), 2))
        pair = f"{values.WEEKDAYS[first]} and {values.WEEKDAYS[second]}"
        return f"every {pair} at {_any_time(stream)}"
    if form == 7:
        month = stream.choice(("each month", "every month"))
        return f"on the {ordinal(stream.between(1, 28))} of {month} at {_any_time(stream)}"
    return f"on the {stream.choice(_ORDINAL_WORDS)} {day} of every month at {_any_time(stream)}"


def meeting_time(stream: Stream) -> str:
    """A working-hours time such as ``9:30 am`` or ``2 pm``."""
    hour = stream.between(8, 17)
    minute = values.quarter_minutes(stream)
    return f"{(hour - 1) % 12 + 1}{minute} {'am' if hour < 12 else 'pm'}"
