"""Grade a whole run: (dataset, transcript) -> score report. Pure: no clock, no I/O."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final

from dittobench.core.errors import DittobenchError
from dittobench.core.hashing import canonical_sha256
from dittobench.grade import composite
from dittobench.grade.judging import answer_text, nuance_score
from dittobench.grade.kept import Kept
from dittobench.grade.match import hit, prepare
from dittobench.grade.memory import HistoryKeys, MemoryVerdict, grade_memory
from dittobench.grade.people import people_in
from dittobench.grade.retrieval import retrieval_report
from dittobench.grade.stats import mean, median_int, std_err
from dittobench.grade.tools import ToolVerdict, grade_tool
from dittobench.grade.writes import write_done
from dittobench.spec.dataset import Dataset, ToolCase
from dittobench.spec.judging import NuanceScore
from dittobench.spec.memory import DIMENSIONS, QUESTION_TYPES, MemoryCase
from dittobench.spec.report import CaseScore, CategoryStat, ReportDetails, ScoreReport
from dittobench.spec.transcript import CaseRecord, Transcript
from dittobench.spec.versions import GradingPolicy, get_policy
from dittobench.spec.vocab import Dimension, RunCaseKind
from dittobench.spec.wire import RunResponse
from dittobench.spec.wireids import WireIdError, WireIds


class GradeInputError(DittobenchError, ValueError):
    """The transcript does not belong to the dataset (or names cases it does not have)."""

    http_status = 422


@dataclass(frozen=True, slots=True)
class Graded:
    """Per-case verdicts next to the report, for tools (such as the audit sheet) that need them."""

    report: ScoreReport
    memory: dict[str, MemoryVerdict]
    tool: dict[str, ToolVerdict]


def grade_run(
    dataset: Dataset,
    transcript: Transcript,
    grading: GradingPolicy | None = None,
    *,
    dataset_sha256: str | None = None,
) -> Graded:
    """The report of ``transcript`` against ``dataset`` under the grading policy of the
    dataset's bench version, or under ``grading`` (any shipped policy: a study's regrade).
    ``dataset_sha256``, when the caller already holds the dataset's hash, saves hashing it
    again for each transcript (it must be ``canonical_sha256(dataset.to_json())``)."""
    dataset_sha = dataset_sha256 or canonical_sha256(dataset.to_json())
    known = _known(dataset)
    _check_match(dataset, dataset_sha, transcript, known.ids)
    policy = grading or get_policy(dataset.bench_version).grading
    records = {c.case_id: c for c in transcript.cases}
    # The ids the harness was shown, and the one way back from them (identity without a nonce).
    shown = known.wire_ids(transcript.wire_nonce)
    fixtures = known.fixtures
    tool = {
        c.id: grade_tool(c, fixtures.get(c.id), records.get(c.id), policy)
        for c in dataset.tool_cases
    }
    memory: dict[str, MemoryVerdict] = {}
    keys = known.history_keys() if policy.committed_scans else {}
    for c in known.read_backs_first:
        record = records.get(c.id)
        confirmed = bool(c.confirmed_by) and _write_confirmed(c, record, memory, shown)
        history = keys.get(c.id, _NO_HISTORY)
        memory[c.id] = grade_memory(c, _response(record), policy, confirmed, history)
    memory = {c.id: memory[c.id] for c in dataset.memory_cases}
    scores = _case_scores(dataset, records, tool, memory, policy)
    report = _report(dataset, dataset_sha, transcript, scores, tool, memory, records, policy)
    if dataset.open_cases:
        report = replace(report, nuance=_nuance(dataset, transcript, records))
    responses = {c.id: _response(records.get(c.id)) for c in dataset.memory_cases}
    found = retrieval_report(dataset.memory_cases, responses, shown.dataset_id)
    if found is not None:  # beside the composite, never in it
        report = replace(report, retrieval=found)
    return Graded(report, memory, tool)


class _Known:
    """What grading reads of a dataset whatever the transcript, worked out once per dataset
    (``_known``): a study or a regrade grades many transcripts against one dataset."""

    __slots__ = ("_keys", "_shown", "dataset", "fixtures", "ids", "read_backs_first")

    def __init__(self, dataset: Dataset) -> None:
        self.dataset = dataset
        cases = (dataset.tool_cases, dataset.memory_cases, dataset.open_cases)
        self.ids = frozenset(c.id for group in cases for c in group)
        self.fixtures = {f.case_id: f for f in dataset.tool_fixtures}
        # Read-backs first: a write instruction's credit depends on its read-back's verdict.
        self.read_backs_first = tuple(
            sorted(dataset.memory_cases, key=lambda c: bool(c.confirmed_by))
        )
        self._keys: dict[str, HistoryKeys] | None = None
        self._shown: dict[str, WireIds] = {}

    def history_keys(self) -> Mapping[str, HistoryKeys]:
        if self._keys is None:
            self._keys = history_keys(self.dataset)
        return self._keys

    def wire_ids(self, nonce: str) -> WireIds:
        """``WireIds.of`` the dataset under ``nonce`` (a few nonces kept: one run is often
        graded again)."""
        found = self._shown.get(nonce)
        if found is None:
            found = _wire_ids_of(self.dataset, nonce)
            if len(self._shown) >= _KNOWN_MOST:
                self._shown.clear()
            self._shown[nonce] = found
        return found


_KNOWN_MOST: Final = 4
"""How many datasets (and nonces per dataset) ``_known`` keeps."""
_KNOWN: Kept[_Known] = Kept(_KNOWN_MOST)


def _known(dataset: Dataset) -> _Known:
    """The ``_Known`` of ``dataset`` (immutable), kept by identity."""
    return _KNOWN.get(lambda: _Known(dataset), dataset)


class RunGrader:
    """A run's cases graded a few at a time, each exactly as ``grade_run`` grades it: for a
    reader that shows a running run's per-case scores as cases are recorded and must not grade
    every recorded case again each time it looks (the service's job object). What depends only
    on the dataset (its hash, the history keys, the ids the harness was shown under
    ``wire_nonce``) is worked out once."""

    def __init__(
        self,
        dataset: Dataset,
        wire_nonce: str = "",
        grading: GradingPolicy | None = None,
        *,
        dataset_sha256: str | None = None,
    ) -> None:
        self.dataset = dataset
        self.dataset_sha256 = dataset_sha256 or canonical_sha256(dataset.to_json())
        self.policy = grading or get_policy(dataset.bench_version).grading
        known = _known(dataset)
        self._shown = known.wire_ids(wire_nonce)
        self._keys = known.history_keys() if self.policy.committed_scans else {}
        self._tools = {c.id: c for c in dataset.tool_cases}
        self._fixtures = {f.case_id: f for f in dataset.tool_fixtures}
        self._memory = {c.id: c for c in dataset.memory_cases}
        # grade_run grades read-backs first: an instruction sees the verdicts graded before it
        first = sorted(dataset.memory_cases, key=lambda c: bool(c.confirmed_by))
        self._rank = {c.id: i for i, c in enumerate(first)}
        self._confirms: dict[str, list[str]] = {}
        for c in dataset.memory_cases:
            if c.confirmed_by:
                self._confirms.setdefault(c.confirmed_by, []).append(c.id)
        self.order = {case_id: i for i, case_id in enumerate([*self._tools, *self._memory])}
        """Each graded case's place in ``per_case`` (an open case has none)."""
        self._known = frozenset(self.order) | {c.id for c in dataset.open_cases}

    def affected(self, case_ids: Iterable[str]) -> set[str]:
        """The graded cases whose score may change when ``case_ids`` are recorded: those, and
        the write instructions they read back (and those the instructions read back, ...)."""
        out: set[str] = set()
        seen: set[str] = set()
        todo = list(case_ids)
        while todo:
            case_id = todo.pop()
            if case_id not in seen:
                seen.add(case_id)
                if case_id in self.order:
                    out.add(case_id)
                todo.extend(self._confirms.get(case_id, ()))
        return out

    def scores(
        self, records: Mapping[str, CaseRecord], case_ids: Iterable[str]
    ) -> dict[str, CaseScore]:
        """The score of each of ``case_ids`` that is graded (tool and memory cases), given
        ``records``, every case recorded so far: the row ``grade_run`` gives that case in
        ``per_case`` over a transcript of exactly those records. ``GradeInputError`` when
        ``records`` hold a case the dataset does not have."""
        stray = sorted(records.keys() - self._known)
        if stray:
            raise GradeInputError(
                f"the transcript has {len(stray)} case(s) the dataset does not: "
                f"{', '.join(stray[:5])}"
            )
        memo: dict[str, MemoryVerdict] = {}
        out = {}
        for case_id in case_ids:
            record = records.get(case_id)
            if case_id in self._tools:
                case = self._tools[case_id]
                verdict = grade_tool(case, self._fixtures.get(case_id), record, self.policy)
                out[case_id] = _tool_score(case, verdict, record, self.policy)
            elif case_id in self._memory:
                mcase = self._memory[case_id]
                mine = self._memory_verdict(mcase, records, memo)
                out[case_id] = _memory_score(mcase, mine, record, self.policy)
        return out

    def _memory_verdict(
        self, case: MemoryCase, records: Mapping[str, CaseRecord], memo: dict[str, MemoryVerdict]
    ) -> MemoryVerdict:
        """As ``grade_run``: a write instruction is confirmed only by a read-back graded before
        it there."""
        found = memo.get(case.id)
        if found is None:
            record = records.get(case.id)
            readback = case.confirmed_by
            before: dict[str, MemoryVerdict] = {}
            if readback in self._rank and self._rank[readback] < self._rank[case.id]:
                before[readback] = self._memory_verdict(self._memory[readback], records, memo)
            confirmed = bool(readback) and _write_confirmed(case, record, before, self._shown)
            history = self._keys.get(case.id, _NO_HISTORY)
            found = grade_memory(case, _response(record), self.policy, confirmed, history)
            memo[case.id] = found
        return found


_NO_HISTORY: Final = HistoryKeys()
"""The history keys of a case the history says nothing of (immutable, so one serves all)."""


def _nuance(
    dataset: Dataset, transcript: Transcript, records: dict[str, CaseRecord]
) -> NuanceScore:
    """The open cases' nuance score, recomputed from the judge's raw replies in the transcript;
    a judge record that does not hold together makes judge errors, never a missing report."""
    answers = {c.id: answer_text(_response(records.get(c.id))) for c in dataset.open_cases}
    locked = get_policy(dataset.bench_version).judge
    return nuance_score(dataset.open_cases, answers, transcript.judge, locked)


def history_keys(dataset: Dataset) -> dict[str, HistoryKeys]:
    """Per memory case: its forbidden values the user's own history names (not another user's
    private ones), its dump-guard values its evidence pairs name (grading-4) and, for a decline,
    its distractors the user's history names (grading-6)."""
    said: dict[str, list[str]] = {}
    pairs: dict[str, str] = {}
    for wave in dataset.memory_waves:
        for pair in wave.pairs:
            text = f"{pair.prompt}\n{pair.response}"
            said.setdefault(wave.user_id, []).append(text)
            pairs[pair.pair_id] = text
    own = {user: prepare("\n".join(texts)) for user, texts in said.items()}
    people = {user: people_in(texts) for user, texts in said.items()}
    named: dict[tuple[str, str], bool] = {}  # (user, value): many cases ask about one value

    def in_history(user: str, value: str) -> bool:
        if (user, value) not in named:
            history = own.get(user)
            named[user, value] = history is not None and hit(history, value)
        return named[user, value]

    out = {}
    for case in dataset.memory_cases:
        user = case.user_id
        public = frozenset(v for v in case.forbidden if in_history(user, v))
        evidence = prepare("\n".join(pairs.get(p, "") for p in case.evidence_pair_ids))
        spared = frozenset(v for v in case.dump_guard if hit(evidence, v))
        declined = case.distractors if case.answer_kind == "decline" else ()
        heard = frozenset(v for v in declined if in_history(user, v))
        out[case.id] = HistoryKeys(public, spared, people.get(case.user_id, frozenset()), heard)
    return out


def _check_match(
    dataset: Dataset, dataset_sha: str, transcript: Transcript, known: frozenset[str]
) -> None:
    if transcript.dataset_sha256 != dataset_sha:
        raise GradeInputError(
            f"the transcript is for dataset {transcript.dataset_sha256[:12]}…, but this dataset "
            f"is {dataset_sha[:12]}… (seed {dataset.seed}, {dataset.run_size}, "
            f"bench version {dataset.bench_version}); grade it against the dataset it was run on"
        )
    stray = sorted(c.case_id for c in transcript.cases if c.case_id not in known)
    if stray:
        raise GradeInputError(
            f"the transcript has {len(stray)} case(s) the dataset does not: {', '.join(stray[:5])}"
        )


def _wire_ids_of(dataset: Dataset, wire_nonce: str) -> WireIds:
    try:
        return WireIds.of(dataset, wire_nonce)
    except WireIdError as exc:
        raise GradeInputError(f"the transcript's wire nonce cannot be used: {exc}") from None


def _write_confirmed(
    case: MemoryCase,
    record: CaseRecord | None,
    verdicts: dict[str, MemoryVerdict],
    shown: WireIds,
) -> bool:
    """The instruction's write was made (a reported or observed call of the right kind with the
    right content, naming pairs by the ids the harness was shown) and its read-back scored in
    full."""
    readback = verdicts.get(case.confirmed_by)
    if record is None or record.response is None or readback is None or readback.score < 1:
        return False
    calls = (*record.response.tool_calls, *record.observed)
    return write_done(case, calls, shown.dataset_id)


def _response(record: CaseRecord | None) -> RunResponse | None:
    return record.response if record else None


def _case_scores(
    dataset: Dataset,
    records: dict[str, CaseRecord],
    tool: dict[str, ToolVerdict],
    memory: dict[str, MemoryVerdict],
    policy: GradingPolicy,
) -> list[CaseScore]:
    out = [_tool_score(c, tool[c.id], records.get(c.id), policy) for c in dataset.tool_cases]
    out += [_memory_score(c, memory[c.id], records.get(c.id), policy) for c in dataset.memory_cases]
    return out


def _tool_score(
    case: ToolCase, v: ToolVerdict, record: CaseRecord | None, policy: GradingPolicy
) -> CaseScore:
    return CaseScore(
        case_id=case.id,
        category=case.category,
        kind="tool",
        score=v.score,
        correct=v.score >= policy.correct_at,
        reason=v.reason,
        tool_score=v.trajectory,
        latency_ms=_latency(record),
        called=v.called,
        expected=tuple(t.name for t in case.expected_tools),
        observed=v.observed,
        capped=v.capped,
    )


def _memory_score(
    case: MemoryCase, m: MemoryVerdict, record: CaseRecord | None, policy: GradingPolicy
) -> CaseScore:
    return CaseScore(
        case_id=case.id,
        category=case.question_type,
        kind="memory",
        score=m.score,
        correct=m.score >= policy.correct_at,
        reason=m.reason,
        latency_ms=_latency(record),
        user_id=case.user_id,
    )


def _latency(record: CaseRecord | None) -> int:
    return record.execution.total_duration_ms if record else 0


def _report(
    dataset: Dataset,
    dataset_sha: str,
    transcript: Transcript,
    scores: list[CaseScore],
    tool: dict[str, ToolVerdict],
    memory: dict[str, MemoryVerdict],
    records: dict[str, CaseRecord],
    policy: GradingPolicy,
) -> ScoreReport:
    tool_scores = [s.score for s in scores if s.kind == "tool"]
    memory_scores = [s.score for s in scores if s.kind == "memory"]
    factors = _factors(dataset, scores, tool, memory, policy)
    gate = factors.efficiency * factors.consistency * factors.token
    tool_mean = mean(tool_scores) if tool_scores else None
    memory_mean = mean(memory_scores) if memory_scores else None
    base = composite.base(tool_mean, memory_mean, policy)
    halves = [(policy.tool_half, tool_scores), (policy.memory_half, memory_scores)]
    present = [(w, s) for w, s in halves if s]
    if len(present) == 2:
        stderr = math.sqrt(sum((w * std_err(s)) ** 2 for w, s in present))
    else:
        stderr = std_err(present[0][1]) if present else 0.0
    graded = {s.case_id for s in scores}  # open questions' latencies are not the run's
    latencies = [
        r.execution.total_duration_ms
        for r in records.values()
        if r.response and r.case_id in graded
    ]
    return ScoreReport(
        benchmark=dataset.benchmark,
        bench_version=dataset.bench_version,
        grading_policy=policy.id,
        run_size=dataset.run_size,
        seed=dataset.seed,
        dataset_sha256=dataset_sha,
        transcript_sha256=transcript.sha256,
        composite=round(base * gate, 6),
        composite_stderr=round(stderr * gate, 6),
        tool_mean=round(tool_mean or 0.0, 6),
        memory_mean=round(memory_mean or 0.0, 6),
        median_ms=median_int(latencies),
        n=len(scores),
        per_case=tuple(scores),
        per_category=_categories(scores),
        dimensions=_dimensions(scores, policy),
        details=_details(dataset, scores, tool, memory, factors, base),
        pack=transcript.pack,
        identity=dict(transcript.identity),
    )


def _factors(
    dataset: Dataset,
    scores: list[CaseScore],
    tool: dict[str, ToolVerdict],
    memory: dict[str, MemoryVerdict],
    policy: GradingPolicy,
) -> composite.Factors:
    by_id = {s.case_id: s for s in scores}
    overs = [
        tool[c.id].observed_calls - c.max_tool_calls
        for c in dataset.tool_cases
        if tool[c.id].observed and c.expected_tools and by_id[c.id].correct
    ]
    families: dict[str, list[bool]] = {}
    for case in dataset.memory_cases:
        if case.family_id:
            families.setdefault(case.family_id, []).append(by_id[case.id].correct)
    tokens = [c for c in dataset.memory_cases if c.question_type == "integrity_token"]
    token_correct = all(by_id[c.id].correct for c in tokens) if tokens else None
    leaked = any(memory[c.id].leaked for c in tokens)
    factor, split = composite.consistency(families, policy)
    return composite.Factors(
        efficiency=composite.efficiency(overs, policy),
        consistency=factor,
        token=composite.token_factor(token_correct, leaked, policy),
        families=len(families),
        split_families=split,
        efficiency_cases=len(overs),
    )


def _categories(scores: Sequence[CaseScore]) -> tuple[CategoryStat, ...]:
    groups: dict[tuple[RunCaseKind, str], list[float]] = {}
    for s in scores:
        groups.setdefault((s.kind, s.category), []).append(s.score)
    return tuple(
        CategoryStat(category, kind, len(values), round(mean(values), 6), round(std_err(values), 6))
        for (kind, category), values in sorted(groups.items())
    )


def _dimensions(scores: Sequence[CaseScore], policy: GradingPolicy) -> dict[str, float]:
    """Seed 003's dimensions over memory cases, and their weighted score (weights renormalised
    over the dimensions a run actually has). Reported beside the composite, never in it."""
    buckets: dict[str, list[float]] = {}
    dimension_of: dict[str, Dimension] = {n: t.dimension for n, t in QUESTION_TYPES.items()}
    for s in scores:
        if s.kind == "memory" and s.category in dimension_of:
            buckets.setdefault(dimension_of[s.category], []).append(s.score)
    out: dict[str, float] = {
        name: round(mean(buckets[name]), 6) for name in DIMENSIONS if name in buckets
    }
    weights = {name: w for name, w in policy.dimension_weights if name in out}
    total = sum(weights.values())
    if total:
        out["weighted"] = round(sum(out[n] * w for n, w in weights.items()) / total, 6)
    return out


def _details(
    dataset: Dataset,
    scores: list[CaseScore],
    tool: dict[str, ToolVerdict],
    memory: dict[str, MemoryVerdict],
    factors: composite.Factors,
    base: float,
) -> ReportDetails:
    return ReportDetails(
        base=round(base, 6),
        efficiency=round(factors.efficiency, 6),
        efficiency_cases=factors.efficiency_cases,
        consistency=round(factors.consistency, 6),
        paraphrase_families=factors.families,
        split_families=factors.split_families,
        token_factor=factors.token,
        observed_tool_cases=sum(1 for v in tool.values() if v.observed),
        capped_tool_cases=sum(1 for v in tool.values() if v.capped),
        undelivered_cases=sum(1 for s in scores if s.reason == "undelivered"),
        disqualified_memory_cases=sum(1 for v in memory.values() if v.disqualified),
        leaked_memory_cases=sum(1 for v in memory.values() if v.leaked),
        isolation_cases=sum(1 for c in dataset.memory_cases if c.question_type == "isolation"),
        telemetry=dict(dataset.telemetry),
    )
