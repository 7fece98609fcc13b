"""Generated records and the files they are written to (one JSON object per line)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

Record = dict[str, Any]


def make_record(
    id_: str,
    task: str,
    fields: dict[str, Any],
    role: str | None = None,
    expected: dict[str, Any] | None = None,
) -> Record:
    """Build a record with keys in the fixed order: id, task, fields, role, expected."""
    rec: Record = {"id": id_, "task": task, **fields}
    if role is not None:
        rec["role"] = role
        rec["expected"] = expected or {}
    return rec


def check_unique_ids(records: Sequence[Record]) -> None:
    """Fail if two records share an id (an item id must name one item)."""
    dupes = [k for k, n in Counter(r["id"] for r in records).items() if n > 1]
    assert not dupes, f"duplicate ids: {dupes[:5]}"


def write_jsonl(path: Path, records: Sequence[Record]) -> None:
    """Write ``records`` as JSON lines: UTF-8, unescaped, ``\\n`` line ends, keys in order."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(rec, ensure_ascii=False) + "\n" for rec in records]
    path.write_text("".join(lines), encoding="utf-8", newline="\n")


def write_text(path: Path, text: str) -> None:
    """Write ``text`` as UTF-8 with ``\\n`` line ends."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")
