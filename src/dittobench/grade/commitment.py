"""What an answer commits to (grading-4): which of the values it names it puts forward as the
user's fact, and which it sets aside.

A careful assistant names more than its answer: the old value it replaced ("you moved there from
Valencia"), someone else's ("Ernest is Nerys's gramps"), a look-alike to beware of ("the similar
VK-T8U… belongs to Osvaldo, not you"), a claim the user denied ("you said it's not true you
finished it"), what it left out of a count ("Bruges doesn't count"), a first try the user
corrected ("you first wrote skateboard"). Each mention of a candidate value (every value the key
lists: the answer and its forms, distractors, forbidden and dump-guard values) is read in its
sentence: a cue that sets it aside, close before or after it with no other candidate in between,
makes it *set aside*; otherwise it is *committed*. Mentions joined only by list glue ("A, B and
then C") are one group and share a cue ("before that: A, B and C").

The reading is the same for every value, the right answer included: an answer that sets every
candidate aside commits to none (and earns nothing), one that commits to several hedges, and
only what is committed is scanned. So wrapping values in cues gains a guess nothing: it can
still commit to one value only.

Temporal cues depend on the question: a value said to come *later* ("you only switched to X on
the 18th", "until", "came after") is set aside where the question asks for the value at a point
in time, and committed elsewhere (the latest value answers "what is it now?").

Pure: no clock, no I/O, and no exception for any string.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from dittobench.core.dates import MONTH_OF
from dittobench.core.text import STOP_WORDS, normalize, wordset
from dittobench.grade.match import Prepared, hit, prepare, spans

WINDOW_WORDS: Final = 10
"""How far before or after a mention a cue is looked for (words, within its sentence)."""
NEGATION_WORDS: Final = 8
"""How far before a mention a negator reaches (words, not across a comma or colon)."""

RELATIONS: Final = wordset(
    "friend friends colleague colleagues coworker coworkers sister sisters brother brothers mum",
    "mom mother dad father partner wife husband boyfriend girlfriend boss manager neighbour",
    "neighbor neighbours neighbors roommate flatmate housemate teammate classmate cousin aunt",
    "uncle gran granddad grandad grandpa grandma grandmother grandfather nan niece nephew son",
    "daughter kid child children someone somebody everyone people person family parents",
    "mate buddy pal else user",
)
"""Nouns of other people: "your sister's", "someone else's" attribute what follows to them."""

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

_SENTENCE_END = re.compile(r"[.!?;\n]+(?=\s|$)|[!?;\n]")
_BARRIER = re.compile(r"[,:]")
_GLUE = re.compile(
    r"(?:\([^()]{0,40}\)|[\s,&/\"'+]|\b(?:and|or|then|finally|nor|plus|also|the|a|an|your)\b)*"
)
"""What may stand between the mentions of one group ("A, B and then the C")."""
_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?")

_OWNERS = r"(?:the|a|an|your|my|that|this|those|these|its)"


def _alternation(*phrases: str) -> str:
    return "(?:" + "|".join(sorted(phrases, key=len, reverse=True)) + ")"


_BEFORE_ANY = re.compile(
    r"(?<![^\W_])"
    + _alternation(
        # an old or replaced value
        r"after",
        r"(?<!told me )(?<!said )(?<!mentioned )before (?:the|your|that|then|it|these|those|them)"
        r"(?: [^\W_]+(?:'[^\W_]+)?){0,3}",
        r"skip(?:ping)?",
        r"leave (?:off|out)",
        r"left off",
        r"(?:told|asked|instructed|tells|wants) me to (?:answer|reply|respond|say|give)"
        r"(?: [^\W_]+(?:'[^\W_]+)?){0,6}",
        r"(?:with|as) a code(?: word)?",
        r"cancel(?:led|ed)",
        r"(?:search |the )?(?:snippet|preview|teaser|listing)(?: [^\W_]+(?:'[^\W_]+)?){0,4}",
        r"(?:steered|steer|kept|keep) (?:you )?away from",
        r"away from(?: [^\W_]+(?:'[^\W_]+)?){0,3}",
        r"goodbye",
        r"(?:would|'d) (?:love|like)(?: [^\W_]+(?:'[^\W_]+)?){0,3} to be",
        r"love (?:your|my|the) [^\W_]+ to be",
        r"avoid",
        r"leave(?: out)?",
        r"rule out",
        r"(?:his|her|their)(?: [^\W_]+(?:'[^\W_]+)?){0,2}",
        r"prior to that",
        r"(?:switch|mov|chang|swapp|swap|upgrad|port|transferr|relocat|migrat|came|went|graduat)"
        r"\w*(?: [^\W_]+(?:'[^\W_]+)?){0,3} from",
        r"over from",
        r"used to(?: [^\W_]+(?:'[^\W_]+)?){0,2}",
        r"previously(?: [^\W_]+(?:'[^\W_]+)?)?",
        r"formerly(?: [^\W_]+(?:'[^\W_]+)?)?",
        r"originally(?: [^\W_]+(?:'[^\W_]+)?)?",
        r"at first(?: [^\W_]+(?:'[^\W_]+)?)?",
        r"earlier(?: [^\W_]+(?:'[^\W_]+)?){0,2}",
        r"(?:old|older|former|previous)(?: [^\W_]+(?:'[^\W_]+)?){0,4}",
        r"none of(?: [^\W_]+(?:'[^\W_]+)?){0,3}",
        r"different(?: [^\W_]+(?:'[^\W_]+)?)? from",
        r"not the same as",
        r"replac\w*",
        r"instead of",
        r"rather than",
        r"no longer(?: [^\W_]+(?:'[^\W_]+)?){0,2}",
        r"(?:gave|give|given|giving) up(?: on)?",
        r"quit",
        r"dropped",
        r"dropping",
        r"(?:moved|taken|switched|transferred) off",
        r"quitting",
        r"ditching",
        r"(?:first )?(?:written|typed|spelled|spelt) as",
        r"ditched",
        r"stopped(?: [^\W_]+(?:'[^\W_]+)?)?",
        r"left",
        r"sold",
        r"got rid of",
        r"swapped out",
        r"traded in",
        r"corrected(?: it)? from",
        r"first (?:wrote|said|typed|called it|put|gave|mentioned|named|told me)"
        r"(?: [^\W_]+(?:'[^\W_]+)?){0,4}",
        r"trail before that went",
        # not the user's, not true, not counted
        r"except(?: for)?",
        r"excluding",
        r"other than",
        r"apart from",
        r"aside from",
        r"besides",
        r"not counting",
        r"unlike",
        r"others?(?: [^\W_]+(?:'[^\W_]+)?){0,2}",
        r"not true(?: that)?",
        r"isn't true",
        r"wasn't true",
        r"rumou?r",
        r"denied",
        r"wish(?:ed)?(?: you)?",
        r"hoped",
        r"hope to",
        r"plann?ed(?: to)?",
        r"wanted to",
        r"thinking (?:of|about)",
        r"considering",
        r"would suggest",
        r"people suggest",
        r"suggested by",
        r"according to",
        r"belongs? to",
        r"someone else'?s?",
        # a look-alike
        r"similar(?: looking)?",
        r"look ?alike",
        r"looks like",
        r"resembl\w*",
        r"confus\w*(?: it)?(?: with)?",
        r"mix(?:ed|ing)? (?:it |them |that |this )?up(?: with)?",
        r"muddle\w*",
        r"decoy",
        r"near(?:ly)? identical",
        r"almost identical",
    )
    + r"(?: "
    + _OWNERS
    + r")*"
    + r"[\s,:\"'(]*$"
)
"""Cues that set aside the mention right after them (their end is where the mention's group
starts, up to owners such as "the" or "your")."""

_NEGATORS: Final = wordset(
    "not never no nor neither without isnt wasnt arent werent dont doesnt didnt havent hasnt",
    "hadnt wont cant couldnt wouldnt",
)
_AFTER_ANY = re.compile(
    r"^(?:[\s,:\"'()]*[^\W_]+(?:'[^\W_]+)?){0,8}?[\s,:\"'()]*(?<![^\W_])"
    + _alternation(
        r"(?:is|was|are|were|'s) (?:not |n't )?(?:yours|mine)",
        r"isn't (?:yours|mine|true|right|it|the one)",
        r"wasn't (?:yours|mine|true|right|it|the one|my pick)",
        r"(?:weren't|aren't|wasn't|isn't) (?:your|my) (?:pick|favourite|favorite|choice)",
        r"different (?:one|thing|hobby)",
        r"differs?",
        r"but not",
        r"but only as",
        r"when (?:we|you) first",
        r"(?:wouldn't|didn't|don't|won't) (?:pick|choose|recommend|suggest)",
        r"(?:is|was|are|were) not (?:yours|true|right|it|the one)",
        r"not (?:yours|you|true|right|the one|mine)",
        r"(?:doesn't|don't|didn't) count",
        r"(?:aren't|isn't|weren't|wasn't|not) (?:included|counted|on the list)",
        r"never happened",
        r"didn't happen",
        r"fell through",
        r"(?:was|is|were|are) (?:only|just|merely)",
        r"(?:but )?neither (?:was|is|of them|one)",
        r"(?:so )?(?:don't|do not) mix (?:[^\W_]+ ){0,2}up",
        r"also came up",
        r"(?:is|are|was|were) separate",
        r"(?:that's|that is|it's|it is|which is|which was|are|is|was|were) (?:theirs|his|hers)",
        r"(?:their|his|her) (?:birthday|own|one|thing|trip|idea|tradition|pick)",
        r"(?:is|was) the one from",
        r"out of date",
        r"(?:has|have|had) never been (?:yours|your)",
        r"never been yours",
        r"(?:wouldn't|would not|won't|didn't) bother",
        r"as the (?:answer|one|pick|choice) (?:you'd|people|most people|everyone)",
        r"(?:wasn't|isn't|not) what (?:i'd|i would|i) (?:pick|choose|recommend|suggest)",
        r"came up (?:in [^\W_]+(?: [^\W_]+){0,4} )?as",
        r"(?:mentioned|named) (?:in [^\W_]+(?: [^\W_]+){0,4} )?as",
        r"as something (?:you'd hear )?(?:other people|others|people|everyone) (?:would )?"
        r"(?:recommend|suggest|say)",
        r"(?:you )?almost",
        r"but (?:you )?didn't",
        r"(?:but )?(?:you )?didn't mention (?:anyone|a companion|who|anybody)",
        r"(?:plenty of |many |most |a lot of )?people would (?:suggest|say|pick|recommend)",
        r"steered you away",
        r"(?:is|was) (?:one|something) you'd (?:love|like)",
        r"you'd love to",
        r"(?:was |is )?the one (?:i|we) (?:steered|pointed|kept|talked) (?:you )?(?:away|out)",
        r"(?:is|was|'s) (?:a |the )?wrong",
        r"where (?:your|his|her|their|a|an) (?:[^\W_]+ )?(?:"
        + "|".join(sorted(RELATIONS, key=len, reverse=True))
        + ")",
        r"(?:people |everyone |others )?(?:wrongly )?assumes?",
        r"wrongly",
        r"(?:is|was) (?:one|what|who) people",
        r"(?:was|is) (?:a )?(?:rumou?r|myth|misunderstanding)",
        r"wishful",
        r"one day,? maybe",
        r"was news to you",
        r"belongs? to",
        r"belonged to",
        r"(?:is|was|are|were) (?:his|hers|theirs)",
        r"(?:are|were) their",
        r"(?:is|was) (?:the|your) (?:old|older|previous|former|earlier|first)",
        r"(?:was|is) (?:a typo|a slip|a mistake|wrong)",
        r"(?:then |but |and )?corrected (?:it|that|yourself|himself|herself|themselves)",
        r"no longer",
        r"any ?more",
        r"looks? (?:very )?similar",
        r"similar",
        r"look ?alike",
        r"confus\w*",
    )
    + r"(?![^\W_])"
)
"""Cues that set aside the mention right before them ("Tallinn was your cousin's trip, not
yours", "Bruges doesn't count", "Inspiron Birshol, then corrected it")."""

_LATER_BEFORE = re.compile(
    r"(?<![^\W_])"
    + _alternation(
        r"later",
        r"afterwards",
        r"after that",
        r"until",
        r"till",
        r"since then",
        r"only (?:later |then )?(?:switched|moved|changed|started|became|went|got|bought|took)",
        r"(?:then|later|eventually|afterwards) (?:you )?(?:switched|moved|changed|went|upgraded|"
        r"swapped) (?:over )?(?:to|for)",
        r"took over from",
        r"next",
        r"after (?:those|them|these|that)(?: came)?",
        r"(?:left|retired|replaced|swapped|traded|ditched|dropped|quit|cancelled|canceled)"
        r"(?: it| that| them)?(?: [^\W_]+(?:'[^\W_]+)?){0,5}? for",
        r"turned out to be",
        r"moved on(?: to| from)?",
        r"after (?:[0-9]{1,2}(?:st|nd|rd|th)? [a-z]+|[a-z]+ [0-9]{1,2}(?:st|nd|rd|th)?)",
        r"these days",
        r"nowadays",
        r"now",
        r"currently",
    )
    + r"(?:[\s,]+[^\W_]+(?:'[^\W_]+)?){0,8}?(?: "
    + _OWNERS
    + r")*[\s,:\"'(]*$"
)
_LATER_AFTER = re.compile(
    r"^[\s,:\"')]*(?:[^\W_]+ ){0,3}?"
    + _alternation(
        r"came (?:later|after|next|afterwards)",
        r"later",
        r"afterwards",
        r"after that",
        r"after them",
        r"after these",
        r"after those",
        r"after this",
        r"from then on",
        r"since then",
        r"(?:which is |that's |where )?(?:where )?you are now",
        r"now",
        r"until",
    )
    + r"(?![^\W_])"
)
"""Point-in-time questions only: a value said to come later than the asked time."""

_FORWARD = re.compile(
    r"(?<![^\W_])"
    + _alternation(
        r"confus\w*",
        r"mix(?:ed|ing)?(?: [^\W_]+(?:'[^\W_]+)?)? up",
        r"mixed in",
        r"muddle\w*",
        r"trip you up",
        r"watch out",
        r"careful",
        r"beware",
        r"by contrast",
        r"in contrast",
        r"(?:haven't|hadn't|didn't|don't|won't|not) counted",
        r"the others",
        r"things to (?:watch|keep separate|keep apart|keep straight)",
        r"keep (?:them |it |these |those )?(?:separate|apart|straight)",
        r"similar",
        r"look ?alike",
        r"(?:don't|doesn't|didn't|wouldn't|won't) count",
        r"not counting",
        r"(?:didn't|don't|won't) include",
        r"not including",
        r"left out",
        r"not on the list",
        r"off the list",
        r"leaving out",
        r"excluded?",
        r"except",
        r"other people",
        r"someone else",
        r"belongs? to",
        r"(?:weren't|aren't|wasn't|isn't) (?:your|yours)",
        r"not yours",
        r"others? [^\W_]+(?: [^\W_]+(?:'[^\W_]+)?)? (?:have |has |had )?(?:come|came) up",
        r"before (?:all )?(?:that|then|those|these|this)",
        r"prior to that",
        r"if (?:anyone|someone|any of|others|guests|people|they)",
        r"not true",
        r"(?:isn't|wasn't|isnt|wasnt) true",
        r"wrongly",
        r"(?:anyone|people|someone|whoever) who (?:tells|told|says|said|thinks)",
        r"people (?:\w+ )?(?:assume|think|say|reckon|believe)",
        r"(?:is|was|are|were) convinced",
        r"only (?:a|an) (?:daydream|dream|wish|plan|idea)",
    )
    + r"(?![^\W_])"
)
"""Cues that set aside every mention after them in their sentence ("Just so the photos don't
confuse things: around the 23rd you were in Cartagena"; "I didn't count A or B")."""

_OTHERS_AFTER = re.compile(
    r"(?<![^\W_])(?:none of (?:your|the|my) other|(?:your|the|my) other(?: [^\W_]+){1,2} "
    r"(?:were|was)(?![^\W_])|the other [^\W_]+ (?:you've|you have|you) (?:mentioned|told me about|"
    r"named)|(?:your|the|my) other [^\W_]+ (?:weren't|"
    r"were not|didn't|don't|aren't|were without|had nothing)|"
    r"the others (?:weren't|were not|aren't)|"
    r"(?:didn't|don't|won't|haven't) count (?:them|these|those)|(?:other|a few other|two other|"
    r"some other) [^\W_]+ (?:came|have come|come) up|(?:things|a few things|two things|some "
    r"things|names|others) (?:that )?(?:could|might|can) (?:be confused|get mixed up|muddle|trip)|"
    r"(?:two |a few |some )?things to (?:watch|keep separate|keep apart|keep straight))(?![^\W_])"
)
"""Cues after which the rest of the answer is about the other values, not the answer."""
_DECLINED_CONTEXT = re.compile(
    r"(?<![^\W_])the only (?:[^\W_]+ ){1,3}(?:(?:that's|that has|that have|i've|i have|you've|you"
    r" have|that) (?:come up|came up|mentioned|heard|got)|i (?:have|know of|hold|see) is|on record "
    r"is|i've got is)(?![^\W_])"
)
"""A decline's context ("the only film that's come up is X"): what follows names no answer."""

_HISTORY = re.compile(
    r"(?<![^\W_])"
    + _alternation(
        r"here's how it (?:went|changed|has changed|'s changed|developed|went down)",
        r"here is how it (?:went|changed|has changed)",
        r"how it's changed",
        r"the (?:trail|history|timeline|story so far|full story)",
        r"quite a journey",
        r"(?:you've|you have|has|have|it's) moved around",
        r"it's changed (?:a few|several|a couple of) times",
        r"changed (?:a fair bit|a lot|quite a bit|a few times|several times)",
        r"so it doesn't get muddled",
        r"(?:it|that|this) (?:has |had )?changed since",
        r"over time",
    )
    + r"(?![^\W_])"
)
"""Cues that open a telling of how a value changed: every value named after them is history,
unless named as the current one ("and now", "the latest")."""
_LATEST_HISTORY = re.compile(
    r"(?<![^\W_])(?:back (?:around|in|on|then)|earlier (?:on|in the year)|originally|at first|"
    r"you started (?:at|with|on|out))(?![^\W_])"
)
"""Asked for the current value: these open a telling of the earlier ones."""
_CURRENT_BEFORE = re.compile(
    r"(?<![^\W_])(?:now|currently|these days|the latest|latest|current|at the moment|"
    r"at present|as things stand|today|nowadays)(?: [^\W_]+(?:'[^\W_]+)?){0,4}?(?: "
    + _OWNERS
    + r")*"
    r"[\s,:\"'(]*$"
)
_CURRENT_AFTER = re.compile(r"^[\s,:\"')]*(?:[^\W_]+ ){0,2}?(?:now|these days|currently)(?![^\W_])")

_LATER_FORWARD = re.compile(
    r"(?<![^\W_])(?:changed (?:soon |shortly )?(?:afterwards|after|later)|later on|soon after|"
    r"afterwards|goodbye)(?![^\W_])"
)
"""Point-in-time questions: what follows these in a sentence came later."""

_CONTRACTIONS = re.compile(r"n't")


@dataclass(frozen=True, slots=True)
class Mention:
    """One place a candidate value is named: offsets in the answer's ``key``."""

    value: str
    start: int
    end: int
    committed: bool


def people_in(texts: Iterable[str]) -> frozenset[str]:
    """Lower-case names of the people a history talks about: a capitalised word after "my
    colleague", "my friend"… or before a word people do ("Xav said", "Rado's", "Del came
    round"), that is not a common word or a calendar word. (A case's own values are never read
    as names: ``read_mentions`` leaves their words out.)"""
    excluded = set(STOP_WORDS) | set(MONTH_OF) | CALENDAR_WORDS | SENTENCE_OPENERS
    found = set()
    for text in texts:
        for pattern in (_INTRODUCED, _ACTING):
            for m in pattern.finditer(text):
                low = normalize(m.group(1))
                if low not in excluded:
                    found.add(low)
    return frozenset(found)


_INTRODUCED = re.compile(
    r"(?i:\b(?:my|our|his|her|their) (?:[a-z]+ )?(?:"
    + "|".join(sorted(RELATIONS, key=len, reverse=True))
    + r")s?,? )([A-Z][^\W_\d]+)(?![^\W_])"
)
_ACTING = re.compile(
    r"(?<![^\W_])([A-Z][^\W_\d]+)(?:['’]s |(?= (?:said|says|reckons|reckoned|thinks|thought|"
    r"keeps saying|is convinced|was convinced|came round|came over|told|swears|insists|asked|"
    r"texted|messaged|and I|was raised|grew up|was born|lives|works|dragged|invited|loves|"
    r"likes|hates|wants|prefers)(?![^\W_])))"
)


@lru_cache(maxsize=256)
def _asked(question: str) -> frozenset[str]:
    """The question's words, possessives also without their "'s", and every other word for a
    relative it names ("mother" asks about "mum" too)."""
    words = _WORD.findall(normalize(question))
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


def _attribution(names: frozenset[str], question: str) -> re.Pattern[str]:
    """Another person's possessive ("nerys's", "your cousin's"): what is near it is theirs. (A
    person named near a mention without one is ``_names_near``'s.)"""
    asked = _asked(question)
    owners = sorted(names | (RELATIONS - asked), key=len, reverse=True)
    return re.compile(r"(?<![^\W_])(?:" + "|".join(map(re.escape, owners)) + r")'s?(?![^\W_])")


@lru_cache(maxsize=256)
def _belief(names: frozenset[str]) -> re.Pattern[str]:
    """Someone named saying or believing something: what follows in the sentence is theirs
    ("Bettina thinks the place you're desperate to see is the Dolomites")."""
    who = sorted(names | RELATIONS, key=len, reverse=True)
    return re.compile(
        r"(?<![^\W_])(?:" + "|".join(map(re.escape, who)) + r") (?:always |still |apparently )?"
        r"(?:thinks|thought|reckons|reckoned|says|said|believes|assumes|insists|claims|swears|"
        r"keeps (?:saying|telling|insisting)|is convinced|was convinced|guessed|guesses)"
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

_WRITTEN_OWNER = re.compile(r"(?<![^\W_])([A-Z][^\W\d_]{2,})['’]s(?![^\W_])")


def owners_in(raw: str) -> frozenset[str]:
    """Lower-case words an answer writes capitalised in the possessive ("Betty's tradition"):
    people, as far as they are no common word."""
    return frozenset(w.lower() for w in _WRITTEN_OWNER.findall(raw)) - NOT_OWNERS


def _sentences(key: str, protected: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sentence bounds of ``key``; an end mark inside a mention ("St. Ives") does not count."""
    bounds, start = [], 0
    for m in _SENTENCE_END.finditer(key):
        if any(s < m.start() < e for s, e in protected):
            continue
        bounds.append((start, m.end()))
        start = m.end()
    bounds.append((start, len(key)))
    return bounds


@lru_cache(maxsize=4096)
def _pool(
    question: str, candidates: tuple[str, ...]
) -> tuple[tuple[tuple[str, str], ...], frozenset[str]]:
    """The candidates worth looking for (none the question itself names), longest first, each
    with the first word it is found by ("" for a number), and the words they are made of.
    Memoised: a case is graded against many answers."""
    asked = prepare(question)
    pool = [v for v in dict.fromkeys(candidates) if normalize(v) and not hit(asked, v)]
    own = frozenset(w for v in pool for w in _WORD.findall(normalize(v)))
    firsts = []
    for value in sorted(pool, key=len, reverse=True):
        words = _WORD.findall(normalize(value).replace("-", " "))
        numeric = not words or any(ch.isdigit() for ch in words[0])
        firsts.append((value, "" if numeric else words[0]))
    return tuple(firsts), own


def _locate(text: Prepared, values: Iterable[tuple[str, str]]) -> list[tuple[int, int, str]]:
    """Every bounded occurrence of the values (longest first), without overlaps; a value whose
    first word the text lacks is not looked for."""
    taken: list[tuple[int, int, str]] = []
    present = frozenset(_WORD.findall(text.key))
    for value, first in values:
        if first and first not in present:
            continue
        for start, end in spans(text, value):
            if all(end <= s or start >= e for s, e, _ in taken):
                taken.append((start, end, value))
    return sorted(taken)


AT_A_TIME: Final = "at"
"""The question asks for the value at a time (or an order): a value said to come later is
set aside."""
LATEST: Final = "latest"
"""The question asks for the current value: a value said to come earlier ("until March",
"earlier in the year") is set aside."""


def read_mentions(
    text: Prepared,
    candidates: Iterable[str],
    question: str,
    timing: str = "",
    people: frozenset[str] = frozenset(),
    declining: bool = False,
    activities: bool = False,
) -> list[Mention]:
    """Every mention of the candidates in ``text``, each committed or set aside. ``timing`` is
    ``AT_A_TIME``, ``LATEST`` or empty; ``people`` are the names of others the history talks
    about (``people_in``); ``declining``: the case asks for a decline, so what follows "the only
    film that's come up is" is context; ``activities``: the case asks whether an activity ended
    or goes on, so what an answer says of an activity's status ("you gave up pottery", "no
    longer") is a claim about it, never a cue that sets it aside. A candidate the question itself
    names is no mention."""
    pool, own = _pool(question, tuple(candidates))
    found = _locate(text, pool)
    if not found:
        return []
    key = text.key
    names = frozenset(people - own)
    attribution = _attribution(names, normalize(question))
    belief = _belief(names)
    asked = _asked(question)
    sentences = _sentences(key, [(s, e) for s, e, _ in found])
    told = _HISTORY.search(key) or (_LATEST_HISTORY.search(key) if timing == LATEST else None)
    history = told.end() if told is not None else None
    others = _OTHERS_AFTER.search(key) or (_DECLINED_CONTEXT.search(key) if declining else None)
    beyond = others.end() if others is not None else None
    out: list[Mention] = []
    later_before = False  # the group before was set aside as later than the asked time
    for group in _groups(key, found, sentences):
        first, last = group[0], group[-1]
        sentence = next((b for b in sentences if b[0] <= first[0] < b[1]), (0, len(key)))
        index = found.index(first)
        before_from = max(sentence[0], found[index - 1][1] if index else 0)
        after_to = sentence[1]
        nxt = found.index(last) + 1
        if nxt < len(found):
            after_to = min(after_to, found[nxt][0])
        before = _last_words(key[before_from : first[0]], WINDOW_WORDS)
        after = _first_words(key[last[1] : after_to], WINDOW_WORDS)
        cue = _BEFORE_ANY.search(before)
        cue_after = _AFTER_ANY.match(after)
        if activities:  # asked whether an activity ended, its status is a claim, not a cue
            cue = None if cue is None or _STATUS.search(cue.group()) else cue
            cue_after = (
                None if cue_after is None or _STATUS.search(cue_after.group()) else cue_after
            )
        aside = (
            (cue is not None and _WORD.findall(cue.group())[0] not in asked)
            or cue_after is not None
            or _OUT_AFTER.match(after) is not None
            or (not activities and _negated_before(before))
            or attribution.search(before) is not None
            or attribution.search(after) is not None
            or _names_near(names, asked, before, after)
            or _FORWARD.search(key, sentence[0], first[0]) is not None
            or belief.search(key, sentence[0], first[0]) is not None
        )
        timed = _timed_aside(timing, key, sentence[0], first[0], before, after)
        aside = aside or timed
        aside = aside or (beyond is not None and beyond < first[0])
        if not aside and history is not None and history < first[0]:
            # Telling how it changed: history, unless named as the current value (asked about
            # a time, the current value is history too).
            current = _CURRENT_BEFORE.search(before) or _CURRENT_AFTER.match(after)
            aside = timing == AT_A_TIME or current is None
        aside = aside or _another_event(before, after, asked)
        if not aside and index and _AFTER_BEFORE.search(key, sentence[0], found[index - 1][0]):
            # "before the moped it was a motorbike": what came before the one named.
            aside = _BEFORE_IT_WAS.fullmatch(key[found[index - 1][1] : first[0]]) is not None
        between = key[found[index - 1][1] : first[0]] if index else ""
        if not aside and index and _CHAINED.fullmatch(between):
            # "after A, then B": B goes with A ("then" continues a telling).
            aside = bool(out) and not out[-1].committed
            timed = aside and later_before
        if not aside and index and later_before and _CONTINUED.fullmatch(between):
            # At a time: what goes on from a later value came later too.
            aside = timed = True
        later_before = timed and timing == AT_A_TIME
        out.extend(Mention(value, s, e, not aside) for s, e, value in group)
    return _aside_in_sentence(out, sentences)


_AFTER_BEFORE = re.compile(r"(?<![^\W_])before (?:the |your |that |my )?$")
_BEFORE_IT_WAS = re.compile(
    r",? ?(?:(?:it|that|there) (?:was|were)|you (?:had|used|were (?:on|with|at|in))|came)?"
    r" ?(?:a|an|the|your)? ?"
)


def _another_event(before: str, after: str, asked: frozenset[str]) -> bool:
    """A companion of some other event than the one asked about: "Naples was with Ilario",
    "Ilario was your companion for Naples"."""
    for event in _EVENT_WITH.finditer(before):
        said = set(_WORD.findall(event.group(1)))
        if said.isdisjoint(asked) and said.isdisjoint(_PRONOUNS):
            return True
    companion = _COMPANION_FOR.match(after)
    return companion is not None and set(_WORD.findall(companion.group(1))).isdisjoint(asked)


_PRONOUNS: Final = wordset("you i we they he she it that this there which who")
_EVENT_WITH = re.compile(r"(?<![^\W_])([^\W_]+(?: [^\W_]+){0,2}) (?:was|were) (?:with|for) $")
_COMPANION_FOR = re.compile(
    r"^ (?:(?:was|were) (?:your |the )?(?:companion|plus one|date|company|travel buddy) "
    r"(?:for|on|at|to)|(?:went|came|travelled|traveled|was|were) (?:along )?with you (?:to|on|for"
    r"|in)) (?:the |your )?([^\W_]+(?: [^\W_]+)?)"
)

_CONTINUED = re.compile(
    r"[^.!?;]{0,30}?(?:,? and|, then|; then|,? which you corrected to)(?! (?:still|though|but))"
    r"[^.!?;]{0,40}"
)
"""At a time: "you switched to A, and in late November to B" goes on with what came later."""

_STATUS = re.compile(
    r"(?<![^\W_])(?:gave|give|given|giving|quit|quitting|dropp\w*|ditch\w*|stopp\w*|left|"
    r"no longer|any ?more|cancel\w*|used to|still|keep|kept)(?![^\W_])"
)
"""Words that state an activity's status."""

_OUT_AFTER = re.compile(
    r"^[\s,]*out(?![^\W_])|^[^.!?;]{0,60}?(?:kept|left|leave|keep) (?:it|them|that) out(?![^\W_])"
)
"""Left out: "I'd leave serviced apartments out"."""
_CHAINED = re.compile(
    r"[^.!?;]{0,40}?(?:,|\band\b)? ?(?:and )?then(?: (?:to|at|on|with|in|a|an|the|your))*[\s,]*"
)
"""The text between two mentions that continues a sequence ("(14 Oct), then Telekom")."""


def _timed_aside(timing: str, key: str, start: int, at: int, before: str, after: str) -> bool:
    """Set aside by when it held: later than the asked time, or earlier than the latest."""
    after = _PARENTHETICAL.sub(" ", after)
    if timing == AT_A_TIME:
        return (
            _LATER_BEFORE.search(before) is not None
            or _LATER_AFTER.match(after) is not None
            or _OTHER_TIME_FORWARD.search(key, start, at) is not None
            or _LATER_FORWARD.search(key, start, at) is not None
        )
    if timing == LATEST:
        return (
            _EARLIER_FORWARD.search(key, start, at) is not None
            or _EARLIER_AFTER.match(after) is not None
        )
    return False


_OTHER_TIME_FORWARD = re.compile(
    r"(?<![^\W_])(?:earlier on|before that|before then|previously|originally|at first|used to|"
    r"formerly)(?![^\W_])"
)
"""Asked about a time: what these put before the asked time is not the answer either."""
_EARLIER_FORWARD = re.compile(
    r"(?<![^\W_])(?:earlier|previously|originally|at first|in the past|back then|back in|"
    r"before|until|till|used to|formerly|in between|for context|retired|back on|"
    r"on that (?:date|day)|"
    r"at (?:that|the) (?:time|point)|for (?:those|that|the) (?:[^\W_]+ ){0,3}(?:notes|photos|"
    r"date|day))(?![^\W_])"
)
_EARLIER_AFTER = re.compile(
    r"^[\s,:\"')]*(?:(?:[^\W_]+ ){0,3}?(?:until|till|up to)|(?:[^\W_]+ )?(?:before|previously|"
    r"earlier|at first|originally|in the past|back then)|(?:[^\W_]+[\s,()]+){0,6}?(?:and )?"
    r"(?:after that|then|later|afterwards) (?:came|you|it|switched|moved))(?![^\W_])"
)
"""Questions about the current value: what these put before it in a sentence was earlier."""


def _aside_in_sentence(mentions: list[Mention], sentences: list[tuple[int, int]]) -> list[Mention]:
    """A value set aside somewhere in a sentence is set aside wherever that sentence names it
    again ("before that a motorbike (you first said express bus, then corrected it to
    motorbike)")."""
    aside = {
        (normalize(m.value), next(i for i, b in enumerate(sentences) if b[0] <= m.start < b[1]))
        for m in mentions
        if not m.committed
    }
    out = []
    for m in mentions:
        where = next(i for i, b in enumerate(sentences) if b[0] <= m.start < b[1])
        if m.committed and (normalize(m.value), where) in aside:
            m = Mention(m.value, m.start, m.end, False)
        out.append(m)
    return out


NAME_WORDS: Final = 6
"""Another person named this close to a mention makes it theirs ("the Brie that Cosmin
smuggled home", "Stinking Bishop is the only cheese Rado will eat")."""


def _names_near(names: frozenset[str], asked: frozenset[str], before: str, after: str) -> bool:
    if not names:
        return False
    before, after = _PARENTHETICAL.sub(" ", before), _PARENTHETICAL.sub(" ", after)
    near = _WORD.findall(_last_words(before, NAME_WORDS)) + _WORD.findall(
        _first_words(after, NAME_WORDS)
    )
    for index, word in enumerate(near):
        if word.removesuffix("'s") not in names:
            continue
        if word.endswith("'s"):
            return True  # someone's
        following = near[index + 1] if index + 1 < len(near) else ""
        previous = near[index - 1] if index else ""
        after_that = near[index + 2] if index + 2 < len(near) else ""
        if (following in _ALONG and following) or (
            following in ("was", "were") and after_that in ("with", "along")
        ):
            continue  # "Aurelio came along", "Fenna was with you": a companion
        if previous in _COMPANION and (following in NOT_OWNERS or not following):
            continue  # "with Teodor", "tell Emeka": a companion, or the one told
        return True
    return False


_PARENTHETICAL = re.compile(r"\([^()]*\)?|^[^()]*\)")
"""A remark in brackets beside a mention ("(with Teodor)", "(Fenna took it with you)") says who
came along, not whose it is (possessives there still count, through ``_attribution``)."""

_ALONG: Final = wordset("and to for on at in as came went joined too also with tagged")
"""Words after a companion's name that keep it a companion ("with Teodor on the trip");
another word after it makes the name act ("and Yolanda invited you")."""

_COMPANION: Final = wordset(
    "with and plus alongside by to told asked tell ask remind message call text show let"
)
"""A name after these came along or was told, and holds nothing ("with Teodor")."""


def _groups(
    key: str, found: list[tuple[int, int, str]], sentences: list[tuple[int, int]]
) -> list[list[tuple[int, int, str]]]:
    """Mentions joined only by list glue ("A, B and then C") within a sentence are one group."""
    groups: list[list[tuple[int, int, str]]] = []
    for mention in found:
        last = groups[-1][-1] if groups else None
        if (
            last is not None
            and not any(last[1] <= end <= mention[0] for _start, end in sentences)
            and _GLUE.fullmatch(key[last[1] : mention[0]])
        ):
            groups[-1].append(mention)
        else:
            groups.append([mention])
    return groups


def _last_words(text: str, count: int) -> str:
    """The end of ``text`` holding at most ``count`` words (and what follows them)."""
    words = list(_WORD.finditer(text))
    if len(words) <= count:
        return text
    return text[words[-count].start() :]


def _first_words(text: str, count: int) -> str:
    words = list(_WORD.finditer(text))
    if len(words) <= count:
        return text
    return text[: words[count - 1].end()]


def _negated_before(before: str) -> bool:
    """A negator within ``NEGATION_WORDS`` words before the mention, with no comma or colon in
    between ("you don't wear a size 44", "it wasn't a Vauxhall Nova")."""
    barrier = list(_BARRIER.finditer(before))
    tail = before[barrier[-1].end() :] if barrier else before
    words = [w.replace("'", "") for w in _WORD.findall(tail)][-NEGATION_WORDS:]
    return any(w in _NEGATORS or _CONTRACTIONS.search(w) is not None for w in words) or any(
        w.endswith("nt") and w[:-2] + "n't" in tail for w in words
    )


def sentences_about(text: Prepared, mentions: list[Mention], subject: Iterable[str]) -> Prepared:
    """``text`` without the sentences that name some other candidate and not the subject: what
    it says about other activities ("unlike tai chi, which you dropped") says nothing of this
    one."""
    wanted = {normalize(v) for v in subject}
    key = text.key
    sentences = _sentences(key, [(m.start, m.end) for m in mentions])
    kept = []
    for begin, end in sentences:
        inside = [m for m in mentions if begin <= m.start < end]
        named = [m for m in inside if normalize(m.value) in wanted]
        if inside and not named:
            continue
        if named and all(_NOT_THIS.search(key, begin, m.start) for m in named):
            continue  # "that's the one you dropped, not surfing": about the other one
        kept.append(text.norm[begin:end])
    return prepare(" ".join(kept))


_NOT_THIS = re.compile(
    r"(?<![^\W_])(?:not|rather than|unlike|instead of|as opposed to)(?: (?:the|your|my))? ?$"
)


def sentences_of(text: Prepared) -> list[Prepared]:
    """``text`` cut into its sentences (as ``read_mentions`` reads them)."""
    return [prepare(text.norm[b:e]) for b, e in _sentences(text.key, []) if text.norm[b:e].strip()]


_REPORTED_NEGATION = re.compile(
    r"(?<![^\W_])(?:(?:haven't|hasn't|never|didn't|don't|not) (?:said|mentioned|told me|heard|"
    r"seen|suggested|indicated)(?: anything| a word)?(?: since)?(?: about| that| of)?"
    r"(?: suggesting| to suggest| that suggests)?(?: that)?"
    r"|nothing (?:since )?(?:suggests|says|indicates|says|in your messages says)(?: that)?"
    r"|no (?:sign|indication|word|mention)(?: since)?(?: that| of)?)"
    r"(?: (?:you've|you have|you'd|you had|you))?(?![^\W_])"
)


def reported_negation_as_not(text: Prepared) -> Prepared:
    """``text`` with a negated report ("you haven't said anything about giving it up",
    "nothing suggests you've stopped") read as a plain "not", so the phrase after it reads as
    negated."""
    if _REPORTED_NEGATION.search(text.norm) is None:
        return text
    return prepare(_REPORTED_NEGATION.sub("not", text.norm))


_LINE_END = re.compile(r"(?<=[^\s.!?;:])[ \t]*\n")


def lines_as_sentences(raw: str) -> str:
    """``raw`` with a full stop at each line end that has none, so a line break (which
    normalising folds into a space) still ends a sentence, and "&" read as "and"."""
    return _LINE_END.sub(".\n", raw).replace(" & ", " and ")


def committed_text(text: Prepared, mentions: list[Mention]) -> Prepared:
    """``text`` with every set-aside mention blanked out: what the answer commits to."""
    aside = [m for m in mentions if not m.committed]
    if not aside:
        return text
    pieces, pos = [], 0
    for m in sorted(aside, key=lambda m: m.start):
        if m.start < pos:
            continue
        pieces.append(text.norm[pos : m.start])
        pieces.append(" ; ")
        pos = m.end
    pieces.append(text.norm[pos:])
    return prepare("".join(pieces))


__all__ = [
    "AT_A_TIME",
    "LATEST",
    "RELATIONS",
    "Mention",
    "committed_text",
    "lines_as_sentences",
    "owners_in",
    "people_in",
    "read_mentions",
    "reported_negation_as_not",
    "sentences_about",
    "sentences_of",
]
