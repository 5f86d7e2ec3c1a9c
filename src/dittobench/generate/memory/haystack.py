"""Place a person's beats in time and give them ids: the pairs a harness is seeded with."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from dittobench.core.ids import opaque_id
from dittobench.core.prng import Stream
from dittobench.generate.persona.model import Person, Session
from dittobench.spec.wire import Pair

BEAT_MINUTES = 5
"""Minutes between consecutive pairs of a session."""
LEAD_DAYS = 7
"""Days between the last session and the version's epoch."""


@dataclass(frozen=True, slots=True)
class Haystack:
    """A person's pairs in chronological order, and where each fact and session landed."""

    user_id: str
    pairs: tuple[Pair, ...]
    clusters: tuple[tuple[str, ...], ...]
    """Per pair, the attributes it voices (none for small talk); parallel to ``pairs``."""
    pairs_of_fact: dict[str, tuple[str, ...]]
    """Per fact key, every pair carrying it, in order (one before bench 3.0; a corrected or
    split fact is carried by several)."""
    session_dates: dict[int, date]


def epoch_date(epoch: str) -> date:
    """The calendar date of an RFC 3339 epoch such as ``2026-12-01T00:00:00Z``."""
    return date.fromisoformat(epoch[:10])


def session_dates(sessions: Iterable[Session], epoch: str) -> dict[int, date]:
    """The calendar date of each session: the last one ``LEAD_DAYS`` before the epoch."""
    sessions = tuple(sessions)
    last_day = max(s.day for s in sessions)
    anchor = epoch_date(epoch) - timedelta(days=last_day + LEAD_DAYS)
    return {s.index: anchor + timedelta(days=s.day) for s in sessions}


def build_haystack(root: Stream, person: Person, epoch: str) -> Haystack:
    """Timestamps end ``LEAD_DAYS`` before the epoch; ids hash (seed, version, user, ordinal),
    the seed and version of ``root``, the dataset's root stream."""
    seed, content_version = root.seed, root.content_version
    dates = session_dates(person.sessions, epoch)
    starts = {s.index: s.start_minute for s in person.sessions}
    session_ids = {
        s.index: opaque_id("s", seed, content_version, person.user_id, s.index)
        for s in person.sessions
    }
    pairs: list[Pair] = []
    clusters: list[tuple[str, ...]] = []
    pairs_of_fact: dict[str, tuple[str, ...]] = {}
    for ordinal, beat in enumerate(person.beats):
        pair_id = opaque_id("p", seed, content_version, person.user_id, ordinal)
        day = dates[beat.session]
        moment = datetime(day.year, day.month, day.day, tzinfo=UTC) + timedelta(
            minutes=starts[beat.session] + BEAT_MINUTES * beat.position
        )
        pairs.append(
            Pair(
                pair_id=pair_id,
                session_id=session_ids[beat.session],
                timestamp=moment.strftime("%Y-%m-%dT%H:%M:00Z"),
                prompt=beat.user_text,
                response=beat.assistant_text,
            )
        )
        clusters.append(beat.clusters)
        for key in beat.fact_keys:
            pairs_of_fact[key] = (*pairs_of_fact.get(key, ()), pair_id)
    return Haystack(person.user_id, tuple(pairs), tuple(clusters), pairs_of_fact, dates)
