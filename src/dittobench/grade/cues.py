"""The words that set a mention aside (grading-4, ``grade.commitment``): cues before and after
a value, cues that reach the rest of a sentence or of an answer, and the words of an activity's
status. Data and small readers of it; pure.
"""

from __future__ import annotations

import re
from typing import Final

from dittobench.core.text import wordset

RELATIONS: Final = wordset(
    "friend friends colleague colleagues coworker coworkers sister sisters brother brothers mum",
    "mom mother dad father partner wife husband boyfriend girlfriend boss manager neighbour",
    "neighbor neighbours neighbors roommate flatmate housemate teammate classmate cousin aunt",
    "uncle gran granddad grandad grandpa grandma grandmother grandfather nan niece nephew son",
    "daughter kid child children someone somebody everyone people person family parents",
    "mate buddy pal else user",
)
"""Nouns of other people: "your sister's", "someone else's" attribute what follows to them."""

TOKEN = re.compile(r"[^\W_]+(?:'[^\W_]+)?")

OWNERS = r"(?:the|a|an|your|my|that|this|those|these|its)"


def alternation(*phrases: str) -> str:
    return "(?:" + "|".join(sorted(phrases, key=len, reverse=True)) + ")"


BEFORE_ANY = re.compile(
    r"(?<![^\W_])"
    + alternation(
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
    + OWNERS
    + r")*"
    + r"[\s,:\"'(]*$"
)
"""Cues that set aside the mention right after them (their end is where the mention's group
starts, up to owners such as "the" or "your")."""

NEGATORS: Final = wordset(
    "not never no nor neither without isnt wasnt arent werent dont doesnt didnt havent hasnt",
    "hadnt wont cant couldnt wouldnt",
)

AFTER_ANY = re.compile(
    r"^(?:[\s,:\"'()]*[^\W_]+(?:'[^\W_]+)?(?![^\W_])){0,8}?[\s,:\"'()]*(?<![^\W_])"
    + alternation(
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

FORWARD = re.compile(
    r"(?<![^\W_])"
    + alternation(
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

OTHERS_AFTER = re.compile(
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

NOT_A_CUE_5 = re.compile(
    r"^(?:(?:his|her|their) names?|(?:old|older|elder|younger|big|little) "
    + alternation(*RELATIONS)
    + r")(?![^\W_])"
)
"""Cue words that set nothing aside (grading-5): a pronoun's "name" names the one asked about
("her name is Gladys": the user's grandmother), and "your older sister" is a relation, not an
old value."""

_HYPOTHETICAL = alternation(
    r"in (?:a|an|another|some) (?:parallel|alternate|alternative|other|different) "
    r"(?:universe|world|life|reality)",
    r"in another life",
    r"in (?:my|your|their|his|her) dreams",
    r"(?:just |only |merely )?a daydream",
    r"daydream\w*",
    r"dream(?:ed|ing|s)? (?:of|about)",
    r"imagin\w+",
    r"picture it",
    r"wishful thinking",
    r"fantas\w+",
    r"hypothetical\w*",
    r"make.believe",
    r"if only",
)
HYPOTHETICAL_BEFORE = re.compile(r"(?<![^\W_])" + _HYPOTHETICAL + r"(?![^\W_])")
"""grading-5: a value said in a hypothetical ("in a parallel universe you'd have a sparrow
tattoo"), the cue anywhere close before it."""
HYPOTHETICAL_AFTER = re.compile(
    r"^[^,;:()\u2013\u2014]{0,60}?(?<![^\W_])" + _HYPOTHETICAL + r"(?![^\W_])"
)
"""… or after it in the same clause ("a sparrow tattoo on your forearm 'in a parallel
universe'")."""

PLEASANTRIES = re.compile(
    r"(?<![^\W_])(?:no (?:problem|worries|bother|trouble|rush|doubt|wonder)|not a problem|"
    r"never mind|no, no)(?![^\W_])"
)
"""grading-5: negators in a pleasantry, which negate nothing that follows."""

CORRECTION_REMARK = re.compile(
    r"\([^()]*(?<![^\W_])(?:said|wrote|typed|called it|spelled|spelt|put)(?![^\W_])[^()]*\)?"
)
"""grading-5: a bracketed remark on what was first said ("(you said Dubrovnik first, then
corrected it)"): its cues are about that slip."""

FORWARD_5 = re.compile(
    r"(?<![^\W_])(?:not|never|isn't|aren't|wasn't|weren't) (?:included|on it|in it|part of it)"
    r"(?![^\W_])"
)
"""grading-5: what a list leaves out, said before the values ("Not included: A and B")."""

_COUNTERFACTUAL = r"(?:(?:would|could|might)(?: not)?|(?:i|you|we|they|he|she)'d) have(?! been)"
_MOOD = alternation(
    _COUNTERFACTUAL,
    r"(?:would|(?:i|you|we|they|he|she)'d) (?:love|like|prefer)(?: (?:it|that|them))? to",
    r"wish(?:ed|es)? (?:(?:i|you|we|they|he|she) )?(?:were|was|had|could|did)",
    r"(?:was|were|had been) (?:meant|supposed|going|set|due) to",
    r"(?:was|were) all set to",
    r"(?:hoped|hoping|planned|planning) to",
)
MOOD_BEFORE = re.compile(r"(?<![^\W_])" + _MOOD + r"(?![^\W_])[^,;:.!?()\u2013\u2014]*$")
"""grading-6: a value said in the unreal mood (a wish, a plan that fell through, what would
have happened: "you'd love to be a size K", "you were meant to move to Leeds"), the cue before
it in the same clause ("would have been" excepted: "on 3 March you would have been in Leeds"
is a claim)."""
MOOD_AFTER = re.compile(
    r"^[^,;:.!?()\u2013\u2014]{0,40}?(?<![^\W_])(?:"
    + _COUNTERFACTUAL
    + r"|(?:was|were) (?:meant|supposed) to|wish(?:ed|es)?|(?:would|(?:i|you|we|they|he|she)'d) "
    r"(?:love|like))(?![^\W_])"
)
"""… or right after it ("Brigitte would have suited her", "you and Pilar were meant to be
friends for life", "size K is the size you wish you were")."""
CORRECTION_REMARK_6 = re.compile(
    r"\([^()]*(?<![^\W_])(?:said|wrote|typed|called it|spelled|spelt|put|corrected|changed|"
    r"switched)(?![^\W_])[^()]*\)?"
)
"""grading-6: a bracketed remark on a correction ("spin classes (you corrected that from aqua
aerobics)") is about what was corrected, like one on what was first said (grading-5)."""
TAKEN_BACK = re.compile(
    r"^[^.!?]{0,80}?(?<![^\W_])(?:but|though|which|that|it)(?:'s| is| was)? (?:not|isn't|wasn't|"
    r"never)(?: (?:her|his|your|their|my|the|a|an|actually|really))? (?:name|answer|one|yours|"
    r"true|real|right|correct|the case)(?![^\W_])|^[^.!?]{0,80}?(?<![^\W_])(?:only|just|merely) "
    r"a (?:wish|plan|daydream|dream|hope)(?![^\W_])"
)
"""grading-6: a clause after the value that takes it back ("Brigitte …, but that isn't her
name", "size K, which was only a wish")."""
_ASIDE_ADVERB = (
    r"(?: \W*(?:probably|maybe|perhaps|possibly|really|definitely|certainly|absolutely|honestly|"
    r"totally|surely)\W*)?"
)
MOOD_AFTER_7 = re.compile(
    r"^\W*(?:and|but|though) (?:you|he|she|they) (?:said|told me|mentioned)(?: that)?"
    r"[^,;:.!?()\u2013\u2014]{0,40}?(?<![^\W_])(?:"
    + _COUNTERFACTUAL
    + r"|(?:was|were) (?:meant|supposed) to|wish(?:ed|es)? (?:it|he|she|they) (?:were|was|had)"
    r"|(?:would|(?:you|we|they|he|she)'d)"
    + _ASIDE_ADVERB
    + r" (?:love|like) (?:it|him|her|them)(?: if| when|[.,;!?]|$))(?![^\W_])"
)
"""grading-7: the unreal mood right after the value, reported past ", and you said" and with an
adverb before the verb ("Hamza, and you said you two were meant to be friends", "Gloomhaven,
and you said you'd *probably* love it"), the wish about the value itself. Reported only: "X,
and I'd love to hear how it went", "try X, you'd probably like it", "X, and you said you'd like
to do it again" are no wish about X. Never after "it's X": that names X as the answer."""
ASSERTED_BEFORE_7 = re.compile(r"(?<![^\W_])(?:it's|it is|it was|that's|that is|that was)\W*$")
"""What names the value as the answer right before it ("It's cherries, and you said …")."""
_PRONOUN = r"(?:it|him|her|that|this)"
_REFUSED = (
    r"(?:count|list|include|record) " + _PRONOUN + r"(?: (?:in|as|among) (?:the|your|my) [^\W_]+)?"
    r"|(?:put|name) " + _PRONOUN + r" (?:down|forward)(?: as (?:the|your|my) [^\W_]+)?"
    r"|call " + _PRONOUN + r" (?:your|the|my) [^\W_]+"
)
_NUMBERED = r"(?:two|three|four|five|six|seven|eight|nine|ten|[0-9]+)"
_NOT_HEDGED = (
    r"(?:(?!(?<![^\W_])(?:unless|if|otherwise|or|else|maybe|perhaps|guess|suspect)(?![^\W_]))"
    r"[^.!?])"
)
HEDGED_BEFORE_7 = re.compile(
    r"(?<![^\W_])(?:unless|if|otherwise|or|else|maybe|perhaps|guess|suspect|either)(?![^\W_])"
)
"""A hedge before the value in its sentence: no clause after it takes a guess back."""
TAKEN_BACK_7 = re.compile(
    _NOT_HEDGED
    + r"{0,100}?(?<![^\W_])(?:(?:it|that|this|he|she|which)(?:'s| is| was)? (?:not|isn't|wasn't|"
    r"never) (?:in|among|one of|part of) (?:those|these|(?:the|your) (?:last|first|latest|"
    r"earliest|most recent|newest|oldest) " + _NUMBERED + r")"
    r"|came before (?:those|these|them)"
    r"|(?:i|we) (?:(?:would|could|can|will|do|did|should)(?:n't| not)|won't|can't|cannot) (?:"
    + _REFUSED
    + r"))\W*(?:[.!?;,)\n]|$)"
)
"""grading-7: a clause after the value, within its sentence, that ends by taking it out of the
answer: it is not among those asked for ("so it's not in the last three", never "not in Spain",
"not in the first group" or "not among the ones you dislike"), came before those, or the reply
will not give it ("so I wouldn't put him down", "I can't call it your pick"; not "… for sure",
"… by date", nor after "unless", "if", "or", "maybe"). Matched from the value's end
(``match(key, pos, endpos)``): no ``^``."""
FORWARD_6 = re.compile(
    r"(?<![^\W_])(?:(?:not|never|isn't|aren't|wasn't|weren't) (?:counted|listed)|left out|"
    r"(?:didn't|did not|haven't|have not) count(?:ed)?)(?![^\W_])"
)
"""grading-6: what a list leaves out, said before the values ("Not counted: X")."""
CORRECTED_FROM = re.compile(
    r"(?<![^\W_])(?:(?:corrected|changed|switched|swapped)(?: (?:it|that|this|them))? (?:over )?"
    r"from|first (?:typed|said|wrote|put|called it)(?: it as| it)?)\W*$"
)
"""grading-6: the value a correction replaced, right before it ("you corrected that from aqua
aerobics", "you first typed \"Hester and Delia\", then corrected it")."""
PLACE_TO_LOOK = re.compile(r" (?:on|in|at|under|inside) (?:your|the|an?|their|his|her)(?![^\W_])")
"""grading-6: what follows an offer phrase in a decline when it says where to look ("it may be
on your membership card"): advice, not a candidate."""

DECLINED_CONTEXT = re.compile(
    r"(?<![^\W_])the only (?:[^\W_]+ ){1,3}(?:(?:that's|that has|that have|i've|i have|you've|you"
    r" have|that) (?:come up|came up|mentioned|heard|got)|i (?:have|know of|hold|see) is|on record "
    r"is|i've got is)(?![^\W_])"
)
DECLINED_CONTEXT_6 = re.compile(
    r"(?<![^\W_])(?:all|everything) (?:i know|i have|i've got|you've told me|you told me|you've "
    r"said|you said|i've heard)(?: on (?:it|that|this))? is(?![^\W_])"
)
"""grading-6: "All I know is that …" after a decline is context too."""
"""A decline's context ("the only film that's come up is X"): what follows names no answer."""

STATUS = re.compile(
    r"(?<![^\W_])(?:gave|give|given|giving|quit|quitting|dropp\w*|ditch\w*|stopp\w*|left|"
    r"no longer|any ?more|cancel\w*|used to|still|keep|kept)(?![^\W_])"
)
"""Words that state an activity's status."""

OUT_AFTER = re.compile(
    r"^[\s,]*out(?![^\W_])|^[^.!?;]{0,60}?(?:kept|left|leave|keep) (?:it|them|that) out(?![^\W_])"
)
"""Left out: "I'd leave serviced apartments out"."""

NOT_THIS = re.compile(
    r"(?<![^\W_])(?:not|rather than|unlike|instead of|as opposed to)(?: (?:the|your|my))? ?$"
)

REPORTED_NEGATION = re.compile(
    r"(?<![^\W_])(?:(?:haven't|hasn't|never|didn't|don't|not) (?:said|mentioned|told me|heard|"
    r"seen|suggested|indicated)(?: anything| a word)?(?: since)?(?: about| that| of)?"
    r"(?: suggesting| to suggest| that suggests)?(?: that)?"
    r"|nothing (?:since )?(?:suggests|says|indicates|says|in your messages says)(?: that)?"
    r"|no (?:sign|indication|word|mention)(?: since)?(?: that| of)?)"
    r"(?: (?:you've|you have|you'd|you had|you))?(?![^\W_])"
)


def last_words(text: str, count: int) -> str:
    """The end of ``text`` holding at most ``count`` words (and what follows them)."""
    # Read from a tail long enough for the words: a long answer is not read whole per mention.
    tail = text[-WORD_SPAN * count :]
    words = list(TOKEN.finditer(tail))
    if len(words) > count:
        return tail[words[-count].start() :]
    if len(tail) == len(text):
        return text  # the tail was the whole text, which has too few words
    words = list(TOKEN.finditer(text))
    if len(words) <= count:
        return text
    return text[words[-count].start() :]


def first_words(text: str, count: int) -> str:
    """The start of ``text`` holding at most ``count`` words."""
    for index, word in enumerate(TOKEN.finditer(text)):
        if index == count - 1:
            return text[: word.end()]
    return text


WORD_SPAN: Final = 40
"""Characters a word and what follows it usually take, to cut a tail before reading it."""
