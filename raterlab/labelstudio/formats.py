"""Label Studio export files read into one shape, whatever the export format.

Label Studio exports a project as (Export button, or ``/api/projects/<id>/export?exportType=``):

- ``JSON``: a list of tasks, each ``{"id", "data": {...}, "annotations": [...], "drafts": [...]}``;
  an annotation has ``id``, ``completed_by`` (the user's number, or ``{"id", "email"}`` in
  snapshot exports and older versions), ``result`` (``{"from_name", "type", "value"}`` each;
  a ``Pairwise`` tag's value is ``{"selected": "left"}`` or ``"right"``),
  ``lead_time`` (seconds), ``was_cancelled`` and ``updated_at``; a draft names its ``user``
  by email (and ``created_username`` as ``"<email>, <number>"``).
- ``JSON_MIN``: one flat record per submitted annotation (a task nobody annotated once, with
  no annotation): the task's data keys, ``id`` (the task), each answered control by name (a
  single choice or text as itself, several as ``{"choices": [...]}`` / ``{"text": [...]}``, a
  rating or number as ``[{"rating": 4}]``, a pairwise side as ``[{"selected": "left"}]``),
  ``annotator`` (number or email), ``annotation_id``, ``updated_at`` and ``lead_time``.
  Cancelled annotations are left out.
- ``CSV`` / ``TSV``: the JSON_MIN columns as text, lists flattened; refused here (a cell
  cannot tell a list from text), with the advice to export JSON.

:func:`read_export` reads a file into :class:`ExportedTask` records. A task whose entry is
malformed (``annotations`` not a list, a ``lead_time`` that is not a number, ...) keeps its
``problem``, so one bad task is reported and the rest still imported.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from raterlab.labelstudio.tasks import PACKET_KEYS

MIN_KEYS = ("annotation_id", "annotator", "lead_time", "created_at", "updated_at", "agreement")
"""Keys a JSON_MIN record adds beside the task's data and answers (and ``id``)."""
USE_JSON = "in Label Studio use Export > JSON (or JSON_MIN) and import that file"


class ExportError(ValueError):
    """The file is not a Label Studio JSON export raterlab can read."""


class TaskProblem(ValueError):
    """One task of the export is malformed; the others are still read."""


@dataclass(frozen=True)
class Author:
    """A Label Studio user as an export names them: by number, by email, or both."""

    id: str | None = None
    email: str | None = None

    def __str__(self) -> str:
        if self.id and self.email:
            return f"Label Studio user {self.id} ({self.email})"
        return f"Label Studio user {self.id or self.email or '(unnamed)'}"


@dataclass(frozen=True)
class Annotation:
    id: str
    author: Author
    answers: dict[str, list[str | float]]
    """Control name -> the values given (choices, texts, or one number)."""
    lead_time: float | None
    cancelled: bool
    updated_at: str


@dataclass
class ExportedTask:
    id: str
    """Label Studio's task id (``#<n>``, the entry's position, where the export has none)."""
    data: dict
    annotations: list[Annotation] = field(default_factory=list)
    drafts: list[Author] = field(default_factory=list)
    problem: str | None = None

    @property
    def token(self) -> str | None:
        item = self.data.get("item")
        return item if isinstance(item, str) and item else None


def _author(value: object) -> Author:
    """``completed_by`` / ``annotator``: a number, an email, or ``{"id", "email"}``."""
    if isinstance(value, dict):
        number, email = value.get("id"), value.get("email")
        return Author(str(number) if number is not None else None, email or None)
    if isinstance(value, bool) or value is None or value == "":
        raise TaskProblem(f"the annotation names no user ({value!r})")
    if isinstance(value, int) or (isinstance(value, str) and value.isdigit()):
        return Author(id=str(value))
    if isinstance(value, str):
        return Author(email=value)
    raise TaskProblem(f"the annotation's user {value!r} is neither a number nor an email")


def _draft_author(draft: dict) -> Author:
    """A draft's ``user`` (an email); its ``created_username`` (``"<email>, <number>"``) also
    gives the user's number."""
    email, _, number = str(draft.get("created_username") or "").rpartition(", ")
    if number.isdigit() and email == draft.get("user"):
        return Author(number, email)
    return _author(draft.get("user"))


def _seconds(value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        raise TaskProblem(f"lead_time {value!r} is not a number of seconds")
    if value < 0:
        raise TaskProblem(f"lead_time {value!r} is negative")
    return float(value)


def _scalars(values: object, what: str) -> list[str | float]:
    if not isinstance(values, list) or not all(
        isinstance(v, str | int | float) and not isinstance(v, bool) for v in values
    ):
        raise TaskProblem(f"{what} is {values!r}, not a list of values")
    return [v if isinstance(v, str) else float(v) for v in values]


def _json_value(result: dict) -> list[str | float]:
    """The values of one ``result`` entry of a JSON export."""
    value, kind = result.get("value"), str(result.get("type", "")).lower()
    name = result.get("from_name")
    if not isinstance(value, dict):
        raise TaskProblem(f"the result for {name!r} has no value object ({value!r})")
    if kind == "choices":
        return _scalars(value.get("choices"), f"{name}'s choices")
    if kind == "textarea":
        return _scalars(value.get("text"), f"{name}'s text")
    if kind in ("rating", "number"):
        return _scalars([value.get(kind)], f"{name}'s {kind}")
    if kind == "pairwise":
        return _scalars([value.get("selected")], f"{name}'s selected side")
    raise TaskProblem(f"the result for {name!r} is of type {kind!r}, which raterlab never asks")


def _json_annotation(entry: object) -> Annotation:
    if not isinstance(entry, dict):
        raise TaskProblem(f"an annotation is {type(entry).__name__} {entry!r}, not an object")
    results = entry.get("result") or []
    if not isinstance(results, list) or not all(isinstance(r, dict) for r in results):
        raise TaskProblem(f"annotation {entry.get('id')}'s result is not a list of objects")
    answers: dict[str, list[str | float]] = {}
    for result in results:
        answers.setdefault(str(result.get("from_name")), []).extend(_json_value(result))
    return Annotation(
        str(entry.get("id")),
        _author(entry.get("completed_by")),
        answers,
        _seconds(entry.get("lead_time")),
        bool(entry.get("was_cancelled")),
        str(entry.get("updated_at") or ""),
    )


def _json_task(entry: dict, number: int) -> ExportedTask:
    data = entry.get("data")
    if not isinstance(data, dict):
        raise TaskProblem(f"its data is {data!r}, not an object")
    task = ExportedTask(str(entry.get("id", f"#{number}")), data)
    annotations = entry.get("annotations", [])
    if not isinstance(annotations, list):
        raise TaskProblem(f"annotations is {type(annotations).__name__} {annotations!r}")
    task.annotations = [_json_annotation(a) for a in annotations]
    drafts = entry.get("drafts") or []
    if isinstance(drafts, list):
        task.drafts = [_draft_author(d) for d in drafts if isinstance(d, dict)]
    return task


def _min_value(value: object, name: str) -> list[str | float]:
    """One answer of a JSON_MIN record (see the module docstring)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, int | float) and not isinstance(value, bool):
        return [float(value)]
    if isinstance(value, dict):
        for key in ("choices", "text"):
            if key in value:
                return _scalars(value[key], f"{name}'s {key}")
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], dict):
        for key in ("rating", "number", "selected"):
            if key in value[0]:
                return _scalars([value[0][key]], f"{name}'s {key}")
    raise TaskProblem(f"the answer for {name!r} is {value!r}, not one raterlab asks for")


def _min_annotation(record: dict, controls: set[str]) -> Annotation | None:
    """The annotation of a JSON_MIN record (``None`` for a task nobody annotated)."""
    if record.get("annotation_id") is None:
        return None
    return Annotation(
        str(record["annotation_id"]),
        _author(record.get("annotator")),
        {k: _min_value(v, k) for k, v in record.items() if k in controls},
        _seconds(record.get("lead_time")),
        False,
        str(record.get("updated_at") or ""),
    )


def _min_tasks(records: list[tuple[int, dict]], controls: set[str]) -> list[ExportedTask]:
    """JSON_MIN records grouped into tasks (one record per annotation of a task)."""
    tasks: dict[str, ExportedTask] = {}
    for number, record in records:
        task_id = str(record.get("id", f"#{number}"))
        data = {k: v for k, v in record.items() if k not in controls and k not in MIN_KEYS}
        task = tasks.setdefault(task_id, ExportedTask(task_id, data))
        if task.problem:
            continue
        try:
            annotation = _min_annotation(record, controls)
        except TaskProblem as exc:
            task.problem = str(exc)
            continue
        if annotation is not None:
            task.annotations.append(annotation)
    return list(tasks.values())


def _is_min(entry: dict) -> bool:
    return "data" not in entry and ("annotation_id" in entry or "annotator" in entry)


def tasks_of(export: object, controls: Iterable[str]) -> list[ExportedTask]:
    """The tasks of a parsed JSON or JSON_MIN export; ``controls`` are the names an answer
    may have (the study's fields), which a JSON_MIN record mixes with the task's data."""
    if not isinstance(export, list):
        raise ExportError(f"expected a Label Studio JSON export: a list of tasks; {USE_JSON}")
    controls = set(controls) - set(PACKET_KEYS)
    tasks, records = [], []
    for number, entry in enumerate(export, start=1):
        if not isinstance(entry, dict):
            what = f"{type(entry).__name__} {entry!r}"[:80]
            tasks.append(ExportedTask(f"#{number}", {}, problem=f"is {what}, not a task"))
        elif _is_min(entry):
            records.append((number, entry))
        else:
            try:
                tasks.append(_json_task(entry, number))
            except TaskProblem as exc:
                data = entry.get("data") if isinstance(entry.get("data"), dict) else {}
                tasks.append(
                    ExportedTask(str(entry.get("id", f"#{number}")), data, problem=str(exc))
                )
    return tasks + _min_tasks(records, controls)


def unnamed_authors(tasks: list[ExportedTask]) -> list[str]:
    """The users ``tasks`` name by number only (sorted), whom only a user map can name."""
    numbers = {
        a.author.id for t in tasks for a in t.annotations if a.author.email is None and a.author.id
    }
    return sorted(numbers, key=lambda n: (len(n), n))


def _text_export(text: str) -> str | None:
    """What kind of Label Studio text export ``text`` looks like (CSV or TSV), if one."""
    header = text.split("\n", 1)[0]
    if "annotation_id" not in header and "annotator" not in header:
        return None
    return "TSV" if "\t" in header else "CSV"


def read_export(path: Path, controls: Iterable[str]) -> list[ExportedTask]:
    """Read a Label Studio JSON or JSON_MIN export (see the module docstring); any other file,
    a CSV or TSV export among them, is an :class:`ExportError` that says what to export."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ExportError(f"{path.name}: not a text file ({exc}); {USE_JSON}") from None
    try:
        export = json.loads(text)
    except json.JSONDecodeError as exc:
        kind = _text_export(text)
        if kind:
            raise ExportError(
                f"{path.name} is a Label Studio {kind} export, which raterlab does not read "
                f"(its cells cannot tell a list from text); {USE_JSON}"
            ) from None
        raise ExportError(f"{path.name}: not a JSON file ({exc}); {USE_JSON}") from None
    try:
        return tasks_of(export, controls)
    except ExportError as exc:
        raise ExportError(f"{path.name}: {exc}") from None
