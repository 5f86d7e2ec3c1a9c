"""Reading what a request asks for, and choosing the path that answers it.

``decide`` looks at the request's words and at how well each catalog tool fits them, and picks
one action, in this order of precedence: write memory (an instruction to remember, change or
forget, unless a non-memory tool fits clearly better), small talk, answer from memory (a recall
request, a question about the user's own life or past, or a request whose best tool reads memory),
call tools, small talk, or say no tool fits. Everything here is pure: no store, no calls.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from dittobench.spec.wire import MEMORY_TOOLS
from dittobench_baseline.router import ROUTE_THRESHOLD, Route, Router, fill_args, find_ids
from dittobench_baseline.textutil import is_first_person

READ_TOOLS = frozenset(
    {"search_memories", "fetch_memories", "search_subjects", "search_memories_in_subjects"}
)

STRONG_ROUTE = 0.3
"""A first-person question goes to a tool rather than memory only at this similarity or more."""

PAST_SELF_BONUS = 0.15
"""Added to the memory-reading tools when the request points at something the user said."""

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
_MEMORY_WORDS = re.compile(
    r"\b(?:memory|memories|note|notes|record|records|everything|anything you)\b", re.IGNORECASE
)
_PAST_SELF = re.compile(
    r"\b(?:i|we)\s+(?:\w+\s+)?(?:said|told|mentioned|talked|discussed|shared|asked|wrote|noted"
    r"|brought up)\b|\b(?:our|my)\s+(?:past|previous|earlier|last|old)\s+(?:chats?|conversations?"
    r"|messages?|talks?)\b",
    re.IGNORECASE,
)


class WriteIntent(NamedTuple):
    """An instruction to change memory: ``kind`` is save, update or delete; ``topic`` names what
    it is about; ``content`` is the text to store (empty for a delete)."""

    kind: str
    topic: str
    content: str


class Action(Enum):
    WRITE = "write"
    SMALL_TALK = "small talk"
    RECALL = "recall"
    TOOLS = "tools"
    NO_TOOL = "no tool"


@dataclass(frozen=True, slots=True)
class Decision:
    """The chosen action, the request's ranked routes, and what the action needs: the write
    intent for ``WRITE``, the best non-memory tool for ``TOOLS``."""

    action: Action
    ranked: list[Route]
    tool: Route | None = None
    write: WriteIntent | None = None


def decide(text: str, router: Router) -> Decision:
    """The action for a non-empty request (see the module docstring for the precedence)."""
    ranked = rank_routes(text, router)
    best_tool = next((r for r in ranked if r.name not in MEMORY_TOOLS), None)
    strong_tool = best_tool if best_tool and best_tool.score >= ROUTE_THRESHOLD else None
    question = is_question(text)
    write = _write_to_carry_out(text, router, ranked, strong_tool, question)
    if write is not None:
        return Decision(Action.WRITE, ranked, write=write)
    chatty = _SMALL_TALK.match(text) and not (question and is_first_person(text))
    if chatty and strong_tool is None:
        return Decision(Action.SMALL_TALK, ranked)
    if _asks_recall(text, question, ranked, strong_tool):
        return Decision(Action.RECALL, ranked)
    if strong_tool is not None:
        return Decision(Action.TOOLS, ranked, tool=strong_tool)
    if _SMALL_TALK.match(text):
        return Decision(Action.SMALL_TALK, ranked)
    return Decision(Action.NO_TOOL, ranked)


def rank_routes(text: str, router: Router) -> list[Route]:
    """The catalog's tools ranked for ``text``, the memory-reading ones raised when the request
    points at something the user said before."""
    ranked = router.rank(text)
    if _PAST_SELF.search(text):
        ranked = [
            Route(r.name, r.score + PAST_SELF_BONUS) if r.name in READ_TOOLS else r for r in ranked
        ]
        ranked.sort(key=lambda r: (-r.score, r.name))
    return ranked


def _write_to_carry_out(
    text: str, router: Router, ranked: list[Route], strong_tool: Route | None, question: bool
) -> WriteIntent | None:
    """The write the request asks for, unless it is a plain question or a non-memory tool fits
    it better than the memory tool that would carry out the write."""
    if question and not _POLITE_REQUEST.match(text):
        return None
    write = write_intent(text)
    if write is None:
        return None
    memory_scores = {r.name: r.score for r in ranked if r.name in MEMORY_TOOLS}
    own = memory_scores.get(f"{write.kind}_memory", 0.0)
    if strong_tool is None or not _tool_beats(router, strong_tool, text, own):
        return write
    return None


def _tool_beats(router: Router, tool: Route, text: str, memory_score: float) -> bool:
    filled = fill_args(router.tools[tool.name], text)
    return tool.score > memory_score and not filled.missing and bool(filled.precise)


def _asks_recall(text: str, question: bool, ranked: list[Route], strong_tool: Route | None) -> bool:
    """A recall request, a question about the user's own life or past, or a request whose
    best tool reads memory."""
    if _RECALL_REQUEST.match(text) and not (strong_tool and strong_tool.score >= STRONG_ROUTE):
        return True
    if _asks_about_own_life(text, question, strong_tool):
        return True
    return _read_tool_leads(ranked, strong_tool)


def _asks_about_own_life(text: str, question: bool, strong_tool: Route | None) -> bool:
    """A plain question no tool fits strongly, or a first-person one about the past or that a
    tool fits only weakly."""
    if not question or _POLITE_REQUEST.match(text):
        return False
    past = bool(_PAST_MARKERS.search(text))
    return strong_tool is None or (
        is_first_person(text) and (past or strong_tool.score < STRONG_ROUTE)
    )


def _read_tool_leads(ranked: list[Route], strong_tool: Route | None) -> bool:
    top = ranked[0] if ranked else None
    return (
        top is not None
        and top.name in READ_TOOLS
        and top.score >= ROUTE_THRESHOLD
        and (strong_tool is None or top.score > strong_tool.score)
    )


def is_question(text: str) -> bool:
    return text.rstrip().endswith("?") or bool(_QUESTION_START.match(text))


def write_intent(text: str) -> WriteIntent | None:
    """The instruction to save, update or delete that ``text`` gives, else None."""
    return _save_intent(text) or _update_intent(text) or _delete_intent(text)


def _save_intent(text: str) -> WriteIntent | None:
    save = _SAVE.search(text)
    if not save or re.match(r"\s*to\b", text[save.end() :], re.IGNORECASE):
        return None
    content = clean_clause(text[save.end() :])
    if len(content.split()) < 2:
        content = clean_clause(text[: save.start()] + " " + text[save.end() :])
    return WriteIntent("save", content, content) if content else None


def _update_intent(text: str) -> WriteIntent | None:
    update = _UPDATE.search(text) or _UPDATE_STATEMENT.search(text)
    if not update or not (
        is_first_person(update.group("topic") + " " + text)
        or find_ids(update.group("topic"))
        or _MEMORY_WORDS.search(update.group("topic"))
    ):
        return None
    topic = clean_clause(update.group("topic"))
    value = clean_clause(update.group("value"))
    if not (topic and value):
        return None
    topic = re.sub(
        r"^(?:the\s+)?(?:note|memory|record)\s+(?:of|about|for)\s+",
        "",
        topic,
        flags=re.IGNORECASE,
    )
    return WriteIntent("update", topic, value if find_ids(topic) else f"{topic} is {value}")


def _delete_intent(text: str) -> WriteIntent | None:
    delete = _DELETE.search(text)
    if not delete:
        return None
    topic = clean_clause(delete.group("topic"))
    topic = re.sub(
        r"^(?:what\s+i\s+(?:said|told you)\s+about\s+|that\s+)", "", topic, flags=re.IGNORECASE
    )
    verb = delete.group(0).split()[0].lower()
    personal = is_first_person(topic) or bool(_MEMORY_WORDS.search(topic))
    if topic and not re.match(r"it\b", topic, re.I) and (verb == "forget" or personal):
        return WriteIntent("delete", topic, "")
    return None


def clean_clause(text: str) -> str:
    """``text`` without surrounding punctuation and trailing courtesies ("please", "for me")."""
    out = text.strip().strip(" \t\n.,;:!?-\"'")
    out = re.sub(
        r"\s+(?:please|thanks|thank you|for me|for now|from now on)$", "", out, flags=re.IGNORECASE
    )
    return out.strip(" .,;:!?")
