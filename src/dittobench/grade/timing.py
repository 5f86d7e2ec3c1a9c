"""When an answer says a value held (grading-4, ``grade.commitment``): asked about a time,
what came later or earlier is set aside; asked for the current value, what came before is,
unless named as current. Pure.
"""

from __future__ import annotations

import re
from typing import Final

from dittobench.grade.cues import OWNERS, alternation
from dittobench.grade.people import PARENTHETICAL

AT_A_TIME: Final = "at"
"""The question asks for the value at a time (or an order): a value said to come later is
set aside."""

LATEST: Final = "latest"
"""The question asks for the current value: a value said to come earlier ("until March",
"earlier in the year") is set aside."""

LATER_BEFORE = re.compile(
    r"(?<![^\W_])"
    + alternation(
        r"later",
        r"afterwards",
        r"after that",
        r"until",
        r"till",
        r"since then",
        r"only (?:later |then )?(?:switched|moved|changed|started|became|went|got|bought|took)",
        r"(?:then|later|eventually|afterwards) (?:you )?(?:switched|moved|changed|went|upgraded|"
        r"swapped) (?:over )?(?:to|for)",
        r"took over from",
        r"next",
        r"after (?:those|them|these|that)(?: came)?",
        r"(?:left|retired|replaced|swapped|traded|ditched|dropped|quit|cancelled|canceled)"
        r"(?: it| that| them)?(?: [^\W_]+(?:'[^\W_]+)?){0,5}? for",
        r"turned out to be",
        r"moved on(?: to| from)?",
        r"after (?:[0-9]{1,2}(?:st|nd|rd|th)? [a-z]+|[a-z]+ [0-9]{1,2}(?:st|nd|rd|th)?)",
        r"these days",
        r"nowadays",
        r"now",
        r"currently",
    )
    + r"(?:[\s,]+[^\W_]+(?:'[^\W_]+)?){0,8}?(?: "
    + OWNERS
    + r")*[\s,:\"'(]*$"
)

LATER_AFTER = re.compile(
    r"^[\s,:\"')]*(?:[^\W_]+ ){0,3}?"
    + alternation(
        r"came (?:later|after|next|afterwards)",
        r"later",
        r"afterwards",
        r"after that",
        r"after them",
        r"after these",
        r"after those",
        r"after this",
        r"from then on",
        r"since then",
        r"(?:which is |that's |where )?(?:where )?you are now",
        r"now",
        r"until",
    )
    + r"(?![^\W_])"
)
"""Point-in-time questions only: a value said to come later than the asked time."""

HISTORY = re.compile(
    r"(?<![^\W_])"
    + alternation(
        r"here's how it (?:went|changed|has changed|'s changed|developed|went down)",
        r"here is how it (?:went|changed|has changed)",
        r"how it's changed",
        r"the (?:trail|history|timeline|story so far|full story)",
        r"quite a journey",
        r"(?:you've|you have|has|have|it's) moved around",
        r"it's changed (?:a few|several|a couple of) times",
        r"changed (?:a fair bit|a lot|quite a bit|a few times|several times)",
        r"so it doesn't get muddled",
        r"(?:it|that|this) (?:has |had )?changed since",
        r"over time",
    )
    + r"(?![^\W_])"
)
"""Cues that open a telling of how a value changed: every value named after them is history,
unless named as the current one ("and now", "the latest")."""

LATEST_HISTORY = re.compile(
    r"(?<![^\W_])(?:back (?:around|in|on|then)|earlier (?:on|in the year)|originally|at first|"
    r"you started (?:at|with|on|out))(?![^\W_])"
)
"""Asked for the current value: these open a telling of the earlier ones."""

CURRENT_BEFORE = re.compile(
    r"(?<![^\W_])(?:now|currently|these days|the latest|latest|current|at the moment|"
    r"at present|as things stand|today|nowadays)(?: [^\W_]+(?:'[^\W_]+)?){0,4}?(?: "
    + OWNERS
    + r")*"
    r"[\s,:\"'(]*$"
)

CURRENT_AFTER = re.compile(r"^[\s,:\"')]*(?:[^\W_]+ ){0,2}?(?:now|these days|currently)(?![^\W_])")

LATER_FORWARD = re.compile(
    r"(?<![^\W_])(?:changed (?:soon |shortly )?(?:afterwards|after|later)|later on|soon after|"
    r"afterwards|goodbye)(?![^\W_])"
)
"""Point-in-time questions: what follows these in a sentence came later."""

AFTER_BEFORE = re.compile(r"(?<![^\W_])before (?:the |your |that |my )?$")

BEFORE_IT_WAS = re.compile(
    r",? ?(?:(?:it|that|there) (?:was|were)|you (?:had|used|were (?:on|with|at|in))|came)?"
    r" ?(?:a|an|the|your)? ?"
)

CONTINUED = re.compile(
    r"[^.!?;]{0,30}?(?:,? and|, then|; then|,? which you corrected to)(?! (?:still|though|but))"
    r"[^.!?;]{0,40}"
)
"""At a time: "you switched to A, and in late November to B" goes on with what came later."""

CHAINED = re.compile(
    r"[^.!?;]{0,40}?(?:,|\band\b)? ?(?:and )?then(?: (?:to|at|on|with|in|a|an|the|your))*[\s,]*"
)
"""The text between two mentions that continues a sequence ("(14 Oct), then Telekom")."""


def timed_aside(timing: str, key: str, start: int, at: int, before: str, after: str) -> bool:
    """Set aside by when it held: later than the asked time, or earlier than the latest."""
    after = PARENTHETICAL.sub(" ", after)
    if timing == AT_A_TIME:
        return (
            LATER_BEFORE.search(before) is not None
            or LATER_AFTER.match(after) is not None
            or OTHER_TIME_FORWARD.search(key, start, at) is not None
            or LATER_FORWARD.search(key, start, at) is not None
        )
    if timing == LATEST:
        return (
            EARLIER_FORWARD.search(key, start, at) is not None
            or EARLIER_AFTER.match(after) is not None
        )
    return False


OTHER_TIME_FORWARD = re.compile(
    r"(?<![^\W_])(?:earlier on|before that|before then|previously|originally|at first|used to|"
    r"formerly)(?![^\W_])"
)
"""Asked about a time: what these put before the asked time is not the answer either."""

EARLIER_FORWARD = re.compile(
    r"(?<![^\W_])(?:earlier|previously|originally|at first|in the past|back then|back in|"
    r"before|until|till|used to|formerly|in between|for context|retired|back on|"
    r"on that (?:date|day)|"
    r"at (?:that|the) (?:time|point)|for (?:those|that|the) (?:[^\W_]+ ){0,3}(?:notes|photos|"
    r"date|day))(?![^\W_])"
)

EARLIER_AFTER = re.compile(
    r"^[\s,:\"')]*(?:(?:[^\W_]+ ){0,3}?(?:until|till|up to)|(?:[^\W_]+ )?(?:before|previously|"
    r"earlier|at first|originally|in the past|back then)|(?:[^\W_]+[\s,()]+){0,6}?(?:and )?"
    r"(?:after that|then|later|afterwards) (?:came|you|it|switched|moved))(?![^\W_])"
)
"""Questions about the current value: what these put before it in a sentence was earlier."""
