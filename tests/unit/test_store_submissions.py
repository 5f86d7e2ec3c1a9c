"""Submitted archives in the store (``store.submissions``): kept whole with their SHA-256 and
fingerprint, earlier ones listed oldest first; and a building archive job stays fresh, so a
sweeper never takes a long build for an abandoned job."""

from __future__ import annotations

import time
from pathlib import Path

from dittobench.store.jobs import JobRow, ServiceStore
from dittobench.store.submissions import SubmissionRow
from dittobench.workers.driver import _touching

T0 = "2026-01-01T00:00:00Z"


def submission(run_id: str, at: str) -> SubmissionRow:
    return SubmissionRow(run_id, "alice", "ab" * 32, 3, b"\x1f\x8b\x00", '{"m":[]}', at)


def test_submissions_are_kept_and_listed_before_a_run(tmp_path: Path) -> None:
    with ServiceStore(ServiceStore.sqlite_url(tmp_path / "runs.db")) as store:
        for run_id, at in (("r-b", T0), ("r-a", T0), ("r-c", "2026-01-02T00:00:00Z")):
            store.create_submission(submission(run_id, at))
        kept = store.get_submission("r-c")
        assert kept is not None and kept.archive == b"\x1f\x8b\x00"
        assert [row[0] for row in store.fingerprints_before(kept)] == ["r-a", "r-b"]
        first = store.get_submission("r-a")
        assert first is not None and store.fingerprints_before(first) == []
        store.delete_submission("r-c")
        assert store.get_submission("r-c") is None


def test_a_building_job_is_touched_until_its_build_ends(tmp_path: Path) -> None:
    with ServiceStore(ServiceStore.sqlite_url(tmp_path / "runs.db")) as store:
        store.create_job(
            JobRow("r-1", 0, "alice", "archive", "archive:sha256:00", 1, "small", "2.0.0", "",
                   "building", "", False, "", "", T0, T0, "")
        )  # fmt: skip
        with _touching(store, "r-1", every_s=0.05):
            time.sleep(0.3)
        touched = store.get_job("r-1")
        assert touched is not None and touched.updated_at > T0
        store.update_job("r-1", updated_at=T0, status="running")
        with _touching(store, "r-1", every_s=0.05):
            time.sleep(0.2)
        running = store.get_job("r-1")
        assert running is not None and running.updated_at == T0  # only a building job
