"""RFC 8785 canonical bytes: cross-checked against an independent implementation."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from dittobench.core.canonical import CanonicalJSONError, canonical_bytes, format_number

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53) + 1, max_value=2**53 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
json_values = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(), children, max_size=5)
    ),
    max_leaves=30,
)


@settings(max_examples=400)
@given(json_values)
def test_matches_reference_jcs(value: Any) -> None:
    assert canonical_bytes(value) == rfc8785.dumps(value)


@settings(max_examples=200)
@given(json_values)
def test_round_trips_through_json(value: object) -> None:
    again = json.loads(canonical_bytes(value), parse_int=_safe_int)
    assert canonical_bytes(again) == canonical_bytes(value)


def _safe_int(text: str) -> int | float:
    # Integral floats print without a fraction; beyond 2**53 they must come back as floats.
    number = int(text)
    return number if abs(number) < 2**53 else float(number)


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_number_format_round_trips(number: float) -> None:
    assert float(format_number(number)) == number or (number == 0 and math.copysign(1, number) < 0)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ({"b": 1, "a": [1e21, 0.1, -0.0, 1e-7]}, b'{"a":[1e+21,0.1,0,1e-7],"b":1}'),
        ({"\u20ac": 1, "\r": 2, "1": 3}, '{"\\r":2,"1":3,"\u20ac":1}'.encode()),
        ("\u2028<&>\x7f\x1f", '"\u2028<&>\x7f\\u001f"'.encode()),
        ({"\U0001f600": 1, "\ufb33": 2}, '{"\U0001f600":1,"\ufb33":2}'.encode()),
        (100.0, b"100"),
        (1e20, b"100000000000000000000"),
    ],
)
def test_known_vectors(value: object, expected: bytes) -> None:
    assert canonical_bytes(value) == expected


@pytest.mark.parametrize(
    "bad",
    [float("nan"), float("inf"), 2**53, -(2**53), {1: "x"}, {"a": {1, 2}}, b"raw", "\ud800"],
)
def test_rejects_values_without_canonical_form(bad: object) -> None:
    with pytest.raises(CanonicalJSONError):
        canonical_bytes(bad)
