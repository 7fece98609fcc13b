"""Reading a study's generations JSONL into one row per item, reporting every bad line.

A record is one JSON object per line: ``id``, ``task``, optionally ``role`` (``attention`` or
``calibration``) and ``expected`` (the known answer of such an item), and exactly the keys its
task declares as shown or hidden. A key the study does not declare is an error: what an
annotator may see must be a decision, never an accident.

A pairwise task's item records are one system's response to one prompt (its shared keys,
its ``by`` key, its response key and its other hidden keys); they are read into the task's
pair items (:mod:`raterlab.design.pairs`). Its attention and calibration records are pairs
already, with each system's keys suffixed ``_a`` / ``_b`` and ``expected`` in the pair's
canonical orientation (``a``: the ``_a`` response is better).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from raterlab import jsontext
from raterlab.design.pairs import pair_rows
from raterlab.protocol import Study, Task
from raterlab.protocol.pairwise import pair_keys, record_keys
from raterlab.protocol.study import RECORD_KEYS, ROLES

COLUMNS = ("item_id", "task", "role", "record", "expected", "line")
JSON_COLUMNS = ("record", "expected")
"""The columns of ``raw.generations`` stored as JSON text."""
CHUNK_ROWS = 20_000
"""Rows per frame of :func:`generation_chunks`."""


@dataclass(frozen=True)
class LineProblem:
    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


class GenerationsError(ValueError):
    """A generations file with bad lines; nothing from it is loaded."""

    def __init__(self, problems: list[LineProblem]):
        self.problems = problems
        shown = "\n".join(f"  {p}" for p in problems[:20])
        more = f"\n  ... and {len(problems) - 20} more" if len(problems) > 20 else ""
        super().__init__(f"{len(problems)} bad line(s) in generations:\n{shown}{more}")


def _check_record(study: Study, obj: Any) -> list[str]:
    if not isinstance(obj, dict):
        return [f"expected a JSON object, got {type(obj).__name__}"]
    problems = [f"missing {key!r}" for key in ("id", "task") if key not in obj]
    if problems:
        return problems
    if not isinstance(obj["id"], str | int) or str(obj["id"]).strip() == "":
        return [f"'id' must be a non-empty string, got {obj['id']!r}"]
    task = study.tasks.get(obj["task"])
    if task is None:
        return [f"unknown task {obj['task']!r} (the study has {', '.join(study.tasks)})"]
    role = obj.get("role", "item")
    if role not in ROLES:
        problems.append(f"unknown role {role!r} (use one of {', '.join(ROLES)})")
    keys = _record_keys(task, role)
    declared = set(keys)
    for key in obj:
        if key not in declared and key not in RECORD_KEYS:
            problems.append(f"key {key!r} is not declared in tasks.{obj['task']}.shown or .hidden")
    problems += [f"missing key {key!r}" for key in keys if key not in obj]
    problems += _check_expected(study, obj, role)
    return problems


def _record_keys(task: Task, role: str) -> list[str]:
    """The keys a record of ``task`` in ``role`` holds (see the module doc)."""
    if task.pairwise is None:
        return task.item_keys
    return record_keys(task) if role == "item" else pair_keys(task)


def _with_pairs(
    study: Study, rows: list[dict[str, Any]], file: str
) -> tuple[list[dict], list[LineProblem]]:
    """``rows`` with each pairwise task's item records replaced by its pair items."""
    problems: list[LineProblem] = []
    out = [r for r in rows if study.tasks[r["task"]].pairwise is None or r["role"] != "item"]
    for name, task in study.tasks.items():
        if task.pairwise is not None:
            mine = [r for r in rows if r["task"] == name and r["role"] == "item"]
            pairs, found = pair_rows(study, name, mine)
            out += pairs
            problems += [LineProblem(file, 0, f"task {name}: {m}") for m in found]
    return out, problems


def _check_expected(study: Study, obj: dict[str, Any], role: str) -> list[str]:
    expected = obj.get("expected")
    if role == "item":
        return ["'expected' is only for attention and calibration items"] if expected else []
    if not isinstance(expected, dict) or not expected:
        return [f"a {role} item needs 'expected': the known answer per field"]
    task = study.tasks[obj["task"]]
    problems = []
    for name, value in expected.items():
        spec = task.fields.get(name)
        if spec is None:
            problems.append(f"'expected' names unknown field {name!r}")
        elif (domain := spec.domain()) is not None and value not in domain:
            problems.append(f"'expected' value {value!r} for {name!r} is outside {list(domain)}")
    return problems


def read_generations(study: Study, path: str | Path | None = None) -> pd.DataFrame:
    """All items of ``study`` as a DataFrame with columns :data:`COLUMNS`.

    ``record`` holds the item's shown and hidden keys (a dict), ``expected`` the known answer
    of an attention or calibration item (a dict or ``None``), ``line`` the 1-based line number
    (of a pair item: of its ``system_a`` record).
    Raises :class:`GenerationsError` listing every bad line (file, line number, what is wrong).
    """
    path = Path(path) if path else study.path_of(study.generations)
    problems: list[LineProblem] = []
    rows = list(_rows(study, path, problems))
    if not problems:
        rows, problems = _with_pairs(study, rows, path.name)
    if problems:
        raise GenerationsError(problems)
    if not rows:
        raise GenerationsError([LineProblem(path.name, 0, "the file holds no records")])
    return pd.DataFrame(rows, columns=list(COLUMNS))


def generation_chunks(
    study: Study, path: str | Path | None = None, size: int = CHUNK_ROWS
) -> Iterator[pd.DataFrame]:
    """:func:`read_generations`' rows, in the same order, as frames of at most ``size`` rows
    with ``record`` and ``expected`` as JSON text (what ``raw.generations`` stores), read as
    the file is: the reading holds one chunk, not the file (writing a million items to the
    warehouse peaked at 7.0 GB as one frame of dicts, at 2.6 GB in chunks, most of it
    DuckDB's rows not yet committed). A bad line raises :class:`GenerationsError`, listing every
    bad line, once the whole file is read: the caller writes the chunks in one transaction,
    so that a bad file leaves nothing of itself. A pairwise task's item records are kept
    until the end, when its pairs are formed."""
    path = Path(path) if path else study.path_of(study.generations)
    problems: list[LineProblem] = []
    pairwise: list[dict[str, Any]] = []
    chunk: list[dict[str, Any]] = []
    written = 0
    for row in _rows(study, path, problems):
        if study.tasks[row["task"]].pairwise is not None and row["role"] == "item":
            pairwise.append(row)
        elif not problems:
            chunk.append(row)
            if len(chunk) == size:
                yield _encoded(chunk)
                written, chunk = written + len(chunk), []
    if not problems:
        pairs, problems = _with_pairs(study, pairwise, path.name)
        chunk += pairs
    if problems:
        raise GenerationsError(problems)
    if not written and not chunk:
        raise GenerationsError([LineProblem(path.name, 0, "the file holds no records")])
    for start in range(0, len(chunk), size):
        yield _encoded(chunk[start : start + size])


def _encoded(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """``rows`` as a frame with :data:`JSON_COLUMNS` as JSON text (as the warehouse's
    ``jsonable`` writes them)."""
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    for column in JSON_COLUMNS:
        frame[column] = [
            None if v is None else json.dumps(v, ensure_ascii=False) for v in frame[column]
        ]
    return frame


def _rows(study: Study, path: Path, problems: list[LineProblem]) -> Iterator[dict[str, Any]]:
    """The file's good records as rows, in file order (pairwise item records unpaired); each
    bad line's problems are added to ``problems``."""
    seen: dict[str, int] = {}
    with path.open(encoding="utf-8-sig") as handle:
        for number, text in enumerate(handle, start=1):
            if not text.strip():
                continue
            try:
                obj = json.loads(text)
            except json.JSONDecodeError as exc:
                problems.append(LineProblem(path.name, number, f"not valid JSON: {exc.msg}"))
                continue
            found = _check_record(study, obj)
            if not found and str(obj["id"]) in seen:
                found = [f"duplicate id {obj['id']!r} (first on line {seen[str(obj['id'])]})"]
            if found:
                problems += [LineProblem(path.name, number, m) for m in found]
                continue
            item_id = str(obj["id"])
            seen[item_id] = number
            yield {
                "item_id": item_id,
                "task": obj["task"],
                "role": obj.get("role", "item"),
                "record": {k: v for k, v in obj.items() if k not in RECORD_KEYS},
                "expected": obj.get("expected"),
                "line": number,
            }


def decode_records(texts: Iterable[object], keys: Collection[str] | None = None) -> list:
    """``raw.generations``' ``record`` column (JSON text, ``None`` where missing) as dicts;
    with ``keys``, each record keeps only those of its keys: a record's prompts and responses
    are most of its size (100,000 of the bundled study's records take 365 MB decoded whole,
    33 MB as two keys), and most readers want a few keys of every item (slices, judges)."""
    if keys is None:
        return [jsontext.loads(v) if isinstance(v, str) else None for v in texts]
    return jsontext.keys_of(texts, tuple(keys))


def record_of(value: object) -> dict:
    """One item's record, whether decoded already (a dict) or as stored (JSON text); ``{}``
    where there is none. For readers that take each record in turn (the exports): decoding
    one at a time holds one record, not the study's."""
    if isinstance(value, str):
        return jsontext.loads(value)
    return value if isinstance(value, dict) else {}
