"""Send one wave's ``POST /seed``: whole, or in parts when its body is over the limit.

Every sender of ``/seed`` goes through ``seed_wave`` (a run, an external suite, ``dittobench
harness check``), so a wave is cut the same way wherever it is sent (``spec.wire.seed_parts``,
docs/protocol.md "Seeding in parts"). A part that fails in a way that may pass (no connection, 429,
5xx) is sent again after a pause, as a whole wave was: it is an idempotent upsert.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from dittobench.engine.client import HarnessClient, HarnessError
from dittobench.spec.wire import SEED_BYTES_LIMIT, SeedRequest, seed_parts


@dataclass(frozen=True, slots=True)
class SeedSending:
    """How a wave is sent: at most ``limit`` bytes a body, ``backoff_s`` the pauses between a
    part's attempts (empty: one attempt), ``user`` the dataset's name for its user (named in
    errors) and ``label`` what progress notes call the wave."""

    limit: int = SEED_BYTES_LIMIT
    backoff_s: tuple[float, ...] = ()
    user: str = ""
    label: str = ""


def _ignore() -> None:
    """No one to tell that a part got no connection."""


async def seed_wave(
    client: HarnessClient,
    shown: SeedRequest,
    how: SeedSending,
    note: Callable[[str], None],
    unreachable: Callable[[], None] = _ignore,
) -> int:
    """Send one wave (under the ids the harness is shown) as its parts, in order, and return how
    many. Each part is sent again after a connection error, 429 or 5xx (real harnesses answer
    500 while busy), up to ``len(how.backoff_s) + 1`` attempts; a 4xx or a reply that never
    completed stops at once, raising ``HarnessError``. ``note`` hears what is sent before each
    attempt (the label, with ``part i/n`` when there are several) and why a part is sent again;
    ``unreachable`` is called when a part got no connection (the harness may have restarted).
    The wave is seeded once its last part is accepted."""
    parts = seed_parts(shown, how.limit)
    for part in parts:
        what = how.label if part.parts == 1 else f"{how.label}, part {part.part + 1}/{part.parts}"
        for attempt, pause in enumerate((*how.backoff_s, None), start=1):
            note(what)
            try:
                await client.seed(part, how.user)
                break
            except HarnessError as exc:
                if exc.unreachable:
                    unreachable()
                if not exc.retryable:
                    raise
                if pause is None:
                    raise HarnessError(f"{exc} ({attempt} attempts)") from None
                note(f"{what}: attempt {attempt} failed, again in {pause:g} s")
                await asyncio.sleep(pause)
    return len(parts)


__all__ = ["SeedSending", "seed_wave"]
