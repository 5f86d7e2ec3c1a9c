"""A driver that stalls while another process takes its run over records nothing after the
takeover: a case it finishes then is refused by the store (the lease is checked in the same
write), the engine stops with ``LeaseLost`` and leaves the run's row to its new holder. So a
run moved to another worker has no case recorded twice (docs/deploy.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dittobench.engine.client import ClientLimits
from dittobench.engine.runner import LeaseLost, RunOptions, start_run
from dittobench.spec.versions import CURRENT_VERSION
from dittobench.store import RunStore
from tests.helpers.harness_process import harness

LIMITS = ClientLimits(health_wait_s=10, health_interval_s=0.05, run_deadline_s=10.0)
INTRUDER = "elsewhere:1:takeover"
RUN_ID = "r-20260101-000000-abcdef"


class TakenOverAtTheThirdCase(RunStore):
    """A store where another process takes the run over just before the third case is kept."""

    calls = 0

    def record_case(self, run_id: str, *args: Any, **kwargs: Any) -> None:
        self.calls += 1
        if self.calls == 3:
            holder = self.get_run(run_id).lease_owner
            self.claim_run(run_id, INTRUDER, now="2000-01-01T00:00:00Z",
                           until="9999-01-01T00:00:00Z", take_over=holder)  # fmt: skip
        super().record_case(run_id, *args, **kwargs)


def test_a_run_taken_over_records_nothing_more(tmp_path: Path) -> None:
    stamps = iter(f"2026-01-01T00:00:{n:02d}Z" for n in range(60))
    with (
        harness("slow", "--delay-ms", "20") as url,
        TakenOverAtTheThirdCase(RunStore.sqlite_url(tmp_path / "runs.db")) as store,
    ):
        options = RunOptions(url, 5, "small", CURRENT_VERSION, 1, tmp_path / "out", LIMITS)
        with pytest.raises(LeaseLost, match="taken over"):
            start_run(store, RUN_ID, options, lambda: next(stamps), lambda _p: None)
        row = store.get_run(RUN_ID)
        assert row.lease_owner == INTRUDER  # left to its new holder
        assert row.status == "running" and row.error == ""  # not marked failed by the loser
        assert len(store.recorded_cases(RUN_ID)) == 2
