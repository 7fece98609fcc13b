"""Writing blinded packets: per annotator and batch, a CSV template per task, the reference
file with what to read for each token, the instructions and the study's guide.

Only a task's ``shown`` keys ever leave the warehouse. Every CSV cell that a spreadsheet
would read as a formula (starting with ``=``, ``+``, ``-``, ``@``, tab or carriage return)
is prefixed with ``'`` (OWASP's CSV-injection advice; :mod:`raterlab.csvsafe`), which the
reader of returned files takes off again.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import tempfile
from pathlib import Path

import pandas as pd

from raterlab.csvsafe import neutralise
from raterlab.design.generations import record_of
from raterlab.design.instructions import packet_instructions
from raterlab.design.pairs import shown_pair
from raterlab.files import sha256_of
from raterlab.protocol import Study

FIXED_COLUMNS = ("annotator_id", "item")
TRAILING_COLUMNS = ("time_spent_s",)
MANIFEST = "packet.json"
FILE_COLUMNS = ("annotator_id", "batch", "round", "task", "file", "kind", "n_rows", "sha256")


def template_columns(study: Study, task: str) -> list[str]:
    """A task's annotation columns by their internal names (``item``, ``time_spent_s``), as
    the ingest's rules see a returned file: ids, the task's fields, time spent."""
    return [*FIXED_COLUMNS, *study.tasks[task].fields, *TRAILING_COLUMNS]


def internal_names(study: Study) -> dict[str, str]:
    """Packet column name -> internal name, for the columns the study may rename."""
    layout = study.packet
    return {layout.item_column: "item", layout.time_column: TRAILING_COLUMNS[0]}


def packet_columns(study: Study, task: str) -> list[str]:
    """The columns of a task's annotations template as the annotator sees them, in order:
    ``packet.columns`` if the study lists them, else annotator_id, the item column, the
    fields and the time column (left out when ``packet.time_spent`` is ``optional``)."""
    layout = study.packet
    own = {"annotator_id", layout.item_column, *study.tasks[task].fields}
    if layout.time_spent != "optional":
        own.add(layout.time_column)
    if layout.columns is not None:
        return [c for c in layout.columns if c in own]
    public = {v: k for k, v in internal_names(study).items()}
    return [public.get(c, c) for c in template_columns(study, task) if public.get(c, c) in own]


def return_columns(study: Study, task: str) -> list[str]:
    """The columns of a filled return as a front end writes it (terminal tool, Label Studio,
    spreadsheet): the template's, plus the time column where the template leaves it out."""
    columns = packet_columns(study, task)
    time = study.packet.time_column
    return columns if time in columns else [*columns, time]


def public_row(study: Study, row: dict) -> dict:
    """A row keyed by internal names (``item``, ``time_spent_s``) renamed to the packet's."""
    public = {v: k for k, v in internal_names(study).items()}
    return {public.get(k, k): v for k, v in row.items()}


def template_name(study: Study, annotator: str, task: str) -> str:
    """File name of a task template; the task is named only when the study has several."""
    if len(study.tasks) == 1:
        return f"{annotator}_annotations.csv"
    return f"{annotator}_{task}_annotations.csv"


def returned_name(annotator: str, batch: str, template: str) -> str:
    """File name of a return in the inbox (unique per packet and task), as every front end
    and the simulated annotators name what they drop there."""
    return f"{annotator}__{batch}__{template}"


def packet_dir(outbox: Path, study: Study, annotator: str, batch: str) -> Path:
    return outbox / study.name / annotator / batch


def _write_template(path: Path, study: Study, columns: list[str], rows: pd.DataFrame) -> None:
    item = study.packet.item_column
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(columns)
        for annotator, tok in zip(rows["annotator_id"], rows["token"], strict=True):
            filled = {"annotator_id": annotator, item: tok}
            writer.writerow([neutralise(filled.get(c, "")) for c in columns])


def _shown(study: Study, task: str, record: dict, swapped: bool) -> dict:
    """An item's shown keys; a pair's two responses on the sides the key sealed."""
    spec = study.tasks[task]
    if spec.pairwise is not None:
        return shown_pair(spec, record, swapped)
    return {key: record[key] for key in spec.shown}


def _reference_lines(study: Study, rows: pd.DataFrame, records: dict[str, dict | str]) -> list[str]:
    lines = []
    swapped = rows["swapped"] if "swapped" in rows else pd.Series(False, index=rows.index)
    for tok, task, item_id, position, side in zip(
        rows["token"], rows["task"], rows["item_id"], rows["position"], swapped, strict=True
    ):
        shown = _shown(study, task, record_of(records[item_id]), bool(side))
        entry = {study.packet.item_column: tok, "position": int(position), "task": task, **shown}
        lines.append(json.dumps(entry, ensure_ascii=False))
    return lines


def finish_packet(
    study: Study, work: Path, target: Path, written: list[dict], manifest: dict, entry: dict
) -> list[dict]:
    """Finish the packet built in ``work`` beside ``target``: copy the study's guide in (its
    entry in ``written`` starts with ``entry``'s keys, as the packet's other entries do),
    record every file's SHA-256 in ``written``, write ``manifest`` with ``files: written`` as
    the packet's :data:`MANIFEST`, then put ``work`` in the place of ``target`` (an earlier
    packet there is removed first). Returns ``written``.

    Called once every other file of the packet is in ``work``, so ``target`` never holds a
    half-written packet: a reader finds the earlier packet, briefly none, or the whole new one.
    """
    if study.guide:
        guide = study.path_of(study.guide)
        shutil.copyfile(guide, work / guide.name)
        written.append({**entry, "file": guide.name, "kind": "guide", "n_rows": 0})
    for row in written:
        row["sha256"] = sha256_of(work / row["file"])
    manifest = {**manifest, "files": written}
    (work / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    if target.exists():
        shutil.rmtree(target)
    os.replace(work, target)
    return written


def write_packet(
    study: Study, rows: pd.DataFrame, records: dict[str, dict | str], target: Path
) -> list[dict]:
    """Write one packet (the rows of one annotator and batch, in position order) to ``target``.
    ``records``: item id -> record, decoded or as stored (then decoded a row at a time).

    The folder is built beside ``target`` and moved into place, so a packet is never half
    written. Returns one row per file written: task, file, kind, n_rows, sha256.
    """
    rows = rows.sort_values("position")
    annotator, batch = rows["annotator_id"].iloc[0], rows["batch"].iloc[0]
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".packet-", dir=target.parent))
    written: list[dict] = []
    templates: dict[str, str] = {}
    n_rows: dict[str, int] = {}
    for task in study.tasks:
        task_rows = rows[rows["task"] == task]
        if task_rows.empty:
            continue
        name = template_name(study, annotator, task)
        _write_template(work / name, study, packet_columns(study, task), task_rows)
        templates[task] = name
        n_rows[task] = len(task_rows)
        written.append({"task": task, "file": name, "kind": "template", "n_rows": len(task_rows)})
    reference = work / f"{annotator}_reference.jsonl"
    reference.write_text("\n".join(_reference_lines(study, rows, records)) + "\n", encoding="utf-8")
    written.append({"task": None, "file": reference.name, "kind": "reference", "n_rows": len(rows)})
    instructions = work / "INSTRUCTIONS.md"
    instructions.write_text(
        packet_instructions(study, annotator, batch, templates, n_rows), encoding="utf-8"
    )
    written.append({"task": None, "file": instructions.name, "kind": "instructions", "n_rows": 0})
    manifest = {
        "study": study.name,
        "study_version": study.version,
        "annotator_id": annotator,
        "batch": batch,
    }
    return finish_packet(study, work, target, written, manifest, {"task": None})


def write_packets(
    study: Study, key: pd.DataFrame, generations: pd.DataFrame, outbox: Path
) -> pd.DataFrame:
    """Write every packet in ``key`` (the sealed key, or the part of it for one round), from
    ``generations``' records, decoded or as stored (JSON text, decoded a row at a time: the
    study's records are never held decoded).

    Returns one row per file: annotator_id, batch, round, task, file (path relative to the
    outbox), kind, n_rows, sha256.
    """
    records = dict(zip(generations["item_id"], generations["record"], strict=True))
    out = []
    for (annotator, batch), rows in key.groupby(["annotator_id", "batch"], sort=True):
        target = packet_dir(outbox, study, annotator, batch)
        for entry in write_packet(study, rows, records, target):
            out.append(
                {
                    "annotator_id": annotator,
                    "batch": batch,
                    "round": rows["round"].iloc[0],
                    **entry,
                    "file": str((target / entry["file"]).relative_to(outbox)),
                }
            )
    return pd.DataFrame(out, columns=list(FILE_COLUMNS))


def on_disk(files: pd.DataFrame, outbox: Path) -> pd.DataFrame:
    """``files``' ``file`` column with the SHA-256 of each file as it is in ``outbox`` now
    (empty text for a file that is not there)."""
    paths = [outbox / name for name in files["file"]]
    digests = [sha256_of(path) if path.is_file() else "" for path in paths]
    return pd.DataFrame({"file": files["file"].to_numpy(), "sha256": digests})


def files_intact(files: pd.DataFrame, outbox: Path) -> bool:
    """Whether every file listed in ``files`` (as :func:`write_packets` returns them) is in
    ``outbox`` with the content it was written with (its SHA-256), and at least one is."""
    return len(files) > 0 and on_disk(files, outbox)["sha256"].tolist() == files["sha256"].tolist()
