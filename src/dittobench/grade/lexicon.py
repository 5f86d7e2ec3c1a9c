"""The phrase lists of the memory grader: declining, ending, going on, acknowledging, and the
words that negate or are skipped before a phrase. Data only; ``grade.match`` matches them.

Every list is part of the scoring model: changing one changes scores (docs/grading.md). The lists
a grading policy reads are one ``Lexicon``, named by the policy (``GradingPolicy.lexicon``) and
found in ``LEXICONS``: a grading that reads further phrases names a new lexicon (a new row
below), and the lexicons of older policies never change.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from dittobench.core.errors import DittobenchError
from dittobench.core.text import wordset

DECLINE: Final = (
    # the floor
    "don't have",
    "no record",
    "don't know",
    "haven't mentioned",
    "never mentioned",
    "haven't told",
    "never told",
    "no information",
    "not in my memory",
    "can't find",
    "couldn't find",
    "don't recall",
    "unable to find",
    "not sure",
    "no mention",
    "nothing about",
    "not stated",
    "haven't shared",
    "never shared",
    "no longer have",
    "been deleted",
    "not aware",
    # beyond it
    "don't remember",
    "can't recall",
    "couldn't recall",
    "unable to recall",
    "no memory of",
    "nothing in my memory",
    "nothing on record",
    "not on record",
    "not recorded",
    "no details",
    "no data",
    "didn't mention",
    "didn't tell",
    "didn't say",
    "haven't said",
    "never said",
    "not certain",
    "can't say",
    "can't tell",
    "don't see",
    "no way to know",
    "no such",
    "unknown to me",
    "never been",
    "haven't been",
    "never visited",
    "haven't visited",
    "never went",
    "didn't go",
)
"""Declining to answer. Contractions also match their spelled-out forms ("do not have",
"cannot find"), with or without the apostrophe."""

TELLING_3: Final = (
    "ever told",
    "ever mentioned",
    "ever shared",
    "not something you've",
    "not something you have",
)
"""grading-3's further declines about what the user told: "I don't think you've ever told me",
"that's not something you've shared"."""

ABOUT_THE_USER: Final = (
    "don't have",
    "no longer have",
    "been deleted",
    "haven't mentioned",
    "never mentioned",
    "no mention",
    "didn't mention",
    "haven't told",
    "never told",
    "didn't tell",
    "haven't shared",
    "never shared",
    "haven't said",
    "never said",
    "didn't say",
    "nothing about",
    "not stated",
    "don't see",
    "no such",
    "never been",
    "haven't been",
    "never visited",
    "haven't visited",
    "never went",
    "didn't go",
    *TELLING_3,
)
"""The decline phrases that state something about the user's world or what they told ("you've
never been", "you no longer have", "you never told me the street"), which an answer may say
too."""

DECLINE_3: Final = (*DECLINE, "no idea", *TELLING_3)
"""grading-3's decline phrases: grading-2's, "I have no idea" and ``TELLING_3``."""

DECLINE_4: Final = (
    *DECLINE_3,
    "never actually told",
    "never actually mentioned",
    "never actually said",
    "haven't actually told",
    "haven't actually mentioned",
    "don't think you've told",
    "don't think you've actually told",
    "don't think you've mentioned",
    "don't think you've said",
    "don't think you've shared",
    "don't actually know",
    "don't actually have",
    "never came up",
    "hasn't come up",
    "haven't come across",
    "deleted it",
    "removed it",
    "erased it",
    "not holding onto it",
    "no longer holding",
    "don't have it any more",
    "don't have it anymore",
    "isn't something you've",
)
"""grading-4's declines: grading-3's and the same said with "actually", "I don't think you've
told me", "it never came up"."""

NOT_KNOWING: Final = tuple(p for p in DECLINE_3 if p not in ABOUT_THE_USER)
"""The decline phrases that say the assistant does not know ("no record", "can't recall", "not
sure"): an answer that also says one hedges between declining and answering (grading-3)."""

DELETION_OUTCOMES: Final = ("no longer have", "been deleted")
"""The decline phrases that also report a completed delete: they never spoil an
acknowledgement ("Done, it has been deleted")."""

CESSATION: Final = (
    "no longer",
    "not anymore",
    "not any more",
    "anymore",
    "no more",
    "gave up",
    "given up",
    "give up",
    "gives up",
    "giving up",
    "gave it up",
    "given it up",
    "gave that up",
    "given that up",
    "stopped",
    "quit",
    "quits",
    "dropped",
    "ended",
    "finished with",
    "packed in",
    "packed it in",
    "done with",
    "left behind",
    "retired from",
    "abandoned",
    "lost interest",
    "not into it",
    "not into",
    "went off",
    "gone off",
    "moved on from",
    "walked away from",
    "stepped away from",
    "ditched",
    "discontinued",
    "ceased",
    "called it quits",
    "fell out of love",
    "lost the spark",
    "lost its appeal",
    "cooled on",
    "drifted away from",
    "don't do",
    "doesn't do",
    "not doing",
    "a thing of the past",
)
"""An activity said to have ended. "used to" is deliberately absent (it does not say the
activity ended); see ``USED_TO``."""

PERSISTENCE: Final = (
    "still",
    "continue",
    "continues",
    "continued",
    "continuing",
    "keep at",
    "keeps at",
    "keep at it",
    "keep going",
    "keeps going",
    "kept going",
    "keeping at",
    "keeping up",
    "kept at",
    "kept up",
    "carry on",
    "carries on",
    "carrying on",
    "ongoing",
    "regularly",
    "currently",
    "these days",
    "nowadays",
    "as ever",
    "as much as ever",
    "every week",
    "each week",
    "every weekend",
    "weekly",
    "to this day",
    "going strong",
    "at the moment",
    "right now",
    "yes",
)
"""An activity said to go on."""

ACKNOWLEDGE: Final = (
    "saved",
    "stored",
    "noted",
    "updated",
    "changed it",
    "replaced",
    "deleted",
    "removed",
    "erased",
    "forgotten",
    "forgot it",
    "wiped",
    "cleared",
    "done",
    "got it",
    "will remember",
    "i'll remember",
    "all set",
    "consider it done",
    "consider it gone",
    "recorded",
    "remembered",
    "discarded",
    "purged",
    "got rid of",
    "gotten rid of",
    "taken it out",
    "took it out",
    "made a note",
    "taken note",
    "added",
    "overwritten",
    "it's gone",
    "that's gone",
    "will do",
    "will save",
    "will store",
    "will update",
    "will delete",
    "will remove",
    "will forget",
    "will keep",
    "keep that in mind",
    "keep it in mind",
    "memorized",
    "memorised",
    "committed to memory",
)
"""An instruction to save, update or delete acknowledged."""

CESSATION_3: Final = (
    *CESSATION,
    "put it on hold",
    "put it aside",
    "set it aside",
    "dropped it",
    "quit it",
    "stopped it",
    "finished with it",
    "haven't done it",
)
"""grading-3's endings, read with the activity's name replaced by "it" ("You gave pottery up"
is "You gave it up")."""

CESSATION_4: Final = (
    *CESSATION_3,
    "behind you",
    "didn't last",
    "did not last",
    "out of your life",
    "it's over",
    "is over",
    "over now",
    "called time on",
    "wound down",
    "fizzled out",
    "let it go",
    "let it lapse",
    "gave everything away",
    "gave it all away",
    "chapter is closed",
    "closed the chapter",
    "closed that chapter",
)
"""grading-4's endings beyond grading-3's ("It didn't last", "bread making was behind you")."""

PERSISTENCE_4: Final = (
    "a fixture",
    "fixture",
    "a regular thing",
    "part of your routine",
    "part of your week",
    "going well",
    "going really well",
    "every saturday",
    "every sunday",
    "every monday",
    "every tuesday",
    "every wednesday",
    "every thursday",
    "every friday",
    "every morning",
    "every evening",
    "twice a week",
    "three times a week",
    "once a week",
)
"""grading-4's further ways of placing an activity in the present ("by now it's a fixture every
Saturday")."""

STRONG_PERSISTENCE_3: Final = (
    "kept it up",
    "keep it up",
    "keeping it up",
    "keeps it up",
    "sticking with",
    "stuck with",
    "sticks with",
    "stick with",
    "kept at it",
    "keeping at it",
)
"""grading-3's strong continuations beyond grading-2's ("You're sticking with pottery", "You
kept it up")."""

STRONG_PERSISTENCE: Final = tuple(
    p
    for p in PERSISTENCE
    if p
    not in (
        "regularly",
        "currently",
        "these days",
        "nowadays",
        "every week",
        "each week",
        "every weekend",
        "weekly",
        "at the moment",
        "right now",
        "yes",
    )
)
"""Persistence cues that say the activity goes on; the rest only place it in the present."""

USED_TO: Final = ("used to", "formerly", "back in the day")
"""A suggestion that an activity ended without saying so ("used to", but not "got used to")."""

NEGATORS: Final = wordset(
    "never not no nor neither without hardly barely scarcely cannot havent hasnt hadnt didnt",
    "doesnt dont isnt arent wasnt werent wont cant couldnt wouldnt shouldnt mustnt aint",
)
"""Words that negate the phrase right after them (written without apostrophes)."""

SKIPPED: Final = wordset(
    "really that quite truly actually ever even very just completely totally entirely fully",
    "yet exactly necessarily be been have has had",
)
"""Intensifiers and auxiliaries skipped when looking back for a negator ("haven't really given
up", "can't be saved")."""


class UnknownLexiconError(DittobenchError, ValueError):
    """A grading policy names a lexicon this build lacks."""


@dataclass(frozen=True, slots=True)
class Lexicon:
    """The phrase lists one grading policy reads (``GradingPolicy.lexicon`` names it)."""

    id: str
    decline: tuple[str, ...]
    """Declining to answer (``check_decline``)."""
    cessation: tuple[str, ...]
    """Saying an activity ended."""
    persistence: tuple[str, ...]
    """Placing an activity in the present: the strong cues and the weak ones."""
    strong_persistence: tuple[str, ...]
    """The persistence cues that say an activity goes on; the rest of ``persistence`` only place
    it in the present (with ``typed_determination``)."""


LEXICONS: Final = MappingProxyType(
    {
        lex.id: lex
        for lex in (
            # grading-1 and grading-2: the floor.
            Lexicon("lex-1", DECLINE, CESSATION, PERSISTENCE, STRONG_PERSISTENCE),
            # grading-3: "no idea", what the user never told, endings read with "it".
            Lexicon(
                "lex-3",
                DECLINE_3,
                CESSATION_3,
                PERSISTENCE,
                STRONG_PERSISTENCE + STRONG_PERSISTENCE_3,
            ),
            # grading-4 on: "never actually told", "it didn't last", "a fixture every Saturday".
            Lexicon(
                "lex-4",
                DECLINE_4,
                CESSATION_4,
                PERSISTENCE + PERSISTENCE_4,
                STRONG_PERSISTENCE + STRONG_PERSISTENCE_3,
            ),
        )
    }
)
"""Every lexicon by id; each shipped grading policy names one (``spec.versions.GRADINGS``)."""


def lexicon(lexicon_id: str) -> Lexicon:
    """The lexicon ``lexicon_id``, or ``UnknownLexiconError`` listing the known ones."""
    try:
        return LEXICONS[lexicon_id]
    except KeyError:
        known = ", ".join(LEXICONS)
        raise UnknownLexiconError(
            f"unknown lexicon {lexicon_id!r}; this build has: {known}"
        ) from None


__all__ = [
    "ACKNOWLEDGE",
    "CESSATION",
    "DECLINE",
    "DELETION_OUTCOMES",
    "LEXICONS",
    "NEGATORS",
    "PERSISTENCE",
    "SKIPPED",
    "STRONG_PERSISTENCE",
    "USED_TO",
    "Lexicon",
    "UnknownLexiconError",
    "lexicon",
    "wordset",
]
