"""A run stopped by SIGTERM (a service manager, a container stopping) ends ``failed``, saying
how to resume it, never left ``running``; and a run says which ``/health`` it waits for. Both
through a real ``dittobench run`` process against a slow harness process."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

from dittobench.store import RunRow, RunStore
from tests.helpers.harness_process import harness


def wait_for_line(stream: IO[bytes], start: str, timeout: float = 120) -> tuple[str, list[str]]:
    """The first line of ``stream`` starting with ``start``, and every line read before it."""
    give_up, seen = time.monotonic() + timeout, list[str]()
    while time.monotonic() < give_up:
        line = stream.readline().decode()
        assert line, f"the run exited before printing {start!r}: {seen}"
        if line.startswith(start):
            return line, seen
        seen.append(line)
    raise AssertionError(f"no {start!r} line within {timeout} s")


def test_sigterm_marks_the_run_failed_and_resumable(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    with harness("slow", "--delay-ms", "400") as url:
        command = [
            sys.executable, "-m", "dittobench", "run", "--harness", url, "--seed", "7",
            "--run-size", "small", "--concurrency", "2", "--db", str(db),
            "--out-dir", str(tmp_path / "out"),
        ]  # fmt: skip
        with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as run:
            try:
                assert run.stderr is not None
                _, before = wait_for_line(run.stderr, "[running]")
                run.send_signal(signal.SIGTERM)
                _, err = run.communicate(timeout=60)
            finally:
                run.kill()
    assert any(f"waiting for {url}/health, up to 180 s" in line for line in before), before
    assert run.returncode == 143, err
    with RunStore(RunStore.sqlite_url(db), create=False) as store:
        (row,) = store.list_runs(5)
    assert isinstance(row, RunRow)
    assert row.status == "failed"
    said = f"stopped by SIGTERM; resume with dittobench run --resume {row.run_id}"
    assert row.error == said
    assert said in err.decode()
    assert row.cases_done < row.cases_total
