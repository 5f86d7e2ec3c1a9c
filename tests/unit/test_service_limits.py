"""Abuse limits (service/limits.py, service/events.py): the sliding window, the JSON depth
scan, who a limit counts, and the event-stream slots."""

from __future__ import annotations

import pytest

from dittobench.service.auth import Principal
from dittobench.service.events import StreamSlots
from dittobench.service.limits import (
    SlidingWindow,
    address_key,
    client_of,
    json_depth,
    nesting_error,
)


def test_the_window_slides_and_refused_hits_do_not_count() -> None:
    now = [0.0]
    window = SlidingWindow(2, 10.0, clock=lambda: now[0])
    assert window.hit("a") == 0
    now[0] = 5.0
    assert window.hit("a") == 0
    now[0] = 6.0
    assert window.hit("a") == 4  # until the first hit leaves the window
    assert window.hit("b") == 0  # another client has its own budget
    now[0] = 10.0
    assert window.hit("a") == 0  # the first hit left; the refused one never counted
    assert window.hit("a") == 5  # the hit at 5 s leaves at 15 s


@pytest.mark.parametrize(
    ("body", "depth"),
    [
        (b"", 0),
        (b'{"a": 1}', 1),
        (b'{"a": [1, {"b": []}]}', 4),
        (b'{"a": "[[[[{{{{"}', 1),
        (b'{"a": "\\"[[[["}', 1),
        (b"[" * 100 + b"]" * 100, 100),
    ],
)
def test_json_depth_counts_brackets_outside_strings(body: bytes, depth: int) -> None:
    assert json_depth(body) == depth


def test_wait_tells_the_time_left_without_counting() -> None:
    now = [0.0]
    window = SlidingWindow(2, 10.0, clock=lambda: now[0])
    assert window.wait("a") == 0
    window.hit("a")
    window.hit("a")
    now[0] = 3.0
    assert window.wait("a") == 7 and window.wait("a") == 7  # asking is free
    assert window.wait("b") == 0
    now[0] = 10.0
    assert window.wait("a") == 0


@pytest.mark.parametrize(
    ("host", "key"),
    [
        ("203.0.113.7", "203.0.113.7"),
        ("::ffff:203.0.113.7", "203.0.113.7"),
        ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),
        ("fe80::1%eth0", "fe80::/64"),
        ("testclient", "testclient"),
    ],
)
def test_an_address_counts_as_itself_or_its_slash_64(host: str, key: str) -> None:
    assert address_key(host) == key


def test_client_of_is_the_token_name_else_the_address() -> None:
    who = Principal("alice", "submitter")
    assert client_of({"state": {"principal": who}, "client": ("1.2.3.4", 1)}) == "token:alice"
    anonymous = Principal("anonymous@1.2.3.4", "admin", authenticated=False)
    scope = {"state": {"principal": anonymous}, "client": ("2001:db8::5", 1)}
    assert client_of(scope) == "address:2001:db8::/64"
    assert client_of({"client": None}) == "address:unknown"


def test_nesting_is_judged_cheaply_and_large_bodies_are_not_scanned() -> None:
    assert nesting_error(b'{"a": [1, 2]}', 32, 1024) == ""
    assert "deeper than 3" in nesting_error(b"[[[[]]]]", 3, 1024)
    assert nesting_error(b"[]" * 100, 3, 1024) == ""  # many brackets, never deep
    assert nesting_error(b'{"a": "' + b"[" * 100 + b'"}', 3, 1024) == ""  # inside a string
    archive = b'{"archive_base64": "' + b"QUJD" * 100_000 + b'"}'
    assert nesting_error(archive, 3, 1024) == ""
    assert "at most 3 brackets" in nesting_error(b"[]" * 1000, 3, 1024)
    assert json_depth(b"[" * 10_000, stop_above=5) == 6  # stops as soon as it knows


def test_one_client_holds_at_most_its_share_of_stream_slots() -> None:
    slots = StreamSlots(3, per_client=2)
    assert slots.take("alice") == "" and slots.take("alice") == ""
    assert "2 event streams open" in slots.take("alice")
    assert slots.take("bob") == ""
    assert "too many open event streams" in slots.take("carol")  # all 3 taken
    release = slots.releaser("alice")
    release()
    release()  # a stream that ends twice gives back one slot
    assert slots.take("carol") == ""
    assert slots.take("carol") != ""
