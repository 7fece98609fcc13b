"""Rows of empty cells are dropped whether or not the reader looks for them: files without
a blank-looking line skip the search, and must read exactly as if it had run."""

from __future__ import annotations

import random
from pathlib import Path

import pandas as pd
import pytest

from raterlab.ingest import read

CELLS = ["1", "2", "yes", "", " ", "\u00a0", '""', '" "', "a,b", '"x\ny"', "note"]


def _file(rng: random.Random, tmp_path: Path, n: int) -> Path:
    lines = ["sample_id,score,notes"]
    for _ in range(rng.randint(1, 12)):
        cells = [rng.choice(CELLS) for _ in range(3)]
        cells = [f'"{c}"' if ("," in c and not c.startswith('"')) else c for c in cells]
        lines.append(",".join(cells))
    path = tmp_path / f"f{n}.csv"
    path.write_bytes(("\r\n" if rng.random() < 0.3 else "\n").join(lines).encode() + b"\n")
    return path


def test_the_search_for_blank_rows_is_skipped_only_where_it_finds_nothing(
    tmp_path, monkeypatch
) -> None:
    rng = random.Random(7)
    paths = [_file(rng, tmp_path, n) for n in range(300)]
    fast = {}
    for path in paths:
        try:
            fast[path] = read.read_returned(path)
        except read.UnreadableFile as exc:
            fast[path] = exc.rule
    monkeypatch.setattr(read, "_may_have_blank_rows", lambda data, line_start: True)
    skipped = 0
    for path in paths:
        try:
            slow = read.read_returned(path)
        except read.UnreadableFile as exc:
            assert fast[path] == exc.rule
            continue
        pd.testing.assert_frame_equal(fast[path], slow)
        skipped += not read._BLANK_LINE.search(path.read_text(errors="replace").rstrip("\r\n"))
    assert skipped > 20, "the fast path was never taken"


@pytest.mark.parametrize(
    "body", [b"1,2,x\n,,\n3,4,y\n", b'1,2,x\n"",\xc2\xa0, \n3,4,y\n', b"1,2,x\r\n , ,\r\n3,4,y\r\n"]
)
def test_a_row_of_empty_cells_is_dropped_and_the_next_keeps_its_number(tmp_path, body) -> None:
    path = tmp_path / "r.csv"
    path.write_bytes(b"sample_id,score,notes\n" + body)
    frame = read.read_returned(path)
    assert frame[read.ROW].tolist() == [2, 4]
    assert frame["sample_id"].tolist() == ["1", "3"]
