"""How much persona material a run size's memory quota needs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from dittobench.generate.memory.recall import families_and_singles
from dittobench.generate.persona.plan import Needs
from dittobench.spec.sizes import HistoryScale
from dittobench.spec.vocab import MEMORY_QUESTION_TYPES, MemoryQuestionType

ISOLATION_USER_SESSIONS = 6


def needs_for(
    quota: Mapping[MemoryQuestionType, int],
    isolation_cases: int,
    history: HistoryScale | None = None,
) -> Needs:
    """The first user's needs. Extra fixed attributes leave room for near misses and dump guards;
    three event lists at least give the order and duration questions distinct dates. A type
    that needs no persona material of its own is simply not read here. A long ``history``
    stretches the same needs over its sessions, with its background and talk."""
    q = {name: quota.get(name, 0) for name in MEMORY_QUESTION_TYPES}
    families, singles = families_and_singles(q["single_session_recall"])
    timed = q["temporal_order"] + q["temporal_duration"]
    total = sum(quota.values())
    needs = Needs(
        sessions=max(5, min(28, 4 + total // 8)),
        fixed_self=max(families + singles, (isolation_cases + 1) // 2) + (2 if total > 6 else 0),
        fixed_other_only=q["abstention_near_miss"],
        changing=max(q["knowledge_update"], q["point_in_time"]),
        preferences=q["preference_application"],
        event_lists=max(
            q["multi_session_count"],
            q["multi_session_list"],
            3 if timed else 0,
            1 if q["abstention_never_visited"] else 0,
        ),
        quit=q["activity_quit"],
        ongoing=q["activity_ongoing"],
        assistant=q["assistant_recall"],
        recurring=q["mention_count"],
        write_olds=2 * (q["write_instruction"] // 3),
        injections=q["stored_injection"],
        require_trips=q["abstention_never_visited"] > 0,
    )
    if history is None:
        return needs
    return replace(
        needs,
        sessions=history.sessions,
        fixed_self=needs.fixed_self + history.background,
        session_gap=history.gap_days,
        most_states=history.most_states,
        talk_turns=history.talk_turns,
        talk_sentences=history.talk_sentences,
        unheld_twins=history.unheld_twins,
        twins_each=history.twins_each,
        contacts=history.contacts,
        near_misses=history.near_misses,
        retell=history.retell,
        whole_library=True,
    )


def isolation_needs(
    attributes: list[str],
    avoid: Mapping[str, tuple[str, ...]],
    history: HistoryScale | None = None,
) -> Needs:
    """The second user: a small person who holds the isolation attributes with other values
    (with a long ``history``: over more sessions, with the same talk per session)."""
    needs = Needs(
        sessions=ISOLATION_USER_SESSIONS,
        fixed_self=len(attributes) + 2,
        fixed_other_only=0,
        changing=2,
        preferences=1,
        event_lists=1,
        quit=0,
        ongoing=1,
        assistant=1,
        recurring=0,
        write_olds=0,
        injections=0,
        avoid=dict(avoid),
        include=tuple(attributes),
    )
    if history is None:
        return needs
    return replace(
        needs,
        sessions=history.isolation_sessions,
        talk_turns=history.talk_turns,
        talk_sentences=history.talk_sentences,
        retell=history.retell,
    )
