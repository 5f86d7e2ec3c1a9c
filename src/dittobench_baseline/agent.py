"""The offline agent: answers one ``RunRequest`` with no language model.

It decides between four things, in this order:

1. **Writing memory.** An instruction to remember, change or forget something (recognised by
   plain English cues, unless a non-memory tool fits the request clearly better) is carried out on
   the store and acknowledged.
2. **Answering from memory.** A question about the user's own life or past, or a request whose best
   tool is a memory-reading one, is answered from the store: BM25 retrieval, then the sentence that
   best covers the question's content words, preferring the most recent one when several fit,
   honouring a date the question names, and declining when the evidence is weak.
3. **Calling a tool.** Otherwise the request is routed over its own catalog (``router.py``). The
   chosen tool's arguments are filled from the request; when a precise argument is missing the
   agent asks for it instead of guessing. Calls go to ``tool_endpoint``; a second tool follows when
   the request asks for more than the first explains (its missing link or id taken from the first
   result). A figure the final result states about the request's subject is quoted back.
4. **Small talk** or an ask no tool can serve gets a short reply and no call.

Memory tools are never sent to the endpoint: they run here, on the store, and are reported in
``tool_calls``.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any, Protocol

import httpx

from dittobench.spec.codec import DecodeError, decode
from dittobench.spec.wire import (
    MEMORY_TOOLS,
    RunRequest,
    RunResponse,
    ToolCall,
    ToolDefinition,
    ToolExecRequest,
    ToolExecResponse,
    to_wire,
)
from dittobench_baseline.router import (
    FOLLOW_THRESHOLD,
    ROUTE_THRESHOLD,
    Route,
    Router,
    fill_args,
    find_ids,
    find_urls,
)
from dittobench_baseline.store import Hit, MemoryStore, user_key
from dittobench_baseline.textutil import (
    MONTHS,
    STOPWORDS,
    content_stems,
    find_dates,
    is_first_person,
    normalize_quotes,
    sentences,
    spoken,
    stem,
    tokens,
    wordset,
)

log = logging.getLogger(__name__)

ToolCaller = Callable[[str, ToolExecRequest], ToolExecResponse]
"""Executes one tool call: ``(tool_endpoint, request) -> response``."""


class Agent(Protocol):
    """What the server drives: answers one ``RunRequest``, calling non-memory tools through
    ``call_tool``. Implementations must be safe to call from several threads at once."""

    def answer(self, request: RunRequest, call_tool: ToolCaller) -> RunResponse: ...


class UpstreamError(Exception):
    """A service the agent depends on (not the tool endpoint) failed, so the case cannot be
    answered. The message is one line, safe to show the client; the server replies 502 with it."""


TOOL_TIMEOUT_S = 15.0

READ_TOOLS = frozenset(
    {"search_memories", "fetch_memories", "search_subjects", "search_memories_in_subjects"}
)

STRONG_ROUTE = 0.3
"""A first-person question goes to a tool rather than memory only at this similarity or more."""

SEARCH_DEPTH = 30
"""How many pairs BM25 returns for a question before sentences are scored."""

DECLINE = "I don't have a record of that"

MAX_INPUT_CHARS = 4000
"""Requests are read up to this length; patterns never run over unbounded text."""

MAX_SENTENCE_CHARS = 1000
"""Stored sentences are read up to this length when scored."""

# What is said, not what about: words that say nothing about the topic of a question.
_QUESTION_FILLER = frozenset(
    stem(w)
    for w in wordset(
        """now currently current these days lately recently again exactly remember remind
    recall mention mentioned said say told tell ask asked talk talked ago time times ever anymore
    moment nowadays recall chat chats conversation conversations earlier previously before told
    happen happened point back"""
    )
)

_PAST_MARKERS = re.compile(
    r"\b(?:did|was|were|had|used to|told|said|mentioned|ago|last|previously|earlier|originally"
    r"|before|talked|discussed|shared)\b",
    re.IGNORECASE,
)
_RECALL_REQUEST = re.compile(
    r"^\s*(?:please\s+)?(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?"
    r"(?:tell me|remind me (?:what|when|where|who|which|how|whether|if|of)|recall|remember"
    r"|look (?:back|through)|check (?:my|our|what|whether|if))\b",
    re.IGNORECASE,
)
_POLITE_REQUEST = re.compile(
    r"^\s*(?:(?:hey|hi|ok|okay|so),?\s+)?(?:please\s+)?(?:can|could|would|will)\s+you\b",
    re.IGNORECASE,
)
_QUESTION_START = re.compile(
    r"^\s*(?:(?:so|and|also|hey|hi|ok|okay|quick question|just curious)[,:]?\s+)*"
    r"(?:what|what's|whats|when|where|where's|who|who's|whom|whose|which|how|how's|why|did|do"
    r"|does|have|has|had|is|are|was|were|am)\b",
    re.IGNORECASE,
)
_SMALL_TALK = re.compile(
    r"^\s*(?:hi|hello|hey|yo|good (?:morning|afternoon|evening|night)|thanks|thank you|cheers"
    r"|how are you|how's it going|how is it going|how are things|how have you been|what's up"
    r"|nice|great|cool|awesome|lol|haha|bye|goodbye|see you|have a (?:good|nice|great)"
    r"|tell me a joke|you're|you are)\b",
    re.IGNORECASE,
)
_SAVE = re.compile(
    r"^\s*(?:(?:just\s+)?note that|for the record|fyi|just so you know)\b[:,]?\s*"
    r"|(?:^\s*(?:(?:hey|hi|ok|okay|so|also|and|oh)[,!]?\s+)*|[.!?;]\s+|\bplease\s+"
    r"|\b(?:can|could|would|will)\s+you\s+(?:please\s+)?|\b(?:want|need|like)\s+you\s+to\s+)"
    r"(?:remember|memori[sz]e|note down|make a note|keep a note|take a note"
    r"|jot down|keep in mind|save|store|don't forget|do not forget|never forget|add (?:a|this)"
    r" (?:note|memory))\b(?:\s+(?:that|this|of|the fact that|for me|down))*\s*[:,-]?\s*",
    re.IGNORECASE,
)
_UPDATE = re.compile(
    r"\b(?:update|change|correct|amend|revise|modify|edit|replace|switch)\s+(?P<topic>.+?)"
    r"\s+(?:to|with|so (?:that )?it (?:says|reads))\s+(?P<value>.+)",
    re.IGNORECASE | re.DOTALL,
)
_UPDATE_STATEMENT = re.compile(
    r"(?P<topic>\bmy\b.+?)\s+(?:is now|are now|has changed to|have changed to|changed to"
    r"|is actually|has been changed to|was changed to)\s+(?P<value>.+)",
    re.IGNORECASE | re.DOTALL,
)
_DELETE = re.compile(
    r"(?<!n't )(?<!not )(?<!never )\b(?:forget|delete|erase|remove|wipe|drop|purge|scrub)"
    r"\s+(?:about\s+|all about\s+|everything about\s+)?(?P<topic>.+)",
    re.IGNORECASE | re.DOTALL,
)
_INJECTION = re.compile(
    r"\bignore (?:all |any |the |your )?(?:previous|prior|above|earlier|other)\b"
    r"|\b(?:if|when|whenever)\b[^.]*\b(?:ask|asks|asked|question|questions)\b[^.]*"
    r"\b(?:answer|reply|respond|say|tell|claim|state)\b"
    r"|\b(?:always|must|should)\s+(?:answer|reply|respond|say)\b"
    r"|\bnote (?:to|for) (?:the |any )?(?:assistant|ai|model|bot)\b"
    r"|\b(?:assistant|ai|model|bot)s?\s*(?:,|:)?\s*(?:must|should|always)\b"
    r"|\bsystem prompt\b|\bnew instructions?\b",
    re.IGNORECASE,
)
_MEMORY_WORDS = re.compile(
    r"\b(?:memory|memories|note|notes|record|records|everything|anything you)\b", re.IGNORECASE
)
_ASKS_ASSISTANT = re.compile(
    r"\b(?:did|have|had|do) you\b|\byou (?:\w+ed|said|told|gave|made|came up|thought)\b",
    re.IGNORECASE,
)
_PAST_SELF = re.compile(
    r"\b(?:i|we)\s+(?:\w+\s+)?(?:said|told|mentioned|talked|discussed|shared|asked|wrote|noted"
    r"|brought up)\b|\b(?:our|my)\s+(?:past|previous|earlier|last|old)\s+(?:chats?|conversations?"
    r"|messages?|talks?)\b",
    re.IGNORECASE,
)
PAST_SELF_BONUS = 0.15
"""Added to the memory-reading tools when the request points at something the user said."""

_RELATIONS = wordset(
    """colleague colleagues coworker coworkers co-worker friend friends neighbor neighbour boss
    manager cousin sister brother partner wife husband mother father mom mum dad roommate
    flatmate teammate aunt uncle son daughter niece nephew client boyfriend girlfriend fiance
    fiancee grandmother grandfather grandma grandpa"""
)
_POSSESSIVE_NAME = re.compile(r"\b([A-Z][a-z]+)'s\b")
_OTHER_PRONOUN = re.compile(r"\b(?:he|she|his|her|hers|him)\b", re.IGNORECASE)
_FIRST_PERSON_SUBJECT = re.compile(r"\b(?:I|I'm|I've|I'd|I'll)\b")
_CODE = re.compile(r"(?<![\w-])(?=[A-Za-z0-9-]*\d)[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+(?![\w-])")
_FIGURE = re.compile(
    r"(?<![\w.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w])|(?<![\w.,])\d+(?:\.\d+)?(?![\w])"
)
_RELATIVE_DAYS = (
    (re.compile(r"\byesterday\b|\blast night\b", re.IGNORECASE), -1),
    (re.compile(r"\b(?:the )?day before yesterday\b", re.IGNORECASE), -2),
    (re.compile(r"\blast week\b|\ba week ago\b", re.IGNORECASE), -7),
    (re.compile(r"\b(?:two|2) days ago\b", re.IGNORECASE), -2),
    (re.compile(r"\b(?:three|3) days ago\b", re.IGNORECASE), -3),
)


# Tool execution -----------------------------------------------------------------------------


class HttpToolCaller:
    """POSTs ``ToolExecRequest`` JSON to the tool endpoint with httpx (15 s timeout). Transport
    failures, non-2xx replies and unreadable bodies come back as a response with ``error``."""

    def __init__(self, timeout: float = TOOL_TIMEOUT_S) -> None:
        self._client = httpx.Client(timeout=timeout, trust_env=False)

    def close(self) -> None:
        self._client.close()

    def __call__(self, endpoint: str, request: ToolExecRequest) -> ToolExecResponse:
        try:
            reply = self._client.post(endpoint, json=to_wire(request))
        except httpx.HTTPError as exc:
            return ToolExecResponse(error=f"tool endpoint unreachable: {type(exc).__name__}")
        try:
            body = reply.json()
        except ValueError:
            body = None
        if isinstance(body, dict):
            try:
                parsed = decode(ToolExecResponse, body)
            except DecodeError as exc:
                return ToolExecResponse(error=f"tool endpoint sent a malformed reply: {exc}")
            if reply.is_success or parsed.error:
                return parsed
        return ToolExecResponse(error=f"tool endpoint replied HTTP {reply.status_code}")


# Local memory tools -------------------------------------------------------------------------


class MemoryTools:
    """The seven memory tools, executed against the store for one user."""

    def __init__(self, store: MemoryStore, user_id: str) -> None:
        self.store = store
        self.user = user_key(user_id)

    def execute(self, name: str, args: Any) -> ToolExecResponse:
        if not isinstance(args, dict):
            return ToolExecResponse(error="arguments must be a JSON object")
        try:
            return ToolExecResponse(result=self._run(name, args))
        except (KeyError, TypeError, ValueError) as exc:
            return ToolExecResponse(error=f"{name}: bad arguments ({exc})")

    def _run(self, name: str, args: dict[str, Any]) -> str:
        if name == "search_memories":
            return _format_hits(self.store.search(self.user, _joined(args["queries"]), 10))
        if name == "fetch_memories":
            return _format_hits(self.store.fetch(self.user, [str(p) for p in args["pairIds"]]))
        if name == "search_subjects":
            found = self.store.search_subjects(self.user, _joined(args["queries"]))
            return "\n".join(f"[{s.id}] {s.subject_text}: {s.description_text}" for s in found)
        if name == "search_memories_in_subjects":
            hits = self.store.search_in_subject(
                self.user, str(args["subject_id"]), _joined(args["queries"])
            )
            return _format_hits(hits)
        if name == "save_memory":
            return f"saved as {self.store.save(self.user, str(args['content']))}"
        if name == "update_memory":
            ok = self.store.update(self.user, str(args["pair_id"]), str(args["content"]))
            return "updated" if ok else "no such memory"
        if name == "delete_memory":
            return (
                "deleted"
                if self.store.delete(self.user, str(args["pair_id"]))
                else "no such memory"
            )
        raise ValueError(f"{name} is not a memory tool")


def _joined(value: Any) -> str:
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return str(value)


def _format_hits(hits: Sequence[Hit]) -> str:
    return "\n".join(
        f"[{h.pair_id}] {h.timestamp} user: {h.prompt} | assistant: {h.response}" for h in hits
    )


# The agent ----------------------------------------------------------------------------------


@dataclass
class _Trace:
    calls: list[ToolCall] = field(default_factory=list)

    def add(self, name: str, args: Any) -> int:
        hop = len(self.calls)
        self.calls.append(ToolCall(name=name, args=args, hop=hop))
        return hop


@dataclass(frozen=True, slots=True)
class _Candidate:
    hit: Hit
    role: str
    sentence: str
    matched: frozenset[str]
    score: float


class OfflineAgent:
    """A deterministic, model-free floor. Stateless apart from the store, so it is safe to call
    from many threads at once."""

    def __init__(self, store: MemoryStore) -> None:
        self.store = store

    # Entry point --------------------------------------------------------------------------------

    def answer(self, request: RunRequest, call_tool: ToolCaller) -> RunResponse:
        user = user_key(request.user_id)
        text = normalize_quotes(request.user_input).strip()[:MAX_INPUT_CHARS]
        trace = _Trace()
        if not text:
            return RunResponse(final_text="What can I help you with?")
        router = Router(request.tools)
        ranked = router.rank(text)
        if _PAST_SELF.search(text):
            ranked = [
                Route(r.name, r.score + PAST_SELF_BONUS) if r.name in READ_TOOLS else r
                for r in ranked
            ]
            ranked.sort(key=lambda r: (-r.score, r.name))
        best_tool = next((r for r in ranked if r.name not in MEMORY_TOOLS), None)
        strong_tool = best_tool if best_tool and best_tool.score >= ROUTE_THRESHOLD else None
        memory_scores = {r.name: r.score for r in ranked if r.name in MEMORY_TOOLS}
        question = _is_question(text)

        write = None if question and not _POLITE_REQUEST.match(text) else _write_intent(text)
        if write is not None:
            kind = write[0]
            own = memory_scores.get(f"{kind}_memory", 0.0)
            if strong_tool is None or not self._tool_beats(router, strong_tool, text, own):
                return self._write(user, write, trace)

        chatty = _SMALL_TALK.match(text) and not (question and is_first_person(text))
        if chatty and strong_tool is None:
            return _small_talk()
        if _RECALL_REQUEST.match(text) and not (strong_tool and strong_tool.score >= STRONG_ROUTE):
            return self._recall(user, text, trace)
        if question and not _POLITE_REQUEST.match(text):
            past = bool(_PAST_MARKERS.search(text))
            if strong_tool is None or (
                is_first_person(text) and (past or strong_tool.score < STRONG_ROUTE)
            ):
                return self._recall(user, text, trace)

        top = ranked[0] if ranked else None
        if (
            top is not None
            and top.name in READ_TOOLS
            and top.score >= ROUTE_THRESHOLD
            and (strong_tool is None or top.score > strong_tool.score)
        ):
            return self._recall(user, text, trace)
        if strong_tool is not None:
            return self._use_tools(request, text, router, ranked, strong_tool, trace, call_tool)
        if _SMALL_TALK.match(text):
            return _small_talk()
        return RunResponse(
            final_text="I don't have a tool that fits this, so I'll leave it there. "
            "Tell me if there's something specific you'd like me to do."
        )

    @staticmethod
    def _tool_beats(router: Router, tool: Route, text: str, memory_score: float) -> bool:
        filled = fill_args(router.tools[tool.name], text)
        return tool.score > memory_score and not filled.missing and bool(filled.precise)

    # Writing ------------------------------------------------------------------------------------

    def _write(self, user: str, intent: tuple[str, str, str], trace: _Trace) -> RunResponse:
        kind, topic, content = intent
        if kind == "save":
            self.store.save(user, content)
            trace.add("save_memory", {"content": content})
            return RunResponse(
                final_text="Saved. I'll remember that.",
                tool_calls=tuple(trace.calls),
                answer="Saved",
                confidence=1.0,
            )
        named = self.store.fetch(user, find_ids(topic))
        targets = named or self._matching_pairs(user, topic)
        if kind == "update":
            if targets:
                target = max(targets, key=lambda h: (h.moment is not None, h.moment, h.seq))
                self.store.update(user, target.pair_id, content)
                trace.add("update_memory", {"pair_id": target.pair_id, "content": content})
            else:
                self.store.save(user, content)
                trace.add("save_memory", {"content": content})
            return RunResponse(
                final_text="Updated. I've changed that in my notes.",
                tool_calls=tuple(trace.calls),
                answer="Updated",
                confidence=1.0,
            )
        for hit in targets:
            self.store.delete(user, hit.pair_id)
            trace.add("delete_memory", {"pair_id": hit.pair_id})
        return RunResponse(
            final_text="Deleted. I've removed that from my memory."
            if targets
            else "Deleted. There was nothing stored about that, so nothing is kept.",
            tool_calls=tuple(trace.calls),
            answer="Deleted",
            confidence=1.0,
        )

    def _matching_pairs(self, user: str, topic: str) -> list[Hit]:
        """Pairs that mention most of the topic's content words (all of them for short topics)."""
        wanted = content_stems(topic) - _QUESTION_FILLER
        if not wanted:
            return []
        need = len(wanted) if len(wanted) <= 2 else max(2, (len(wanted) * 2 + 2) // 3)
        out = []
        for hit in self.store.search(user, topic, SEARCH_DEPTH):
            have = content_stems(f"{hit.prompt} {hit.response}")
            if len(wanted & have) >= need:
                out.append(hit)
        return out

    # Reading ------------------------------------------------------------------------------------

    def _recall(self, user: str, question: str, trace: _Trace) -> RunResponse:
        keywords = " ".join(
            w for w in tokens(question) if w not in STOPWORDS and stem(w) not in _QUESTION_FILLER
        )
        queries = [q for q in dict.fromkeys([keywords, question]) if q]
        trace.add("search_memories", {"queries": queries})
        qstems = _question_stems(question)
        if re.search(r"\bhow (?:long|many (?:days|weeks|months|years))\b", question, re.I):
            duration = self._duration(user, question)
            if duration is not None:
                days, first, second = duration
                return RunResponse(
                    final_text=f"{days} days passed between them ({spoken(first)} and "
                    f"{spoken(second)}).",
                    tool_calls=tuple(trace.calls),
                    answer=f"{days} days",
                    confidence=0.5,
                )
        ordered = self._order(user, question)
        if ordered:
            return RunResponse(
                final_text="In order, earliest first: " + ", then ".join(ordered) + ".",
                tool_calls=tuple(trace.calls),
                answer=", ".join(ordered),
                confidence=0.4,
            )
        candidates = self._candidates(user, question, qstems)
        best = _best(candidates)
        if best is None:
            return _decline(question, trace)
        if re.search(r"\bhow many\b|\bhow often\b|\bnumber of\b", question, re.I):
            count = (
                len(
                    {
                        c.hit.pair_id
                        for c in candidates
                        if c.role == "user" and c.score >= max(0.5, best.score * 0.75)
                    }
                )
                or 1
            )
            return RunResponse(
                final_text=f"{count}, going by our conversations.",
                tool_calls=tuple(trace.calls),
                answer=str(count),
                confidence=0.4,
            )
        when = _event_day(best)
        if (
            re.search(
                r"^\W*(?:\w+\W+){0,3}?when\b|\bwhat (?:date|day)\b|\bwhich (?:date|day)\b",
                question,
                re.I,
            )
            and when is not None
        ):
            stated = find_dates(best.sentence)
            day = stated[0] if stated else when
            return RunResponse(
                final_text=f"That was on {spoken(day)}: \u201c{best.sentence}\u201d",
                tool_calls=tuple(trace.calls),
                answer=spoken(day),
                confidence=round(min(best.score, 1.0), 3),
            )
        value = _bare_value(best.sentence, qstems)
        said = "you said" if best.role == "user" else "I said"
        on = f" on {spoken(when)}" if when else ""
        return RunResponse(
            final_text=f"Going by what {said}{on}: \u201c{best.sentence}\u201d",
            tool_calls=tuple(trace.calls),
            answer=value,
            confidence=round(min(best.score, 1.0), 3),
        )

    def _candidates(self, user: str, question: str, qstems: frozenset[str]) -> list[_Candidate]:
        if not qstems:
            return []
        hits = self.store.search(user, question, SEARCH_DEPTH)
        cutoff = _cutoff(question)
        wants_assistant = bool(_ASKS_ASSISTANT.search(question))
        proper = _proper_nouns(question)
        out: list[_Candidate] = []
        for hit in hits:
            if cutoff is not None and (hit.moment is None or hit.moment.date() > cutoff):
                continue
            pair_stems = content_stems(f"{hit.prompt} {hit.response}")
            if not proper <= pair_stems:
                continue
            poisoned = any(_INJECTION.search(s[:MAX_SENTENCE_CHARS]) for s in sentences(hit.prompt))
            for role, text in (("user", hit.prompt), ("assistant", hit.response)):
                if role == "user" and poisoned:
                    continue
                for whole in sentences(text):
                    sentence = whole[:MAX_SENTENCE_CHARS]
                    if _INJECTION.search(sentence) or _about_someone_else(sentence, question):
                        continue
                    matched = qstems & content_stems(sentence)
                    if not matched:
                        continue
                    score = len(matched) / len(qstems)
                    if role == "user" and wants_assistant:
                        score *= 0.5
                    if role == "user" and sentence.endswith("?"):
                        score *= 0.6
                    if role == "user" and not wants_assistant:
                        score += 0.01
                    out.append(_Candidate(hit, role, sentence, frozenset(matched), score))
        return out

    def _best_for(self, user: str, phrase: str) -> _Candidate | None:
        stems = _question_stems(phrase)
        return _best(self._candidates(user, phrase, stems), recent=False)

    def _duration(self, user: str, question: str) -> tuple[int, date, date] | None:
        parts = _two_events(question)
        if parts is None:
            return None
        found = [self._best_for(user, part) for part in parts]
        first, second = found
        if first is None or second is None or first.hit.pair_id == second.hit.pair_id:
            return None
        a, b = _event_day(first), _event_day(second)
        if a is None or b is None:
            return None
        a, b = sorted((a, b))
        return (b - a).days, a, b

    def _order(self, user: str, question: str) -> list[str]:
        if not re.search(
            r"\bwhich\b.*\bfirst\b|\bwhat order\b|\bin order\b|\bearliest\b", question, re.I
        ):
            return []
        items = _listed_items(question)
        if len(items) < 2:
            return []
        dated: list[tuple[date, int, str]] = []
        for index, item in enumerate(items):
            found = self._best_for(user, item)
            day = _event_day(found) if found else None
            if day is None:
                return []
            dated.append((day, index, item))
        return [item for _, _, item in sorted(dated)]

    # Tools --------------------------------------------------------------------------------------

    def _use_tools(
        self,
        request: RunRequest,
        text: str,
        router: Router,
        ranked: list[Route],
        primary: Route,
        trace: _Trace,
        call_tool: ToolCaller,
    ) -> RunResponse:
        steps = _plan(router, text, ranked, primary)
        first_tool, first_text = steps[0]
        filled = fill_args(router.tools[first_tool], first_text)
        if filled.missing:
            filled = fill_args(router.tools[first_tool], text)
        if filled.missing:
            return _ask_for(router.tools[first_tool], filled.missing)
        if not request.tool_endpoint:
            return RunResponse(
                final_text=f"I would use {first_tool}, but no tool service is set up."
            )
        results: list[tuple[str, ToolExecResponse]] = [
            (first_tool, self._call(request, first_tool, filled.args, trace, call_tool))
        ]
        for name, clause in steps[1:]:
            context = [r.result for _, r in results if r.result]
            follow = fill_args(router.tools[name], clause, context)
            if follow.missing:
                follow = fill_args(router.tools[name], text, context)
            if follow.missing:
                continue
            results.append((name, self._call(request, name, follow.args, trace, call_tool)))
        return _report(text, results, trace)

    def _call(
        self,
        request: RunRequest,
        name: str,
        args: dict[str, Any],
        trace: _Trace,
        call_tool: ToolCaller,
    ) -> ToolExecResponse:
        response = ToolExecResponse(error="not called")
        for _attempt in range(2):
            hop = trace.add(name, args)
            try:
                response = call_tool(
                    request.tool_endpoint,
                    ToolExecRequest(
                        case_id=request.case_id,
                        name=name,
                        args=args,
                        hop=hop,
                        user_id=request.user_id,
                    ),
                )
            except Exception as exc:
                log.warning("tool call %s failed: %s", name, exc)
                response = ToolExecResponse(error=f"tool call failed: {type(exc).__name__}")
            if not (response.error and "retry" in response.error.lower()):
                break
        return response


# Planning -----------------------------------------------------------------------------------

_CLAUSE_BREAK = re.compile(
    r",?\s+(?:and\s+)?(?:then|afterwards|after that|once (?:that|it)(?:'s| is) (?:done|started))"
    r"[,\s]+|;\s+|(?<=[.!?])\s+(?=[A-Z])"
    r"|,?\s+and\s+(?:also\s+)?(?=(?:check|tell|read|open|get|show|send|set|switch|change|create"
    r"|make|start|run|look|search|find|email|remind|give|let|report|see|fetch|download|pull"
    r"|summari[sz]e|book|add|put|use|turn)\b)",
    re.IGNORECASE,
)

MAX_STEPS = 3


def _clauses(text: str) -> list[str]:
    return [c.strip(" ,.;") for c in _CLAUSE_BREAK.split(text) if c and c.strip(" ,.;")]


def _plan(router: Router, text: str, ranked: list[Route], primary: Route) -> list[tuple[str, str]]:
    """The tools to call, in order, each with the words it should draw its arguments from.

    A request in several clauses ("search for X, then open the first result") gets one tool per
    clause that routes clearly; otherwise the best tool for the whole request, plus any other tool
    that the words it leaves unexplained point to and whose precise arguments the request states
    (independent settings asked for together)."""
    clauses = _clauses(text)
    if len(clauses) >= 2:
        steps: list[tuple[str, str]] = []
        for clause in clauses:
            best = next((r for r in router.rank(clause) if r.name not in MEMORY_TOOLS), None)
            if best is None or best.score < FOLLOW_THRESHOLD:
                continue
            if steps and steps[-1][0] == best.name:
                continue
            steps.append((best.name, clause))
        if len(steps) >= 2:
            return steps[:MAX_STEPS]
    steps = [(primary.name, text)]
    taken = {str(v) for v in fill_args(router.tools[primary.name], text).args.values()}
    for route in ranked:
        if len(steps) >= MAX_STEPS:
            break
        if route.name in MEMORY_TOOLS or route.name == primary.name:
            continue
        if route.score < FOLLOW_THRESHOLD:
            break
        if router.residual(text, primary.name, route.name) < FOLLOW_THRESHOLD:
            continue
        other = fill_args(router.tools[route.name], text)
        values = {str(other.args[n]) for n in other.precise}
        if other.missing or not other.precise or values & taken:
            continue
        taken |= values
        steps.append((route.name, text))
    return steps


# Intent helpers -----------------------------------------------------------------------------


def _is_question(text: str) -> bool:
    return text.rstrip().endswith("?") or bool(_QUESTION_START.match(text))


def _write_intent(text: str) -> tuple[str, str, str] | None:
    """``(kind, topic, content)`` for an instruction to save, update or delete, else None."""
    save = _SAVE.search(text)
    if save and not re.match(r"\s*to\b", text[save.end() :], re.IGNORECASE):
        content = _clean_clause(text[save.end() :])
        if len(content.split()) < 2:
            content = _clean_clause(text[: save.start()] + " " + text[save.end() :])
        if content:
            return "save", content, content
    update = _UPDATE.search(text) or _UPDATE_STATEMENT.search(text)
    if update and (
        is_first_person(update.group("topic") + " " + text)
        or find_ids(update.group("topic"))
        or _MEMORY_WORDS.search(update.group("topic"))
    ):
        topic = _clean_clause(update.group("topic"))
        value = _clean_clause(update.group("value"))
        if topic and value:
            topic = re.sub(
                r"^(?:the\s+)?(?:note|memory|record)\s+(?:of|about|for)\s+",
                "",
                topic,
                flags=re.IGNORECASE,
            )
            return "update", topic, value if find_ids(topic) else f"{topic} is {value}"
    delete = _DELETE.search(text)
    if delete:
        topic = _clean_clause(delete.group("topic"))
        topic = re.sub(
            r"^(?:what\s+i\s+(?:said|told you)\s+about\s+|that\s+)", "", topic, flags=re.IGNORECASE
        )
        verb = delete.group(0).split()[0].lower()
        personal = is_first_person(topic) or bool(_MEMORY_WORDS.search(topic))
        if topic and not re.match(r"it\b", topic, re.I) and (verb == "forget" or personal):
            return "delete", topic, ""
    return None


def _clean_clause(text: str) -> str:
    out = text.strip().strip(" \t\n.,;:!?-\"'")
    out = re.sub(
        r"\s+(?:please|thanks|thank you|for me|for now|from now on)$", "", out, flags=re.IGNORECASE
    )
    return out.strip(" .,;:!?")


def _question_stems(question: str) -> frozenset[str]:
    dateless = re.sub(r"\b\d[\d,.:/-]*(?:st|nd|rd|th)?\b", " ", question)
    stems = content_stems(dateless) - _QUESTION_FILLER - {stem(m) for m in MONTHS}
    return frozenset(stems)


def _proper_nouns(question: str) -> frozenset[str]:
    """Stems of capitalised words inside the question (not its first word, not ``I``, not month
    or weekday names): a question naming a place or thing the store never mentions is declined."""
    words = re.findall(r"(?<=[\w,;:] )[A-Z][a-z]{2,}\b", question)
    skip = {m.capitalize() for m in MONTHS} | {
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
    }
    return frozenset(stem(w) for w in words if w not in skip and w.lower() not in STOPWORDS)


def _about_someone_else(sentence: str, question: str) -> bool:
    """The sentence is about another person (a relation, a named person's possessive, he/she)
    that the question does not ask about, and the user is not its subject."""
    q = question.lower()
    words = tokens(sentence)
    others = [w for w in words if w in _RELATIONS and w not in q]
    others += [m for m in _POSSESSIVE_NAME.findall(sentence) if m.lower() not in q]
    if _OTHER_PRONOUN.search(sentence) and not _OTHER_PRONOUN.search(question):
        others.append("pronoun")
    if not others:
        return False
    return not _FIRST_PERSON_SUBJECT.search(sentence)


def _cutoff(question: str) -> date | None:
    days = find_dates(question)
    if not days:
        return None
    if re.search(r"\bafter\b|\bsince\b", question, re.I):
        return None
    return days[-1]


def _best(candidates: Sequence[_Candidate], *, recent: bool = True) -> _Candidate | None:
    """The best-covering sentence; among near-equals the most recent when ``recent``. None when
    the best one covers too little of the question."""
    if not candidates:
        return None
    top = max(candidates, key=lambda c: (c.score, len(c.sentence) < 400))
    if not (top.score >= 0.5 or len(top.matched) >= 2):
        return None
    if not recent:
        return top
    pool = [
        c
        for c in candidates
        if c.score >= top.score * 0.75 and len(c.matched) >= len(top.matched) - 1
    ]
    return max(
        pool,
        key=lambda c: (
            c.hit.moment is not None,
            c.hit.moment,
            c.hit.seq,
            c.score,
        ),
    )


def _event_day(candidate: _Candidate | None) -> date | None:
    if candidate is None or candidate.hit.moment is None:
        return None
    day = candidate.hit.moment.date()
    for pattern, offset in _RELATIVE_DAYS:
        if pattern.search(candidate.sentence):
            return day + timedelta(days=offset)
    return day


def _two_events(question: str) -> tuple[str, str] | None:
    q = question.strip().rstrip("?.! ")
    for pattern in (
        r"\bbetween\s+(.+?)\s+and\s+(.+)$",
        r"\b(?:from|since|after)\s+(.+?)\s+(?:until|till|to|and|before)\s+(.+)$",
        r"\b(?:before|after)\s+(.+?)\s+(?:did|was|were|had)\s+(.+)$",
        r"^(.+?)\s+(?:and|before|after)\s+(.+)$",
    ):
        m = re.search(pattern, q, re.IGNORECASE)
        if m and m.group(1).strip() and m.group(2).strip():
            return m.group(1), m.group(2)
    return None


def _listed_items(question: str) -> list[str]:
    q = question.strip().rstrip("?.! ")
    if ":" in q:
        q = q.split(":", 1)[1]
    else:
        m = re.search(r"\b(?:first|order|earliest)\b[,:]?\s+(.+)$", q, re.IGNORECASE)
        if m:
            q = m.group(1)
    parts = re.split(r"\s*,\s*(?:and\s+|or\s+)?|\s+or\s+|\s+and\s+", q)
    return [p.strip() for p in parts if len(content_stems(p)) >= 1]


def _bare_value(sentence: str, qstems: frozenset[str]) -> str | None:
    """The value a sentence states about the question's topic, when one stands out: a single
    code-like token, or the words right after the last question word and a linking verb."""
    codes: list[str] = list(dict.fromkeys(_CODE.findall(sentence)))
    if len(codes) == 1:
        return codes[0]
    last_end = -1
    for word in re.finditer(r"[^\W_]+(?:'[^\W_]+)?", sentence):
        if stem(word.group(0)) in qstems:
            last_end = word.end()
    if last_end < 0:
        return None
    tail = sentence[last_end:]
    m = re.match(
        r"^(?:'s)?\W*(?:(?:is|are|was|were|has been|have been|will be|to|as|at|in|on|from|of"
        r"|now|currently|called|named|just|finally|actually|became|becomes|with)\b\W*)+"
        r"(?P<value>(?:\b(?:Dr|Mr|Mrs|Ms|St|Mt|Prof)\.\s*|[^.;!?,])+?)"
        r"(?=\s*(?:[.;!?,]|$)|\s+(?:and|but|because|since|so|which|who|these days|at the moment"
        r"|for now|right now|now)\b)",
        tail,
        re.IGNORECASE,
    )
    if not m:
        return None
    value = m.group("value").strip(" \"'")
    if not value or len(value.split()) > 6 or is_first_person(value):
        return None
    return value


# Replies ------------------------------------------------------------------------------------


def _small_talk() -> RunResponse:
    return RunResponse(
        final_text="Happy to chat! Let me know if there's anything I can do for you."
    )


def _decline(question: str, trace: _Trace) -> RunResponse:
    topic = " ".join(w for w in tokens(question) if w not in STOPWORDS)[:160]
    about = f" about {topic}" if topic else ""
    return RunResponse(
        final_text=f"{DECLINE}: nothing we've talked about tells me{about}.",
        tool_calls=tuple(trace.calls),
        abstain=True,
        confidence=0.0,
    )


def _ask_for(tool: ToolDefinition, missing: Sequence[str]) -> RunResponse:
    props = tool.parameters.get("properties", {}) if isinstance(tool.parameters, dict) else {}
    wanted = []
    for name in missing:
        schema = props.get(name, {}) if isinstance(props, dict) else {}
        desc = str(schema.get("description", "")).rstrip(".") if isinstance(schema, dict) else ""
        wanted.append(desc.lower() or name.replace("_", " "))
    return RunResponse(
        final_text=f"I can do that, but I need one more detail first: {'; '.join(wanted)}. "
        "Could you tell me?"
    )


def _report(
    text: str, results: Sequence[tuple[str, ToolExecResponse]], trace: _Trace
) -> RunResponse:
    calls = tuple(trace.calls)
    done = [(name, r) for name, r in results if not r.error]
    if not done:
        name, failed = results[-1]
        return RunResponse(
            final_text=f"The {name} call did not go through: {failed.error}", tool_calls=calls
        )
    name, last = done[-1]
    figure = _figure(last.result, text)
    if figure is not None:
        number, sentence = figure
        return RunResponse(
            final_text=f"The figure is {number}. ({sentence})",
            tool_calls=calls,
            answer=number,
            confidence=0.6,
        )
    summary = " ".join(last.result.split())
    if len(summary) > 400:
        summary = summary[:397] + "..."
    return RunResponse(
        final_text=f"Done ({name}): {summary}" if summary else "Done.", tool_calls=calls
    )


def _figure(result: str, request: str) -> tuple[str, str] | None:
    """The number a tool result states about the request's subject: in the sentence sharing most
    content words with the request, the longest number outside links and ids."""
    wanted = content_stems(request)
    best: tuple[int, int, str, str] | None = None
    for sentence in sentences(result):
        plain = sentence
        for link in find_urls(sentence):
            plain = plain.replace(link, " ")
        for ident in find_ids(plain):
            plain = plain.replace(ident, " ")
        numbers = _FIGURE.findall(plain)
        if not numbers:
            continue
        overlap = len(wanted & content_stems(plain))
        if overlap == 0:
            continue
        number = max(numbers, key=lambda n: sum(ch.isdigit() for ch in n))
        key = (overlap, sum(ch.isdigit() for ch in number))
        if best is None or key > best[:2]:
            best = (key[0], key[1], number, sentence.strip())
    if best is None:
        return None
    return best[2], best[3]


__all__ = [
    "MEMORY_TOOLS",
    "Agent",
    "HttpToolCaller",
    "MemoryTools",
    "OfflineAgent",
    "ToolCaller",
    "UpstreamError",
]
