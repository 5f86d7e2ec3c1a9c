"""Route a request to a tool of the request's own catalog, and fill that tool's arguments.

Routing is TF-IDF cosine similarity between the request's words and each tool's name and
description, with the IDF computed over the catalog that came with the request (so it adapts to
whatever tools are offered). A small table of everyday synonyms widens the request's words, and a
request that carries a URL, an email address or an id leans toward tools that take one. Below a
threshold nothing is chosen.

Arguments are filled from the JSON Schema of each tool: what kind of value an argument wants
(address, email, id, date and time, colour, enumerated choice, short name or free text) is read
from its name, type and description; the value is then looked for in the request. A required
argument of a precise kind that the request does not state is reported missing instead of guessed.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dittobench.spec.wire import ToolDefinition
from dittobench_baseline.textutil import STOPWORDS, normalize_quotes, stem, tokens, wordset

ROUTE_THRESHOLD = 0.16
"""The least similarity at which a tool is worth calling."""

FOLLOW_THRESHOLD = 0.12
"""The least similarity, on the words the first tool does not explain, for a second tool."""

SYNONYMS: Mapping[str, str] = {
    "mail": "email",
    "e-mail": "email",
    "inbox": "email",
    "message": "email send",
    "write": "send",
    "picture": "image",
    "photo": "image",
    "pic": "image",
    "illustration": "image",
    "drawing": "image",
    "draw": "image generate",
    "paint": "image",
    "logo": "image",
    "sketch": "image",
    "website": "web page",
    "site": "web page",
    "webpage": "web page",
    "article": "page",
    "link": "page url",
    "open": "read",
    "internet": "web",
    "online": "web",
    "google": "search web",
    "look": "search",
    "lookup": "search",
    "find": "search",
    "news": "current events web",
    "latest": "current",
    "appointment": "calendar event",
    "meeting": "calendar event",
    "agenda": "calendar",
    "diary": "calendar",
    "colour": "color",
    "typeface": "font",
    "dark": "theme",
    "light": "theme",
    "mode": "theme",
    "look-and-feel": "theme",
    "bug": "feedback report",
    "complaint": "feedback",
    "suggestion": "feedback",
    "developers": "team",
    "devs": "team",
    "python": "code program",
    "script": "code program",
    "calculate": "calculations code",
    "compute": "calculations code",
    "remind": "reminder",
    "alarm": "reminder",
    "nudge": "reminder",
    "ping": "reminder",
    "recurring": "automatically repeating",
    "daily": "repeating automatically",
    "weekly": "repeating automatically",
    "routine": "recipe",
    "llm": "model",
    "think": "thinking reasoning",
    "careful": "reasoning",
    "document": "file deliverable",
    "app": "deliverable",
    "report": "document",
    "spreadsheet": "document",
    "job": "background",
    "start": "execute",
    "launch": "execute start",
    "kick": "execute start",
    "every": "repeating automatically",
    "capable": "capabilities abilities",
    "able": "capabilities abilities",
    "skills": "abilities capabilities",
    "progress": "status",
    "abilities": "capabilities",
    "features": "capabilities",
    "forget": "remove memory",
    "remember": "memory",
}
"""Everyday words and what they usually mean in tool terms."""

_URL = re.compile(r"\bhttps?://[^\s<>\"'()\[\]{}]+|\bwww\.[^\s<>\"'()\[\]{}]+", re.IGNORECASE)
_IMAGE_FILE = re.compile(r"\.(?:png|jpe?g|gif|webp|bmp|svg|tiff?|heic)(?:[?#]|$)", re.IGNORECASE)
_EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")
_ID = re.compile(r"\b[A-Za-z][A-Za-z0-9]{0,11}-[A-Za-z0-9][A-Za-z0-9_-]*\b")
_QUOTED = re.compile(r"\"([^\"]{2,})\"|(?<![\w])'([^']{2,}?)'(?![\w])")
_HEX = re.compile(r"#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b")
_NUMBER = re.compile(r"(?<![\w.,-])\d+(?![\w])")
_POLITE = re.compile(
    r"^\s*(?:(?:hey|hi|hello|ok|okay|so|please|kindly)[,!]?\s+)*"
    r"(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?|i(?:'d| would)\s+like\s+you\s+to\s+"
    r"|i\s+(?:want|need)\s+you\s+to\s+|go\s+ahead\s+and\s+)?",
    re.IGNORECASE,
)

COLORS = wordset(
    """red orange yellow green blue purple violet pink teal cyan magenta black white gray grey
    brown navy maroon olive lime indigo gold silver crimson turquoise coral lavender beige mint
    amber emerald scarlet aqua azure charcoal cream ivory khaki lilac mauve ochre peach plum rose
    ruby salmon sapphire tan burgundy fuchsia jade cobalt"""
)
_COLOR_MODIFIERS = wordset(
    "light dark deep pale bright forest sky navy royal hot neon pastel electric baby"
)

_WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december"
    "|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_TIME_PIECES = re.compile(
    r"\b(?:every|each)\s+(?:other\s+)?(?:\d+\s+)?(?:day|week|month|year|hour|morning|evening|"
    r"night|weekday|weekend|minute|" + _WEEKDAYS + r")s?\b"
    r"|\b(?:on\s+)?(?:next\s+|this\s+)?(?:" + _WEEKDAYS + r")s?\b"
    r"|\b(?:tomorrow|tonight|today|noon|midnight|daily|weekly|monthly|hourly|annually)\b"
    r"|\b(?:this|next)\s+(?:morning|afternoon|evening|week|month|year|weekend)\b"
    r"|\b(?:in|after)\s+(?:\d+|an?|one|two|three|five|ten|fifteen|thirty)\s+"
    r"(?:minutes?|hours?|days?|weeks?|months?)\b"
    r"|\b(?:at\s+)?\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)"
    r"|\bat\s+\d{1,2}(?::\d{2})?\b|\b\d{1,2}:\d{2}\b"
    r"|\b(?:in\s+the\s+)?(?:morning|afternoon|evening)\b"
    r"|\b(?:on\s+)?(?:" + _MONTHS + r")\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?\b"
    r"|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:" + _MONTHS + r")(?:,?\s+\d{4})?\b"
    r"|\b\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2})?\b",
    re.IGNORECASE,
)

ArgKind = str
"""One of: url, email, id, time, color, enum, name, number, bool, text."""

PRECISE_KINDS = frozenset({"url", "email", "id", "time", "color", "enum", "name", "number", "bool"})
"""Kinds a request must state: when missing they are asked for, never invented."""


@dataclass(frozen=True, slots=True)
class Route:
    name: str
    score: float


@dataclass(frozen=True, slots=True)
class Filled:
    """Arguments found for one tool: ``missing`` lists required ones that could not be filled;
    ``precise`` names the precise-kind arguments that were filled from the text."""

    args: dict[str, Any]
    missing: tuple[str, ...]
    precise: tuple[str, ...]


# Routing ----------------------------------------------------------------------------------------


def request_terms(text: str) -> list[str]:
    """Stems of the request's content words, widened by :data:`SYNONYMS`."""
    out: list[str] = []
    for word in tokens(text):
        if word in STOPWORDS:
            continue
        out.append(stem(word))
        extra = SYNONYMS.get(word) or SYNONYMS.get(stem(word))
        if extra:
            out.extend(stem(w) for w in extra.split())
    return out


def _tool_terms(tool: ToolDefinition) -> Counter[str]:
    terms: Counter[str] = Counter()
    for word in re.split(r"[_\W]+", tool.name.lower()):
        if word and word not in STOPWORDS:
            terms[stem(word)] += 2
    for word in tokens(tool.description):
        if word not in STOPWORDS and word not in {"use", "user", "asks", "wants"}:
            terms[stem(word)] += 1
    return terms


class Router:
    """TF-IDF over one request's catalog."""

    def __init__(self, tools: Sequence[ToolDefinition]) -> None:
        self.tools = {tool.name: tool for tool in tools}
        docs = {tool.name: _tool_terms(tool) for tool in tools}
        frequency: Counter[str] = Counter()
        for terms in docs.values():
            frequency.update(terms.keys())
        n = max(len(docs), 1)
        self._idf = {t: math.log((n + 1) / (df + 1)) + 1.0 for t, df in frequency.items()}
        self._default_idf = math.log(n + 1) + 1.0
        self._vectors = {name: self._weigh(terms) for name, terms in docs.items()}

    def _weigh(self, terms: Mapping[str, int]) -> dict[str, float]:
        vector = {t: c * self._idf.get(t, self._default_idf) for t, c in terms.items()}
        norm = math.sqrt(sum(v * v for v in vector.values())) or 1.0
        return {t: v / norm for t, v in vector.items()}

    def similarity(self, terms: Iterable[str], name: str) -> float:
        counts = Counter(terms)
        if not counts or name not in self._vectors:
            return 0.0
        query = self._weigh(counts)
        doc = self._vectors[name]
        return sum(w * doc.get(t, 0.0) for t, w in query.items())

    def rank(self, text: str, names: Iterable[str] | None = None) -> list[Route]:
        """Every tool (or the named ones) by similarity to ``text``, best first, ties by name."""
        terms = request_terms(text)
        routes = []
        for name in names if names is not None else self.tools:
            if name not in self.tools:
                continue
            score = self.similarity(terms, name) + _affinity(text, self.tools[name])
            routes.append(Route(name, round(score, 6)))
        return sorted(routes, key=lambda r: (-r.score, r.name))

    def residual(self, text: str, first: str, name: str) -> float:
        """Similarity of ``name`` to the words of ``text`` that tool ``first`` does not explain."""
        explained = set(self._vectors.get(first, {}))
        terms = [t for t in request_terms(text) if t not in explained]
        return self.similarity(terms, name)


def _affinity(text: str, tool: ToolDefinition) -> float:
    """A bonus when the request states a value that only some tools take."""
    required = {n: s for n, s in _properties(tool).items() if n in _required(tool)}
    kinds = {arg_kind(n, s) for n, s in required.items()}
    bonus = 0.0
    urls = find_urls(text)
    if "url" in kinds and urls:
        # A link to a picture suits an argument about pictures; any other link, the others.
        pictured = any(_IMAGE_FILE.search(u) for u in urls)
        for name, schema in required.items():
            if arg_kind(name, schema) == "url":
                about = f"{name} {schema.get('description', '')}".lower()
                if pictured == bool(re.search(r"image|picture|photo", about)):
                    bonus += 0.2
                    break
    if "email" in kinds and _EMAIL.search(text):
        bonus += 0.2
    if "id" in kinds and find_ids(text):
        bonus += 0.1
    return bonus


# Arguments --------------------------------------------------------------------------------------


def _properties(tool: ToolDefinition) -> dict[str, dict[str, Any]]:
    props = tool.parameters.get("properties") if isinstance(tool.parameters, dict) else None
    if not isinstance(props, dict):
        return {}
    return {str(k): v for k, v in props.items() if isinstance(v, dict)}


def _required(tool: ToolDefinition) -> list[str]:
    req = tool.parameters.get("required") if isinstance(tool.parameters, dict) else None
    return [str(r) for r in req] if isinstance(req, list) else []


def required_args(tool: ToolDefinition) -> list[str]:
    return _required(tool)


def arg_kind(name: str, schema: Mapping[str, Any]) -> ArgKind:
    """What kind of value argument ``name`` wants, from its name, type and description."""
    kind = schema.get("type")
    if kind == "array":
        items = schema.get("items")
        inner = dict(items) if isinstance(items, dict) else {}
        inner.setdefault("description", schema.get("description", ""))
        return arg_kind(_singular(name), inner)
    if isinstance(schema.get("enum"), list):
        return "enum"
    if kind in ("integer", "number"):
        return "number"
    if kind == "boolean":
        return "bool"
    lname = name.lower()
    desc = str(schema.get("description", "")).lower()
    if "email" in lname or (lname in ("to", "recipient", "cc") and "email" in desc):
        return "email"
    if "url" in lname or "link" in lname or re.search(r"\baddress(es)? of\b", desc):
        return "url"
    if lname == "id" or lname.endswith("_id"):
        return "id"
    if lname in ("when", "remind_at", "schedule", "date", "time", "due", "at") or re.search(
        r"\bdate and time\b|\bwhen to\b|\bwhen\b.*\brun\b", desc
    ):
        return "time"
    if "color" in lname or "colour" in lname:
        return "color"
    if lname in ("theme", "font", "model", "name"):
        return "name"
    if desc.startswith("name of"):
        return "name"
    return "text"


def _singular(name: str) -> str:
    if name.endswith("Ids"):
        return name[:-3] + "_id"
    if name.endswith("ies"):
        return name[:-3] + "y"
    if name.endswith("s") and not name.endswith("ss"):
        return name[:-1]
    return name


def find_urls(text: str) -> list[str]:
    return [m.rstrip(".,;:!?") for m in _URL.findall(text)]


def find_emails(text: str) -> list[str]:
    return _EMAIL.findall(text)


def find_ids(text: str, prefix: str = "") -> list[str]:
    """Id-looking tokens (``job-7f3a``, ``p-12ab``): a short lowercase-or-letter head, a hyphen
    and a tail holding at least one digit. With ``prefix``, ids starting with it come first."""
    found = []
    for m in _ID.finditer(text):
        value = m.group(0).rstrip("-_")
        if any(c.isdigit() for c in value) and "@" not in text[max(0, m.start() - 1) : m.start()]:
            found.append(value)
    if prefix:
        found.sort(key=lambda v: not v.lower().startswith(prefix.lower() + "-"))
    return list(dict.fromkeys(found))


def find_time(text: str) -> str | None:
    """The span of ``text`` that says when (``every Monday at 9am``, ``tomorrow at 8``): the
    stretch from the first time expression to the last one that follows it closely."""
    spans = [(m.start(), m.end()) for m in _TIME_PIECES.finditer(text)]
    if not spans:
        return None
    start, end = spans[0]
    for s, e in spans[1:]:
        if s - end <= 12:
            end = max(end, e)
        else:
            break
    return text[start:end].strip(" ,.;")


def find_color(text: str) -> str | None:
    hexed = _HEX.search(text)
    if hexed:
        return hexed.group(0)
    words = tokens(text)
    for i, word in enumerate(words):
        if word in COLORS:
            if i > 0 and words[i - 1] in _COLOR_MODIFIERS:
                return f"{words[i - 1]} {word}"
            return word
    return None


def find_quoted(text: str) -> list[str]:
    return [a or b for a, b in _QUOTED.findall(normalize_quotes(text))]


def strip_polite(text: str) -> str:
    """The request without a leading greeting or ``could you please``."""
    stripped = _POLITE.sub("", text.strip(), count=1).strip()
    return stripped or text.strip()


def _find_name(text: str, name: str, schema: Mapping[str, Any]) -> str | None:
    quoted = find_quoted(text)
    if quoted:
        return quoted[0].strip()
    clean = normalize_quotes(text)
    called = re.search(
        r"\b(?:called|named|titled)\s+([\w#+.-]+(?:\s+[\w#+.-]+){0,3}?)(?=\s*(?:[,;!?]|\.(?:\s|$)|$"
        r"|\s+(?:and|with|to|for|that|which)\b))",
        clean,
        re.IGNORECASE,
    )
    if called:
        return called.group(1)
    nouns = [name.lower()] + [
        w
        for w in tokens(str(schema.get("description", "")))
        if w not in STOPWORDS and len(w) > 3 and w not in {"name", "saved", "apply", "switch"}
    ]
    for noun in dict.fromkeys(nouns):
        after = re.search(
            rf"\b{re.escape(noun)}s?\s+(?:to|as|into)\s+(?:the\s+|a\s+|an\s+)?"
            r"([\w#+.-]+(?:\s+[A-Z0-9][\w#+.-]*){0,3})",
            clean,
            re.IGNORECASE,
        )
        if after and after.group(1).lower() not in STOPWORDS:
            return after.group(1)
        before = re.search(rf"\b([\w#+.-]+)\s+{re.escape(noun)}s?\b", clean, re.IGNORECASE)
        if before and before.group(1).lower() not in STOPWORDS | {"new", "different", "other"}:
            return before.group(1)
    capital = re.search(
        r"(?<=[a-z,] )(?:to |use |with )?([A-Z][\w.+-]*(?:[ -][A-Z0-9][\w.+-]*){0,3})", clean
    )
    if capital:
        return capital.group(1)
    return None


def _find_number(text: str) -> int | None:
    m = _NUMBER.search(text)
    return int(m.group(0)) if m else None


def fill_args(
    tool: ToolDefinition, text: str, context: Sequence[str] = (), *, optional: bool = False
) -> Filled:
    """Arguments for ``tool`` from the request ``text``; precise values the request lacks may
    come from ``context`` (earlier tool results): a job id, a link. Only required arguments are
    filled unless ``optional``; free-text arguments take the request itself."""
    props = _properties(tool)
    required = _required(tool)
    names = list(props) if optional else [n for n in props if n in required]
    args: dict[str, Any] = {}
    missing: list[str] = []
    precise: list[str] = []
    for name in names:
        schema = props.get(name, {})
        kind = arg_kind(name, schema)
        value = _value_for(kind, name, schema, text)
        if value is None and kind in ("url", "id"):
            for earlier in reversed(context):
                value = _value_for(kind, name, schema, earlier)
                if value is not None:
                    break
        if value is None:
            if name in required:
                missing.append(name)
            continue
        if kind in PRECISE_KINDS:
            precise.append(name)
        args[name] = [value] if schema.get("type") == "array" else value
    return Filled(args=args, missing=tuple(missing), precise=tuple(precise))


def _value_for(kind: ArgKind, name: str, schema: Mapping[str, Any], text: str) -> Any:
    if kind == "url":
        urls = find_urls(text)
        return urls[0] if urls else None
    if kind == "email":
        emails = find_emails(text)
        return emails[0] if emails else None
    if kind == "id":
        head = re.sub(r"(_?ids?)$", "", _singular(name), flags=re.IGNORECASE)
        ids = find_ids(text, head)
        return ids[0] if ids else None
    if kind == "time":
        return find_time(text)
    if kind == "color":
        return find_color(text)
    if kind == "enum":
        words = tokens(text)
        options = [o for o in schema.get("enum") or [] if isinstance(o, str) and o]
        exact = next((o for o in options if o.lower() in words), None)
        if exact is not None:
            return exact
        return next(
            (o for o in options if len(o) >= 3 and any(w.startswith(o.lower()) for w in words)),
            None,
        )
    if kind == "name":
        found = _find_name(text, name, schema)
        return found.strip(" .,;:!?\"'") or None if found else None
    if kind == "number":
        return _find_number(text)
    if kind == "bool":
        return None
    quoted = find_quoted(text)
    if quoted and len(quoted[0]) >= 3:
        return quoted[0]
    return strip_polite(text)


__all__ = [
    "FOLLOW_THRESHOLD",
    "ROUTE_THRESHOLD",
    "Filled",
    "Route",
    "Router",
    "arg_kind",
    "fill_args",
    "find_color",
    "find_emails",
    "find_ids",
    "find_quoted",
    "find_time",
    "find_urls",
    "request_terms",
    "required_args",
    "strip_polite",
]
