"""Files written whole or not at all."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from raterlab.files import write_atomic


def test_chunks_are_written_in_order(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "out.json"
    write_atomic(target, (part.encode() for part in ["[", "1", ",2", "]"]))
    assert target.read_bytes() == b"[1,2]"
    assert [p.name for p in target.parent.iterdir()] == ["out.json"]


def test_a_failure_while_chunks_are_made_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    write_atomic(target, b"old")

    def chunks() -> Iterator[bytes]:
        yield b"new, half"
        raise RuntimeError("the source failed")

    with pytest.raises(RuntimeError, match="the source failed"):
        write_atomic(target, chunks())
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]
