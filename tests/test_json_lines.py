"""JSON exports with a list written one element per line (:func:`raterlab.exports.values.dump_json`)."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from raterlab.exports.values import dump_json

SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)
DOCUMENTS = st.dictionaries(st.text(), VALUES, max_size=4).flatmap(
    lambda d: st.lists(VALUES, max_size=4).map(lambda cases: {**d, "cases": cases})
)


@given(DOCUMENTS)
@settings(max_examples=200, deadline=None)
def test_one_element_per_line_reads_back_the_same(tmp_path_factory, document: dict) -> None:
    folder: Path = tmp_path_factory.mktemp("json")
    lines = dump_json(folder / "lines.json", document, one_per_line="cases").read_text()
    indented = dump_json(folder / "indented.json", document).read_text()
    assert json.loads(lines) == json.loads(indented) == document
    assert indented == json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    if document["cases"]:
        rows = lines.split('\n  "cases": [\n', 1)[1].split("\n  ]", 1)[0].split("\n")
        assert [json.loads(r.strip().rstrip(",")) for r in rows] == document["cases"]
    else:
        assert lines == indented
