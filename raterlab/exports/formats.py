"""The exporters. Each takes an :class:`ExportBundle` and a folder, writes its files there and
returns their paths. Shapes are documented in ``docs/gold_tables.md`` (section Exports).

``parquet_tables``   every study: ``parquet/{items,consensus,adjudications,labels}.parquet``.
``study_json``       ``<study>.json``: the correctness protocol's JSON export, key for key:
                     metadata (version, date, annotators, inter-rater kappa, counts) and one
                     annotation per item with its ratings by annotator, consensus,
                     adjudication flag and comments.
``labeler_files``    ``labelers/<labelerId>[/<runId>]/<dimension>.json`` per annotator and task:
                     exportedAt, dimension, runId, labelerId,
                     labels[{<unit_key>, <fields>, confidence, timestamp}] (protocol 002);
                     the consensus beside it, ``consensus/[<runId>/]<dimension>.json``.
``gold_tier_jsonl``  ``gold/<task>.jsonl``: the resolved items of the GOLD tier with their
                     consensus labels; ``data/sample_test_cases.json``: the resolved items of
                     the single-annotator tiers, with each tier's noise floor disclosed.
``system_metrics``   ``metrics.csv`` and ``metrics.json``: the study's metric families per
                     system with confidence intervals (``metrics:`` in the study file).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from raterlab.agreement import AgreementUndefined, cohen_kappa, fleiss_kappa
from raterlab.csvsafe import write_csv
from raterlab.design.rounds import latest_pilot_only
from raterlab.exports.bundle import ExportBundle
from raterlab.metrics import compute_metrics
from raterlab.protocol import BinaryField, CategoricalField, LikertField, ListField, Study
from raterlab.protocol.fields import LIST_SEPARATOR, SKIP_VALUE

GOLD_TIER = "GOLD"
_IDENT = re.compile(r"^[a-z][a-z0-9_]*$")


def _plain(value):
    """A JSON-friendly scalar (NaN -> None, numpy -> Python, whole floats -> int)."""
    if value is None or type(value) in (str, int, bool):  # most cells, at once
        return value
    if isinstance(value, float | np.floating):
        if np.isnan(value):
            return None
        return int(value) if float(value).is_integer() else float(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, pd.Timestamp):
        return value.isoformat()
    return value


def typed_value(study: Study, task: str, field: str, value, value_num=None):
    """A consensus or rating value as JSON: a number for binary and Likert, else the text."""
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return None
    spec = study.tasks[task].fields.get(field)
    if spec is not None and spec.is_rating and not isinstance(spec, CategoricalField):
        number = value_num if value_num is not None and not pd.isna(value_num) else value
        try:
            return _plain(float(number))
        except (TypeError, ValueError):
            return value
    return value


def _dump(path: Path, document) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


# --- every study: Parquet ---------------------------------------------------------------------


def parquet_tables(bundle: ExportBundle, folder: Path) -> list[Path]:
    """The study's gold tables as Parquet (the item ``record`` as JSON text)."""
    out = []
    tables = {
        "items": bundle.items,
        "consensus": bundle.consensus,
        "adjudications": bundle.adjudications,
        "labels": bundle.labels,
    }
    for name, frame in tables.items():
        data = frame.copy()
        if "record" in data:
            data["record"] = data["record"].map(
                lambda r: json.dumps(r, ensure_ascii=False) if isinstance(r, dict) else r
            )
        data.insert(0, "study", bundle.study.name)
        path = folder / "parquet" / f"{name}.parquet"
        path.parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(pa.Table.from_pandas(data, preserve_index=False), path)
        out.append(path)
    return out


# --- study JSON -------------------------------------------------------------------------------


def unit_key(study: Study, task: str) -> str:
    """``<unit>_id`` when the task's unit is one plain word (``response`` -> ``response_id``),
    else ``item_id``."""
    unit = study.tasks[task].unit
    return f"{unit}_id" if _IDENT.match(unit) else "item_id"


def _kappa_weights(study: Study, field: str) -> str | None:
    """Weights of the study's inter-rater kappa for a field: as its pilot gate names Cohen's
    kappa, else as a ``cohen_kappa`` minimum does, else none (sklearn's default)."""
    named = [study.thresholds.pilot_gate, *study.thresholds.minimums]
    for threshold in named:
        if (
            threshold is not None
            and threshold.coefficient == "cohen_kappa"
            and (threshold.fields is None or field in threshold.fields)
        ):
            return None if threshold.weights in (None, "unweighted") else threshold.weights
    return None


def kappa(study: Study, ratings: pd.DataFrame) -> list[dict]:
    """Inter-rater kappa per rating field, from the counting ratings of the pilot (the latest
    pilot round), main and imported rounds (third-annotator ratings, given to disputed items
    only, are left out).

    Two raters: Cohen's kappa, weighted as :func:`_kappa_weights` says (by default
    unweighted, as ``sklearn.metrics.cohen_kappa_score``). More raters: Fleiss' kappa.
    """
    out = []
    rows = latest_pilot_only(ratings[ratings["round"] != "tiebreak"])
    for task_name, task in study.tasks.items():
        for field in task.rating_fields:
            spec = task.fields[field]
            sub = rows[(rows["task"] == task_name) & (rows["field"] == field)]
            entry = {
                "task": task_name,
                "field": field,
                "coefficient": None,
                "weights": None,
                "estimate": None,
                "n_units": 0,
            }
            if sub.empty:
                out.append(entry)
                continue
            matrix = sub.pivot_table(
                index="item_id", columns="annotator_id", values="value", aggfunc="first"
            )
            if not isinstance(spec, CategoricalField):
                matrix = matrix.apply(pd.to_numeric)
            categories = list(spec.domain())
            try:
                if matrix.shape[1] == 2:
                    weights = _kappa_weights(study, field)
                    result = cohen_kappa(matrix, weights=weights, categories=categories)
                    entry.update(coefficient="cohen_kappa", weights=weights or "unweighted")
                else:
                    result = fleiss_kappa(matrix)
                    entry.update(coefficient="fleiss_kappa")
                entry["estimate"] = round(float(result), 4)
            except (AgreementUndefined, ValueError):
                pass
            entry["n_units"] = int((matrix.notna().sum(axis=1) >= 2).sum())
            out.append(entry)
    return out


ItemRows = dict[str, list]
"""One item's consensus rows as columns (column name -> values, in table order)."""


def _consensus_by_item(bundle: ExportBundle) -> dict[tuple[str, str], ItemRows]:
    """Each (task, item)'s consensus rows, in one pass over the table: plain lists, not a
    DataFrame per item (which costs more than the export itself at 100,000 items)."""
    consensus = bundle.consensus
    wanted = ("field", "value", "value_num", "status", "confidence", "n_ratings", "rating_mean")
    columns = {c: consensus[c].tolist() for c in wanted if c in consensus}
    keys = zip(consensus["task"].tolist(), consensus["item_id"].tolist(), strict=True)
    out: dict[tuple[str, str], ItemRows] = {}
    for at, key in enumerate(keys):
        rows = out.get(key)
        if rows is None:
            rows = out[key] = {c: [] for c in columns}
        for column, values in columns.items():
            rows[column].append(values[at])
    return out


RESERVED_RATING_KEYS = ("consensus", "adjudicated")
"""Keys of an annotation's ``ratings`` object besides the annotator ids."""


def _rating_card(study: Study, task: str, r, single: bool) -> dict:
    """One annotator's entry: ``score`` (a single rating field), ``confidence``,
    ``time_spent`` (seconds), then every field by name and the round."""
    fields = study.tasks[task].rating_fields
    card: dict = {}
    if single:
        card["score"] = typed_value(study, task, fields[0], r.values.get(fields[0]))
    card["confidence"] = r.confidence.lower() if isinstance(r.confidence, str) else None
    card["time_spent"] = _plain(r.time_spent_s)
    for name in study.tasks[task].fields:
        if name in r.values:
            card[name] = typed_value(study, task, name, r.values[name])
    card["round"] = r.round
    return card


def _decisions(study: Study, task: str, decided: pd.DataFrame | None) -> list[dict]:
    if decided is None:
        return []
    return [
        {
            "field": f,
            "value": typed_value(study, task, f, v),
            "rationale": why,
            "adjudicator_id": who,
        }
        for f, v, why, who in zip(
            decided["field"],
            decided["value"],
            decided["rationale"],
            decided["adjudicator_id"],
            strict=True,
        )
    ]


def study_json(bundle: ExportBundle, folder: Path) -> list[Path]:
    """``<study>.json``: the annotation protocol's export, key for key (see
    ``docs/gold_tables.md``), with extra keys beside the protocol's.

    ``metadata``: version, date, annotators, inter_rater_kappa, num_<unit>s, num_adjudicated.
    ``annotations[]``: <unit>_id, the item's keys (renamed by ``export_keys``), ``ratings``
    (one object per annotator id: score, confidence, time_spent; and ``consensus``,
    ``adjudicated``), ``comments`` (``"<annotator_id>: <text>"``, adjudication decisions
    included).
    """
    study = bundle.study
    ratings = latest_pilot_only(bundle.rating_rows())
    by_item = {k: g for k, g in ratings.groupby("item_id", sort=False)}
    consensus = _consensus_by_item(bundle)
    decisions = {k: g for k, g in bundle.adjudications.groupby("item_id", sort=False)}
    multi_task = len(study.tasks) > 1
    single_field = {t: len(task.rating_fields) == 1 for t, task in study.tasks.items()}
    renamed = study.export_keys
    annotations = []
    rated = bundle.items[bundle.items["status"] != "unrated"]
    for item in rated.itertuples(index=False):
        task = item.task
        fields = study.tasks[task].rating_fields
        entry: dict = {unit_key(study, task): item.item_id}
        if multi_task:
            entry["task"] = task
        entry.update({renamed.get(k, k): _plain(v) for k, v in (item.record or {}).items()})
        entry["tier"] = item.tier
        cards: dict = {}
        comments = []
        for r in by_item.get(item.item_id, pd.DataFrame()).itertuples(index=False):
            if r.annotator_id in RESERVED_RATING_KEYS:
                raise ValueError(f"annotator id {r.annotator_id!r} is a reserved ratings key")
            cards[r.annotator_id] = _rating_card(study, task, r, single_field[task])
            if isinstance(r.notes, str) and r.notes:
                comments.append(f"{r.annotator_id}: {r.notes}")
        rows = consensus.get((task, item.item_id), {"field": []})
        values = {
            f: typed_value(study, task, f, v, n)
            for f, v, n in zip(
                rows["field"], rows.get("value", []), rows.get("value_num", []), strict=True
            )
        }
        means = dict(zip(rows["field"], rows.get("rating_mean", []), strict=True))
        statuses = dict(zip(rows["field"], rows.get("status", []), strict=True))
        adjudication = _decisions(study, task, decisions.get(item.item_id))
        comments += [
            f"{d['adjudicator_id']}: adjudicated {d['field']} = {d['value']}: {d['rationale']}"
            for d in adjudication
        ]
        single = single_field[task]
        entry["ratings"] = {
            **cards,
            "consensus": values.get(fields[0]) if single else values,
            "adjudicated": bool(adjudication),
        }
        entry["comments"] = comments
        entry["consensus_status"] = statuses.get(fields[0]) if single else statuses
        entry["consensus_mean"] = (
            _plain(means.get(fields[0])) if single else {f: _plain(m) for f, m in means.items()}
        )
        entry["adjudication"] = adjudication
        annotations.append(entry)
    agreement = kappa(study, bundle.ratings)
    if len(agreement) == 1:
        inter_rater = agreement[0]["estimate"]
    else:
        inter_rater = {f"{a['task']}.{a['field']}": a["estimate"] for a in agreement}
    units = {unit_key(study, t) for t in study.tasks}
    count_key = f"num_{units.pop()[:-3]}s" if len(units) == 1 else "num_items"
    metadata = {
        "version": study.version,
        "date": bundle.exported_at.date().isoformat(),
        "annotators": sorted(set(bundle.ratings["annotator_id"])),
        "inter_rater_kappa": inter_rater,
        count_key: len(annotations),
        "num_adjudicated": sum(a["ratings"]["adjudicated"] for a in annotations),
        "study": study.name,
        "title": study.title,
        "exported_at": bundle.exported_at_iso,
        "run_id": bundle.run_id,
        "agreement": agreement,
        "num_ratings": sum(len(a["ratings"]) - len(RESERVED_RATING_KEYS) for a in annotations),
        "consensus_policy": study.consensus.model_dump(mode="json"),
    }
    return [
        _dump(folder / f"{study.name}.json", {"metadata": metadata, "annotations": annotations})
    ]


# --- per-labeler files ------------------------------------------------------------------------


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
        record = record if isinstance(record, dict) else {}
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
    for (task_name, item_id), rows in _consensus_by_item(bundle).items():
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
        out.append(_dump(folder.joinpath(top, *parts, f"{task_name}.json"), document))
    return out


def _iso(stamp) -> str | None:
    if stamp is None or pd.isna(stamp):
        return None
    return pd.Timestamp(stamp).tz_convert("UTC").isoformat().replace("+00:00", "Z")


# --- the gold tier as JSONL -------------------------------------------------------------------


def gold_tier_jsonl(bundle: ExportBundle, folder: Path) -> list[Path]:
    """``gold/<task>.jsonl``: every GOLD-tier item whose fields all have a consensus value,
    one JSON object per line (see ``docs/gold_tables.md``). Unresolved and excluded items are
    left out."""
    study = bundle.study
    consensus = _consensus_by_item(bundle)
    items = bundle.items[
        (bundle.items["tier"] == GOLD_TIER) & (bundle.items["status"] == "resolved")
    ]
    out = []
    for task_name in study.tasks:
        lines = []
        for item in (
            items[items["task"] == task_name].sort_values("item_id").itertuples(index=False)
        ):
            entry = _case(study, item, consensus[(task_name, item.item_id)])
            lines.append(json.dumps(entry, ensure_ascii=False))
        path = folder / "gold" / f"{task_name}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        out.append(path)
    out.append(_sample_test_cases(bundle, folder, consensus))
    return out


def _sample_test_cases(bundle: ExportBundle, folder: Path, consensus: dict) -> Path:
    """``data/sample_test_cases.json``: the resolved items of the single-annotator tiers
    (ADR-001's tier-A samples), with each tier's declared noise floor disclosed."""
    study = bundle.study
    single = sorted(t for t, k in study.design.overlap.items() if k == 1)
    items = bundle.items[
        bundle.items["tier"].isin(single) & (bundle.items["status"] == "resolved")
    ].sort_values(["task", "item_id"])
    tiers = {}
    for tier in single:
        policy = study.tiers.get(tier)
        floor = policy.noise_floor if policy else None
        note = (
            f"Tier {tier} labels come from one annotator (spot check: "
            f"{study.design.spot_check:.0%} get a second); "
            + (
                f"accuracy claims on them carry a {floor:.0%} noise floor."
                if floor is not None
                else "no noise floor is declared for this tier."
            )
        )
        tiers[tier] = {
            "noise_floor": floor,
            "n_cases": int((items["tier"] == tier).sum()),
            "disclosure": note,
        }
    document = {
        "study": study.name,
        "exportedAt": bundle.exported_at_iso,
        "tiers": tiers,
        "cases": [
            _case(study, item, consensus[(item.task, item.item_id)])
            for item in items.itertuples(index=False)
        ],
    }
    return _dump(folder / "data" / "sample_test_cases.json", document)


def _case(study: Study, item, rows: ItemRows) -> dict:
    """One case with its consensus labels, as ``gold/*.jsonl`` and the samples hold it."""
    task_name = item.task
    return {
        "id": item.item_id,
        "task_type": task_name,
        "tier": item.tier,
        **{k: _plain(v) for k, v in (item.record or {}).items()},
        "labels": {
            f: typed_value(study, task_name, f, v, n)
            for f, v, n in zip(rows["field"], rows["value"], rows["value_num"], strict=True)
        },
        "status": dict(zip(rows["field"], rows["status"], strict=True)),
        "confidence": {
            f: _plain(c) for f, c in zip(rows["field"], rows["confidence"], strict=True)
        },
        "n_ratings": {f: int(n) for f, n in zip(rows["field"], rows["n_ratings"], strict=True)},
        "adjudicated": bool(item.adjudicated),
    }


# --- metric families --------------------------------------------------------------------------


def system_metrics(bundle: ExportBundle, folder: Path) -> list[Path]:
    """``metrics.csv`` (the rows of ``gold.metrics``) and ``metrics.json``:
    ``{study, exportedAt, runId, confidence, systems: {<system>: {<family>: {<metric>:
    {estimate, ci: [low, high], interval, n, successes, n_clusters, task, field, k}}}}}``."""
    frame = compute_metrics(bundle.study, bundle.items, bundle.consensus, bundle.exported_at)
    csv_path = folder / "metrics.csv"
    write_csv(frame, csv_path)
    systems: dict = {}
    for r in frame.itertuples(index=False):
        family = systems.setdefault(r.system, {}).setdefault(r.family, {})
        family[r.metric] = {
            "estimate": _plain(r.estimate),
            "ci": [_plain(r.ci_low), _plain(r.ci_high)],
            "interval": r.interval,
            "n": _plain(r.n),
            "successes": None if pd.isna(r.successes) else int(r.successes),
            "n_clusters": _plain(r.n_clusters),
            "n_excluded": _plain(r.n_excluded),
            "task": r.task,
            "field": r.field,
            "k": None if pd.isna(r.k) else int(r.k),
        }
    declared = bundle.study.metrics
    document = {
        "study": bundle.study.name,
        "exportedAt": bundle.exported_at_iso,
        "runId": bundle.run_id,
        "confidence": declared.confidence if declared else None,
        "systems": systems,
    }
    return [csv_path, _dump(folder / "metrics.json", document)]
