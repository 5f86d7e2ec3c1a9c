"""Bench 3.0: where a question is asked, and wordings kept clear of their own key.

Up to bench 2.0 a question was asked right after the latest wave its material is in, write
instructions right after wave 0 and read-backs after the last wave, so the wave a question
came after told its type. With ``drawn_placement`` each question is asked after a wave drawn
uniformly among those where its evidence is complete: from the latest wave of the clusters it
rests on (wave 0 for a question resting on none, and for the isolation user, whose material is
seeded first) to the last. A write instruction is drawn among the waves that leave room for its
read-back, which is drawn among the later ones, so the write path keeps its order: old code
seeded, instruction, read-back.
"""

from __future__ import annotations

from dataclasses import replace

from dittobench.core.prng import Stream
from dittobench.core.text import PhraseSet
from dittobench.generate.memory.draft import Draft
from dittobench.generate.memory.waves import WavePlan
from dittobench.spec.wire import DEFAULT_USER_ID

INSTRUCTION = "write_instruction"
UNANSWERED = frozenset({"decline", "acknowledge"})
"""Answer kinds whose key holds a subject or a label the question names, not an answer."""


def placed(drafts: list[Draft], plan: WavePlan, waves: int, stream: Stream) -> list[Draft]:
    """Every draft pinned (``min_wave`` = ``max_wave``) to a wave drawn from ``stream``, in
    draft order."""
    last = waves - 1
    after: dict[str, int] = {}  # a read-back's link -> its instruction's wave
    out = []
    for draft in drafts:
        low = _complete(draft, plan)
        if draft.question_type == INSTRUCTION:
            wave = stream.between(low, max(low, last - 1))
            after[draft.confirmed_by] = wave
        else:
            floor = after[draft.link] + 1 if draft.link in after else low
            wave = stream.between(min(max(low, floor), last), last)
        out.append(replace(draft, min_wave=wave, max_wave=wave))
    return out


def _complete(draft: Draft, plan: WavePlan) -> int:
    """The first wave after which everything the draft rests on is seeded."""
    if draft.user_id != DEFAULT_USER_ID:
        return 0
    return max([0, *(plan.wave_of_cluster[c] for c in draft.clusters if c in plan.wave_of_cluster)])


def clear_of_key(candidates: list[str], draft: Draft) -> list[str]:
    """The candidates that name no value of the draft's key (all of them when none does)."""
    if len(candidates) < 2:  # kept whatever it names
        return candidates
    values = [*draft.distractors, *draft.forbidden, *draft.dump_guard]
    if draft.answer_kind not in UNANSWERED:
        values += [draft.expected, *draft.accepted, *draft.items]
    named = PhraseSet(values)
    clean = [c for c in candidates if not named.any_in(c)]
    return clean or candidates
