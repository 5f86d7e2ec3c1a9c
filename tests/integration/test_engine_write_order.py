"""Every finished case is in the store before the engine sends its next request: an engine
killed outright then asks again, on resume, only the cases that were in flight (the guarantee
``test_workers`` holds with a SIGKILL). Checked here from the order of events alone, through the
run's connection layer and its store, against a real harness process."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from dittobench.engine.client import ClientLimits
from dittobench.engine.runner import RunOptions, start_run
from dittobench.spec.versions import CURRENT_VERSION
from dittobench.store import RunStore
from tests.helpers.harness_process import harness

LIMITS = ClientLimits(health_wait_s=10, health_interval_s=0.05, run_deadline_s=30.0)
RUN_ID = "r-20260101-000000-abcdef"


class Events:
    """What happened, in order: ``send`` for each ``POST /run``, ``kept`` for each case
    recorded (once its transaction is committed)."""

    def __init__(self) -> None:
        self.order: list[str] = []

    def unrecorded_at_each_send(self) -> list[int]:
        """For each ``POST /run``, how many cases sent before it were not recorded yet."""
        counts, sent, kept = [], 0, 0
        for event in self.order:
            if event == "send":
                counts.append(sent - kept)
                sent += 1
            else:
                kept += 1
        return counts


class Logged(httpx.AsyncBaseTransport):
    def __init__(self, events: Events) -> None:
        self._events, self._inner = events, httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "POST" and request.url.path == "/run":
            self._events.order.append("send")
        return await self._inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self._inner.aclose()


class LoggedStore(RunStore):
    events = Events()

    def record_case(self, run_id: str, *args: Any, **kwargs: Any) -> None:
        super().record_case(run_id, *args, **kwargs)
        self.events.order.append("kept")


@pytest.mark.parametrize("places", [1, 4])
def test_no_request_goes_out_before_the_finished_cases_are_recorded(
    tmp_path: Path, places: int
) -> None:
    with (
        harness("nothing") as url,
        LoggedStore(RunStore.sqlite_url(tmp_path / "runs.db")) as store,
    ):
        events = store.events = Events()
        options = RunOptions(
            url, 5, "small", CURRENT_VERSION, places, tmp_path / "out", LIMITS,
            transport=lambda: Logged(events),
        )  # fmt: skip
        outcome = start_run(store, RUN_ID, options, lambda: "2026-01-01T00:00:00Z", lambda p: None)
        asked = store.get_run(outcome.run_id).cases_total
    unrecorded = events.unrecorded_at_each_send()
    assert len(unrecorded) == asked  # one request a case: nothing retried or replayed
    # Only the cases still in flight (at most one fewer than the places) may be unrecorded
    # when a request goes out; with one place, none.
    assert max(unrecorded) <= places - 1
    assert events.order.count("kept") == asked
