"""The library's public face: a pinned ``__all__``, every name importable from ``dittobench``,
and ``import dittobench`` itself loading none of the heavy layers."""

from __future__ import annotations

import json
import subprocess
import sys

import dittobench
from dittobench import study

PUBLIC = [
    "CURRENT_VERSION",
    "CaseRecord",
    "CaseScore",
    "Dataset",
    "MemoryCase",
    "ReportDetails",
    "RunOutcome",
    "ScoreReport",
    "Transcript",
    "__version__",
    "build_dataset",
    "dataset_from_json",
    "get_policy",
    "grade_run",
    "run",
    "score",
    "verify_receipt",
]


def test_all_is_pinned_and_every_name_resolves() -> None:
    assert dittobench.__all__ == PUBLIC
    for name in PUBLIC:
        assert getattr(dittobench, name) is not None


def test_the_entry_points_work_from_the_top() -> None:
    from dittobench import build_dataset, get_policy, grade_run

    dataset = build_dataset(5, run_size="small")
    assert isinstance(dataset, dittobench.Dataset)
    assert dataset.bench_version == dittobench.CURRENT_VERSION
    report = grade_run(dataset, study.build(dataset)).report
    assert isinstance(report, dittobench.ScoreReport)
    assert report.composite == 1.0
    assert report.grading_policy == get_policy(dataset.bench_version).grading.id


def test_an_unknown_name_is_an_attribute_error() -> None:
    try:
        dittobench.build_everything  # noqa: B018
    except AttributeError as error:
        assert "build_everything" in str(error)
    else:
        raise AssertionError("an unknown name resolved")


def test_importing_the_package_loads_no_heavy_layer() -> None:
    code = "import sys, json, dittobench; print(json.dumps(sorted(sys.modules)))"
    loaded = json.loads(subprocess.check_output([sys.executable, "-c", code], text=True))
    heavy = [m for m in loaded if m.split(".")[0] in ("httpx", "cryptography", "sqlalchemy")]
    assert not heavy
    assert not [m for m in loaded if m.startswith(("dittobench.generate", "dittobench.engine"))]
