"""dittobench: an open, reproducible, judge-free benchmark for memory assistants.

The library's entry points, importable from here::

    from dittobench import build_dataset, grade_run, verify_receipt

    outcome = dittobench.run(harness="builtin", run_size="small", seed=7)  # one run, as `run` does
    report = dittobench.score("http://127.0.0.1:8000")  # the report; pd.DataFrame(report.to_rows())

Each is loaded on first use, so ``import dittobench`` stays as light as the command line needs
(and the package itself imports no layer, so the layering contracts hold for it too).
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "build_dataset": "dittobench.generate.assemble",
    "grade_run": "dittobench.grade.run",
    "verify_receipt": "dittobench.receipts.verify",
    "Dataset": "dittobench.spec.dataset",
    "dataset_from_json": "dittobench.spec.dataset",
    "MemoryCase": "dittobench.spec.memory",
    "ScoreReport": "dittobench.spec.report",
    "ReportDetails": "dittobench.spec.report",
    "CaseScore": "dittobench.spec.report",
    "Transcript": "dittobench.spec.transcript",
    "CaseRecord": "dittobench.spec.transcript",
    "CURRENT_VERSION": "dittobench.spec.versions",
    "get_policy": "dittobench.spec.versions",
    "run": "dittobench.drive.api",
    "score": "dittobench.drive.api",
    "RunOutcome": "dittobench.engine.runner",
}

__all__ = [
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


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'dittobench' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
