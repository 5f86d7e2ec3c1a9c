"""The score report's JSON: byte-for-byte what it was while ``details`` was a free-form dict,
read back by ``ScoreReport.from_json`` into an equal report, and bad input refused with the path
of the bad value.

``PINNED`` holds, for runs graded from the transcript helpers on bench 1.1.0 datasets (whose bytes
and grading are frozen), the SHA-256 of ``report.json`` as the engine writes it and of the report
as the store keeps it, computed by the code of commit 54cc4d7 (before ``details`` was typed). A
change to grading-1 or to the answers of ``dittobench.study`` moves them: re-pin them only after
checking why.
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

from dittobench import study as T
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
from tests.helpers import redteam as R

VERSION = "1.1.0"


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
    "repeat_decoy": (3, "full", lambda ds: T.build(ds, memory=R.repeat_decoy)),
    "unobserved": (4, "full", lambda ds: T.build(ds, observe=False)),
    "partial": (5, "small", partial),
    "paraphrase": (6, "medium", lambda ds: T.build(ds, memory=T.paraphrase_memory)),
    "chatty": (7, "full", lambda ds: T.build(ds, tool=chatty)),
    "split": (8, "full", lambda ds: T.build(ds, memory=split_one_family(ds))),
}

# run -> (sha256 of report.json, sha256 of the store's report_json), at commit 54cc4d7
PINNED = {
    "oracle": (
        "705361e106acc1db4d7f988eabd9c6eea45c682352c69ebbde79a49e7ac4f113",
        "a1de25e2820b7fe8207e4f25cb6e8f2549446125c2082319a3e5f575ec6f562b",
    ),
    "canned": (
        "e1bed4408728ee1501311d883bcfcbe538ec00106511e325883ec564a0a0df0d",
        "167a3e45698da1899d14f6a3176216014e48173e104c713846b6a3546941f119",
    ),
    "repeat_decoy": (
        "0b3b026bf7369049d772c9a5df426e177a7b657a9902e7de64a069f83d637469",
        "bb12eb3972ba931ce2cbdc1ed332bde18615410097bee0c791f0cfe8964fc9f9",
    ),
    "unobserved": (
        "63fe20b7aefcdad3ebf7dbe8d48629a11136007d748352d37b3481ad6f292ca1",
        "ec3bcadafe3cf672e786fd5fc896785fdb91c31bcd3f18a09d9e5692896d248a",
    ),
    "partial": (
        "1e13e9a85a30c450822391e05612003694295300e0386185586d9c1011ad918c",
        "f18a3cdb41e095c58df4d6e03322e4f9cb46d6216d3b6bee149763852290a96c",
    ),
    "paraphrase": (
        "1b51aedab5aaa58f42ae819bdaf7ed2d46425afbef26b8e1b9e7bcb5350fa142",
        "3612beb5936ce3193f9b86a7398b9389822609394a6590e37be43145f654e441",
    ),
    "chatty": (
        "52c60373f9e529132fc46bfda0bc56427714160e164226da481f8757fe073018",
        "2fcea7a780dbf2a813d071dc6d387b82ce329268949eba503f99ec97eb25ebea",
    ),
    "split": (
        "ad382dbdfce277b3eb920495eefa64a513e59ccec36faabc0a204e6fb99231e6",
        "ab88ec3c088bfd75fdc07179b1787fd82ff60c7985c8081391c80895f0523114",
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
        "lexical_overlap_after_permille": 140,
        "lexical_overlap_before_permille": 173,
        "lexical_overlap_cases": 173,
        "raw_pairs_permille": 497,
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
        " × integrity 0.50)",
        "tool mean    1.0000   (84 cases: 78 observed, 0 capped)",
        "memory mean  0.9949   (195 cases: 1 disqualified by scans)",
    ]


@pytest.mark.parametrize("name", sorted(RUNS))
def test_reports_read_back_equal(name: str) -> None:
    """From the object, from report.json's text and from the store's text (keys sorted): an
    equal report, which writes the same text again."""
    report = graded(name)
    assert ScoreReport.from_json(report.to_json()) == report
    dumps: tuple[Callable[[Any], str], ...] = (
        lambda data: json.dumps(data, indent=2, ensure_ascii=False),
        lambda data: json.dumps(data, ensure_ascii=False, sort_keys=True),
    )
    for dump in dumps:
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
    data: dict[str, Any] = json.loads(json.dumps(graded("oracle").to_json()))
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
