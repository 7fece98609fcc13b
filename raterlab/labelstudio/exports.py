"""Reading a Label Studio JSON export back into returned files, one per packet and task.

An export is a list of tasks, each with its ``data`` (what :mod:`raterlab.labelstudio.tasks`
wrote) and its ``annotations``: ``result[]`` entries of ``from_name`` (the field),
``to_name``, ``type`` and ``value``, plus ``completed_by``, ``lead_time`` (seconds) and
``was_cancelled``. Each kept annotation becomes one row of the packet's returned-file shape
(text cells, ``time_spent_s`` from ``lead_time``); the rows are then written into the inbox
and ingested like any return, so the same validation, quarantine, archive and unblinding
apply. Cancelled (skipped) annotations, tasks nobody annotated, second annotations of a task
and results for unknown fields are reported, never silently dropped.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree import ElementTree as ET

from raterlab.design.packets import public_row, return_columns, template_name
from raterlab.ingest.rules import TIME_COLUMN
from raterlab.ingest.xlsx import cell_text
from raterlab.label.model import rows_csv, write_atomic
from raterlab.labelstudio.config import label_config
from raterlab.labelstudio.tasks import PACKET_KEYS
from raterlab.protocol import LIST_SEPARATOR, ListField, Study
from raterlab.settings import Home
from raterlab.simulate.run import returned_name


class ExportError(ValueError):
    """The file is not a Label Studio JSON export of this study's tasks."""


@dataclass
class Converted:
    rows: dict[tuple[str, str, str], list[dict[str, str]]] = field(default_factory=dict)
    """(annotator_id, batch, task) -> the returned file's rows."""
    notes: list[str] = field(default_factory=list)
    """What was not turned into a row, and why (one line each)."""


def _choice_cells(study: Study, task: str) -> dict[str, dict[str, str]]:
    """Per choice field, what the config shows -> the cell it stands for (its alias)."""
    view = ET.fromstring(label_config(study, task))
    return {
        choices.get("name"): {c.get("value"): c.get("alias") or c.get("value") for c in choices}
        for choices in view.iter("Choices")
    }


def _task_of(study: Study, data: dict) -> str | None:
    keys = set(data) - set(PACKET_KEYS)
    return next((t for t, spec in study.tasks.items() if set(spec.shown) == keys), None)


def _cell(study: Study, task: str, result: dict, choices: dict[str, dict[str, str]]) -> str:
    name, value = result["from_name"], result.get("value", {})
    kind = result.get("type", "").lower()
    if kind == "choices":
        return "; ".join(choices.get(name, {}).get(v, v) for v in value.get("choices", []))
    if kind == "rating":
        return cell_text(float(value["rating"]))
    if kind == "number":
        return cell_text(float(value["number"]))
    if kind == "textarea":
        parts = [str(t) for t in value.get("text", [])]
        spec = study.tasks[task].fields[name]
        return (f"{LIST_SEPARATOR} " if isinstance(spec, ListField) else "\n").join(parts)
    raise ExportError(f"result type {kind!r} of {name!r} is not one raterlab generates")


def _latest(annotations: list[dict]) -> list[dict]:
    return sorted(annotations, key=lambda a: (a.get("updated_at") or "", a.get("id") or 0))


def convert(study: Study, export: list[dict]) -> Converted:
    """Rows per packet and task from a Label Studio JSON export (see the module docstring)."""
    if not isinstance(export, list):
        raise ExportError("expected a Label Studio JSON export: a list of tasks")
    out = Converted()
    choices: dict[str, dict[str, dict[str, str]]] = {}
    for number, entry in enumerate(export, start=1):
        data = entry.get("data", {}) if isinstance(entry, dict) else {}
        task = _task_of(study, data)
        token = data.get("item", f"task #{number}")
        if task is None or not all(k in data for k in PACKET_KEYS):
            out.notes.append(
                f"{token}: not a task of study {study.name} (data keys {sorted(data)})"
            )
            continue
        annotations = entry.get("annotations") or []
        for cancelled in (a for a in annotations if a.get("was_cancelled")):
            who = cancelled.get("completed_by")
            out.notes.append(f"{token}: annotation skipped (cancelled) by user {who}")
        kept = _latest([a for a in annotations if not a.get("was_cancelled")])
        if not kept:
            out.notes.append(f"{token}: no submitted annotation")
            continue
        for older in kept[:-1]:
            out.notes.append(
                f"{token}: earlier annotation {older.get('id')} replaced by the latest one"
            )
        annotation = kept[-1]
        if task not in choices:
            choices[task] = _choice_cells(study, task)
        row = {"annotator_id": data["annotator_id"], "item": token}
        for result in annotation.get("result", []):
            name = result.get("from_name")
            if name not in study.tasks[task].fields:
                out.notes.append(f"{token}: result for {name!r}, which is not a field; ignored")
                continue
            row[name] = _cell(study, task, result, choices[task])
        row[TIME_COLUMN] = cell_text(float(annotation.get("lead_time") or 0.0))
        out.rows.setdefault((data["annotator_id"], data["batch"], task), []).append(row)
    return out


def read_export(path: Path) -> list[dict]:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ExportError(f"{Path(path).name}: not a JSON file ({exc})") from None


def write_returns(home: Home, study: Study, converted: Converted) -> list[Path]:
    """Drop one returned CSV per packet and task into ``inbox/<study>/``."""
    written = []
    for (annotator, batch, task), rows in sorted(converted.rows.items()):
        columns = return_columns(study, task)
        public = [public_row(study, row) for row in rows]
        cells = [{c: row.get(c, "") for c in columns} for row in public]
        name = returned_name(
            annotator, batch, f"labelstudio__{template_name(study, annotator, task)}"
        )
        path = home.inbox / study.name / name
        write_atomic(path, rows_csv(columns, cells))
        written.append(path)
    return written
