"""The nuance score as the command line and the pages show it: beside the verified score (the
composite), never in it and never added to it. A run judged by anything but its bench version's
locked judge is marked unofficial wherever the score is shown; a run whose open questions were
never judged says so, with how many there were. The open questions' table shows each case's
question, status, rubric score and the judge's combined verdict per rubric item, with the item's
words from the dataset (docs/web.md, docs/judge.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from dittobench.spec.codec import DecodeError, decode
from dittobench.spec.dataset import Dataset
from dittobench.spec.judging import NuanceScore, OpenVerdict
from dittobench.spec.open import NOT_PREFIX, STATE_PREFIX, OpenCase, RubricItem
from dittobench.spec.versions import UnknownVersionError, get_policy
from dittobench.views.html import plus_minus

NOT_IN_COMPOSITE = "judged after the run; beside the composite, never in it"


def read_nuance(data: object) -> NuanceScore | None:
    """A stored report's ``nuance`` JSON read back (None when it has none, or one that cannot
    be read: the run's own page names that problem)."""
    if not isinstance(data, dict):
        return None
    try:
        return decode(NuanceScore, data)
    except DecodeError:
        return None


@dataclass(frozen=True, slots=True)
class Said:
    """A nuance score in words. ``judge`` is "" when nobody judged the run; ``unofficial`` is
    why a judged run is not official ("" when it is, or when nobody judged it)."""

    value: str
    counts: str
    judge: str
    unofficial: str

    @property
    def judged(self) -> bool:
        return bool(self.judge)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def why_unofficial(nuance: NuanceScore, bench_version: str) -> str:
    """Why a judged run's nuance score is not official ("" when it is)."""
    if nuance.official or not nuance.judge_id:
        return ""
    try:
        locked = get_policy(bench_version).judge
    except UnknownVersionError:
        locked = None
    if locked is None:
        return f"bench {bench_version} has no locked judge"
    if nuance.judge_model != locked.model:
        return f"judged by {nuance.judge_model}, not the locked {locked.model}"
    if nuance.protocol_sha256 != locked.sha256:
        return f"not the locked protocol of {locked.id}"
    return f"a reply named a model other than {locked.model}"


def said(nuance: NuanceScore, bench_version: str, digits: int = 4) -> Said:
    """``nuance`` in words: the score (± SE), the counts, the judge, and why it is unofficial."""
    statuses = [v.status for v in nuance.per_case]
    judged = statuses.count("judged")
    unanswered = statuses.count("no_answer")
    counts = f"{judged} of {_plural(nuance.total, 'open question')} judged"
    if unanswered:
        counts += f", {unanswered} unanswered (scored 0)"
    if nuance.judge_errors:
        counts += f", {_plural(nuance.judge_errors, 'judge error')} (counted neither way)"
    if not nuance.judge_id:
        return Said("not judged", counts, "", "")
    value = "no score" if nuance.score is None else plus_minus(nuance.score, nuance.stderr, digits)
    judge = f"{nuance.judge_id} · {nuance.judge_model}"
    return Said(value, counts, judge, why_unofficial(nuance, bench_version))


def nuance_text(nuance: NuanceScore, bench_version: str, hint: str = "") -> str:
    """One line of plain text: ``0.6120 ± 0.0710 (8 of 8 open questions judged; judge
    dittobench-judge-1 · gemma-…, official)``, or ``not judged (8 open questions; HINT)``."""
    shown = said(nuance, bench_version)
    if not shown.judged:
        tail = f"; {hint}" if hint else ""
        return f"not judged ({_plural(nuance.total, 'open question')}{tail})"
    mark = f"UNOFFICIAL: {shown.unofficial}" if shown.unofficial else "official"
    return f"{shown.value} ({shown.counts}; judge {shown.judge}, {mark})"


@dataclass(frozen=True, slots=True)
class OpenText:
    """What an open case asked, its rubric, and the answer the judge read."""

    case: OpenCase
    answer: str

    @property
    def items(self) -> dict[str, RubricItem]:
        return {i.id: i for i in (*self.case.must_state, *self.case.must_not)}


def open_texts(
    dataset: Dataset | None, records: Mapping[str, Mapping[str, object]]
) -> dict[str, OpenText]:
    """case id -> the open case (question and rubric) and the answer as recorded ({} without
    the dataset)."""
    if dataset is None:
        return {}
    out = {}
    for case in dataset.open_cases:
        response = (records.get(case.id) or {}).get("response")
        answer = ""
        if isinstance(response, dict):
            prose = str(response.get("final_text") or "").strip()
            slot = str(response.get("answer") or "").strip()
            answer = f"{prose}\n{slot}".strip() if slot and slot not in prose else prose
        out[case.id] = OpenText(case, answer)
    return out


def _item_order(item_id: str) -> tuple[int, int, str]:
    prefix, number = item_id[:1], item_id[1:]
    return (prefix != STATE_PREFIX, int(number) if number.isdigit() else 0, item_id)


NOTE_WORDS = {
    "current": "in force now",
    "superseded": "superseded",
    "look_alike": "a look-alike nobody holds",
    "someone_else": "someone else's",
    "not_answer": "not the answer",
}
"""A rubric item's ``note`` in words."""


@dataclass(frozen=True, slots=True)
class VerdictLine:
    """The judge's combined verdict on one rubric item, in words; ``about``, ``value`` and
    ``note`` are the item's words from the dataset (``known``: the dataset names the item)."""

    item_id: str
    verdict: str
    css: str
    words: str
    known: bool = False
    about: str = ""
    value: str = ""
    note: str = ""


def verdict_lines(verdict: OpenVerdict, text: OpenText | None) -> tuple[VerdictLine, ...]:
    """One line per rubric item the judge answered, the facts to state first."""
    items = text.items if text else {}
    given = verdict.verdicts or {}
    lines = []
    for item_id in sorted(given, key=_item_order):
        said_yes = given[item_id] == "YES"
        if item_id.startswith(NOT_PREFIX):
            css, words = ("bad", "asserted") if said_yes else ("ok", "not asserted")
        else:
            css, words = ("ok", "stated") if said_yes else ("bad", "not stated")
        line = VerdictLine(item_id, given[item_id], css, words)
        item = items.get(item_id)
        if item is not None:
            note = NOTE_WORDS.get(item.note, item.note) if item.note else ""
            line = VerdictLine(
                item_id, line.verdict, css, words, True, item.about, item.value, note
            )
        lines.append(line)
    return tuple(lines)


__all__ = [
    "NOTE_WORDS",
    "NOT_IN_COMPOSITE",
    "OpenText",
    "Said",
    "VerdictLine",
    "nuance_text",
    "open_texts",
    "read_nuance",
    "said",
    "verdict_lines",
    "why_unofficial",
]
