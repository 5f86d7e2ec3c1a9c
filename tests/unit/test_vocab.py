"""Every closed vocabulary (``spec.vocab``) against every registry keyed by it: a member added
without its registry entries, or an entry the vocabulary lacks, fails here naming the registry.
And values outside a vocabulary, read from JSON or from the run store, are errors naming the
field and the value."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any, get_args

import pytest

from dittobench.generate.memory import build
from dittobench.generate.memory import open as open_questions
from dittobench.generate.texts import texts_of
from dittobench.grade import external as grade_external
from dittobench.grade import external_values
from dittobench.grade import memory as grade_memory
from dittobench.grade import tools as grade_tools
from dittobench.grade.memory_kinds import CHECKS
from dittobench.packs import public_pack
from dittobench.receipts import manifest
from dittobench.service import models
from dittobench.spec import external, judging, memory, seeds, transcript, vocab
from dittobench.spec import open as spec_open
from dittobench.spec.codec import DecodeError, decode
from dittobench.spec.dataset import TOOL_GROUPS
from dittobench.spec.judging import prompt_of
from dittobench.spec.sizes import RUN_SIZE_NAMES, sizes
from dittobench.spec.transcript import CaseRecord
from dittobench.spec.versions import CURRENT_VERSION, POLICIES
from dittobench.store import BadContentError, RunRow, RunStore, jobs, rows
from dittobench.views import pages as views_pages
from dittobench.views.explain import RULES
from dittobench.workers import driver

DOCS = Path(__file__).resolve().parents[2] / "docs"


def same_members(registry: str, keys: Iterable[str], vocabulary: tuple[str, ...]) -> None:
    """``keys`` name every member of ``vocabulary`` once and nothing else."""
    listed = list(keys)
    missing = [m for m in vocabulary if m not in listed]
    unknown = sorted(set(listed) - set(vocabulary))
    twice = sorted({k for k in listed if listed.count(k) > 1})
    assert not (missing or unknown or twice), (
        f"{registry}: missing {missing}, not in the vocabulary {unknown}, twice {twice}"
    )


def test_the_check_names_the_registry_and_what_differs() -> None:
    with pytest.raises(
        AssertionError, match=r"reg: missing \['b'\], not in the vocabulary \['c'\]"
    ):
        same_members("reg", ["a", "c"], ("a", "b"))
    with pytest.raises(AssertionError, match=r"twice \['a'\]"):
        same_members("reg", ["a", "a", "b"], ("a", "b"))
    same_members("reg", ["b", "a"], ("a", "b"))


def test_every_tuple_is_its_alias() -> None:
    pairs: list[tuple[Any, tuple[str, ...]]] = [
        (vocab.MemoryQuestionType, vocab.MEMORY_QUESTION_TYPES),
        (vocab.AnswerKind, vocab.ANSWER_KINDS),
        (vocab.JobStatus, vocab.JOB_STATUSES),
        (vocab.ReasonCode, vocab.REASON_CODES),
    ]
    for alias, members in pairs:
        assert vocab.members_of(alias) == members
    with pytest.raises(TypeError):
        vocab.members_of(int)


def test_member_narrows_or_names_the_field_and_value() -> None:
    assert vocab.member(vocab.RUN_SIZES, "full", "run_size") == "full"
    with pytest.raises(vocab.VocabularyError, match=r"run_size: unknown value 'huge'; expected"):
        vocab.member(vocab.RUN_SIZES, "huge", "run_size")


# -- memory question types --------------------------------------------------------------------


def test_memory_question_types() -> None:
    names = vocab.MEMORY_QUESTION_TYPES
    same_members("spec.memory.QUESTION_TYPES", memory.QUESTION_TYPES, names)
    assert tuple(memory.QUESTION_TYPES) == names, "spec.memory.QUESTION_TYPES: report order"
    made = [n for n, _ in build.GENERATORS] + [*build.WRITE_TYPES, build.ISOLATION_TYPE]
    same_members("generate.memory.build.GENERATORS + WRITE_TYPES + ISOLATION_TYPE", made, names)
    quoted = tuple(n for n in names if n != build.ISOLATION_TYPE)
    # A new type's quota is the new version's row (extended_sizes), never the shared tables the
    # older versions name: the newest version asks every type on medium and full runs.
    newest = POLICIES[CURRENT_VERSION].run_sizes
    for size in ("medium", "full"):
        same_members(f"{CURRENT_VERSION} {size} memory quota", newest[size].memory_quota, quoted)
    for name, policy in POLICIES.items():
        for run_size in policy.run_sizes.values():
            unknown = set(run_size.memory_quota) - set(quoted)
            assert not unknown, f"{name} {run_size.name}: quota names {unknown}"
    assert set(grade_memory.TIMING) <= set(names), "grade.memory.TIMING"
    assert set(grade_memory.ADVICE_TYPES) <= set(names), "grade.memory.ADVICE_TYPES"


def test_answer_kinds_and_dimensions() -> None:
    same_members("grade.memory_kinds.CHECKS", CHECKS, vocab.ANSWER_KINDS)
    assert memory.ANSWER_KINDS == vocab.ANSWER_KINDS
    kinds = {t.answer_kind for t in memory.QUESTION_TYPES.values()} | {"tally"}
    same_members(
        "answer kinds of the question types (and tally)", sorted(kinds), vocab.ANSWER_KINDS
    )
    dims = {t.dimension for t in memory.QUESTION_TYPES.values()}
    same_members("dimensions of the question types", sorted(dims), vocab.DIMENSIONS)
    for name, policy in POLICIES.items():
        weights = [d for d, _ in policy.grading.dimension_weights]
        same_members(f"{name} grading.dimension_weights", weights, vocab.DIMENSIONS)
    assert memory.WRITE_OPS == vocab.WRITE_OPS
    assert ("", *vocab.WRITE_OPS) == memory.CASE_WRITE_OPS


def test_open_kinds_and_rubric_reasons() -> None:
    same_members("generate.memory.open.MAKERS", open_questions.MAKERS, vocab.OPEN_KINDS)
    assert tuple(open_questions.MAKERS) == vocab.OPEN_KINDS, "MAKERS: OPEN_KINDS order"
    table = sizes(with_memory=True, with_open=True)
    for size in ("medium", "full"):
        same_members(f"spec.sizes {size} open quota", table[size].open_quota, vocab.OPEN_KINDS)
    assert spec_open.OPEN_KINDS == vocab.OPEN_KINDS
    prompt = prompt_of(judging.JUDGE_1)
    same_members("judge-prompt-1.json reasons", prompt.reasons, vocab.MUST_NOT_REASONS)


# -- tools ------------------------------------------------------------------------------------


@pytest.mark.parametrize("version", sorted({p.pack_id for p in POLICIES.values()}))
def test_every_tool_group_has_categories_in_every_shipped_pack(version: str) -> None:
    groups = {c.group for c in texts_of(public_pack(version)).categories}
    same_members(f"{version} tools.json groups", sorted(groups), vocab.TOOL_GROUPS)
    assert TOOL_GROUPS == vocab.TOOL_GROUPS


# -- runs -------------------------------------------------------------------------------------


def test_run_sizes() -> None:
    assert RUN_SIZE_NAMES == vocab.RUN_SIZES
    for name, policy in POLICIES.items():
        # ``long`` came with 8.0.0; every version has the three others.
        extra = () if "long" in policy.run_sizes else ("long",)
        same_members(
            f"{name} run_sizes",
            (*policy.run_sizes, *extra),
            vocab.RUN_SIZES,
        )
        assert all(k == v.name for k, v in policy.run_sizes.items()), name
    for model in (models.JobSummary, models.SubmitRequest):
        annotation = model.model_fields["run_size"].annotation
        same_members(
            f"service.models.{model.__name__}.run_size", get_args(annotation), vocab.RUN_SIZES
        )


def test_job_statuses() -> None:
    same_members("store.jobs.JOB_STATUSES", jobs.JOB_STATUSES, vocab.JOB_STATUSES)
    same_members(
        "store.jobs TERMINAL + ACTIVE + queued",
        [*jobs.TERMINAL, *jobs.ACTIVE, "queued"],
        vocab.JOB_STATUSES,
    )
    assert seeds.FINISHED == jobs.TERMINAL, "spec.seeds.FINISHED"
    same_members("service.models.JobStatus", get_args(models.JobStatus), vocab.JOB_STATUSES)
    mode = models.JobSummary.model_fields["mode"].annotation
    same_members("service.models.JobSummary.mode", get_args(mode), vocab.JOB_MODES)
    assert driver.ARCHIVE_MODE in vocab.JOB_MODES, "workers.driver.ARCHIVE_MODE"
    assert set(vocab.JOB_STATUSES) - jobs.TERMINAL == views_pages.RUNNING, "views.pages.RUNNING"


def test_run_statuses_stages_and_sources() -> None:
    same_members("store.rows.STATUSES", rows.STATUSES, vocab.RUN_STATUSES)
    same_members("store.rows.STAGES", rows.STAGES, vocab.RUN_STAGES)
    assert seeds.SEED_SOURCES == vocab.SEED_SOURCES == (seeds.OPERATOR, seeds.SUBMITTER)
    assert manifest.TRUST_TIERS == vocab.TRUST_TIERS


def test_case_kinds_and_outcomes() -> None:
    assert transcript.CASE_KINDS == vocab.RUN_CASE_KINDS
    assert set(vocab.CASE_KINDS) - set(vocab.RUN_CASE_KINDS) == {"external"}
    assert judging.JUDGE_OUTCOMES == vocab.JUDGE_OUTCOMES
    assert judging.CASE_STATUSES == vocab.JUDGED_STATUSES


# -- reasons ----------------------------------------------------------------------------------


def test_reason_codes() -> None:
    same_members("grade.memory.REASONS", grade_memory.REASONS, vocab.MEMORY_REASONS)
    same_members("grade.tools.REASONS", grade_tools.REASONS, vocab.TOOL_REASONS)
    union = (
        "",
        *vocab.MEMORY_REASONS,
        *(r for r in vocab.TOOL_REASONS if r not in vocab.MEMORY_REASONS),
    )
    same_members("ReasonCode = '' + memory + tool reasons", union, vocab.REASON_CODES)
    same_members("views.explain.RULES", RULES, vocab.REASON_CODES)
    documented = set(re.findall(r"`([a-z_]+)`", (DOCS / "grading.md").read_text("utf-8")))
    missing = [r for r in vocab.REASON_CODES if r and r not in documented]
    assert not missing, f"docs/grading.md: reason codes not named {missing}"


# -- decoding ---------------------------------------------------------------------------------

RECORD: dict[str, Any] = {
    "case_id": "c1",
    "kind": "memory",
    "user_id": "u",
    "response": None,
    "observed": [],
    "execution": {"attempts": [], "total_duration_ms": 0, "outcome": "ok"},
}


def test_a_record_decodes_to_the_same_strings() -> None:
    record = decode(CaseRecord, RECORD)
    assert (record.kind, record.execution.outcome) == ("memory", "ok")
    assert type(record.kind) is str
    assert record.to_json() == RECORD


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"kind": "essay"}, r"\$\.kind: unknown kind 'essay'; expected one of tool, memory"),
        (
            {"execution": {**RECORD["execution"], "outcome": "lost"}},
            r"\$\.execution\.outcome: unknown outcome 'lost'",
        ),
        ({"kind": 3}, r"\$\.kind: expected str, got a number"),
    ],
)
def test_a_value_outside_its_vocabulary_is_named(change: dict[str, Any], named: str) -> None:
    with pytest.raises(DecodeError, match=named):
        decode(CaseRecord, {**RECORD, **change})


def test_a_memory_case_of_an_unknown_type_is_named() -> None:
    case = {
        "id": "m1",
        "question_type": "telepathy",
        "question": "?",
        "answer_kind": "value",
        "expected_answer": "x",
        "user_id": "u",
        "run_after_wave": 0,
    }
    with pytest.raises(DecodeError, match=r"\$\.question_type: unknown question_type 'telepathy'"):
        decode(memory.MemoryCase, case)
    with pytest.raises(DecodeError, match=r"\$\.write_op: unknown write_op 'burn'"):
        decode(
            memory.MemoryCase, {**case, "question_type": "write_instruction", "write_op": "burn"}
        )
    assert decode(memory.MemoryCase, {**case, "question_type": "isolation"}).write_op == ""


def test_stored_case_records_are_decoded_through_their_spec_type(tmp_path: Path) -> None:
    at = "2025-01-01T00:00:00Z"
    row = RunRow(
        "run-1", 42, "1.0", "small", "d" * 64, "echo", "running", "generating", "", at, at,
        0, 0, None, None, "", 0,
    )  # fmt: skip
    with RunStore(RunStore.sqlite_url(tmp_path / "runs.db")) as store:
        store.create_run(row)
        store.record_case("run-1", "c1", "memory", RECORD, updated_at=at)
        assert store.case_records("run-1") == {"c1": decode(CaseRecord, RECORD)}
        store.record_case("run-1", "c2", "memory", {**RECORD, "kind": "essay"}, updated_at=at)
        with pytest.raises(BadContentError, match=r"case 'c2': \$\.kind: unknown kind 'essay'"):
            store.case_records("run-1")


def test_external_vocabularies() -> None:
    assert external.FORMATS == vocab.EXTERNAL_FORMATS
    assert external.GRADED_BY == vocab.GRADED_BY
    graders = [Path(grade_external.__file__), Path(external_values.__file__)]
    written = {
        node.value
        for source in graders
        for node in ast.walk(ast.parse(source.read_text("utf-8")))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }
    unused = [r for r in vocab.EXTERNAL_REASONS if r not in written]
    assert not unused, f"grade.external, grade.external_values: never write {unused}"
    question: dict[str, Any] = {
        "id": "q",
        "user_id": "u",
        "question": "?",
        "gold": "x",
        "question_date": "d",
    }
    question |= {"source_type": "t", "source_id": "s", "abstention": False, "graded_by": "vibes"}
    with pytest.raises(DecodeError, match=r"\$\.graded_by: unknown graded_by 'vibes'"):
        decode(external.ExternalQuestion, question)
