"""Who an answer says a value belongs to (grading-4, ``grade.commitment``): the people a
history talks about, possessives, someone saying or believing something, another event's
companion. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Final

from dittobench.core.dates import MONTH_OF
from dittobench.core.text import STOP_WORDS, normalize, wordset
from dittobench.grade.cues import RELATIONS, TOKEN, first_words, last_words

CALENDAR_WORDS: Final = wordset(
    "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs",
    "fri sat sun today tomorrow yesterday christmas easter",
)

SENTENCE_OPENERS: Final = wordset(
    "it its that this there here what who whom whose where when why how he she they we you i",
    "yours your my mine our ours their theirs his her hers let yes no okay ok sure sorry thanks",
    "hmm ah oh well so and but or also then now still just only as since because if though",
    "although while yet first next finally last latest today one none both either neither each",
    "every all some any most many much more less great good happy glad nothing something",
)
"""Words a sentence often opens with, never read as a person's name."""


def people_in(texts: Iterable[str]) -> frozenset[str]:
    """Lower-case names of the people a history talks about: a capitalised word after "my
    colleague", "my friend"… or before a word people do ("Xav said", "Rado's", "Del came
    round"), that is not a common word or a calendar word. (A case's own values are never read
    as names: ``read_mentions`` leaves their words out.)"""
    excluded = set(STOP_WORDS) | set(MONTH_OF) | CALENDAR_WORDS | SENTENCE_OPENERS
    found = set()
    for text in texts:
        for pattern in (INTRODUCED, ACTING):
            for m in pattern.finditer(text):
                low = normalize(m.group(1))
                if low not in excluded:
                    found.add(low)
    return frozenset(found)


INTRODUCED = re.compile(
    r"(?i:\b(?:my|our|his|her|their) (?:[a-z]+ )?(?:"
    + "|".join(sorted(RELATIONS, key=len, reverse=True))
    + r")s?,? )([A-Z][^\W_\d]+)(?![^\W_])"
)

ACTING = re.compile(
    r"(?<![^\W_])([A-Z][^\W_\d]+)(?:['’]s |(?= (?:said|says|reckons|reckoned|thinks|thought|"
    r"keeps saying|is convinced|was convinced|came round|came over|told|swears|insists|asked|"
    r"texted|messaged|and I|was raised|grew up|was born|lives|works|dragged|invited|loves|"
    r"likes|hates|wants|prefers)(?![^\W_])))"
)


@lru_cache(maxsize=256)
def question_words(question: str) -> frozenset[str]:
    """The question's words, possessives also without their "'s", and every other word for a
    relative it names ("mother" asks about "mum" too)."""
    words = TOKEN.findall(normalize(question))
    out = set(words) | {w.removesuffix("'s") for w in words}
    for group in KIN:
        if not group.isdisjoint(out):
            out |= group
    return frozenset(out)


KIN: Final = (
    wordset("mum mom mother mam mummy mommy ma"),
    wordset("dad father daddy pa"),
    wordset("gran grandma grandmother nan nana granny"),
    wordset("granddad grandad grandpa grandfather gramps"),
    wordset("partner wife husband boyfriend girlfriend spouse"),
    wordset("parents parent"),
    wordset("kid kids child children son daughter"),
)
"""Words for one relative: a question about one is about the others too."""


@lru_cache(maxsize=1024)
def possessive_pattern(names: frozenset[str], question: str) -> re.Pattern[str]:
    """Another person's possessive ("nerys's", "your cousin's"): what is near it is theirs. (A
    person named near a mention without one is ``names_near``'s.)"""
    asked = question_words(question)
    owners = sorted(names | (RELATIONS - asked), key=len, reverse=True)
    return re.compile(r"(?<![^\W_])(?:" + "|".join(map(re.escape, owners)) + r")'s?(?![^\W_])")


@lru_cache(maxsize=256)
def belief_pattern(names: frozenset[str], saying: bool = False) -> re.Pattern[str]:
    """Someone named saying or believing something: what follows in the sentence is theirs
    ("Bettina thinks the place you're desperate to see is the Dolomites"); with ``saying``
    (grading-5) also in the -ing form ("Wilhelmina saying your brother is called Anton")."""
    who = sorted(names | RELATIONS, key=len, reverse=True)
    ing = (
        r"|saying|telling (?:me|you|everyone|people)|claiming|insisting|reckoning" if saying else ""
    )
    return re.compile(
        r"(?<![^\W_])(?:" + "|".join(map(re.escape, who)) + r") (?:always |still |apparently )?"
        r"(?:thinks|thought|reckons|reckoned|says|said|believes|assumes|insists|claims|swears|"
        r"keeps (?:saying|telling|insisting)|is convinced|was convinced|guessed|guesses" + ing + ")"
        r"(?![^\W_])"
    )


NOT_OWNERS: Final = (
    STOP_WORDS
    | SENTENCE_OPENERS
    | CALENDAR_WORDS
    | frozenset(MONTH_OF)
    | wordset(
        "year week month day night today tonight weekend morning evening everyone everybody",
        "nobody somebody anyone anybody world company team city country school office gym shop",
        "club band family house home work life mind heart game film book show one other",
    )
)
"""Words in the possessive that name no one ("this year's", "the company's")."""

WRITTEN_OWNER = re.compile(r"(?<![^\W_])([A-Z][^\W\d_]{2,})['’]s(?![^\W_])")


def owners_in(raw: str) -> frozenset[str]:
    """Lower-case words an answer writes capitalised in the possessive ("Betty's tradition"):
    people, as far as they are no common word."""
    if "'" not in raw and "’" not in raw:
        return frozenset()  # no possessive (most answers): no scan of every position
    return frozenset(w.lower() for w in WRITTEN_OWNER.findall(raw)) - NOT_OWNERS


def another_event(before: str, after: str, asked: frozenset[str]) -> bool:
    """A companion of some other event than the one asked about: "Naples was with Ilario",
    "Ilario was your companion for Naples"."""
    for event in EVENT_WITH.finditer(before):
        said = set(TOKEN.findall(event.group(1)))
        if said.isdisjoint(asked) and said.isdisjoint(PRONOUNS):
            return True
    companion = COMPANION_FOR.match(after)
    return companion is not None and set(TOKEN.findall(companion.group(1))).isdisjoint(asked)


PRONOUNS: Final = wordset("you i we they he she it that this there which who")

EVENT_WITH = re.compile(r"(?<![^\W_])([^\W_]+(?: [^\W_]+){0,2}) (?:was|were) (?:with|for) $")

COMPANION_FOR = re.compile(
    r"^ (?:(?:was|were) (?:your |the )?(?:companion|plus one|date|company|travel buddy) "
    r"(?:for|on|at|to)|(?:went|came|travelled|traveled|was|were) (?:along )?with you (?:to|on|for"
    r"|in)) (?:the |your )?([^\W_]+(?: [^\W_]+)?)"
)

NAME_WORDS: Final = 6
"""Another person named this close to a mention makes it theirs ("the Brie that Cosmin
smuggled home", "Stinking Bishop is the only cheese Rado will eat")."""


def names_near(
    names: frozenset[str], asked: frozenset[str], before: str, after: str, introduced: bool = False
) -> bool:
    """Another person named near a mention, acting or owning it; a companion ("with Teodor")
    holds nothing. ``introduced`` (grading-5): who they are ("with your colleague Cosmin") does
    not stand between a companion and the word before."""
    if not names:
        return False
    before, after = PARENTHETICAL.sub(" ", before), PARENTHETICAL.sub(" ", after)
    near = TOKEN.findall(last_words(before, NAME_WORDS)) + TOKEN.findall(
        first_words(after, NAME_WORDS)
    )
    for index, word in enumerate(near):
        if word.removesuffix("'s") not in names:
            continue
        if word.endswith("'s"):
            return True  # someone's
        following = near[index + 1] if index + 1 < len(near) else ""
        before_name = [w for w in near[:index] if not introduced or w not in INTRODUCING]
        previous = before_name[-1] if before_name else ""
        after_that = near[index + 2] if index + 2 < len(near) else ""
        if (following in ALONG and following) or (
            following in ("was", "were") and after_that in ("with", "along")
        ):
            continue  # "Aurelio came along", "Fenna was with you": a companion
        if previous in COMPANION and (following in NOT_OWNERS or not following):
            continue  # "with Teodor", "tell Emeka": a companion, or the one told
        if introduced and previous in ACCOMPANIED:
            continue  # "with Leocadia running alongside you"
        return True
    return False


PARENTHETICAL = re.compile(r"\([^()]*\)?|^[^()]*\)")
"""A remark in brackets beside a mention ("(with Teodor)", "(Fenna took it with you)") says who
came along, not whose it is (possessives there still count, through ``attribution``)."""

INTRODUCING: Final = RELATIONS | wordset("your my the his her their old best close new dear")
"""Words that say who someone is before their name ("your old colleague Cosmin")."""

ACCOMPANIED: Final = wordset("with alongside beside")
"""grading-5: a name after these came along, whatever follows it."""

ALONG: Final = wordset("and to for on at in as came went joined too also with tagged")
"""Words after a companion's name that keep it a companion ("with Teodor on the trip");
another word after it makes the name act ("and Yolanda invited you")."""

COMPANION: Final = wordset(
    "with and plus alongside by to told asked tell ask remind message call text show let"
)
"""A name after these came along or was told, and holds nothing ("with Teodor")."""
