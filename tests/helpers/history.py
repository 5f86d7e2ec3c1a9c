"""How much the history gives away: measures of a run's history and a simple parser.

``measure(seed, version, size)`` builds a dataset and the people behind it and reports

- ``single_fact_share``: of the pairs that state at least one fact as true, the share stating
  exactly one, from the generator's own record (``Beat.stated``: a slip of the tongue is stated
  by its correction, look-alikes are never stated, a contact's value is stated about the
  contact; ``one_fact_pairs`` gives the counts, which ``benchmarks/content_study.py`` pools);
- ``twinned_share``: of the user's fact mentions (own states, changes, events, activity
  steps, mentions), the share whose attribute also has a look-alike in the history: a
  negation, a plan that fell through, a hypothetical, a claim someone makes, or another
  person's value;
- ``coined_share``: of the distinct values the history voices for attributes, the share
  coined for the run rather than listed in the pack;
- ``parser_mean``: the memory mean of ``SimpleParser``, graded by the real grader.

``SimpleParser`` (``dittobench.study.simple``, the study's ``regex`` strategy) is what issue 13
measured: one regular expression per statement wording of the public pack (the wording's symbols
as wildcards, the value as the attribute's public values, or a run of capitalised words where
the pack lists none), the last mention stored before the question wins; questions are routed by
matching them against the pack's question wordings. Here the write path is answered as the
oracle answers it (``write_answer``: it does not depend on how the history is worded).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from dittobench.core.hashing import canonical_sha256
from dittobench.core.prng import Stream
from dittobench.generate.memory.build import MemorySide, build_memory
from dittobench.generate.persona.model import SELF
from dittobench.generate.texts import Texts, texts_of
from dittobench.grade.run import grade_run
from dittobench.packs import public_pack
from dittobench.spec.dataset import Dataset
from dittobench.spec.memory import MemoryCase
from dittobench.spec.transcript import Attempt, CaseRecord, Execution, Transcript
from dittobench.spec.versions import BENCHMARK_NAME, get_policy
from dittobench.spec.vocab import RunSizeName
from dittobench.spec.wire import RunResponse, ToolCall
from dittobench.study.simple import SimpleParser

MemoryAnswer = Callable[[MemoryCase, Dataset], RunResponse]

MENTION_ROLES = frozenset({"state", "change", "event", "start", "quit", "still", "mention"})
TWIN_ROLES = frozenset({"twin", "other"})
VALUE_ROLES = MENTION_ROLES | {"other", "recommend", "twin", "slip"}


def memory_side(seed: int, version: str, size: RunSizeName) -> tuple[Dataset, MemorySide, Texts]:
    """The memory side of a run (people, haystacks, the run's library) and a dataset holding
    it (no tool cases: the measures are the memory side's)."""
    policy = get_policy(version)
    texts = texts_of(public_pack(policy.pack_id))
    side = build_memory(
        Stream.root(seed, policy.content_version),
        policy.epoch,
        policy.run_size(size),
        texts,
        policy.content,
    )
    dataset = Dataset(
        BENCHMARK_NAME,
        policy.version,
        seed,
        size,
        policy.epoch,
        (),
        side.waves,
        side.cases,
        (),
        tuple(sorted(side.telemetry.items())),
    )
    return dataset, side, texts


@dataclass(frozen=True)
class Figures:
    single_fact_share: float
    twinned_share: float
    coined_share: float


def figures(side: MemorySide) -> Figures:
    """The history measures of one run (both users)."""
    single, bearing = one_fact_pairs(side)
    mentions = twinned = 0
    voiced: dict[str, bool] = {}
    assert side.library is not None
    for person in side.persons.values():
        looks: dict[str, set[str]] = {}
        for f in person.facts:
            if f.role in TWIN_ROLES:
                looks.setdefault(f.attribute, set()).add(f.value)
            if f.role in VALUE_ROLES and f.attribute in {a.name for a in side.library.attributes}:
                coined = side.library.get(f.attribute).coin is not None
                voiced[f.value] = coined
        for f in person.facts:
            if f.holder == SELF and f.role in MENTION_ROLES:
                mentions += 1
                twinned += bool(looks.get(f.attribute, set()) - {f.value})
    return Figures(
        single / bearing,
        twinned / mentions,
        sum(voiced.values()) / len(voiced),
    )


def one_fact_pairs(side: MemorySide) -> tuple[int, int]:
    """(pairs stating exactly one fact as true, pairs stating at least one), both users, from
    the generator's record of what each pair states (``Beat.stated``)."""
    one = bearing = 0
    for person in side.persons.values():
        for beat in person.beats:
            if beat.stated:
                bearing += 1
                one += len(beat.stated) == 1
    return one, bearing


# The simple parser --------------------------------------------------------------------------
# It lives in the study (``dittobench.study.simple``, strategy ``regex``), which answers the write
# path from the wire; here, as issue 13 measured it, the write path is answered as the oracle
# answers it (``write_answer``).


def oracle_writes(case: MemoryCase, _dataset: Dataset) -> RunResponse | None:
    """The write path as the oracle answers it; None for every other question."""
    return write_answer(case) if case.question_type.startswith("write_") else None


def simple_parser(texts: Texts, *, loose: bool = False) -> SimpleParser:
    return SimpleParser(texts, oracle_writes, loose=loose)


# Grading -------------------------------------------------------------------------------------

_EXECUTION = Execution((Attempt(1, 40, "ok", 200),), 40, "ok")


def memory_mean(dataset: Dataset, answer: MemoryAnswer) -> float:
    """The memory mean a strategy earns (tool cases left unanswered)."""
    records = tuple(
        CaseRecord(c.id, "memory", c.user_id, answer(c, dataset), (), _EXECUTION)
        for c in dataset.memory_cases
    )
    transcript = Transcript(
        dataset.benchmark,
        dataset.bench_version,
        dataset.seed,
        dataset.run_size,
        canonical_sha256(dataset.to_json()),
        "parser",
        records,
    )
    return grade_run(dataset, transcript).report.memory_mean


def parser_mean(dataset: Dataset, texts: Texts, *, loose: bool = False) -> float:
    return memory_mean(dataset, simple_parser(texts, loose=loose).answer)


def write_answer(case: MemoryCase) -> RunResponse:
    """The write path as the oracle answers it: the instruction carried out with the memory
    tool it asks for (reported), the read-back answered from what was written."""
    if case.question_type == "write_readback":
        if case.answer_kind == "decline":
            subject = case.answer_items[0] if case.answer_items else case.question
            return RunResponse(final_text=f"I have no record of {subject}.", abstain=True)
        return RunResponse(final_text=f"It is {case.expected_answer}.", answer=case.expected_answer)
    pair = case.evidence_pair_ids[0] if case.evidence_pair_ids else ""
    code = case.answer_items[0] if case.answer_items else ""
    calls = {
        "save": ToolCall("save_memory", {"content": f"{case.expected_answer}: {code}"}),
        "update": ToolCall("update_memory", {"pair_id": pair, "content": code}),
        "delete": ToolCall("delete_memory", {"pair_id": pair}),
    }
    call = calls.get(case.write_op)
    return RunResponse(final_text="Done, I've saved that.", tool_calls=(call,) if call else ())


def mean(values: Iterable[float]) -> float:
    values = list(values)
    return sum(values) / len(values)


def by_name(values: Mapping[str, float]) -> str:
    return ", ".join(f"{k} {v:.3f}" for k, v in values.items())
