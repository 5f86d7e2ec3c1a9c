"""Bench versions: each semantic version maps to one frozen policy.

A bench version is our contract, MAJOR.MINOR.PATCH (docs/bench-versions.md): MAJOR changes the
scoring model, MINOR changes content or wording, PATCH fixes what changes no score and no byte of
any dataset. MAJOR.MINOR (the *content version*) is folded into every PRNG stream and case id, so
wording rotates with each minor version. Code reads ``policy.<field>``, never compares versions.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Final

from dittobench.core.errors import DittobenchError
from dittobench.spec.judging import JUDGE_1, JudgeProtocol
from dittobench.spec.sizes import (
    SIZES_1,
    SIZES_8,
    SIZES_8_1,
    SIZES_TOOLS_ONLY,
    RunSize,
    Sizes,
    UnknownRunSizeError,
)

BENCHMARK_NAME: Final = "dittobench"


class UnknownVersionError(DittobenchError, ValueError):
    """A bench version this build does not implement."""

    http_status = 400


@dataclass(frozen=True, slots=True)
class GradingPolicy:
    """Every constant of the scoring model (docs/grading.md). A change here is a MAJOR version."""

    id: str
    """Names this table in reports and receipts."""
    lexicon: str = "lex-1"
    """The phrase lists the memory grader reads (declines, endings, going on): an id of
    ``grade.lexicon.LEXICONS``. Further phrases are a new lexicon named by a new policy; the
    lexicon an older policy names never changes."""
    tool_selection: float = 0.4
    tool_arguments: float = 0.4
    tool_order_discipline: float = 0.2
    result_trajectory: float = 0.4
    """Result-usage cases: weight of the trajectory score; the rest is for using the figure."""
    result_usage: float = 0.6
    self_report_cap: float = 0.5
    """Ceiling for a case whose expected tools are served by the endpoint but were never seen
    there (only self-reported)."""
    stuffing_ratio: int = 8
    stuffing_min_words: int = 6
    """An argument value is stuffed (rejected) when it is more than ``stuffing_ratio`` times as
    long as the wanted value and has at least ``stuffing_min_words`` words."""
    dump_floor: int = 3
    """A memory answer naming at least max(dump_floor, ceil(n / dump_divisor)) of the n
    dump-guard values scores zero."""
    dump_divisor: int = 2
    correct_at: float = 0.5
    """A case counts as correct (for efficiency, consistency and the token) at this score."""
    tool_half: float = 0.5
    memory_half: float = 0.5
    efficiency_free_calls: int = 1
    efficiency_saturation: int = 4
    efficiency_max_loss: float = 0.15
    consistency_max_loss: float = 0.15
    token_missed: float = 0.85
    token_leaked: float = 0.5
    dimension_weights: tuple[tuple[str, float], ...] = (
        ("recall", 0.4),
        ("temporal", 0.3),
        ("reasoning", 0.3),
    )
    # The rules below close answers that score without memory (docs/grading.md gives each
    # rule the exploit it closes). Off in grading-1, which 1.x datasets keep.
    mask_echoes: bool = False
    """Every kind: runs of the question's own words (pronouns folded) count for nothing."""
    one_candidate_number: bool = False
    """Counts: an answer stating more than one candidate number is a hedge."""
    order_items_once: bool = False
    """Ordered lists: each item exactly once."""
    exact_durations: bool = False
    """Durations: the stated days must be the expected days (grading-1 allowed max(2 days,
    half the expected days), which a constant guess exploits)."""
    duration_spread_permille: int = 0
    """Durations: stated durations further apart than this share are a hedge (0: not checked)."""
    typed_determination: bool = False
    """Ended/ongoing: cue words from the question do not count, and asserting both fails."""
    confirmed_writes: bool = False
    """Write instructions: credit only a reported or observed write call with the right
    content, confirmed by the read-back; an acknowledgement alone earns nothing."""
    decline_grounding_words: int = 1
    """Declines: content words of the question the answer must state outside any echo (or all
    of them when the question has fewer); the key's subject terms ground on their own."""
    decline_offer_fails: bool = False
    """Declines: a decline that also offers a candidate ("maybe X") is wrong."""
    former_values_excused: bool = False
    """Value kinds: a distractor named as a former value ("you switched from X") is not named
    as the answer; the expected value must be named without such a cue."""
    confirm_memory_tool_reports: bool = False
    """Tool cases of memory tools: a self-reported call nothing observed is capped."""
    decline_voids_answer: bool = False
    """Answerable kinds: a reply that also says it does not know ("no record", "can't recall")
    is a hedge between declining and answering, and scores nothing (``wrongful_decline``)."""
    parts_agree: bool = False
    """Durations and ordered lists: the answer slot and the prose are one answer; each part that
    states a duration (names an item) must pass on its own, so two guesses, one per part, fail."""
    duration_max_distinct: int = 0
    """Durations: more distinct stated durations than this is a list of guesses (0: no cap)."""
    former_forms_spent: bool = False
    """Value kinds (with ``former_values_excused``): a distractor named as a former value takes
    its shorter forms with it ("Not Surface Milper any more" names no "Milper" as the answer)."""
    more_phrasings: bool = False
    """Ended/ongoing: the activity's name read as "it" ("You gave pottery up" says "gave it
    up"), with grading-3's lexicon (``lex-3``)."""
    former_cues_more: bool = False
    """Value kinds (with ``former_values_excused``): "before that it was X", "after leaving X",
    "earlier you had X" and "X was the old one" name X as a former value too."""
    committed_scans: bool = False
    """Memory answers are read for what they commit to (``grade.commitment``): a value set
    aside (someone else's, old, later, untrue, excluded, a look-alike) is neither an answer nor
    a wrong one; scans and typed checks read only what is committed. The other user's private
    values still fail wherever they appear."""
    slot_commits: bool = False
    """Value, number, list, ordered-list and duration answers: a given ``answer`` slot is the
    commitment, graded on its own; the prose then fails only on a leak."""
    guard_spares_evidence: bool = False
    """Dump guards spare the values of the case's own evidence (the items a count counted, the
    facts a recommendation draws on), which an answer may list as what it used."""
    decline_context: bool = False
    """Declines: after a grounded decline that offers no candidate, the user's own values named
    as context do not trip the dump guard."""
    phrasings_4: bool = False
    """Declines: "was it" and "is it" offer a candidate only in a question ("Was it Lisbon?"),
    not in a report; with grading-4's lexicon (``lex-4``)."""
    answer_leads: bool = False
    """Value answers: the answer is the first sentence that commits to a candidate; what follows
    is context (one value is asked for, so only one can be put forward: listing more after the
    lead gains a guess nothing)."""
    natural_arguments: bool = False
    """Tool arguments: a long value that states the wanted value inside a task-sized
    description matches, unless it names values the request does not (stuffing)."""
    retry_free: bool = False
    """Tool calls: one repeat of an expected tool (a corrective retry) and, where the case uses a
    search result, a read of the page it links are not extra calls."""
    decoy_set_aside: bool = False
    """Result usage: a decoy figure the answer names and sets aside ("the preview said X, but
    the page says Y") does not cancel the needle (``grade.commitment``)."""
    tally_listing: bool = False
    """Tallies: an answer may name the day of each event it counted, when it names no more days
    than its count and the earliest it names is the first."""
    readings_5: bool = False
    """grading-5's readings of what an answer sets aside (``grade.commitment``, docs/grading.md
    "grading-5"): "her name is X" and "your older sister" name the one asked about; names after
    "with" or an introduction are companions; a place the question names owns nothing; another
    person's like for like, someone "saying" something, a hypothetical and "Not included:" set
    values aside; pleasantries negate nothing; a bracketed slip is about the slip; the clause
    before a contrast with another activity is about the one asked; a tally may name its
    question's day, and a count without one or a frequency is no second claim; a reply far
    longer than any answer is read whole (no lead, no decline context)."""
    readings_6: bool = False
    """grading-6's readings (docs/grading.md "grading-6"), found by readers of bench 6.1's
    content: a value in the unreal mood ("you'd love to be a size K", "Brigitte would have suited
    her"), taken back ("but that isn't her name") or named as what a correction replaced ("you
    corrected that from X") is set aside, as is what follows "Not counted:"; an answer slot is
    read for what it commits to, and one that names only part of the answer ("V" for "size V")
    leaves the answer to the prose; "it may be on your card" in a decline says where to look,
    offering nothing; a tally's day said as not counted is not one of its days."""
    readings_7: bool = False
    """grading-7's readings (docs/grading.md "grading-7"), found by readers of bench 8.1's
    content: the unreal mood right after a value, reported past ", and you said" and with an
    adverb ("you'd probably love it"); a clause that ends the value's sentence by taking it out
    of the answer ("so it's not in the last three", "it came before those", "so I wouldn't put
    him down"); a bet offers a candidate in a decline; a tally's "I counted the X once" says how
    X was counted, not a count."""


GRADING_1 = GradingPolicy(id="dittobench-grading-1")
GRADING_2 = GradingPolicy(
    id="dittobench-grading-2",
    mask_echoes=True,
    one_candidate_number=True,
    order_items_once=True,
    exact_durations=True,
    duration_spread_permille=150,
    typed_determination=True,
    confirmed_writes=True,
    decline_grounding_words=2,
    decline_offer_fails=True,
    former_values_excused=True,
    confirm_memory_tool_reports=True,
)
GRADING_3 = replace(
    GRADING_2,
    id="dittobench-grading-3",
    lexicon="lex-3",
    decline_voids_answer=True,
    parts_agree=True,
    duration_max_distinct=2,
    duration_spread_permille=250,
    former_forms_spent=True,
    former_cues_more=True,
    more_phrasings=True,
    dump_divisor=3,
)
GRADING_4 = replace(
    GRADING_3,
    id="dittobench-grading-4",
    lexicon="lex-4",
    committed_scans=True,
    slot_commits=True,
    guard_spares_evidence=True,
    decline_context=True,
    phrasings_4=True,
    tally_listing=True,
    answer_leads=True,
    natural_arguments=True,
    retry_free=True,
    decoy_set_aside=True,
)
GRADING_5 = replace(GRADING_4, id="dittobench-grading-5", readings_5=True)
GRADING_6 = replace(GRADING_5, id="dittobench-grading-6", readings_6=True)
GRADING_7 = replace(GRADING_6, id="dittobench-grading-7", readings_7=True)
GRADINGS: Final = MappingProxyType(
    {g.id: g for g in (GRADING_1, GRADING_2, GRADING_3, GRADING_4, GRADING_5, GRADING_6, GRADING_7)}
)
"""Every shipped grading policy by id (``dittobench grade --grading``)."""


@dataclass(frozen=True, slots=True)
class ContentPolicy:
    """What the generator does differently from one content version to the next: each flag is
    a change of dataset bytes (docs/bench-versions.md)."""

    order_shown_unsorted: bool = False
    """Order questions never list their items in the right order (an echo is never right)."""
    durations_spread: bool = False
    """Duration questions draw a gap among the distinct gaps the history has, then a pair that
    far apart, and ask for a number of days (so no single guess is common)."""
    superseded_distractors: bool = False
    """Current-value questions list the user's superseded values as distractors; list and
    never-visited questions list public pool values nobody in the history holds, so reciting
    the public pool never pays."""
    write_links: bool = False
    """Write instructions carry their operation, the written code and their read-back's id."""
    dump_guard_seeded: bool = False
    """Dump guards sample the values seeded by the time a question is asked."""
    decline_subjects: bool = False
    """Decline cases carry the subject they decline about (the unvisited city) as items."""
    names_own_pack: bool = False
    """The dataset names its pack even when it is the version's own public pack (1.x and 2.0.0
    leave it implied, so their datasets keep their bytes; any other pack is always named)."""
    findings_from_pack: bool = False
    """Tool fixtures carry the needle and decoy sentences the mock tools serve, drawn from the
    pack's ``results`` grammar (tools.json) with the same phrase families and told apart only by
    their content: each is dated, the decoy earlier (1.x and 2.0.0 serve frames from code)."""
    woven_history: bool = False
    """The history is conversation (docs/memory.md): a user turn may carry up to three facts
    amid small talk, facts are corrected later, split across turns (the who or the day of an
    event said afterwards) or updated implicitly, contacts are named in several ways, and a
    pair serves every attribute it voices (1.x and 2.0.0: one fact per pair)."""
    look_alikes: bool = False
    """The history holds look-alike non-facts (negations, plans that fell through,
    hypotheticals, reported speech) whose values are distractors of the questions they
    resemble."""
    coined_values: bool = False
    """Attributes that declare ``coin`` (attributes.json) draw their values per seed from the
    pack's parts instead of a public list."""
    shared_questions: bool = False
    """Questions are worded from families shared across attributes (questions.json ``asking``)
    with the attribute's subject as a slot (``subjects``), each led by an anchor in the
    person's own history (a contact, a date); order questions ask for a kind's events without
    listing them, activity questions name the day it was taken up, not the activity; some
    questions combine two facts (who came along, which weekday, the value on an event's day)."""
    drawn_placement: bool = False
    """A question is asked after a wave drawn among those where its evidence is complete (not
    pinned to the first, the last or its evidence's wave); write instructions and their
    read-backs likewise, in that order."""
    wide_counts: bool = False
    """An event list holds 2 to 14 events and a recurring topic comes up 2 to 14 times (at most
    one a session), so no guessed count is common (1.x and 2.0.0: 2 to 5 and 2 to 6)."""
    twin_mentions: bool = False
    """Recurring topics get look-alikes too (someone else's complaint quoted, a moan the user
    was spared), in the words of the topic's own mentions, so counting mentions by their
    wording overcounts (needs ``look_alikes``)."""
    twin_unheld: bool = False
    """Twelve fixed attributes the user does not hold get look-alikes too (nobody's value, in the
    attribute's own statement words), said inside turns that already carry facts, so a
    decline needs the history read, not a wording found (needs ``look_alikes``)."""
    twin_suggestions: bool = False
    """The assistant's recommendations often name, after the pick, a look-alike it did not
    recommend, in its recommendation words (nobody's value, a distractor of the recall),
    so the last suggestion said is not always the one made (needs ``look_alikes``)."""
    companion_labels: bool = False
    """A duration question names one of its events, and a point-in-time question the event it
    is anchored on, when a single contact came along to it, by its kind and that contact ("the
    one of my trips that Zeno came along to") instead of its own label."""
    tally_days: bool = False
    """Count questions also ask when the first one was, and are graded as a ``tally``: the
    exact count and the day of the first event or mention it counts (``answer_items[0]``,
    ISO), so no guessed number passes on its own (the latest is too often the last session's
    day, the same in every seed)."""
    twins_after: bool = False
    """A held attribute gets a look-alike with chance 7/10 (not 3/5), said in a session after
    the user's last statement of it (when one follows), so the last wording of the attribute
    found in the history is the look-alike more often than the fact (needs ``look_alikes``)."""
    alias_scans: bool = False
    """Distractors and forbidden values list the other forms a grader would accept for each
    (``Choice.aliases``: "Petrem" for "Galaxy Petrem"), so a list of short forms names them."""
    isolation_unheard: bool = False
    """The second user's value of an isolation attribute is one the first user's history never
    names (bench 4.0 let it be a contact's value the first user mentioned, so the first user's
    own history held the value the isolation case forbids)."""
    fixtures_about_request: bool = False
    """Tool results are about what the request is about: a job's or workflow's findings name
    its topic, a single search's page agrees with its teaser (only cases about telling them
    apart serve two figures), and the calendar holds the event a lookup names."""
    event_days_drawn: bool = False
    """An event's weekday, when said, is drawn among the days since the session before (bench
    3.0 to 6.0: always the session's own day, so the session date answered every weekday
    question); the event took place that day, which every date computed from it follows."""
    event_days_worded: bool = False
    """An event whose said weekday is not its session's day is told in words of the week (its
    grammar's ``event_earlier``: "went to Lisbon this week") instead of words of the day ("just
    got back", "this evening"), which the day said later would contradict (bench 6.1 and 7.0 said
    it "this evening", then "That was on Friday")."""
    notes_named: bool = False
    """Who came along to an event, or the day it fell on, is said with chance 1/2 later in the
    session, naming the event (bench 3.0 to 6.0: always right after the event, so the last
    event named was always the one a note was about)."""
    read_lookalikes: bool = False
    """The pack's look-alikes must be read, which ``pack lint`` checks (``generate/
    lint_lookalikes.py``): none holds a statement's wording around its value, and the frames
    they are said in are frames facts are said in too (bench 3.0 to 6.0: fixed frames round
    the statement's own words, which a longest-match parser classifies unread)."""
    open_questions: bool = False
    """Runs carry open questions (``RunSize.open_quota``) with rubrics made from the keys, which
    the version's locked judge scores for the nuance score (bench 8.0)."""
    decoys_either_side: bool = False
    """A decoy finding is dated before or after the needle's, drawn (bench 3.0 to 6.0: always
    before, so the later date named the needle); the source the request names tells them
    apart."""


CONTENT_1 = ContentPolicy()
CONTENT_2 = ContentPolicy(
    order_shown_unsorted=True,
    durations_spread=True,
    superseded_distractors=True,
    write_links=True,
    dump_guard_seeded=True,
    decline_subjects=True,
)
CONTENT_3 = replace(
    CONTENT_2,
    names_own_pack=True,
    findings_from_pack=True,
    woven_history=True,
    look_alikes=True,
    coined_values=True,
    shared_questions=True,
    drawn_placement=True,
    wide_counts=True,
    twin_mentions=True,
    twin_unheld=True,
    twin_suggestions=True,
    twins_after=True,
    companion_labels=True,
    tally_days=True,
)
"""Bench 3.0: an exam that needs memory (issue: facts woven into talk, look-alike
non-facts, coined values, combined questions, tool requests without cues)."""
CONTENT_4 = replace(CONTENT_3, alias_scans=True)
"""Bench 4.0: 3.0's content with every scanned value's other forms listed beside it."""
CONTENT_5 = replace(CONTENT_4, isolation_unheard=True, fixtures_about_request=True)
"""Bench 5.0: content that does not contradict itself (docs/bench-versions.md)."""
CONTENT_6 = replace(
    CONTENT_5,
    event_days_drawn=True,
    notes_named=True,
    read_lookalikes=True,
    decoys_either_side=True,
)
"""Bench 6.1: look-alikes that are read, not matched (pack ``public-6.1``: no look-alike wraps
a statement's words, facts and look-alikes share frames) and none of 5.0's free give-aways."""
CONTENT_7 = replace(CONTENT_6, event_days_worded=True)
"""Bench 7.1: 6.1's content, an event told days after it took place in words of the week (pack
``public-7.1``)."""
CONTENT_8 = replace(CONTENT_7, open_questions=True)
"""Bench 8.0: 7.1's content and open questions (pack ``public-8.0``: their wordings)."""


CATALOG_1: Final = "catalog-1"
"""The catalog shape of every version so far (``catalog.tools.SHAPES``)."""


@dataclass(frozen=True, slots=True)
class BenchPolicy:
    """Everything a bench version fixes."""

    version: str
    epoch: str
    """``generated_at`` of every dataset of this version; the clock is never read."""
    run_sizes: Sizes
    """The version's quotas (one of the named tables above, or ``extended_sizes`` of one)."""
    grading: GradingPolicy = GRADING_1
    content: ContentPolicy = CONTENT_1
    pack_id: str = "public-1.1"
    """The shipped content pack the version's datasets are generated from by default."""
    catalog: str = CATALOG_1
    """The tool catalog's shape (tool names, arguments, types): an id of
    ``catalog.tools.SHAPE_TABLES``. A new tool is a new shape named by a new version."""
    judge: JudgeProtocol | None = None
    """The locked judge of the version's open questions (None: the version has none)."""
    draft: bool = False
    """A version still being built: its datasets may change from one commit to the next, it has
    no golden hashes yet, and the command line says so whenever it is used."""

    @property
    def content_version(self) -> str:
        """MAJOR.MINOR: the part of the version folded into seeds and ids."""
        major, minor, _patch = self.version.split(".")
        return f"{major}.{minor}"

    def run_size(self, name: str) -> RunSize:
        try:
            return self.run_sizes[name]
        except KeyError:
            known = ", ".join(self.run_sizes)
            raise UnknownRunSizeError(
                f"unknown run size {name!r}; choose one of: {known}"
            ) from None


POLICIES: Final = MappingProxyType(
    {
        # 1.0.0: tool side only (its memory keys are present and empty).
        "1.0.0": BenchPolicy("1.0.0", "2026-11-01T00:00:00Z", SIZES_TOOLS_ONLY),
        "1.1.0": BenchPolicy("1.1.0", "2026-12-01T00:00:00Z", SIZES_1),
        # 2.0.0: grading-2 closes answers that score without memory; content that feeds it.
        "2.0.0": BenchPolicy("2.0.0", "2026-12-01T00:00:00Z", SIZES_1, GRADING_2, CONTENT_2),
        # 3.0.0: a new answer kind (tally: bench-versions.md, MAJOR) and content that needs
        # memory, from its own pack.
        "3.0.0": BenchPolicy(
            "3.0.0",
            "2026-12-01T00:00:00Z",
            SIZES_1,
            GRADING_2,
            CONTENT_3,
            pack_id="public-3.0",
        ),
        # 4.0.0: grading-3 (a reply that answers and declines, guesses split between the answer
        # slot and the prose) and scanned values' other forms; 3.0's content otherwise.
        "4.0.0": BenchPolicy(
            "4.0.0",
            "2026-12-06T00:00:00Z",
            SIZES_1,
            GRADING_3,
            CONTENT_4,
            pack_id="public-3.0",
        ),
        # 5.0.0: grading-4 reads what an answer commits to, so careful answers that name
        # look-alikes, old values and what they counted pass; content that does not contradict
        # itself.
        "5.0.0": BenchPolicy(
            "5.0.0",
            "2026-12-06T00:00:00Z",
            SIZES_1,
            GRADING_4,
            CONTENT_5,
            pack_id="public-3.0",
        ),
        # 6.0.0: grading-5 reads more of what careful answers set aside (a fifth round of
        # readers nobody had seen); 5.0's content otherwise.
        "6.0.0": BenchPolicy(
            "6.0.0",
            "2026-12-06T00:00:00Z",
            SIZES_1,
            GRADING_5,
            CONTENT_5,
            pack_id="public-3.0",
        ),
        # 6.1.0: 6.0's scoring on content a parser of the public pack has to read: look-alikes
        # that transform a statement instead of wrapping it, frames shared with facts, and no
        # weekday, decoy date or companion note that the grammar alone gives away.
        "6.1.0": BenchPolicy(
            "6.1.0",
            "2026-12-06T00:00:00Z",
            SIZES_1,
            GRADING_5,
            CONTENT_6,
            pack_id="public-6.1",
        ),
        # 7.0.0: grading-6 reads the careful answers 6.1's content draws (a look-alike named in
        # the unreal mood or taken back, a slot naming part of the answer); 6.1's content.
        "7.0.0": BenchPolicy(
            "7.0.0",
            "2026-12-06T00:00:00Z",
            SIZES_1,
            GRADING_6,
            CONTENT_6,
            pack_id="public-6.1",
        ),
        # 7.1.0: 7.0's scoring; an event told days after it took place is said in words of the
        # week, so the day said later no longer contradicts "this evening".
        "7.1.0": BenchPolicy(
            "7.1.0",
            "2026-12-06T00:00:00Z",
            SIZES_1,
            GRADING_6,
            CONTENT_7,
            pack_id="public-7.1",
        ),
        # 8.0.0: two scores, never blended: 7.1's verified scoring and content, plus open
        # questions judged by a locked judge for a nuance score beside the composite.
        "8.0.0": BenchPolicy(
            "8.0.0",
            "2026-12-06T00:00:00Z",
            SIZES_8,
            GRADING_6,
            CONTENT_8,
            pack_id="public-8.0",
            judge=JUDGE_1,
        ),
        # 8.1.0: 8.0.0's content, scoring and judge; a long history's everyday talk tells
        # look-alikes and near misses again, so they come as often per pair as in full.
        "8.1.0": BenchPolicy(
            "8.1.0",
            "2026-12-07T00:00:00Z",
            SIZES_8_1,
            GRADING_6,
            CONTENT_8,
            pack_id="public-8.0",
            judge=JUDGE_1,
        ),
        # 9.0.0: grading-7 reads what readers of 8.1's medium runs said beside their answers
        # (a wish past ", and you said", a clause taking a value out of the answer, "I counted
        # X once"); 8.1's content, sizes and judge.
        "9.0.0": BenchPolicy(
            "9.0.0",
            "2026-12-07T00:00:00Z",
            SIZES_8_1,
            GRADING_7,
            CONTENT_8,
            pack_id="public-8.0",
            judge=JUDGE_1,
        ),
    }
)
RELEASED_VERSIONS: Final = tuple(v for v, policy in POLICIES.items() if not policy.draft)

CURRENT_VERSION: Final = "9.0.0"


def content_of(content_version: str) -> ContentPolicy:
    """The content policy of a content version (MAJOR.MINOR), as the mock tools know a run by
    it; the first policy's (``CONTENT_1``) for a content version no bench version has."""
    policy = _first_of(content_version)
    return policy.content if policy else CONTENT_1


def catalog_of(content_version: str) -> str:
    """The catalog shape of a content version (MAJOR.MINOR), as the mock tools know a run by it;
    the first policy's for a content version no bench version has."""
    policy = _first_of(content_version)
    return policy.catalog if policy else CATALOG_1


def pack_id_of(content_version: str) -> str:
    """The own pack of a content version's bench versions (the mock tools' words when a caller
    gives none); the first policy's for a content version no bench version has."""
    policy = _first_of(content_version)
    return policy.pack_id if policy else POLICIES["1.0.0"].pack_id


def _first_of(content_version: str) -> BenchPolicy | None:
    for policy in POLICIES.values():
        if policy.content_version == content_version:
            return policy
    return None


def get_policy(version: str = CURRENT_VERSION) -> BenchPolicy:
    """The frozen policy of ``version``, or ``UnknownVersionError`` listing the known ones."""
    try:
        return POLICIES[version]
    except KeyError:
        known = ", ".join(POLICIES)
        raise UnknownVersionError(
            f"unknown bench version {version!r}; this build implements: {known}"
        ) from None
