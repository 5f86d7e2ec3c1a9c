"""The run driver's parts: one copy of the run id and time stamp every front door uses, and a
request turned into the engine's options field by field."""

from __future__ import annotations

import re
from pathlib import Path

from dittobench.cli import running, suites
from dittobench.drive import clock
from dittobench.drive.runs import BUILTIN, RunRequest, Schedule, run_options
from dittobench.engine.client import ClientLimits
from dittobench.service import jobs
from dittobench.store.rows import RUN_ID_PATTERN
from dittobench.workers import driver


def test_every_front_door_makes_ids_and_stamps_with_the_one_clock() -> None:
    """No front door keeps a clock of its own: any ``now`` or ``new_run_id`` it holds is the
    driver's (imported from ``dittobench.drive.clock``, the one import path)."""
    for module in (running, suites, driver, jobs):
        assert getattr(module, "now", clock.now) is clock.now, module.__name__
        assert getattr(module, "new_run_id", clock.new_run_id) is clock.new_run_id, module.__name__
        for name, value in vars(module).items():
            if callable(value) and getattr(value, "__name__", "") in ("now", "new_run_id"):
                assert value.__module__ == clock.__name__, f"{module.__name__}.{name}"
    assert running.BUILTIN == BUILTIN


def test_run_ids_have_the_stored_shape_and_differ() -> None:
    made = {clock.new_run_id() for _ in range(20)}
    assert len(made) == 20
    assert all(re.fullmatch(RUN_ID_PATTERN, run_id) for run_id in made)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", clock.now())


def test_a_request_becomes_the_engines_options() -> None:
    limits = ClientLimits(run_deadline_s=5.0, health_wait_s=6.0)
    request = RunRequest(
        harness="http://127.0.0.1:8080",
        seed=11,
        run_size="medium",
        out_dir=Path("here"),
        concurrency=3,
        limits=limits,
        schedule=Schedule(strict_order=True, reseed=False),
        judge_model="m",
        seed_source="operator",
    )
    options = run_options(request, "http://127.0.0.1:9999")
    assert options.harness_url == "http://127.0.0.1:9999"
    assert options.harness_name == "http://127.0.0.1:8080"  # recorded as asked, not as reached
    assert (options.seed, options.run_size, options.concurrency) == (11, "medium", 3)
    assert (options.out_dir, options.limits) == (Path("here"), limits)
    assert (options.strict_order, options.overlap, options.reseed) == (True, False, False)
    assert (options.judge_model, options.seed_source) == ("m", "operator")
    named = run_options(RunRequest(harness="x", harness_name="replay:sha256:ab"), "y")
    assert named.harness_name == "replay:sha256:ab"
