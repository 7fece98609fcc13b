"""``study_json``: ``<study>.json``, the correctness protocol's JSON export, key for key:
metadata (version, date, annotators, inter-rater kappa, counts) and one annotation per item with
its ratings by annotator, consensus, adjudication flag and comments."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from raterlab.design.generations import record_of
from raterlab.design.rounds import latest_pilot_only
from raterlab.exports.bundle import ExportBundle, ItemRows
from raterlab.exports.values import dump_json, plain, typed_value
from raterlab.protocol import Study
from raterlab.protocol.names import LOWER_WORD


def unit_key(study: Study, task: str) -> str:
    """``<unit>_id`` when the task's unit is one plain word (``response`` -> ``response_id``),
    else ``item_id``."""
    unit = study.tasks[task].unit
    return f"{unit}_id" if LOWER_WORD.fullmatch(unit) else "item_id"


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


def _kappa_levels(weights: str | None) -> tuple[str, ...]:
    """The ``level`` of Cohen's kappa with ``weights`` in ``gold.agreement``: ``nominal`` as
    the agreement asset computes it unweighted, ``weights=<w>`` as a threshold declares it."""
    return ("nominal", "weights=unweighted") if weights is None else (f"weights={weights}",)


def _kappa_row(study: Study, field: str, rows: pd.DataFrame) -> pd.Series | None:
    """The row of ``rows`` (one field's ``gold.agreement`` rows on slice ``all``) that is the
    field's inter-rater kappa: Cohen's kappa weighted as :func:`_kappa_weights` says when two
    raters rated the field, else Fleiss' kappa. None when the table has no such row."""
    if rows.empty:
        return None
    if rows["n_raters"].max() == 2:
        levels = _kappa_levels(_kappa_weights(study, field))
        match = rows[(rows["coefficient"] == "cohen_kappa") & rows["level"].isin(levels)]
    else:
        match = rows[rows["coefficient"] == "fleiss_kappa"]
    return None if match.empty else match.iloc[0]


def kappa(study: Study, agreement: pd.DataFrame) -> list[dict]:
    """Inter-rater kappa per rating field, read from ``gold.agreement`` (``agreement``, slice
    ``all``: the ordinary ratings of the latest pilot round, main and imported rounds;
    third-annotator ratings, given to disputed items only, are left out).

    Two raters: Cohen's kappa, weighted as :func:`_kappa_weights` says (by default
    unweighted, as ``sklearn.metrics.cohen_kappa_score``). More raters: Fleiss' kappa. The
    estimate is None when it is undefined (one category only...) and the coefficient too when
    the table has no such row (no ratings yet, or one rater). The ``agreement`` asset computes
    the kappa this export reads for every field of a study that asks for it
    (:func:`raterlab.agreement.study.field_agreement`).
    """
    overall = agreement[agreement["slice"] == "all"]
    out = []
    for task_name, task in study.tasks.items():
        for field in task.rating_fields:
            entry = {
                "task": task_name,
                "field": field,
                "coefficient": None,
                "weights": None,
                "estimate": None,
                "n_units": 0,
            }
            rows = overall[(overall["task"] == task_name) & (overall["field"] == field)]
            row = _kappa_row(study, field, rows)
            if row is not None:
                entry["n_units"] = int(row["n_units"])
                if not pd.isna(row["estimate"]):
                    cohen = row["coefficient"] == "cohen_kappa"
                    weights = (_kappa_weights(study, field) or "unweighted") if cohen else None
                    entry.update(
                        coefficient=row["coefficient"],
                        weights=weights,
                        estimate=round(float(row["estimate"]), 4),
                    )
            out.append(entry)
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
    card["time_spent"] = plain(r.time_spent_s)
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


def _item_keys(study: Study, item) -> dict:
    """An annotation's opening keys: the unit id, the task (when the study has several), the
    item's record keys (renamed by ``export_keys``) and its tier."""
    entry: dict = {unit_key(study, item.task): item.item_id}
    if len(study.tasks) > 1:
        entry["task"] = item.task
    renamed = study.export_keys
    entry.update({renamed.get(k, k): plain(v) for k, v in record_of(item.record).items()})
    entry["tier"] = item.tier
    return entry


def _cards_and_comments(
    study: Study, task: str, ratings: pd.DataFrame, single: bool
) -> tuple[dict, list[str]]:
    """Each annotator's rating card by annotator id, and their notes as comments
    (``"<annotator_id>: <text>"``). An annotator id that is a reserved key of ``ratings``
    raises ``ValueError``: it would overwrite the consensus."""
    cards: dict = {}
    comments = []
    for r in ratings.itertuples(index=False):
        if r.annotator_id in RESERVED_RATING_KEYS:
            raise ValueError(f"annotator id {r.annotator_id!r} is a reserved ratings key")
        cards[r.annotator_id] = _rating_card(study, task, r, single)
        if isinstance(r.notes, str) and r.notes:
            comments.append(f"{r.annotator_id}: {r.notes}")
    return cards, comments


def _consensus_by_field(
    study: Study, task: str, rows: ItemRows
) -> tuple[dict[str, object], dict[str, object], dict[str, object]]:
    """An item's consensus value (typed as the field is), unrounded rating mean and status,
    each by field."""
    values = {
        f: typed_value(study, task, f, v, n)
        for f, v, n in zip(
            rows["field"], rows.get("value", []), rows.get("value_num", []), strict=True
        )
    }
    means = dict(zip(rows["field"], rows.get("rating_mean", []), strict=True))
    statuses = dict(zip(rows["field"], rows.get("status", []), strict=True))
    return values, means, statuses


def _annotation(
    study: Study, item, ratings: pd.DataFrame, rows: ItemRows, decided: pd.DataFrame | None
) -> dict:
    """One rated item's annotation. A task with one rating field gives its consensus, status
    and mean as single values, a task with several as objects by field."""
    task = item.task
    fields = study.tasks[task].rating_fields
    single = len(fields) == 1
    entry = _item_keys(study, item)
    cards, comments = _cards_and_comments(study, task, ratings, single)
    values, means, statuses = _consensus_by_field(study, task, rows)
    adjudication = _decisions(study, task, decided)
    comments += [
        f"{d['adjudicator_id']}: adjudicated {d['field']} = {d['value']}: {d['rationale']}"
        for d in adjudication
    ]
    entry["ratings"] = {
        **cards,
        "consensus": values.get(fields[0]) if single else values,
        "adjudicated": bool(adjudication),
    }
    entry["comments"] = comments
    entry["consensus_status"] = statuses.get(fields[0]) if single else statuses
    entry["consensus_mean"] = (
        plain(means.get(fields[0])) if single else {f: plain(m) for f, m in means.items()}
    )
    entry["adjudication"] = adjudication
    return entry


def _annotations(bundle: ExportBundle) -> list[dict]:
    """The annotation of every item that is not ``unrated``, in the items' order, from the
    ratings that count (a pilot's latest round only)."""
    study = bundle.study
    ratings = latest_pilot_only(bundle.rating_rows())
    by_item = {k: g for k, g in ratings.groupby("item_id", sort=False)}
    consensus = bundle.consensus_by_item()
    decisions = {k: g for k, g in bundle.adjudications.groupby("item_id", sort=False)}
    rated = bundle.items[bundle.items["status"] != "unrated"]
    return [
        _annotation(
            study,
            item,
            by_item.get(item.item_id, pd.DataFrame()),
            consensus.get((item.task, item.item_id), {"field": []}),
            decisions.get(item.item_id),
        )
        for item in rated.itertuples(index=False)
    ]


def _metadata(bundle: ExportBundle, annotations: list[dict]) -> dict:
    """The export's ``metadata``: the protocol's keys, then raterlab's. The inter-rater kappa
    is one number when the study has one rating field, else one per ``task.field``."""
    study = bundle.study
    agreement = kappa(study, bundle.agreement)
    if len(agreement) == 1:
        inter_rater = agreement[0]["estimate"]
    else:
        inter_rater = {f"{a['task']}.{a['field']}": a["estimate"] for a in agreement}
    units = {unit_key(study, t) for t in study.tasks}
    count_key = f"num_{units.pop()[:-3]}s" if len(units) == 1 else "num_items"
    return {
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


def study_json(bundle: ExportBundle, folder: Path) -> list[Path]:
    """``<study>.json``: the annotation protocol's export, key for key (see
    ``docs/gold_tables.md``), with extra keys beside the protocol's.

    ``metadata``: version, date, annotators, inter_rater_kappa, num_<unit>s, num_adjudicated.
    ``annotations[]``: <unit>_id, the item's keys (renamed by ``export_keys``), ``ratings``
    (one object per annotator id: score, confidence, time_spent; and ``consensus``,
    ``adjudicated``), ``comments`` (``"<annotator_id>: <text>"``, adjudication decisions
    included).
    """
    annotations = _annotations(bundle)
    document = {"metadata": _metadata(bundle, annotations), "annotations": annotations}
    return [dump_json(folder / f"{bundle.study.name}.json", document)]
