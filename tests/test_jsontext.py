"""Stored JSON read back by msgspec gives what Python's own ``json.loads`` gives."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from raterlab.jsontext import keys_of, loads

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=2**60, max_value=2**70)
    | st.floats()
    | st.text()
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


def _same(a: object, b: object) -> bool:
    """Equal, of the same types all the way down (1 is not 1.0), NaN equal to NaN."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return (math.isnan(a) and math.isnan(b)) or (
            a == b and math.copysign(1, a) == math.copysign(1, b)
        )
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    return a == b


@given(VALUES, st.booleans())
@settings(max_examples=250, deadline=None)
def test_what_json_dumps_wrote_reads_back_as_json_loads_reads_it(value, ascii_only) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only)
    assert _same(loads(text), json.loads(text))


@given(
    st.from_regex(r"-?(0|[1-9][0-9]{0,25})(\.[0-9]{1,25})?([eE][-+]?[0-9]{1,3})?", fullmatch=True)
)
@settings(max_examples=250, deadline=None)
def test_numbers_in_any_spelling_read_as_python_reads_them(number: str) -> None:
    assert _same(loads(f"[{number}]"), json.loads(f"[{number}]"))


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1, "a": 2}',
        "[NaN, Infinity, -Infinity]",
        "1e400",
        "18446744073709551616",
        "-9223372036854775809",
        '"\\ud800"',
        "[" * 2000 + "]" * 2000,
        "-0",
    ],
)
def test_texts_msgspec_refuses_or_could_read_otherwise(text: str) -> None:
    try:
        expected = json.loads(text)
    except RecursionError:
        with pytest.raises(RecursionError):
            loads(text)
        return
    assert _same(loads(text), expected)


@pytest.mark.parametrize("text", ["", "{", "[1,]", "\ufeff[1]", "01"])
def test_texts_json_refuses_are_refused(text: str) -> None:
    with pytest.raises(json.JSONDecodeError):
        loads(text)


def _reference(texts: list, keys: tuple[str, ...]) -> list:
    """:func:`keys_of` as the records were read before: the whole text, then the keys."""
    out = []
    for text in texts:
        record = json.loads(text) if isinstance(text, str) else None
        out.append(None if record is None else {k: record[k] for k in keys if k in record})
    return out


RECORDS = st.dictionaries(st.sampled_from(["a", "b c", "class", "1x", "é", "zz"]), VALUES)


@given(
    st.lists(RECORDS | st.none(), max_size=6),
    st.lists(st.sampled_from(["a", "b c", "class", "1x", "é", "q"]), max_size=5),
)
@settings(max_examples=150, deadline=None)
def test_keys_of_records_are_those_of_the_whole_records(records, keys) -> None:
    texts = [None if r is None else json.dumps(r) for r in records]
    found, expected = keys_of(texts, tuple(keys)), _reference(texts, tuple(keys))
    assert len(found) == len(expected)
    assert all(_same(f, e) for f, e in zip(found, expected, strict=True))


def test_keys_of_texts_msgspec_refuses() -> None:
    texts = ['{"a": NaN, "b": 1}', '{"a": 1, "a": 2}', "null", '{"b": "\\ud800", "a": 3}', 5]
    found = keys_of(texts, ("a", "a", "b"))
    assert _same(found[:4], _reference(texts[:4], ("a", "b")))
    assert found[4] is None
