"""What a harness sees of a run, without keys: the blind folder, and answers written offline.

``write_blind`` lays out one dataset as a reader answering by hand (or a batch system) would get
it over the wire: the system prompt, the catalog, each user's history wave by wave, and every case
with the history it is asked against. Nothing of the answer keys is written, and no id a seed
recomputes: cases, pairs and sessions get labels in dataset order (``BlindLabels``).

An answers file (JSON Lines, ``read_answers``) holds one reply per case label: ``final_text``,
optional ``answer`` and ``abstain``, and the tool ``calls`` made, in order. ``tool_results``
serves those calls offline with the same pure function the run's tool endpoint uses, so a reader
sees each result before writing the next call; ``dittobench replay`` then makes them for real.
A string argument may hold ``{{P0012}}``, the placeholder of a pair's id, which is only known at
run time (each run shows its harness keyed ids); replay puts the run's id in its place.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from dittobench.catalog.shown import Shown
from dittobench.catalog.tools import MEMORY_TOOLS
from dittobench.core.errors import DittobenchError
from dittobench.mocktools.serve import execute
from dittobench.spec.dataset import Dataset
from dittobench.spec.versions import get_policy
from dittobench.spec.wire import DEFAULT_USER_ID, to_wire

PLACEHOLDER: Final = re.compile(r"\{\{(P[0-9]{4,})\}\}")
"""A pair's id in an argument, filled in at run time."""
USER_LABELS: Final = {DEFAULT_USER_ID: "A"}
"""The person under test is user A; any other user of the dataset B, C… in order."""
OWN_MEMORY: Final = (
    "(served by your own memory store; this case's user has nothing stored, so a search finds "
    "nothing and a write is kept only for this case)"
)
MAX_ANSWERS_BYTES: Final = 32 * 1024 * 1024
MAX_CALLS: Final = 32
"""Calls one case may make (the tool endpoint refuses more)."""


class AnswersError(DittobenchError, ValueError):
    """An answers file that cannot be read: names the line and the field at fault."""

    http_status = 400


@dataclass(frozen=True, slots=True)
class BlindLabels:
    """The labels a blind folder shows for one dataset's ids, and the way back."""

    case: dict[str, str]
    """Dataset case id -> label (M001… memory, Q001… open questions, T001… tool)."""
    pair: dict[str, str]
    """Dataset pair id -> label (P0001…), in wave order."""
    session: dict[str, str]
    user: dict[str, str]

    @classmethod
    def of(cls, dataset: Dataset) -> BlindLabels:
        case = {c.id: f"M{i:03d}" for i, c in enumerate(dataset.memory_cases, start=1)}
        case.update({c.id: f"Q{i:03d}" for i, c in enumerate(dataset.open_cases, start=1)})
        case.update({c.id: f"T{i:03d}" for i, c in enumerate(dataset.tool_cases, start=1)})
        pair: dict[str, str] = {}
        session: dict[str, str] = {}
        user = dict(USER_LABELS)
        for wave in dataset.memory_waves:
            user.setdefault(wave.user_id, chr(ord("A") + len(user)))
            for p in wave.pairs:
                pair.setdefault(p.pair_id, f"P{len(pair) + 1:04d}")
                session.setdefault(p.session_id, f"S{len(session) + 1:03d}")
        return cls(case, pair, session, user)

    def case_of(self) -> dict[str, str]:
        """Label -> dataset case id."""
        return {label: case_id for case_id, label in self.case.items()}


@dataclass(frozen=True, slots=True)
class Reply:
    """One case's answer as written offline."""

    label: str
    final_text: str = ""
    answer: str | None = None
    abstain: bool | None = None
    calls: tuple[tuple[str, Any], ...] = ()
    """(tool name, arguments) in the order made."""


@dataclass(frozen=True, slots=True)
class Answers:
    replies: dict[str, Reply] = field(default_factory=dict)


def write_blind(dataset: Dataset, shown: Shown, out: Path) -> list[Path]:
    """Write the blind folder of ``dataset`` into ``out`` (created; existing files with the same
    names are replaced). Returns the files written."""
    labels = BlindLabels.of(dataset)
    out.mkdir(parents=True, exist_ok=True)
    files = {
        "README.md": _readme(dataset),
        "system_prompt.txt": shown.system_prompt + "\n",
        "tools.json": _json([to_wire(tool) for tool in shown.tools]),
        "history.json": _json(_history(dataset, labels)),
        "cases.json": _json(list(_cases(dataset, labels))),
    }
    written = []
    for name, text in files.items():
        path = out / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=1) + "\n"


def _history(dataset: Dataset, labels: BlindLabels) -> dict[str, Any]:
    users: dict[str, list[dict[str, Any]]] = {}
    for wave in dataset.memory_waves:
        users.setdefault(labels.user[wave.user_id], []).append(
            {
                "wave": wave.wave,
                "pairs": [
                    {
                        "id": labels.pair[p.pair_id],
                        "session": labels.session[p.session_id],
                        "timestamp": p.timestamp,
                        "user": p.prompt,
                        "assistant": p.response,
                    }
                    for p in wave.pairs
                ],
            }
        )
    return {"users": users}


def _cases(dataset: Dataset, labels: BlindLabels) -> Iterator[dict[str, Any]]:
    for case_id, _kind, user, question, wave in dataset.asked():
        yield {
            "id": labels.case[case_id],
            "user": labels.user.get(user, "A"),
            "after_wave": wave,
            "message": question,
        }
    for tool_case in dataset.tool_cases:
        yield {"id": labels.case[tool_case.id], "user": None, "message": tool_case.prompt}


def _readme(dataset: Dataset) -> str:
    return f"""# A blind run ({dataset.run_size}, bench {dataset.bench_version})

What an assistant under test is shown, and nothing else: no answer is here.

- `system_prompt.txt` is sent with every message; `tools.json` lists the tools you may call
  (JSON Schema arguments). The memory tools (search_memories, save_memory, update_memory,
  delete_memory, ...) are served by your own memory store; every other tool by the run.
- `history.json` is what each user told you before: `users.A` is the person you assist, any
  other user someone else of the same service. Each user's history arrives in waves.
- `cases.json` lists the messages to answer. A message with a `user` and `after_wave` k comes
  from that user after waves 0..k of their history (only those waves are known then; writes
  you were asked to make earlier in the run hold too). A message with `user: null` comes from a
  user with no history at all (answer it with tools, or in words).

Answer in a JSON Lines file, one object per case:

    {{"id": "M001", "final_text": "what you reply", "answer": "the bare value, or null",
      "abstain": false, "calls": [{{"name": "search_web", "args": {{"query": "..."}}}}]}}

`answer` (optional) is the bare value the reply gives; `abstain` (optional) is true when you
decline to answer. `calls` are the tool calls you make, in order. To see what a call returns,
write it and run `dittobench blind --seed S --run-size SIZE --out DIR --answers FILE`: it writes
`tool_results.jsonl` beside this file, each call's result in order, so you can read it and
write your next call or your reply. In an argument, `{{{{P0012}}}}` stands for pair P0012's id
(ids are only known when the run happens). `dittobench replay FILE --seed S --run-size SIZE`
scores the answers through a real run.
"""


def read_answers(path: Path, labels: Iterable[str]) -> Answers:
    """The replies of a JSON Lines answers file; ``AnswersError`` naming the line at fault (an
    unknown case label, a label given twice, a field of the wrong type)."""
    known = frozenset(labels)
    try:
        size = path.stat().st_size
        if size > MAX_ANSWERS_BYTES:
            raise AnswersError(f"{path}: {size:,} bytes, over {MAX_ANSWERS_BYTES:,}")
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise AnswersError(f"{path}: cannot read it: {exc}") from None
    replies: dict[str, Reply] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            item = json.loads(line)
        except ValueError as exc:
            raise AnswersError(f"{where}: not JSON ({exc})") from None
        reply = _reply(item, where)
        if reply.label not in known:
            raise AnswersError(f"{where}: no case {reply.label!r} in this run")
        if reply.label in replies:
            raise AnswersError(f"{where}: case {reply.label!r} answered twice")
        replies[reply.label] = reply
    return Answers(replies)


def _reply(item: Any, where: str) -> Reply:
    if not isinstance(item, dict):
        raise AnswersError(f"{where}: expected an object")
    label = item.get("id")
    if not isinstance(label, str):
        raise AnswersError(f"{where}: 'id' must be a case label such as \"M001\"")
    final_text = item.get("final_text", "")
    answer = item.get("answer")
    abstain = item.get("abstain")
    if not isinstance(final_text, str):
        raise AnswersError(f"{where}: 'final_text' must be a string")
    if answer is not None and not isinstance(answer, str):
        raise AnswersError(f"{where}: 'answer' must be a string or null")
    if abstain is not None and not isinstance(abstain, bool):
        raise AnswersError(f"{where}: 'abstain' must be true, false or null")
    calls = item.get("calls") or []
    if not isinstance(calls, list) or len(calls) > MAX_CALLS:
        raise AnswersError(f"{where}: 'calls' must be a list of at most {MAX_CALLS} calls")
    made = []
    for index, call in enumerate(calls):
        if not isinstance(call, dict) or not isinstance(call.get("name"), str):
            raise AnswersError(f'{where}: calls[{index}] must be {{"name": ..., "args": ...}}')
        made.append((call["name"], call.get("args")))
    return Reply(label, final_text, answer, abstain, tuple(made))


def tool_results(dataset: Dataset, answers: Answers) -> list[dict[str, Any]]:
    """Every call of every tool case in ``answers``, served offline as the run's endpoint
    serves it (memory tools: ``OWN_MEMORY``), in label order then call order."""
    labels = BlindLabels.of(dataset)
    content_version = get_policy(dataset.bench_version).content_version
    fixtures = {f.case_id: f for f in dataset.tool_fixtures}
    rows: list[dict[str, Any]] = []
    for case in dataset.tool_cases:
        reply = answers.replies.get(labels.case[case.id])
        if reply is None:
            continue
        earlier: list[str] = []
        for index, (name, args) in enumerate(reply.calls):
            row: dict[str, Any] = {"id": reply.label, "call": index, "name": name, "args": args}
            if name in MEMORY_TOOLS:
                row["result"] = OWN_MEMORY
            else:
                served = execute(
                    dataset.seed, content_version, case, fixtures[case.id], name, args, earlier
                )
                row["error" if served.error is not None else "result"] = (
                    served.error if served.error is not None else served.result
                )
            earlier.append(name)
            rows.append(row)
    return rows


def fill_placeholders(value: Any, pairs: dict[str, str]) -> Any:
    """``value`` with each ``{{P0012}}`` in its strings replaced by ``pairs["P0012"]`` (left as
    is when the label is unknown)."""
    if isinstance(value, str):
        return PLACEHOLDER.sub(lambda m: pairs.get(m.group(1), m.group(0)), value)
    if isinstance(value, list):
        return [fill_placeholders(v, pairs) for v in value]
    if isinstance(value, dict):
        return {k: fill_placeholders(v, pairs) for k, v in value.items()}
    return value


__all__ = [
    "Answers",
    "AnswersError",
    "BlindLabels",
    "Reply",
    "fill_placeholders",
    "read_answers",
    "tool_results",
    "write_blind",
]
