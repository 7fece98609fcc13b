"""``labeler_files``: ``labelers/<labelerId>[/<runId>]/<dimension>.json`` per annotator and
task: exportedAt, dimension, runId, labelerId, labels[{<unit_key>, <fields>, confidence,
timestamp}] (protocol 002); the consensus beside it, ``consensus/[<runId>/]<dimension>.json``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from raterlab.design.generations import record_of
from raterlab.exports.bundle import ExportBundle
from raterlab.exports.values import dump_json
from raterlab.protocol import BinaryField, LikertField, ListField, Study
from raterlab.protocol.fields import LIST_SEPARATOR, SKIP_VALUE


def _protocol_value(spec, value):
    """A label as the labeler-file format types it: binary -> boolean, Likert -> integer,
    list -> array of strings, anything else -> string; ``None`` for an empty cell."""
    if value is None or (isinstance(value, float) and np.isnan(value)) or value == "":
        return None
    if isinstance(spec, BinaryField):
        return bool(int(float(value)))
    if isinstance(spec, LikertField):
        number = float(value)
        return int(number) if number.is_integer() else number
    if isinstance(spec, ListField):
        return [part.strip() for part in str(value).split(LIST_SEPARATOR) if part.strip()]
    return str(value)


def _label_entry(study: Study, task_name: str, unit: str, values: dict) -> dict:
    """One entry of ``labels[]``: the unit id under the study's ``unit_key``, then each field
    under its own name; a ``skip`` answer becomes ``skipped: true`` (and the field is left
    out, as the protocol's optional fields are)."""
    task = study.tasks[task_name]
    entry: dict = {study.unit_key or "itemId": unit}
    skipped = False
    for name, spec in task.fields.items():
        value = values.get(name)
        if value == SKIP_VALUE:
            skipped = True
            continue
        typed = _protocol_value(spec, value)
        if typed is not None and typed != []:
            entry[name] = typed
    if skipped:
        entry["skipped"] = True
    return entry


def _unit_and_run(bundle: ExportBundle) -> dict[str, tuple[str, str]]:
    """item_id -> (unit id, run id) from the items' ``unit_key`` and ``run_key``."""
    study = bundle.study
    out = {}
    for item_id, record in zip(bundle.items["item_id"], bundle.items["record"], strict=True):
        record = record_of(record)
        unit = record.get(study.unit_key, item_id) if study.unit_key else item_id
        run = record.get(study.run_key) if study.run_key else None
        out[item_id] = (str(unit), None if run is None else str(run))
    return out


def labeler_files(bundle: ExportBundle, folder: Path) -> list[Path]:
    """``labelers/<labelerId>/<dimension>.json`` per annotator and task (``.../<runId>/...``
    when the study has a ``run_key``), and the consensus in ``consensus/[<runId>/]<dimension>
    .json``.

    Every file under ``labelers/`` has the shape of the labeling-session export of
    protocol 002::

        {exportedAt, dimension, runId, labelerId,
         labels: [{<unit_key>, <field>: <value>, ..., confidence, timestamp}]}

    ``dimension`` is the task, ``runId`` the evaluation run the items came from (the study's
    ``run_key``; else this export's run), each label keyed by the unit's id under the study's
    ``unit_key`` (else ``itemId``), fields typed as :func:`_protocol_value` says, ``timestamp``
    when raterlab received the label. Empty optional fields are left out. The consensus has
    no confidence nor time of its own, so it is not put among the labelers: its files have
    the same outer shape (``labelerId`` ``consensus``) and a ``status`` per field instead.
    """
    study = bundle.study
    ratings = bundle.rating_rows()
    units = _unit_and_run(bundle)
    received = bundle.labels.groupby("rating_id")["ingested_at"].first() if len(ratings) else {}
    groups: dict[tuple[str, str, str, str | None], list[dict]] = {}
    for r in ratings.sort_values(["task", "item_id"]).itertuples(index=False):
        unit, run = units.get(r.item_id, (r.item_id, None))
        entry = _label_entry(study, r.task, unit, r.values)
        entry["confidence"] = r.confidence if isinstance(r.confidence, str) else None
        entry["timestamp"] = _iso(received[r.rating_id])
        groups.setdefault(("labelers", r.annotator_id, r.task, run), []).append(entry)
    for (task_name, item_id), rows in bundle.consensus_by_item().items():
        unit, run = units.get(item_id, (item_id, None))
        values = dict(zip(rows["field"], rows["value"], strict=True))
        entry = _label_entry(study, task_name, unit, values)
        entry["status"] = dict(zip(rows["field"], rows["status"], strict=True))
        groups.setdefault(("consensus", "consensus", task_name, run), []).append(entry)
    out = []
    for (top, labeler, task_name, run), labels in sorted(groups.items(), key=lambda kv: str(kv[0])):
        document = {
            "exportedAt": bundle.exported_at_iso,
            "dimension": task_name,
            "runId": run or bundle.run_id,
            "labelerId": labeler,
            "labels": labels,
        }
        parts = [labeler] if top == "labelers" else []
        parts += [run] if study.run_key and run else []
        out.append(dump_json(folder.joinpath(top, *parts, f"{task_name}.json"), document))
    return out


def _iso(stamp) -> str | None:
    if stamp is None or pd.isna(stamp):
        return None
    return pd.Timestamp(stamp).tz_convert("UTC").isoformat().replace("+00:00", "Z")
