"""The queue's check of a message (``workers.intake``): a task as Celery sends it passes, every
other shape is named, and the excerpt a log line shows is short and printable ASCII."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from dittobench.workers.broker import QUEUE, TASK_NAME
from dittobench.workers.intake import EXCERPT_CHARS, checked_brpop, excerpt, message_problem

RUN_ID = "r-20261201-142714-a1b2c3"


def sent_by_celery(*args: Any) -> dict[str, Any]:
    """The envelope Celery and kombu make for ``dittobench.run_job(*args)`` (in memory)."""
    from celery import Celery

    app = Celery("intake-test", broker="memory://", set_as_current=False)
    app.conf.update(task_serializer="json", accept_content=["json"], task_default_queue=QUEUE)
    app.send_task(TASK_NAME, args=list(args), task_id=RUN_ID, queue=QUEUE)
    with app.connection_for_read() as conn:
        payload: dict[str, Any] = conn.default_channel._get(QUEUE)
    app.close()
    return payload


def raw(payload: Any) -> bytes:
    return json.dumps(payload).encode()


def with_body(payload: dict[str, Any], body: Any) -> dict[str, Any]:
    return {**payload, "body": base64.b64encode(json.dumps(body).encode()).decode()}


def test_a_task_as_celery_sends_it_passes() -> None:
    assert message_problem(raw(sent_by_celery(RUN_ID))) == ""


def test_what_is_wrong_is_named() -> None:
    good = sent_by_celery(RUN_ID)
    workflow = {"callbacks": [{"task": "x"}], "errbacks": None, "chain": None, "chord": None}
    rows: list[tuple[bytes, str]] = [
        (b"\xc3\x28", "not UTF-8 (byte 0)"),
        (b"", "not JSON: JSONDecodeError"),
        (b"{'single': 'quotes'}", "not JSON: JSONDecodeError"),
        (b'{"__type__": "bytes", "__value__": 5}', "not JSON: "),
        (b'"a string"', "not a message envelope: a JSON str"),
        (b"null", "not a message envelope: a JSON NoneType"),
        (raw({**good, "properties": []}), "no properties object"),
        (raw({**good, "properties": {**good["properties"], "delivery_tag": 7}}), "delivery_tag"),
        (
            raw({**good, "properties": {**good["properties"], "body_encoding": "rot13"}}),
            "body_encoding is 'rot13', not base64",
        ),
        (raw({**good, "headers": None}), "no headers object"),
        (raw({**good, "headers": {**good["headers"], "task": "celery.ping"}}), "'celery.ping'"),
        (raw({**good, "headers": {**good["headers"], "id": None}}), "the task has no id"),
        (raw({**good, "headers": {**good["headers"], "eta": "2030-01-01"}}), "sets eta"),
        (raw({**good, "headers": {**good["headers"], "timelimit": [1, 2]}}), "sets timelimit"),
        (raw({**good, "content-type": "application/x-yaml"}), "content-type is"),
        (raw({**good, "content-encoding": "binary"}), "content-encoding is 'binary'"),
        (raw({**good, "body": 12}), "no body"),
        (raw({**good, "body": "abc"}), "the body is not base64"),
        (raw({**good, "body": "a b="}), "the body is not base64"),
        (raw(with_body(good, "[1, 2")), "the body is not [args, kwargs, embed]"),
        (raw({**good, "body": base64.b64encode(b"[[").decode()}), "the body is not JSON"),
        (raw(with_body(good, [[RUN_ID], {}])), "not [args, kwargs, embed]"),
        (raw(with_body(good, [[RUN_ID], {"x": 1}, {}])), "keyword arguments"),
        (raw(with_body(good, [[RUN_ID], {}, workflow])), "workflow"),
        (raw(with_body(good, [[RUN_ID, RUN_ID], {}, {}])), "not one run id"),
        (raw(with_body(good, [RUN_ID, {}, {}])), "not one run id"),
        (raw(with_body(good, [["r-1"], {}, {}])), "'r-1' is not a run id"),
    ]
    for message, reason in rows:
        assert reason in message_problem(message), (message[:80], reason)


@pytest.mark.parametrize(
    ("message", "shown"),
    [
        (b"plain", "plain"),
        (b"\x1b[31mred\x07", "\\x1b[31mred\\x07"),
        (b"\xff\xfe", "\\xff\\xfe"),
        ("caf\u00e9 \u202e".encode(), "caf\\xe9 \\u202e"),
        (b"x" * (EXCERPT_CHARS + 1), "x" * EXCERPT_CHARS + "..."),
        (b"\x00" * 100, "\\x00" * (EXCERPT_CHARS // 4) + "..."),
    ],
)
def test_the_excerpt_is_short_printable_ascii(message: bytes, shown: str) -> None:
    assert excerpt(message) == shown


def test_the_brpop_check_passes_good_replies_and_drops_the_rest(
    caplog: pytest.LogCaptureFixture,
) -> None:
    import logging

    log = logging.getLogger("dittobench.worker.intake-test")
    check = checked_brpop(lambda r: (r and tuple(r)) or None, log)
    good = raw(sent_by_celery(RUN_ID))
    assert check([b"dittobench", good]) == (b"dittobench", good)
    assert check(None) is None  # nothing arrived within the wait
    with caplog.at_level(logging.INFO, logger=log.name):
        assert check([b"dittobench", b"not json"]) is None
    (record,) = caplog.records
    assert record.levelname == "WARNING" and getattr(record, "event", "") == "message_dropped"
    assert getattr(record, "reason", "").startswith("not JSON")
    assert getattr(record, "excerpt", "") == "not json"
