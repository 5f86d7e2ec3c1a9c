"""The score report's JSON: byte-for-byte what it was while ``details`` was a free-form dict,
read back by ``ScoreReport.from_json`` into an equal report, and bad input refused with the path
of the bad value.

``PINNED`` holds, for runs graded from the transcript helpers, the SHA-256 of ``report.json`` as
the engine writes it and of the report as the store keeps it, taken at commit 54cc4d7 (before
``details`` was typed). A change to the dataset of bench 2.0.0, to its grader or to
``tests/helpers/transcripts.py`` moves them: re-pin them only after checking why.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import fields, replace
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dittobench.cli.summary import report_lines
from dittobench.core.prng import MAX_SEED
from dittobench.generate.assemble import build_dataset
from dittobench.grade.run import grade_run
from dittobench.spec.codec import DecodeError
from dittobench.spec.dataset import Dataset, ToolCase, ToolFixture
from dittobench.spec.memory import MemoryCase
from dittobench.spec.report import ReportDetails, ScoreReport
from dittobench.spec.transcript import Transcript
from dittobench.spec.wire import RunResponse, ToolCall
from tests.helpers import transcripts as T

VERSION = "2.0.0"


def chatty(case: ToolCase, fixture: ToolFixture) -> tuple[RunResponse, tuple[ToolCall, ...]]:
    """The oracle's calls with the last one made four more times: efficiency drops."""
    response, calls = T.oracle_tool(case, fixture)
    return response, calls + calls[-1:] * 4


def split_one_family(ds: Dataset) -> T.MemoryAnswer:
    """The oracle, except one member of the first paraphrase family: consistency drops."""
    first = sorted({c.family_id for c in ds.memory_cases if c.family_id})[0]
    victim = next(c for c in ds.memory_cases if c.family_id == first)

    def memory(case: MemoryCase, data: Dataset) -> RunResponse:
        if case.id == victim.id:
            return T.canned("no idea")(case, data)
        return T.oracle_memory(case, data)

    return memory


def partial(ds: Dataset) -> Transcript:
    full = T.build(ds)
    return replace(full, cases=full.cases[:3])


RUNS: dict[str, tuple[int, str, Callable[[Dataset], Transcript]]] = {
    "oracle": (1, "small", T.build),
    "canned": (2, "medium", lambda ds: T.build(ds, memory=T.canned("about three weeks"))),
    "repeat_decoy": (3, "full", lambda ds: T.build(ds, memory=T.repeat_decoy)),
    "unobserved": (4, "full", lambda ds: T.build(ds, observe=False)),
    "partial": (5, "small", partial),
    "paraphrase": (6, "medium", lambda ds: T.build(ds, memory=T.paraphrase_memory)),
    "chatty": (7, "full", lambda ds: T.build(ds, tool=chatty)),
    "split": (8, "full", lambda ds: T.build(ds, memory=split_one_family(ds))),
}

# run -> (sha256 of report.json, sha256 of the store's report_json), at commit 54cc4d7
PINNED = {
    "oracle": (
        "03c812c0eb19fb58701ed947f4f6f34ef7c1cd9bb0dcecd83df3f0f60ffcb783",
        "607b68c45b2f899ee181f2b2edf67b77c0e7a4414dad1f2cace8bf70fc5257c1",
    ),
    "canned": (
        "2a26c5e0c92d68f24b7aa50744da87007fad6ad6317f22772d4a786653b33a6b",
        "206a174710d107cae2becabd68a740cf84348a3fab463acde23ff986399fd1a2",
    ),
    "repeat_decoy": (
        "2ea6e494e61bde8b354d0d0be93d654f886fbe0d87f10d532486159f7d5d9dd6",
        "e92b753f83507ad4aac4262a9adc0b7c670af0927998726ef789314da2b3c4c3",
    ),
    "unobserved": (
        "f901ec2f9de70503461facea2a14611f131047013948540b97bbdb137ce5705d",
        "4601b95ffc238f9654a1616adffd7809a7ef4efff6b49f26a1f79478dc4d4af2",
    ),
    "partial": (
        "5ccd59d5fe6a023ce9ce30547d5d171928838d6ef664dcccef369ea62baef580",
        "deb3c4690e704163f3d6cbaa152f363bf53ef5328dea666c8bb3660796bce2e2",
    ),
    "paraphrase": (
        "70f5e4ff40b260b677fee68c069599e7e0035d1f2046168d372789c598bcf955",
        "4c722e9d5a8f263c092bc4e3a6b7a71c9f5e9d8ba45f2a94c7b3039fed476b4e",
    ),
    "chatty": (
        "769468fed4cd72a6553decfe948d9ca6f5cc36b31bf12a5b6edf2a2f06d356ee",
        "236bc682a6ce60cd7143c4ac39e6fd1f6f5215509ae7ce88025ce5f5ad9e1e20",
    ),
    "split": (
        "89dae4c14beddf5aaf39808a5a002751654800370c9a023dc0f953ea42bd49e5",
        "b9cace2833960d78e59a90a4764d6ca80bf00d5c5e4e896909351173a9fb1af9",
    ),
}

# The details of the "chatty" run at commit 54cc4d7, with their JSON types.
CHATTY_DETAILS = {
    "base": 0.803492,
    "efficiency": 0.886538,
    "efficiency_cases": 78,
    "consistency": 1.0,
    "paraphrase_families": 10,
    "split_families": 0,
    "token_factor": 1.0,
    "observed_tool_cases": 78,
    "capped_tool_cases": 0,
    "undelivered_cases": 0,
    "disqualified_memory_cases": 0,
    "leaked_memory_cases": 0,
    "isolation_cases": 10,
    "telemetry": {
        "lexical_overlap_after_permille": 142,
        "lexical_overlap_before_permille": 158,
        "lexical_overlap_cases": 179,
        "raw_pairs_permille": 500,
    },
}
FLOAT_DETAILS = {"base", "efficiency", "consistency", "token_factor"}


@cache
def graded(name: str) -> ScoreReport:
    seed, size, make = RUNS[name]
    ds = build_dataset(seed, VERSION, size)
    return grade_run(ds, make(ds)).report


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_every_run_is_pinned() -> None:
    assert set(PINNED) == set(RUNS)


@pytest.mark.parametrize("name", sorted(RUNS))
def test_report_bytes_are_unchanged(name: str) -> None:
    data = graded(name).to_json()
    as_file = json.dumps(data, indent=2, ensure_ascii=False) + "\n"  # engine/runner.py
    as_stored = json.dumps(data, ensure_ascii=False, sort_keys=True)  # store/rows.py
    assert (sha(as_file), sha(as_stored)) == PINNED[name]


def test_details_keep_their_keys_order_and_json_types() -> None:
    details = graded("chatty").to_json()["details"]
    assert list(details) == list(CHATTY_DETAILS)
    assert details == CHATTY_DETAILS
    for key, value in details.items():
        assert type(value) is type(CHATTY_DETAILS[key]), key
    assert [f.name for f in fields(ReportDetails)] == list(CHATTY_DETAILS)


@pytest.mark.parametrize("name", sorted(RUNS))
def test_every_detail_has_its_type(name: str) -> None:
    details = graded(name).to_json()["details"]
    for key, value in details.items():
        if key == "telemetry":
            assert all(type(v) is int for v in value.values())
        else:
            assert type(value) is (float if key in FLOAT_DETAILS else int), (key, value)


def test_the_summary_reads_the_details() -> None:
    lines = report_lines(graded("repeat_decoy"))
    assert lines[3:6] == [
        "composite    0.4987 ± 0.0013   (base 0.9974 × efficiency 1.000 × consistency 1.000"
        " × token 0.50)",
        "tool mean    1.0000   (84 cases: 78 observed, 0 capped)",
        "memory mean  0.9949   (195 cases: 1 disqualified by scans)",
    ]


@pytest.mark.parametrize("name", sorted(RUNS))
def test_reports_read_back_equal(name: str) -> None:
    """From the object, from report.json's text and from the store's text (keys sorted): an
    equal report, which writes the same text again."""
    report = graded(name)
    assert ScoreReport.from_json(report.to_json()) == report
    for dump in (
        lambda data: json.dumps(data, indent=2, ensure_ascii=False),
        lambda data: json.dumps(data, ensure_ascii=False, sort_keys=True),
    ):
        text = dump(report.to_json())
        again = ScoreReport.from_json(json.loads(text))
        assert again == report
        assert dump(again.to_json()) == text


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, MAX_SEED),
    size=st.sampled_from(["small", "medium", "full"]),
    strategy=st.sampled_from(["oracle", "canned", "decline"]),
)
def test_any_graded_report_reads_back_equal(seed: int, size: str, strategy: str) -> None:
    memory = {
        "oracle": T.oracle_memory,
        "canned": T.canned("about a week"),
        "decline": T.always_decline,
    }[strategy]
    ds = build_dataset(seed, VERSION, size)
    report = grade_run(ds, T.build(ds, memory=memory)).report
    text = json.dumps(report.to_json(), ensure_ascii=False)
    assert ScoreReport.from_json(json.loads(text)) == report


def mutated(change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    data = json.loads(json.dumps(graded("oracle").to_json()))
    change(data)
    return data


def put(path: str, value: object) -> Callable[[dict[str, Any]], None]:
    *parents, last = path.split(".")

    def change(data: dict[str, Any]) -> None:
        for key in parents:
            data = data[key]
        data[last] = value

    return change


def drop(path: str) -> Callable[[dict[str, Any]], None]:
    *parents, last = path.split(".")

    def change(data: dict[str, Any]) -> None:
        for key in parents:
            data = data[key]
        del data[last]

    return change


BAD = [
    ("details missing", drop("details"), "$.details: missing"),
    ("details not an object", put("details", []), "$.details: expected an object"),
    ("a detail missing", drop("details.efficiency"), "$.details.efficiency: missing"),
    ("telemetry missing", drop("details.telemetry"), "$.details.telemetry: missing"),
    ("text for a factor", put("details.base", "x"), "$.details.base: expected float"),
    ("null for a factor", put("details.consistency", None), "$.details.consistency: expected"),
    ("bool for a factor", put("details.token_factor", True), "$.details.token_factor: expected"),
    ("bool for a count", put("details.capped_tool_cases", False), "$.details.capped_tool_cases"),
    ("float for a count", put("details.isolation_cases", 1.5), "$.details.isolation_cases"),
    ("text for a count", put("details.undelivered_cases", "3"), "$.details.undelivered_cases"),
    ("telemetry a list", put("details.telemetry", []), "$.details.telemetry: expected an object"),
    ("telemetry value", put("details.telemetry.raw_pairs_permille", 0.5), "raw_pairs_permille"),
    ("seed missing", drop("seed"), "$.seed: missing"),
    ("seed a number", put("seed", 1), "$.seed: expected a seed"),
    ("seed padded", put("seed", "01"), "$.seed: expected a seed"),
    ("seed too large", put("seed", str(2**63)), "$.seed"),
    ("score mistyped", put("composite", "high"), "$.composite: expected float"),
]


@pytest.mark.parametrize(("change", "named"), [row[1:] for row in BAD], ids=[r[0] for r in BAD])
def test_bad_reports_are_refused_naming_the_path(
    change: Callable[[dict[str, Any]], None], named: str
) -> None:
    with pytest.raises(DecodeError) as caught:
        ScoreReport.from_json(mutated(change))
    assert named in str(caught.value)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("data", [[], "report", None, 3])
def test_a_report_that_is_not_an_object_is_refused(data: object) -> None:
    with pytest.raises(DecodeError, match=r"^\$: expected an object"):
        ScoreReport.from_json(data)


def test_unknown_keys_are_ignored_at_every_level() -> None:
    """A report from a later version with one more detail (or field) still reads; the extra
    keys are not kept."""
    report = graded("oracle")
    data = mutated(put("details.new_factor", 0.5))
    data["new_field"] = {"anything": [1]}
    again = ScoreReport.from_json(data)
    assert again == report
    assert "new_factor" not in again.to_json()["details"]


def test_a_whole_number_factor_reads_as_a_float() -> None:
    again = ScoreReport.from_json(mutated(put("details.base", 1)))
    assert type(again.details.base) is float
    assert again.details == graded("oracle").details
