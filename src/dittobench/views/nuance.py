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
from dittobench.views.html import esc, plus_minus, table

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


def nuance_cell(nuance: NuanceScore | None, bench_version: str) -> str:
    """A table cell (HTML): the score ± SE, marked unofficial; blank without a score."""
    if nuance is None or nuance.score is None:
        return ""
    reason = why_unofficial(nuance, bench_version)
    cell = plus_minus(nuance.score, nuance.stderr, 4)
    return cell + (unofficial_mark(reason) if reason else "")


def unofficial_mark(reason: str) -> str:
    """The unofficial marker, in words as well as colour, with its reason as a title."""
    return f' <span class=warn title="{esc(reason)}">unofficial</span>'


def nuance_card(nuance: NuanceScore | None, bench_version: str) -> str:
    """The nuance block beside the composite card ("" when the run has no open questions)."""
    if nuance is None:
        return ""
    shown = said(nuance, bench_version)
    if not shown.judged:
        detail = f"{esc(shown.counts)}: the run had no judge"
    else:
        official = (
            f"<span class=warn>unofficial</span>: {esc(shown.unofficial)}"
            if shown.unofficial
            else "<span class=ok>official</span>"
        )
        detail = f"{esc(shown.counts)}<br>judge {esc(shown.judge)}, {official}"
    return (
        "<div class=card id=nuance><div class=muted>Nuance (judged; not in the composite)</div>"
        f"<div class=big>{esc(shown.value)}</div><div class=muted>{detail}</div></div>"
    )


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


_STATUS = {
    "judged": "<span class=ok>judged</span>",
    "judge_error": "<span class=bad>judge error</span> (counted neither way)",
    "no_answer": "<span class=bad>no answer</span> (scores 0)",
    "not_judged": "<span class=muted>not judged</span>",
}


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


def _verdict_line(item_id: str, verdict: str, item: RubricItem | None) -> str:
    yes = verdict == "YES"
    if item_id.startswith(NOT_PREFIX):
        css, words = ("bad", "asserted") if yes else ("ok", "not asserted")
    else:
        css, words = ("ok", "stated") if yes else ("bad", "not stated")
    line = f"<code>{esc(item_id)}</code> <span class={css}>{esc(verdict)}: {words}</span>"
    if item is not None:
        note = f" ({esc(NOTE_WORDS.get(item.note, item.note))})" if item.note else ""
        line += f" · {esc(item.about)}: {esc(item.value)}{note}"
    return f"<li>{line}</li>"


def _verdicts(verdict: OpenVerdict, text: OpenText | None) -> str:
    if not verdict.verdicts:
        return "–"
    items = text.items if text else {}
    lines = "".join(
        _verdict_line(item_id, verdict.verdicts[item_id], items.get(item_id))
        for item_id in sorted(verdict.verdicts, key=_item_order)
    )
    return f"<ul class=verdicts>{lines}</ul>"


def _clip(text: str, limit: int = 400) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def open_section(nuance: NuanceScore | None, texts: Mapping[str, OpenText]) -> str:
    """The open questions' heading, what the nuance score is, and one row per open case ("" for
    a run without open questions). ``texts`` may be empty (the dataset is gone, or sealed): the
    rows then show ids, statuses, scores and verdicts without words."""
    if nuance is None:
        return ""
    rows = []
    for verdict in nuance.per_case:
        text = texts.get(verdict.case_id)
        rows.append(
            [
                f"<code>{esc(verdict.case_id)}</code>",
                esc(verdict.open_kind),
                esc(text.case.question) if text else "",
                _STATUS.get(verdict.status, esc(verdict.status)),
                "–" if verdict.score is None else f"{verdict.score:.3f}",
                _verdicts(verdict, text),
                esc(_clip(text.answer)) if text else "",
            ]
        )
    headers = ["Case", "Kind", "Question", "Status", "Score", "Verdicts per rubric item", "Answer"]
    return (
        f"<h2 id=open>Open questions ({len(nuance.per_case)}): the nuance score</h2>"
        "<p class=muted>Each answer is read by a judge model against a rubric of facts it must "
        "state (S) and values it must not assert (N); its score is a fixed rule over those "
        "verdicts. The nuance score is the mean of those scores over the open questions judged "
        "or left unanswered (a judge error counts neither way); it is judged after the run and "
        "stands beside the composite, never in it.</p>"
        + table(headers, rows, numeric=frozenset({4}), table_id="open-table")
    )


__all__ = [
    "NOTE_WORDS",
    "NOT_IN_COMPOSITE",
    "OpenText",
    "Said",
    "nuance_card",
    "nuance_cell",
    "nuance_text",
    "open_section",
    "open_texts",
    "read_nuance",
    "said",
    "unofficial_mark",
    "why_unofficial",
]
