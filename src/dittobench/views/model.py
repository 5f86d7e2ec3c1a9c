"""A stored run as the views read it: its row, its report, and for one case everything that
explains its score (the question or prompt, the evidence pairs and their waves, the answer as
graded, observed / reported / expected calls, attempts). The dataset is regenerated from the
run's seed, version, size and pack (fast, and cached by dataset hash), never stored twice."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Literal

from dittobench.core.canonical import canonical_bytes
from dittobench.core.errors import DittobenchError
from dittobench.core.hashing import sha256_hex
from dittobench.engine.packs import reopen
from dittobench.generate.assemble import build_dataset
from dittobench.packs import PackError
from dittobench.spec.codec import DecodeError
from dittobench.spec.dataset import Dataset
from dittobench.spec.memory import MemoryCase
from dittobench.spec.report import CaseScore, ScoreReport
from dittobench.spec.transcript import Attempt, CaseRecord
from dittobench.spec.vocab import AttemptOutcome
from dittobench.spec.wire import ToolCall
from dittobench.store import BadContentError, RunRow, RunStore, StoreError
from dittobench.store.rows import is_run_id
from dittobench.views.explain import Why, explain, explain_tool, policy_of


class ViewError(DittobenchError):
    """A run or case that cannot be shown: ``missing`` when it does not exist, and then its
    ``http_status`` is 404; else 500 (the class's own), a stored run that cannot be read."""

    def __init__(self, message: str, *, missing: bool = False) -> None:
        super().__init__(message)
        self.missing = missing
        self.http_status = 404 if missing else 500


class DatasetMismatch(ViewError):
    """The dataset rebuilt from a run's seed, version, size and pack does not hash to the
    ``dataset_sha256`` the run stored: its cases cannot be shown as the run's."""

    def __init__(self, run_id: str, stored: str, rebuilt: str) -> None:
        super().__init__(
            f"run {run_id}: the dataset rebuilt from its seed, bench version, run size and pack "
            f"hashes to {rebuilt}, not the stored dataset_sha256 {stored}; this build no longer "
            "makes that run's dataset, so its cases are not shown"
        )
        self.run_id, self.stored, self.rebuilt = run_id, stored, rebuilt


@dataclass(frozen=True, slots=True)
class StoredRun:
    row: RunRow
    report: ScoreReport | None


def load_run(store: RunStore, run_id: str) -> StoredRun:
    """The run's row and report; ``ViewError`` (missing) naming an unknown id."""
    if not is_run_id(run_id):
        raise ViewError(f"{run_id!r} is not a run id (r-YYYYMMDD-HHMMSS-xxxxxx)", missing=True)
    try:
        row = store.get_run(run_id)
    except StoreError:
        raise ViewError(f"no run {run_id} in {store.where}", missing=True) from None
    try:
        data = store.report(run_id)
        report = ScoreReport.from_json(data) if data is not None else None
    except (StoreError, DecodeError) as exc:
        raise ViewError(f"run {run_id}: its stored report cannot be read: {exc}") from None
    return StoredRun(row, report)


_CACHE_SIZE = 8
_datasets: OrderedDict[str, Dataset] = OrderedDict()
_datasets_lock = threading.Lock()


def dataset_of(row: RunRow) -> Dataset:
    """The run's dataset, regenerated (the last few kept by hash) and checked against the
    run's stored ``dataset_sha256``: ``ViewError`` when its pack is gone or changed,
    ``DatasetMismatch`` (naming both hashes) when the rebuilt dataset hashes otherwise."""
    key = row.dataset_sha256 or f"{row.seed}/{row.bench_version}/{row.run_size}/{row.pack_sha256}"
    with _datasets_lock:
        if key in _datasets:
            _datasets.move_to_end(key)
            return _datasets[key]
    try:
        pack = reopen(row.bench_version, row.pack_id, row.pack_sha256, row.pack_path)
        made = build_dataset(row.seed, row.bench_version, row.run_size, pack)
    except (PackError, DittobenchError) as exc:
        raise ViewError(f"run {row.run_id}: its dataset cannot be rebuilt: {exc}") from None
    if row.dataset_sha256:
        rebuilt = sha256_hex(canonical_bytes(made.to_json()))
        if rebuilt != row.dataset_sha256:
            raise DatasetMismatch(row.run_id, row.dataset_sha256, rebuilt)
    with _datasets_lock:
        _datasets[key] = made
        while len(_datasets) > _CACHE_SIZE:
            _datasets.popitem(last=False)
    return made


@dataclass(frozen=True, slots=True)
class Evidence:
    pair_id: str
    wave: int
    user_id: str
    timestamp: str
    prompt: str
    response: str


@dataclass(frozen=True, slots=True)
class CaseDetail:
    score: CaseScore
    text: str
    """The question (memory) or the prompt (tool)."""
    why: Why
    memory: MemoryCase | None = None
    evidence: tuple[Evidence, ...] = ()
    answer: str = ""
    prose: str = ""
    abstain: bool | None = None
    reported: tuple[str, ...] = ()
    """Tool calls the reply reported, ``name(args)``."""
    observed: tuple[str, ...] = ()
    """Tool calls the endpoint observed, ``name(args)``."""
    expected: tuple[str, ...] = ()
    attempts: tuple[str, ...] = ()
    outcome: AttemptOutcome | Literal["none", ""] = ""
    """How the case's request went; ``none`` when nothing was recorded for it."""
    extra: dict[str, str] = field(default_factory=dict)


def _call(call: ToolCall) -> str:
    args = call.args
    shown = json.dumps(args, ensure_ascii=False, sort_keys=True) if args is not None else ""
    return f"{call.name}({shown})"


def _attempt(attempt: Attempt) -> str:
    said = f"#{attempt.attempt}: {attempt.outcome} in {attempt.duration_ms} ms"
    return said + (f" (HTTP {attempt.http_status})" if attempt.http_status else "")


def case_record(store: RunStore, run_id: str, case_id: str) -> CaseRecord | None:
    """The case's stored record decoded through ``CaseRecord`` (``RunStore.case_records``), or
    None when there is none; ``ViewError`` naming the run, case, field and value when a stored
    record holds what the spec does not allow (an unknown outcome, a wrong shape)."""
    try:
        return store.case_records(run_id).get(case_id)
    except BadContentError as exc:
        raise ViewError(str(exc)) from None
    except StoreError:
        return None


def case_detail(
    store: RunStore, stored: StoredRun, case_id: str, dataset: Dataset | None = None
) -> CaseDetail:
    """Everything about one graded case; ``ViewError`` (missing) for a case the run lacks."""
    report = stored.report
    if report is None:
        raise ViewError(f"run {stored.row.run_id} has no report yet", missing=True)
    score = next((c for c in report.per_case if c.case_id == case_id), None)
    if score is None:
        raise ViewError(f"run {stored.row.run_id} has no case {case_id!r}", missing=True)
    data = dataset if dataset is not None else dataset_of(stored.row)
    record = case_record(store, stored.row.run_id, case_id)
    response = record.response if record is not None else None
    answer = (response.answer or "") if response is not None else ""
    prose = response.final_text if response is not None else ""
    base = CaseDetail(
        score,
        "",
        explain(score.reason),
        answer=answer,
        prose=prose,
        abstain=response.abstain if response is not None else None,
        reported=tuple(_call(c) for c in response.tool_calls) if response is not None else (),
        observed=tuple(_call(c) for c in record.observed) if record is not None else (),
        attempts=tuple(_attempt(a) for a in record.execution.attempts) if record else (),
        outcome=record.execution.outcome if record is not None else "none",
    )
    memory = next((m for m in data.memory_cases if m.id == case_id), None)
    if memory is not None:
        policy = policy_of(report.grading_policy)
        why = explain(
            score.reason, memory, f"{answer}\n{prose}", abstain=base.abstain, policy=policy
        )
        return replace(
            base, text=memory.question, why=why, memory=memory, evidence=_evidence(data, memory)
        )
    tool = next((t for t in data.tool_cases if t.id == case_id), None)
    if tool is None:
        return base
    expected = tuple(
        f"{e.name}({', '.join(f'{k}={v!r}' for k, v in e.required_args)})"
        for e in tool.expected_tools
    )
    recorded = record.to_json() if record is not None else None
    why = explain_tool(score.reason, tool, recorded, report.grading_policy)
    return replace(base, text=tool.prompt, why=why, expected=expected)


def _evidence(data: Dataset, case: MemoryCase) -> tuple[Evidence, ...]:
    wanted = set(case.evidence_pair_ids)
    if not wanted:
        return ()
    found = []
    for wave in data.memory_waves:
        for pair in wave.pairs:
            if pair.pair_id in wanted:
                found.append(
                    Evidence(
                        pair.pair_id,
                        wave.wave,
                        wave.user_id,
                        pair.timestamp,
                        pair.prompt,
                        pair.response,
                    )
                )
    return tuple(found)


__all__ = [
    "CaseDetail",
    "DatasetMismatch",
    "Evidence",
    "StoredRun",
    "ViewError",
    "case_detail",
    "case_record",
    "dataset_of",
    "load_run",
]
