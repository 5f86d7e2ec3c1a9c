"""Isolation: two users hold the same kinds of facts with different values; a question about one
must never be answered with the other's value."""

from __future__ import annotations

from dittobench.core.prng import Stream
from dittobench.generate.memory.asking import ask_wordings
from dittobench.generate.memory.draft import Context, Draft
from dittobench.generate.persona.model import SELF, Person


def isolation_attributes(
    stream: Stream,
    person: Person,
    library_fixed: list[str],
    cases: int,
    busy: set[str],
    spent: frozenset[str] = frozenset(),
) -> list[str]:
    """Which of the first user's own fixed attributes the isolation cases use (seeded): one
    attribute per two cases, each asked of both users. Attributes carrying a planted instruction
    are never used, and ones other questions already ask about (``busy``) only when needed, so
    each attribute keeps enough distinct wordings. ``spent`` attributes have no value left for
    the second user (a long history can say every one): passed over after the draw, so every
    other pick stands."""
    planted = {f.attribute for f in person.facts if f.role == "injection"}
    own = sorted(
        {
            f.attribute
            for f in person.facts
            if f.holder == SELF and f.role == "state" and f.attribute in library_fixed
        }
        - planted
    )
    wanted = (cases + 1) // 2
    free = stream.shuffle([a for a in own if a not in busy])
    rest = stream.shuffle([a for a in own if a in busy])
    return [a for a in free + rest if a not in spent][:wanted]


def isolation_cases(
    first: Context, second: Context, attributes: list[str], cases: int
) -> list[Draft]:
    """Alternate users: for each attribute, ask the first user, then the second; each case
    forbids the other user's value."""
    drafts: list[Draft] = []
    for name in attributes:
        attribute = first.library.get(name)
        (mine,) = first.chain(name)
        (theirs,) = second.chain(name)
        for ctx, own, other in ((first, mine, theirs), (second, theirs, mine)):
            drafts.append(
                Draft(
                    question_type="isolation",
                    candidates=ask_wordings(ctx, attribute, "ask", {}),
                    answer_kind="value",
                    expected=own.value,
                    user_id=ctx.person.user_id,
                    accepted=ctx.aliases(attribute, own.value),
                    forbidden=(other.value,),
                    evidence=(own.key,),
                    clusters=(name,),
                )
            )
    return drafts[:cases]
