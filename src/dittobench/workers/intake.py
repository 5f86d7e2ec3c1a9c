"""What a worker takes off the queue: the one message dittobench sends, and nothing else.

Every message on the ``dittobench`` queue is kombu's JSON envelope around Celery's task message
``dittobench.run_job(run_id)`` (``workers.broker``). Anything else (bytes that are not UTF-8 or
not JSON, an envelope of another shape, a body that is not base64, another task, arguments that
are not one run id) used to reach kombu and Celery as it was, and some of it ended the worker
with an "unrecoverable error" (a JSON error, a base64 error and a ``TypeError`` raised where the
transport reads the queue). Now each message Redis hands over is checked first: one that is not
ours is logged as ``message_dropped`` (``reason``: what was wrong, ``excerpt``: its first bytes,
escaped to printable ASCII) and never reaches Celery. Redis's ``BRPOP`` has already taken it off
the queue and no delivery was recorded, so it is not delivered again; the worker takes the next.

The check sits on the reply of ``BRPOP`` (a redis-py response callback on the client of the
channel the worker consumes from), installed by a consumer bootstep each time the consumer
(re)connects (``install``).
"""

from __future__ import annotations

import base64
import binascii
import logging
from typing import Any

from dittobench.store.rows import is_run_id
from dittobench.workers.broker import TASK_NAME
from dittobench.workers.logs import event

EXCERPT_CHARS = 80
"""How much of a dropped message its log line shows."""
_UNSET_HEADERS = ("eta", "expires", "countdown", "group", "chord", "shadow", "compression")
"""Task options dittobench never sends; a message carrying one is not ours."""


def excerpt(raw: bytes) -> str:
    """At most ``EXCERPT_CHARS`` characters from the start of ``raw`` (then ``...``), anything
    but printable ASCII escaped: a log line never carries control characters or a terminal's
    escape sequences."""
    head = raw[: EXCERPT_CHARS * 4]
    text = head.decode("utf-8", "backslashreplace")  # bytes not UTF-8 show as \xNN
    shown: list[str] = []
    size = 0
    for c in text:
        piece = c if c.isascii() and c.isprintable() else c.encode("unicode_escape").decode()
        if size + len(piece) > EXCERPT_CHARS:
            return "".join(shown) + "..."
        shown.append(piece)
        size += len(piece)
    return "".join(shown) + ("..." if len(raw) > len(head) else "")


def message_problem(raw: bytes) -> str:
    """What is wrong with ``raw`` as a message of the queue; ``""`` when it is a well-formed
    ``dittobench.run_job(run_id)`` task."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"not UTF-8 (byte {exc.start})"
    envelope, problem = _json(text)
    if problem:
        return f"not JSON: {problem}"
    return envelope_problem(envelope)


def _json(text: str) -> tuple[Any, str]:
    """``text`` read as kombu reads it (its JSON with typed values), or why it cannot be."""
    from kombu.utils.json import loads

    try:
        return loads(text), ""  # type: ignore[no-untyped-call]
    except Exception as exc:  # kombu's typed values fail in many ways; any failure means "not ours"
        return None, f"{type(exc).__name__}: {_first_line(exc)}"


def _first_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:120]


def envelope_problem(envelope: Any) -> str:
    """What is wrong with a parsed envelope (see ``message_problem``)."""
    if not isinstance(envelope, dict):
        return f"not a message envelope: a JSON {type(envelope).__name__}, not an object"
    properties = envelope.get("properties")
    if not isinstance(properties, dict):
        return "the envelope has no properties object"
    if not isinstance(properties.get("delivery_tag"), str):
        return "the envelope has no delivery_tag"
    if not isinstance(properties.get("delivery_info", {}), dict):
        return "the envelope's delivery_info is not an object"
    if properties.get("body_encoding") != "base64":
        return f"body_encoding is {_shown(properties.get('body_encoding'))}, not base64"
    headers = envelope.get("headers")
    if not isinstance(headers, dict):
        return "the envelope has no headers object"
    problem = _headers_problem(headers)
    if problem:
        return problem
    for key, wanted in (("content-type", "application/json"), ("content-encoding", "utf-8")):
        if envelope.get(key) != wanted:
            return f"{key} is {_shown(envelope.get(key))}, not {wanted}"
    body = envelope.get("body")
    if not isinstance(body, str):
        return "the envelope has no body"
    try:
        decoded = base64.b64decode(body, validate=True)
    except (binascii.Error, ValueError) as exc:
        return f"the body is not base64 ({_first_line(exc)})"
    return body_problem(decoded)


def _headers_problem(headers: dict[str, Any]) -> str:
    if headers.get("task") != TASK_NAME:
        return f"task {_shown(headers.get('task'))} is not {TASK_NAME}"
    if not isinstance(headers.get("id"), str):
        return "the task has no id"
    for name in _UNSET_HEADERS:
        if headers.get(name) is not None:
            return f"the task sets {name}, which dittobench never sends"
    if headers.get("timelimit") not in (None, [None, None]):
        return "the task sets timelimit, which dittobench never sends"
    return ""


def body_problem(body: bytes) -> str:
    """What is wrong with a task body: Celery's ``[args, kwargs, embed]`` holding one run id."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"the body is not UTF-8 (byte {exc.start})"
    value, problem = _json(text)
    if problem:
        return f"the body is not JSON: {problem}"
    if not (isinstance(value, list) and len(value) == 3 and isinstance(value[2], dict)):
        return "the body is not [args, kwargs, embed]"
    args, kwargs, embed = value
    if kwargs != {}:
        return "the task has keyword arguments"
    if any(embed.values()):
        return "the task carries a workflow (callbacks, chain or chord)"
    if not (isinstance(args, list) and len(args) == 1 and isinstance(args[0], str)):
        return f"the arguments are not one run id: {_shown(args)}"
    if not is_run_id(args[0]):
        return f"{_shown(args[0])} is not a run id"
    return ""


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def checked_brpop(original: Any, log: logging.Logger) -> Any:
    """A redis-py response callback for ``BRPOP`` that passes a reply (queue, message) on when
    its message is well formed, else logs and drops it: ``None``, "nothing arrived"."""

    def checked(response: Any, **options: Any) -> Any:
        reply = original(response, **options) if original is not None else response
        if not reply:
            return reply
        item = reply[1]
        raw = item if isinstance(item, bytes) else str(item).encode("utf-8", "replace")
        problem = message_problem(raw)
        if not problem:
            return reply
        event(log, "message_dropped", reason=problem, excerpt=excerpt(raw), bytes=len(raw))
        return None

    checked.dittobench_checked = True  # type: ignore[attr-defined]
    return checked


def guard_channel(channel: Any, log: logging.Logger) -> None:
    """Check every message ``channel`` (kombu's Redis channel) takes off the queue."""
    client = channel.client  # the client kombu reads BRPOP replies with
    original = client.response_callbacks.get("BRPOP")
    if getattr(original, "dittobench_checked", False):
        return  # this channel's client is checked already
    client.set_response_callback("BRPOP", checked_brpop(original, log))


def install(app: Any, log: logging.Logger) -> None:
    """Add the check to ``app``'s worker consumer: on every (re)connection, once its task
    consumer exists and before its event loop starts."""
    from celery import bootsteps

    class QueueGuard(bootsteps.StartStopStep):  # type: ignore[misc]
        requires = ("celery.worker.consumer.tasks:Tasks",)

        def start(self, consumer: Any) -> None:
            guard_channel(consumer.task_consumer.channel, log)

    app.steps["consumer"].add(QueueGuard)


__all__ = [
    "EXCERPT_CHARS",
    "body_problem",
    "envelope_problem",
    "excerpt",
    "guard_channel",
    "install",
    "message_problem",
]
