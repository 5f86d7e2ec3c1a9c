"""How many of a run's cases got no answer, and why: read from the transcript's execution
records (the report keeps only "undelivered" as a case's reason, not what went wrong).

``undelivered_text`` is what the run summary prints (``dittobench run``, ``show``, ``grade``):
``"96 of 206 cases (96 timeout)"``, empty when every case got an answer."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any, Final

from dittobench.spec.vocab import AttemptOutcome

OUTCOMES: Final[tuple[AttemptOutcome, ...]] = (
    "timeout",
    "connection_error",
    "http_error",
    "bad_json",
    "too_large",
)
"""The outcomes of a case that got no answer to grade (``engine.client``), in the order they are
listed; any other outcome a record names follows them, alphabetically."""


def undelivered(cases: Iterable[Any]) -> tuple[int, Counter[str]]:
    """The number of case records (a transcript's ``cases``, as JSON) and, per outcome, how many
    got no answer (no ``response``). A record that is not such an object is left out."""
    total, missing = 0, Counter[str]()
    for record in cases:
        if not isinstance(record, Mapping):
            continue
        total += 1
        if record.get("response") is None:
            execution = record.get("execution")
            outcome = execution.get("outcome") if isinstance(execution, Mapping) else None
            missing[outcome if isinstance(outcome, str) and outcome else "unknown"] += 1
    return total, missing


def undelivered_text(transcript: Mapping[str, Any] | None) -> str:
    """``"<n> of <total> cases (<count> <outcome>, …)"`` for the cases of ``transcript`` (as
    JSON) that got no answer; ``""`` when there are none or no transcript."""
    cases = transcript.get("cases") if transcript is not None else None
    if not isinstance(cases, list):
        return ""
    total, missing = undelivered(cases)
    if not missing:
        return ""
    order = [o for o in OUTCOMES if missing[o]] + sorted(set(missing) - set(OUTCOMES))
    said = ", ".join(f"{missing[o]} {o}" for o in order)
    return f"{sum(missing.values())} of {total} cases ({said})"


__all__ = ["OUTCOMES", "undelivered", "undelivered_text"]
