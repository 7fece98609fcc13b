"""A Label Studio export read back into returned files, one per packet and task.

Every exported task is placed by its packet token (``data.item``) in the study's sealed key:
the key, never the export, says whose packet, which batch and which task it is, so no value
of an export becomes part of a path, and a task the key does not know, or whose
``annotator_id`` / ``batch`` disagree with the key, is refused. An annotation counts only for
its author (:mod:`raterlab.labelstudio.users`): one by another user of Label Studio is
refused, and its author listed as having seen another annotator's project (Label Studio
Community shows every project to every user). Each task is judged alone: a refused task is
reported by its Label Studio id and the rest imported.

The packet annotator's latest submitted annotation of a task becomes one row of the packet's
returned-file shape (text cells, ``time_spent_s`` from ``lead_time``; a pairwise field's
side clicked and extra choice become its one cell, ``left``, ``right``, ``tie``...); the
rows are written into the inbox and ingested like any return, so the same validation,
quarantine, archive and unblinding apply. Cancelled (skipped) annotations, tasks nobody
annotated, earlier annotations and results for unknown fields are reported, never silently
dropped.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple
from xml.etree import ElementTree as ET

import duckdb

from raterlab import warehouse
from raterlab.csvsafe import rows_csv
from raterlab.design.packets import public_row, return_columns, returned_name, template_name
from raterlab.files import write_atomic
from raterlab.ingest.rules import TIME_COLUMN
from raterlab.ingest.xlsx import cell_text
from raterlab.labelstudio.config import label_config
from raterlab.labelstudio.formats import Annotation, ExportedTask, TaskProblem
from raterlab.labelstudio.pairwise import merged
from raterlab.labelstudio.users import Users
from raterlab.protocol import LIST_SEPARATOR, ListField, Study, TextField
from raterlab.settings import Home


class Packet(NamedTuple):
    """A packet's task, as the sealed key names it."""

    annotator: str
    batch: str
    task: str

    def __str__(self) -> str:
        return f"{self.annotator}'s packet {self.batch} ({self.task})"


@dataclass
class Converted:
    rows: dict[Packet, list[dict[str, str]]] = field(default_factory=dict)
    """The returned file's rows of each packet task."""
    task_ids: dict[Packet, list[str]] = field(default_factory=dict)
    """The Label Studio task id of each of those rows, in the same order."""
    refused: list[str] = field(default_factory=list)
    """Tasks and annotations not imported because something is wrong (one line each)."""
    notes: list[str] = field(default_factory=list)
    """What else was not turned into a row, and why (one line each)."""
    seen: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    """An annotator (or an unmapped user) -> the other annotators' packets the export shows
    they worked in."""


def sealed_packets(
    con: duckdb.DuckDBPyConnection, study: Study, tokens: list[str]
) -> dict[str, Packet]:
    """The packet each of ``tokens`` belongs to, from the study's sealed key."""
    if not tokens or not warehouse.table_exists(con, "staging.blinding_key"):
        return {}
    rows = con.execute(
        "SELECT token, annotator_id, batch, task FROM staging.blinding_key "
        "WHERE study = ? AND list_contains(?, token)",
        [study.name, sorted(set(tokens))],
    ).fetchall()
    return {token: Packet(annotator, batch, task) for token, annotator, batch, task in rows}


def _choice_cells(study: Study, task: str) -> dict[str, dict[str, str]]:
    """Per choice field, what the config shows -> the cell it stands for (its alias)."""
    view = ET.fromstring(label_config(study, task))
    return {
        choices.get("name"): {c.get("value"): c.get("alias") or c.get("value") for c in choices}
        for choices in view.iter("Choices")
    }


def _cell(spec: object, values: list[str | float], choices: dict[str, str]) -> str:
    texts = [v if isinstance(v, str) else cell_text(v) for v in values]
    if isinstance(spec, ListField):
        return f"{LIST_SEPARATOR} ".join(texts)
    if isinstance(spec, TextField):
        return "\n".join(texts)
    return "; ".join(choices.get(t, t) for t in texts)


def _row(
    study: Study, packet: Packet, token: str, annotation: Annotation, choices: dict
) -> tuple[dict[str, str], list[str]]:
    """The returned-file row of one annotation, and the answers it ignores."""
    fields = study.tasks[packet.task].fields
    row = {"annotator_id": packet.annotator, "item": token}
    ignored = []
    answers = merged(study.tasks[packet.task], annotation.answers, choices)
    for name, values in answers.items():
        if name not in fields:
            ignored.append(name)
            continue
        row[name] = _cell(fields[name], values, choices.get(name, {}))
    seconds = annotation.lead_time
    row[TIME_COLUMN] = "" if seconds is None else cell_text(seconds)
    return row, ignored


def _placed(study: Study, task: ExportedTask, key: dict[str, Packet]) -> Packet:
    """The packet the sealed key puts ``task`` in; a :class:`TaskProblem` when it is none or
    the task's data claims another."""
    if task.problem:
        raise TaskProblem(task.problem)
    if task.token is None:
        raise TaskProblem(
            f"no packet token in its data (keys {sorted(task.data)}): not a task raterlab wrote"
        )
    packet = key.get(task.token)
    if packet is None:
        raise TaskProblem(f"item {task.token!r} is not in the sealed key of study {study.name}")
    claimed = (task.data.get("annotator_id"), task.data.get("batch"))
    if claimed != (packet.annotator, packet.batch):
        raise TaskProblem(
            f"its data says annotator_id {claimed[0]!r}, batch {claimed[1]!r}, but the sealed "
            f"key has item {task.token} in {packet}"
        )
    return packet


def _latest(annotations: list[Annotation]) -> list[Annotation]:
    def order(a: Annotation) -> tuple[str, int]:
        return (a.updated_at, int(a.id) if a.id.isdigit() else 0)

    return sorted(annotations, key=order)


def _own(
    task: ExportedTask, packet: Packet, users: Users, out: Converted, label: str
) -> list[Annotation]:
    """The submitted annotations of ``task`` by its packet's annotator; every other author's
    work is refused (if submitted) and noted as seen."""
    for author in task.drafts:
        if users.annotator_of(author) != packet.annotator:
            out.seen[users.who(author)].add(str(packet))
    own = []
    for annotation in task.annotations:
        author = annotation.author
        if users.annotator_of(author) == packet.annotator:
            if annotation.cancelled:
                out.notes.append(f"{label}: skipped (cancelled) by {packet.annotator}")
            else:
                own.append(annotation)
            continue
        out.seen[users.who(author)].add(str(packet))
        if not annotation.cancelled:
            out.refused.append(
                f"{label}: annotation {annotation.id} by {users.describe(author)} is not by "
                f"{packet.annotator}, whose packet this is; refused"
            )
    return own


def convert(
    study: Study, tasks: list[ExportedTask], key: dict[str, Packet], users: Users
) -> Converted:
    """Rows per packet task from an export's tasks (see the module docstring); ``key`` is the
    sealed key's packet of each token (:func:`sealed_packets`)."""
    out = Converted()
    choices: dict[str, dict[str, dict[str, str]]] = {}
    for task in tasks:
        label = f"task {task.id}" + (f" (item {task.token})" if task.token else "")
        try:
            packet = _placed(study, task, key)
        except TaskProblem as exc:
            out.refused.append(f"{label}: {exc}; not imported")
            continue
        reported = len(out.refused) + len(out.notes)
        own = _latest(_own(task, packet, users, out, label))
        if not own:
            if len(out.refused) + len(out.notes) == reported:
                out.notes.append(f"{label}: no submitted annotation by {packet.annotator}")
            continue
        for older in own[:-1]:
            out.notes.append(f"{label}: annotation {older.id} replaced by a later one")
        if packet.task not in choices:
            choices[packet.task] = _choice_cells(study, packet.task)
        row, ignored = _row(study, packet, task.token, own[-1], choices[packet.task])
        for name in ignored:
            out.notes.append(f"{label}: result for {name!r}, which is not a field; ignored")
        out.rows.setdefault(packet, []).append(row)
        out.task_ids.setdefault(packet, []).append(task.id)
    return out


def return_path(home: Home, study: Study, packet: Packet) -> Path:
    """Where a packet task's return goes: ``inbox/<study>/``, and nowhere else."""
    folder = (home.inbox / study.name).resolve()
    template = template_name(study, packet.annotator, packet.task)
    path = folder / returned_name(packet.annotator, packet.batch, f"labelstudio__{template}")
    if path.resolve().parent != folder:
        raise ValueError(f"the return of {packet} would be written outside {folder}: {path}")
    return path


def write_returns(home: Home, study: Study, converted: Converted) -> dict[Packet, Path]:
    """Drop one returned CSV per packet task into ``inbox/<study>/``."""
    written = {}
    for packet, rows in sorted(converted.rows.items()):
        columns = return_columns(study, packet.task)
        public = [public_row(study, row) for row in rows]
        cells = [{c: row.get(c, "") for c in columns} for row in public]
        path = return_path(home, study, packet)
        write_atomic(path, rows_csv(columns, cells))
        written[packet] = path
    return written
