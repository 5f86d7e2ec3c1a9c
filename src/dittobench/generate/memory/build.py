"""Build a run's memory side: the person (and the isolation user), their waves, every question."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from dittobench.core.errors import DittobenchError
from dittobench.core.ids import case_id, opaque_id
from dittobench.core.prng import Stream
from dittobench.generate.memory import gather, recall, timeline
from dittobench.generate.memory.draft import Context, Draft
from dittobench.generate.memory.haystack import Haystack, build_haystack, session_dates
from dittobench.generate.memory.isolation import isolation_attributes, isolation_cases
from dittobench.generate.memory.needs import isolation_needs, needs_for
from dittobench.generate.memory.open import OpenDraft, open_drafts
from dittobench.generate.memory.overlap import choose_wording, content_words
from dittobench.generate.memory.placement import clear_of_key, placed
from dittobench.generate.memory.waves import WavePlan, plan_waves, seed_requests
from dittobench.generate.memory.writes import write_path
from dittobench.generate.persona.coined import coin_library, uncoined_gap
from dittobench.generate.persona.library import Library
from dittobench.generate.persona.model import Person
from dittobench.generate.persona.plan import WIDE_COUNT_TOP, Needs, plan_person
from dittobench.generate.persona.talk import talk_of
from dittobench.generate.persona.twists import twist_plan
from dittobench.generate.persona.voice import voice_person
from dittobench.generate.persona.weave import weave_person
from dittobench.generate.texts import Texts
from dittobench.spec.memory import CASE_WRITE_OPS, MemoryCase
from dittobench.spec.open import OpenCase
from dittobench.spec.sizes import Quota, RunSize
from dittobench.spec.versions import CONTENT_1, ContentPolicy
from dittobench.spec.vocab import ANSWER_KINDS, MEMORY_QUESTION_TYPES, MemoryQuestionType, member
from dittobench.spec.wire import DEFAULT_USER_ID, ISOLATION_USER_ID, SeedRequest

Generator = Callable[[Context, int], list[Draft]]

GENERATORS: tuple[tuple[MemoryQuestionType, Generator], ...] = (
    ("integrity_token", recall.integrity_token),
    ("single_session_recall", recall.single_session_recall),
    ("assistant_recall", recall.assistant_recall),
    ("stored_injection", recall.stored_injection),
    ("preference_application", gather.preference_application),
    ("multi_session_count", gather.multi_session_count),
    ("multi_session_list", gather.multi_session_list),
    ("mention_count", gather.mention_count),
    ("abstention_unknown", gather.abstention_unknown),
    ("abstention_near_miss", gather.abstention_near_miss),
    ("abstention_never_visited", gather.abstention_never_visited),
    ("knowledge_update", timeline.knowledge_update),
    ("point_in_time", timeline.point_in_time),
    ("temporal_order", timeline.temporal_order),
    ("temporal_duration", timeline.temporal_duration),
    ("activity_quit", timeline.activity_quit),
    ("activity_ongoing", timeline.activity_ongoing),
)
"""The generator of every memory question type but the write path's and isolation, in the order
the run draws them (``tests/unit/test_vocab.py``: with ``WRITE_TYPES`` and ``ISOLATION_TYPE``
they name every ``spec.vocab.MemoryQuestionType`` once)."""
WRITE_TYPES: tuple[MemoryQuestionType, ...] = ("write_instruction", "write_readback")
"""Made together by ``write_path``."""
ISOLATION_TYPE: MemoryQuestionType = "isolation"
"""Made by ``isolation_cases`` for the size's ``isolation_cases``."""


class MemoryGenerationError(DittobenchError, ValueError):
    """The persona could not supply a question type's quota (a content or quota bug)."""


@dataclass(frozen=True, slots=True)
class MemorySide:
    waves: tuple[SeedRequest, ...]
    cases: tuple[MemoryCase, ...]
    telemetry: dict[str, int]
    persons: Mapping[str, Person] = field(default_factory=dict)
    """Per user, the person behind the haystack (for studies and tests; not in the dataset)."""
    haystacks: Mapping[str, Haystack] = field(default_factory=dict)
    library: Library | None = None
    """The run's library (coined values included)."""
    open_cases: tuple[OpenCase, ...] = ()
    """The run's open questions (``ContentPolicy.open_questions``)."""


def _person(
    dataset: Stream, user: str, needs: Needs, texts: Texts, epoch: str, content: ContentPolicy
) -> Person:
    plan = plan_person(dataset, user, needs, texts.library, texts.words.syllables)
    voice = dataset.fork(f"memory/voice/{user}")
    if not (content.woven_history or content.look_alikes):
        return voice_person(plan, texts, voice)
    talk = talk_of(texts)
    plan = twist_plan(
        plan,
        texts.library,
        talk,
        session_dates(plan.sessions, epoch),
        dataset.fork(f"memory/person/{user}/twists"),
        twins=content.look_alikes,
        woven=content.woven_history,
        mentions=content.twin_mentions,
        unheld=content.twin_unheld,
        suggestions=content.twin_suggestions,
        after=content.twins_after,
        days=content.event_days_drawn,
        worded=content.event_days_worded,
        unheard=needs.avoid if content.isolation_unheard else {},
        unheld_twins=needs.unheld_twins,
        twins_each=needs.twins_each,
    )
    return weave_person(
        plan,
        texts,
        talk,
        voice,
        grouped=content.woven_history,
        named=content.notes_named,
        talk_turns=needs.talk_turns,
        talk_sentences=needs.talk_sentences,
        retell=needs.retell,
    )


def build_memory(
    dataset: Stream, epoch: str, size: RunSize, texts: Texts, content: ContentPolicy = CONTENT_1
) -> MemorySide:
    """Everything memory in one run (``dataset``: the dataset's root stream); empty when the
    size has no memory quota."""
    if not size.memory_quota:
        return MemorySide((), (), {})
    quota = size.memory_quota
    texts = _run_texts(dataset, texts, content)
    needs = replace(
        needs_for(quota, size.isolation_cases, size.history),
        distinct_starts=content.shared_questions,
        count_top=WIDE_COUNT_TOP if content.wide_counts else 0,
    )
    first = _person(dataset, DEFAULT_USER_ID, needs, texts, epoch, content)
    first_hay = build_haystack(dataset, first, epoch)
    root = dataset.fork("memory/questions")
    ctx = Context(first, first_hay, texts, root, content=content)
    drafts = _drafts(ctx, root, quota, size.waves)
    requests: list[SeedRequest] = []
    hays = {DEFAULT_USER_ID: first_hay}
    contexts = {DEFAULT_USER_ID: ctx}
    if size.isolation_cases:
        busy = {c for d in drafts for c in d.clusters}
        second_ctx, iso = _isolation(dataset, epoch, ctx, root, size, busy)
        hays[ISOLATION_USER_ID] = second_ctx.haystack
        contexts[ISOLATION_USER_ID] = second_ctx
        # The second user's material is one fully indexed wave, seeded before the first user's.
        second_plan = plan_waves(root.fork("isolation/waves"), second_ctx.haystack, 1, 0)
        requests.extend(seed_requests(dataset, second_ctx.haystack, second_plan, 1, texts))
        drafts.extend(iso)
    drafts = _forbid_payloads(ctx, drafts)
    plan = plan_waves(root.fork("waves"), first_hay, size.waves, size.raw_pairs_permille)
    if content.drawn_placement:
        drafts = placed(drafts, plan, size.waves, root.fork("placement"))
    if content.dump_guard_seeded:
        # Replaces every guard; _guard_dumps would only draw from its own stream, then be
        # overwritten, so it is skipped (the same bytes).
        drafts = _guard_seeded(contexts, drafts, plan, root.fork("dump/seeded"))
    else:
        drafts = _guard_dumps(contexts, drafts, root.fork("dump"))
    requests.extend(seed_requests(dataset, first_hay, plan, size.waves, texts))
    stop = texts.questions.overlap_stop_words
    clear = content.shared_questions
    widen = _with_other_forms(texts.library) if content.alias_scans else _as_listed
    cases, telemetry = _cases(dataset, root.fork("order"), drafts, plan, hays, stop, clear, widen)
    telemetry["raw_pairs_permille"] = plan.raw_share_permille
    persons = {user: c.person for user, c in contexts.items()}
    opened: tuple[OpenCase, ...] = ()
    if content.open_questions and size.open_quota:
        asked = {(c.user_id, c.question) for c in cases}
        made = open_drafts(ctx.drawing_from(root.fork("open")), size.open_quota)
        opened = _open_cases(
            dataset, root.fork("open/placed"), made, plan, size.waves, first_hay, stop, asked
        )
    return MemorySide(tuple(requests), cases, telemetry, persons, hays, texts.library, opened)


def _open_cases(
    dataset: Stream,
    stream: Stream,
    made: list[OpenDraft],
    plan: WavePlan,
    waves: int,
    hay: Haystack,
    stop: frozenset[str],
    asked: set[tuple[str, str]],
) -> tuple[OpenCase, ...]:
    """Open drafts as cases: each asked after a wave drawn where its evidence is complete, in
    the wording (never one already asked) that shares fewest words with its evidence; ids of
    their own kind (``open``), in the order asked."""
    placed_drafts = placed([m.draft for m in made], plan, waves, stream.fork("wave"))
    words = _PairWords({DEFAULT_USER_ID: hay}, stop)
    by_wave: dict[int, list[int]] = {}
    for index, draft in enumerate(placed_drafts):
        by_wave.setdefault(draft.min_wave, []).append(index)
    order = [i for wave in sorted(by_wave) for i in stream.fork("order").shuffle(by_wave[wave])]
    out = []
    for ordinal, index in enumerate(order):
        open_draft, draft = made[index], placed_drafts[index]
        free = [c for c in draft.candidates if (draft.user_id, c) not in asked]
        if not free:
            raise MemoryGenerationError(f"{draft.question_type}: every wording is already used")
        pairs = _evidence_pairs(hay, draft)
        question, _first, _best = choose_wording(free, words.of(draft.user_id, pairs), stop)
        asked.add((draft.user_id, question))
        out.append(
            OpenCase(
                id=case_id(dataset.seed, dataset.content_version, "open", ordinal),
                open_kind=open_draft.kind,
                question=question,
                user_id=draft.user_id,
                run_after_wave=draft.min_wave,
                period_from=open_draft.period_from,
                period_to=open_draft.period_to,
                must_state=open_draft.must_state,
                must_not=open_draft.must_not,
                evidence_pair_ids=pairs,
            )
        )
    return tuple(out)


def _run_texts(dataset: Stream, texts: Texts, content: ContentPolicy) -> Texts:
    """The texts a run draws from: with ``coined_values``, attributes that declare ``coin`` get
    values coined for this seed (from ``memory/coin``)."""
    if not content.coined_values:
        gap = uncoined_gap(texts.library)
        if gap:
            raise MemoryGenerationError(
                f"pack {texts.pack_id} coins the values of {', '.join(gap)}; this bench "
                "version does not coin values: use a version that does, or list the values"
            )
        return texts
    avoid = texts.pack.file("attributes").get("coin_avoid", [])
    if not isinstance(avoid, list) or not all(isinstance(w, str) for w in avoid):
        raise MemoryGenerationError(f"pack {texts.pack_id}: coin_avoid must list words")
    stream = dataset.fork("memory/coin")
    library = coin_library(texts.library, stream, texts.words.syllables, avoid)
    return replace(texts, library=library)


def _drafts(ctx: Context, root: Stream, quota: Quota, waves: int) -> list[Draft]:
    drafts: list[Draft] = []
    for question_type, generate in GENERATORS:
        wanted = quota.get(question_type, 0)
        if not wanted:
            continue
        made = generate(ctx.drawing_from(root.fork(question_type)), wanted)
        if len(made) != wanted:
            raise MemoryGenerationError(f"{question_type}: made {len(made)} of {wanted}")
        drafts.extend(made)
    instructions = quota.get("write_instruction", 0)
    if instructions:
        made = write_path(ctx.drawing_from(root.fork("write")), instructions, waves - 1)
        if len(made) != instructions + quota.get("write_readback", 0):
            raise MemoryGenerationError(f"write path: made {len(made)} cases")
        drafts.extend(made)
    return drafts


def _isolation(
    dataset: Stream, epoch: str, ctx: Context, root: Stream, size: RunSize, busy: set[str]
) -> tuple[Context, list[Draft]]:
    fixed = [a.name for a in ctx.library.of_kind("fixed")]
    # Nothing the first user's history says of an attribute (anyone's value, a look-alike) may be
    # the second user's: their value must be news to the first user's history.
    heard = {n: tuple(dict.fromkeys(f.value for f in ctx.person.facts if f.attribute == n))
             for n in fixed}  # fmt: skip
    spent = frozenset(
        n
        for n in fixed
        if ctx.content.isolation_unheard
        and not {v.text for v in ctx.library.get(n).values} - set(heard[n])
    )
    names = isolation_attributes(
        root.fork("isolation"), ctx.person, fixed, size.isolation_cases, busy, spent
    )
    if ctx.content.isolation_unheard:
        avoid = {name: heard[name] for name in names}
    else:
        avoid = {name: (ctx.chain(name)[-1].value,) for name in names}
    needs = replace(
        isolation_needs(names, avoid, size.history),
        distinct_starts=ctx.content.shared_questions,
        avoid_near=ctx.content.isolation_unheard,
    )
    second = _person(dataset, ISOLATION_USER_ID, needs, ctx.texts, epoch, ctx.content)
    second_ctx = Context(
        second,
        build_haystack(dataset, second, epoch),
        ctx.texts,
        root.fork("isolation/questions"),
        content=ctx.content,
    )
    return second_ctx, isolation_cases(ctx, second_ctx, names, size.isolation_cases)


def _forbid_payloads(ctx: Context, drafts: list[Draft]) -> list[Draft]:
    payloads = recall.payloads_by_attribute(ctx)
    out = []
    for draft in drafts:
        extra = tuple(payloads[c] for c in draft.clusters if c in payloads)
        if draft.user_id == DEFAULT_USER_ID and extra:
            draft = replace(draft, forbidden=tuple(dict.fromkeys(draft.forbidden + extra)))
        out.append(draft)
    return out


def _guard_dumps(
    contexts: Mapping[str, Context], drafts: list[Draft], stream: Stream
) -> list[Draft]:
    """Give every question a dump guard (a sample of the user's other values), so reciting the
    whole history never pays, whatever the answer kind (a decline or an acknowledgement that
    recites the user's values is as wrong as an answer that does)."""
    out = []
    sampling = {user: ctx.drawing_from(stream) for user, ctx in contexts.items()}
    for draft in drafts:
        if not draft.dump_guard:
            ctx = sampling[draft.user_id]
            keep = (draft.expected, *draft.accepted, *draft.items)
            draft = replace(draft, dump_guard=ctx.dump_guard(keep))
        out.append(draft)
    return out


def _guard_seeded(
    contexts: Mapping[str, Context], drafts: list[Draft], plan: WavePlan, stream: Stream
) -> list[Draft]:
    """Give every question a dump guard drawn from the values seeded by the time it is asked:
    a guard of values still unseeded would let a dump of what is stored so far through."""
    out = []
    sampling = {user: ctx.drawing_from(stream) for user, ctx in contexts.items()}
    seeded_by: dict[int, frozenset[str]] = {}  # per wave: the clusters seeded by then
    for draft in drafts:
        ctx = sampling[draft.user_id]
        seeded = None
        if draft.user_id == DEFAULT_USER_ID:  # the other user is seeded whole, first
            wave = _wave_of(draft, plan)
            if wave not in seeded_by:
                seeded_by[wave] = frozenset(c for c, w in plan.wave_of_cluster.items() if w <= wave)
            seeded = seeded_by[wave]
        keep = (draft.expected, *draft.accepted, *draft.items, *draft.distractors)
        out.append(replace(draft, dump_guard=ctx.dump_guard(keep, attributes=seeded)))
    return out


def _with_other_forms(library: Library) -> Callable[[tuple[str, ...]], tuple[str, ...]]:
    """Scanned values (distractors, forbidden values), each followed by the other forms a
    grader accepts for it (its ``Choice.aliases`` in the run's library, coined values
    included): a short form names a wrong value as surely as the full one."""
    others: dict[str, list[str]] = {}
    for attribute in library.attributes:
        for choice in attribute.values:
            if choice.aliases:
                others.setdefault(choice.text, []).extend(choice.aliases)

    def widened(values: tuple[str, ...]) -> tuple[str, ...]:
        if not any(v in others for v in values):
            return values
        return tuple(dict.fromkeys(f for v in values for f in (v, *others.get(v, ()))))

    return widened


def _as_listed(values: tuple[str, ...]) -> tuple[str, ...]:
    return values


def _wave_of(draft: Draft, plan: WavePlan) -> int:
    if draft.max_wave >= 0:
        return draft.max_wave
    waves = [plan.wave_of_cluster[c] for c in draft.clusters if c in plan.wave_of_cluster]
    return max([draft.min_wave, *waves])


def _cases(
    dataset: Stream,
    stream: Stream,
    drafts: list[Draft],
    plan: WavePlan,
    hays: Mapping[str, Haystack],
    stop: frozenset[str],
    clear: bool = False,
    widen: Callable[[tuple[str, ...]], tuple[str, ...]] = _as_listed,
) -> tuple[tuple[MemoryCase, ...], dict[str, int]]:
    seed, version = dataset.seed, dataset.content_version
    questions, telemetry = _choose_questions(drafts, hays, stop, clear)
    by_wave: dict[int, list[int]] = {}
    for index, draft in enumerate(drafts):
        by_wave.setdefault(_wave_of(draft, plan), []).append(index)
    ordered = [(wave, i) for wave in sorted(by_wave) for i in stream.shuffle(by_wave[wave])]
    ids = {
        index: case_id(seed, version, "mem", ordinal) for ordinal, (_w, index) in enumerate(ordered)
    }
    linked = {d.link: ids[i] for i, d in enumerate(drafts) if d.link}
    cases = []
    for wave, index in ordered:
        draft = drafts[index]
        cases.append(
            MemoryCase(
                id=ids[index],
                question_type=member(MEMORY_QUESTION_TYPES, draft.question_type, "question_type"),
                question=questions[index],
                answer_kind=member(ANSWER_KINDS, draft.answer_kind, "answer_kind"),
                expected_answer=draft.expected,
                user_id=draft.user_id,
                run_after_wave=wave,
                accepted=draft.accepted,
                answer_items=draft.items,
                distractors=widen(draft.distractors),
                forbidden=widen(draft.forbidden),
                dump_guard=draft.dump_guard,
                family_id=opaque_id("fam", seed, version, draft.family) if draft.family else "",
                evidence_pair_ids=_evidence_pairs(hays[draft.user_id], draft),
                write_op=member(CASE_WRITE_OPS, draft.write_op, "write_op"),
                confirmed_by=linked[draft.confirmed_by] if draft.confirmed_by else "",
            )
        )
    return tuple(cases), telemetry


def _choose_questions(
    drafts: list[Draft], hays: Mapping[str, Haystack], stop: frozenset[str], clear: bool = False
) -> tuple[dict[int, str], dict[str, int]]:
    """Pick each draft's wording: never one already asked of the same user in the run, then the
    lowest word overlap with its evidence. Drafts with fewer candidates choose first. With
    ``clear`` (bench 3.0), a wording that names a value of the draft's key (its answer, a
    distractor, a guard value: a lead's contact can be one) is kept only when every one does."""
    used: set[tuple[str, str]] = set()
    chosen: dict[int, str] = {}
    before = after = measured = 0
    words = _PairWords(hays, stop)
    for index in sorted(range(len(drafts)), key=lambda i: (len(drafts[i].candidates), i)):
        draft = drafts[index]
        free = [c for c in draft.candidates if (draft.user_id, c) not in used]
        if not free:
            raise MemoryGenerationError(f"{draft.question_type}: every wording is already used")
        if clear:
            free = clear_of_key(free, draft)
        pair_ids = _evidence_pairs(hays[draft.user_id], draft)
        question, first, best = choose_wording(free, words.of(draft.user_id, pair_ids), stop)
        if pair_ids:
            before, after, measured = before + first, after + best, measured + 1
        used.add((draft.user_id, question))
        chosen[index] = question
    telemetry = {
        "lexical_overlap_before_permille": before // measured if measured else 0,
        "lexical_overlap_after_permille": after // measured if measured else 0,
        "lexical_overlap_cases": measured,
    }
    return chosen, telemetry


def _evidence_pairs(hay: Haystack, draft: Draft) -> tuple[str, ...]:
    return tuple(dict.fromkeys(p for k in draft.evidence for p in hay.pairs_of_fact[k]))


class _PairWords:
    """The content words of a draft's evidence: the union of its pairs' words, each pair's
    computed once per run. The same set as the words of all its pairs' text joined by newlines
    (no word spans a newline, and normalising never joins two lines)."""

    def __init__(self, hays: Mapping[str, Haystack], stop: frozenset[str]) -> None:
        self._pairs = {(u, p.pair_id): p for u, hay in hays.items() for p in hay.pairs}
        self._stop = stop
        self._words: dict[tuple[str, str], frozenset[str]] = {}

    def of(self, user: str, pair_ids: tuple[str, ...]) -> frozenset[str]:
        held: set[str] = set()
        for pair_id in pair_ids:
            key = (user, pair_id)
            if key not in self._words:
                pair = self._pairs[key]
                self._words[key] = content_words(f"{pair.prompt}\n{pair.response}", self._stop)
            held |= self._words[key]
        return frozenset(held)
