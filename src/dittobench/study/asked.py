"""A memory question as the red-team parser read it (``Asked``), the parser as the answers of the
shared question families (``study.families``) use it (``Answerer``), and the spoken dates
questions quote (``parse_day``). Both ``study.parser`` and ``study.families`` import these."""

from __future__ import annotations

from datetime import date
from typing import Protocol

from dittobench.core.dates import MONTH_NAMES
from dittobench.spec.memory import MemoryCase
from dittobench.spec.wire import RunResponse
from dittobench.study.history import Mention
from dittobench.study.index import PackIndex, QuestionWording


class Asked:
    """A question as parsed: its case, the wording it fits, the slot values and the user's
    mentions seeded by the time it is asked."""

    def __init__(
        self, case: MemoryCase, wording: QuestionWording, slots: dict[str, str], seen: list[Mention]
    ) -> None:
        self.case = case
        self.wording = wording
        self.slots = slots
        self.seen = seen
        self.attribute = wording.attribute

    def own(self, roles: tuple[str, ...]) -> list[Mention]:
        """The user's own mentions of the asked attribute in ``roles``, oldest first."""
        return [m for m in self.seen if m.attribute == self.attribute and m.role in roles]


class Answerer(Protocol):
    """What a family answer asks of the parser (``study.parser.MemoryParser``)."""

    @property
    def index(self) -> PackIndex: ...

    def decline(self, subject: str) -> RunResponse: ...

    def subject(self, attribute: str) -> str: ...

    def activity(self, asked: Asked) -> RunResponse: ...


def parse_day(text: str) -> date | None:
    """``March 3, 2026`` (``core.dates.spoken_date``) as a date; None when it is not one."""
    parts = text.replace(",", " ").split()
    if len(parts) != 3 or parts[0] not in MONTH_NAMES:
        return None
    try:
        return date(int(parts[2]), MONTH_NAMES.index(parts[0]) + 1, int(parts[1]))
    except ValueError:
        return None


__all__ = ["Answerer", "Asked", "parse_day"]
