"""``dittobench.run`` and ``drive.runs.drive_run``, the one driver behind every front door,
against the built-in harness on a small run: a graded, stored, signed run whose score is the
offline grader's; a resume of an interrupted run finished through the stored harness; a finished
run not driven again; a run another live process holds refused before any harness starts; and a
source archive's wiring (the sandbox itself replaced by the built-in harness, so it runs where
bubblewrap does not: ``test_sandbox.py`` drives the real one)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

import dittobench
from dittobench.drive.clock import now
from dittobench.drive.runs import DONE, RESUME, START, RunRequest, drive_run, start_or_resume
from dittobench.engine.launcher import builtin_harness
from dittobench.engine.orchestrate import Progress
from dittobench.engine.runner import RunError, RunHeld, RunOutcome
from dittobench.receipts.keys import generate_private_key, save_keypair
from dittobench.sandbox import SandboxError
from dittobench.sandbox import harness as sandbox_harness
from dittobench.sandbox.archive import Archive
from dittobench.sandbox.harness import SandboxConfig
from dittobench.spec.dataset import dataset_from_json
from dittobench.spec.transcript import Transcript
from dittobench.store import RunStore

SEED = 424242


@dataclass(frozen=True)
class Driven:
    folder: Path
    outcome: RunOutcome
    stages: list[str]

    @property
    def db(self) -> Path:
        return self.folder / "runs.db"


@pytest.fixture(scope="module")
def driven(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Driven]:
    folder = tmp_path_factory.mktemp("drive")
    private, _public = save_keypair(generate_private_key(), folder / "keys")
    seen: list[Progress] = []
    outcome = dittobench.run(
        harness="builtin",
        run_size="small",
        seed=SEED,
        out_dir=folder,
        key=private,
        progress=seen.append,
    )
    yield Driven(folder, outcome, [p.stage for p in seen])


def test_the_library_drives_grades_stores_and_signs_a_run(driven: Driven) -> None:
    outcome = driven.outcome
    assert isinstance(outcome, dittobench.RunOutcome)
    assert outcome.report.seed == SEED
    dataset = dataset_from_json(json.loads(outcome.dataset_path.read_bytes()))
    transcript = Transcript.from_json(json.loads(outcome.transcript_path.read_bytes()))
    offline = dittobench.grade_run(dataset, transcript).report
    assert offline.composite == outcome.report.composite
    assert driven.stages[0] == "generating" and "scoring" in driven.stages
    assert outcome.receipt_path is not None
    verified = dittobench.verify_receipt(json.loads(outcome.receipt_path.read_bytes()))
    assert verified.ok, verified.failed
    with RunStore(RunStore.sqlite_url(driven.db)) as store:
        row = store.get_run(outcome.run_id)
    assert (row.status, row.harness, row.seed_source) == ("done", "builtin", "submitter")


def test_a_finished_run_is_not_driven_again(driven: Driven) -> None:
    with RunStore(RunStore.sqlite_url(driven.db)) as store:
        assert start_or_resume(store, driven.outcome.run_id) == DONE
        assert start_or_resume(store, "r-20000101-000000-000000") == START
        with pytest.raises(RunError, match="already done"):
            drive_run(store, driven.outcome.run_id, RunRequest(out_dir=driven.folder))


def test_a_held_run_is_refused_before_any_harness_starts(driven: Driven) -> None:
    run_id, other = driven.outcome.run_id, "elsewhere.invalid:1:feed"
    # Nothing listens at port 9: a harness dialled first would fail with a HarnessError.
    request = RunRequest(harness="http://127.0.0.1:9", out_dir=driven.folder)
    with RunStore(RunStore.sqlite_url(driven.db)) as store:
        store.claim_run(run_id, other, now=now(), until="2999-01-01T00:00:00Z")
        try:
            with pytest.raises(RunHeld, match="driven by another process"):
                drive_run(store, run_id, request, resume=True)
        finally:
            store.release_run(run_id, other)


def test_an_interrupted_run_resumes_through_its_stored_harness(driven: Driven) -> None:
    run_id = driven.outcome.run_id
    with RunStore(RunStore.sqlite_url(driven.db)) as store:
        store.update_run(run_id, updated_at=now(), status="interrupted")
        assert start_or_resume(store, run_id) == RESUME
    resumed = dittobench.run(resume=run_id, db=driven.db, out_dir=driven.folder)
    assert resumed.run_id == run_id
    assert resumed.report.seed == SEED  # the stored seed, not a fresh draw
    assert resumed.receipt_path is None  # no key given this time: no receipt
    assert resumed.report.per_case == driven.outcome.report.per_case  # recorded cases kept
    with RunStore(RunStore.sqlite_url(driven.db)) as store:
        assert store.get_run(run_id).status == "done"


@dataclass
class Ended:
    ended: str = ""


@dataclass
class FakeBox:
    """What ``sandboxed_harness`` yields, over a harness started without a sandbox."""

    url: str
    sandbox: Ended
    routed: list[str] = field(default_factory=list)

    def transport(self) -> httpx.AsyncBaseTransport:
        return httpx.AsyncHTTPTransport()

    def tool_route(self, endpoint_url: str) -> str:
        self.routed.append(endpoint_url)
        return endpoint_url


ARCHIVE = Archive(sha256="ab" * 32, size=0, files={}, executable=frozenset())


def fake_sandbox(boxes: list[tuple[Path, FakeBox]], ended: str = "") -> object:
    @contextmanager
    def sandboxed(archive: Archive, config: SandboxConfig, folder: Path) -> Iterator[FakeBox]:
        assert archive is ARCHIVE
        with builtin_harness(folder / "memory.db") as url:
            box = FakeBox(url, Ended(ended))
            boxes.append((folder, box))
            yield box

    return sandboxed


def test_an_archive_runs_in_its_sandbox_folder_its_tools_routed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    boxes: list[tuple[Path, FakeBox]] = []
    monkeypatch.setattr(sandbox_harness, "sandboxed_harness", fake_sandbox(boxes))
    name = f"archive:sha256:{ARCHIVE.sha256}"
    request = RunRequest(harness=name, seed=SEED, out_dir=tmp_path, archive=ARCHIVE)
    with RunStore(RunStore.sqlite_url(tmp_path / "runs.db")) as store:
        outcome = drive_run(store, "r-20261207-000000-abcdef", request)
        row = store.get_run(outcome.run_id)
    [(folder, box)] = boxes
    assert folder == tmp_path / outcome.run_id / "sandbox"
    assert box.routed and "/t/" in box.routed[0]  # the harness was told the routed endpoint
    assert (row.status, row.harness) == ("done", name)


def test_a_sandbox_ended_for_a_bound_stops_the_run_saying_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    boxes: list[tuple[Path, FakeBox]] = []
    monkeypatch.setattr(
        sandbox_harness, "sandboxed_harness", fake_sandbox(boxes, "memory over 512 MB")
    )
    request = RunRequest(harness="archive", seed=SEED, out_dir=tmp_path, archive=ARCHIVE)
    store = RunStore(RunStore.sqlite_url(tmp_path / "runs.db"))
    with store, pytest.raises(SandboxError, match="memory over 512 MB"):
        drive_run(store, "r-20261207-000000-abcdef", request)
