"""dittobench: an open, reproducible, judge-free benchmark for memory assistants.

The library's entry points, importable from here::

    from dittobench import build_dataset, grade_run, verify_receipt

Each is loaded on first use, so ``import dittobench`` stays as light as the command line needs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_EXPORTS = {
    "build_dataset": "dittobench.generate.assemble",
    "grade_run": "dittobench.grade.run",
    "verify_receipt": "dittobench.receipts.verify",
    "Dataset": "dittobench.spec.dataset",
    "dataset_from_json": "dittobench.spec.dataset",
    "MemoryCase": "dittobench.spec.memory",
    "ScoreReport": "dittobench.spec.report",
    "CaseScore": "dittobench.spec.report",
    "Transcript": "dittobench.spec.transcript",
    "CaseRecord": "dittobench.spec.transcript",
    "CURRENT_VERSION": "dittobench.spec.versions",
    "get_policy": "dittobench.spec.versions",
}

__all__ = [
    "CURRENT_VERSION",
    "CaseRecord",
    "CaseScore",
    "Dataset",
    "MemoryCase",
    "ScoreReport",
    "Transcript",
    "__version__",
    "build_dataset",
    "dataset_from_json",
    "get_policy",
    "grade_run",
    "verify_receipt",
]

if TYPE_CHECKING:
    from dittobench.generate.assemble import build_dataset
    from dittobench.grade.run import grade_run
    from dittobench.receipts.verify import verify_receipt
    from dittobench.spec.dataset import Dataset, dataset_from_json
    from dittobench.spec.memory import MemoryCase
    from dittobench.spec.report import CaseScore, ScoreReport
    from dittobench.spec.transcript import CaseRecord, Transcript
    from dittobench.spec.versions import CURRENT_VERSION, get_policy


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'dittobench' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
