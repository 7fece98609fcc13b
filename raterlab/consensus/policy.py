"""Consensus per item and rating field, by the study's ``consensus`` policy.

**Disputes** (which fields go to adjudication), from ``consensus.adjudicate``:

- ``likert_gap: g``: a Likert field whose ratings are ``g`` or more points apart;
- ``binary_disagreement_tiers: [..]``: any disagreement on a binary or categorical field of
  an item in one of those tiers;
- ``uncertain: true``: every rating field of an item that some rater rated with confidence
  ``low``;
- ``notes_contain: [..]``: every rating field of an item whose notes, in some rating, contain
  one of the strings (reason ``flagged``);
- ``adjudicate`` in ``consensus.likert_between``: a Likert field whose median or mean falls
  between two scale points and no earlier rule of that list decides it (reason
  ``likert_between``).

**Resolution**, in order:

1. an adjudicator's decision (``gold.adjudications``) -> ``adjudicated``;
2. no rating that counts -> ``unresolved`` (every rater skipped);
3. a field that is not disputed: one rating -> ``single``; all equal -> ``unanimous``;
   else binary and categorical fields take the strict majority label (``majority``; without
   one, a tie, ``unresolved``), Likert fields the median or mean (``consensus.likert``) ->
   ``majority``. A Likert consensus is always a point of the scale: a median or mean between
   two points is settled by ``consensus.likert_between`` (the method then names the rule
   that settled it), and the unrounded mean of the ratings is kept in ``rating_mean``;
4. a disputed field, when ``tie_break: third_annotator`` and three or more ratings count
   (a third annotator rated it, or the pilot gave it to everyone): the strict majority or the
   Likert median/mean -> ``tie_broken`` (no strict majority: it goes to the adjudicator);
5. otherwise the field is ``unresolved`` until decided (reason ``awaiting adjudication`` or
   ``awaiting a third annotator``).

A field with no way forward (a tie in a tier the study does not adjudicate, every rater
skipped) becomes ``excluded`` when the study says ``unresolved: exclude``; fields still on
their way through adjudication stay ``unresolved``.

With ``consensus.method: dawid_skene``, every field that is not adjudicated and that the
raters did not give one value (``single``, ``unanimous``) takes the Dawid-Skene posterior mode
(:mod:`raterlab.consensus.dawid_skene`) as its value and the posterior probability as its
confidence (status ``majority``). A value every rater gave stays, unless the study declares
``consensus.dawid_skene_overrides_unanimous: true``; then the model's value replaces it too,
and the status is ``model_override`` where it is a value no rater gave (on DialSummEval's
consistency, 40 of 170 unanimous items). A fit that did not converge gives no value: the
policy's value stays and the reason says so. The Dawid-Skene value is reported for every
field either way (``ds_value``), so the two methods can be compared.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from statistics import median

import numpy as np
import pandas as pd
import polars as pl

from raterlab.consensus.dawid_skene import dawid_skene
from raterlab.protocol import (
    CONFIDENCE_LEVELS,
    BinaryField,
    CategoricalField,
    LikertField,
    Study,
)
from raterlab.tables import names
from raterlab.tables.consensus import CONSENSUS, RESOLVED

REASONS = ("likert_gap", "binary_disagreement", "uncertain", "flagged", "likert_between")
CONFIDENCE_RANK = {level: rank for rank, level in enumerate(CONFIDENCE_LEVELS)}
AWAITING_ADJUDICATION = "awaiting adjudication"
AWAITING_THIRD = "awaiting a third annotator"
DISPUTE_COLUMNS = ("task", "item_id", "field", "reasons", "agreement", "n_ratings")


def field_spec(study: Study, task: str, field: str):
    return study.tasks[task].fields[field]


def classes(spec) -> list[str]:
    """A rating field's domain as canonical text (``0``/``1``, ``1``..``5``, labels)."""
    return [str(v) for v in spec.domain()]


def number(text: str | None) -> float | None:
    try:
        return float(text) if text is not None else None
    except ValueError:
        return None


def format_number(value: float) -> str:
    """A Likert consensus as text: whole numbers plain, a mean rounded to 4 decimals."""
    return f"{round(value, 4):g}"


def _groups(ratings: pd.DataFrame, flags: tuple[str, ...] = ()) -> pd.DataFrame:
    """Per (task, item, field), sorted: the values (text) and confidences (lower-cased) of the
    counting ratings in their order, whether any of them was given with confidence ``low``,
    and whether any rating's notes contain one of ``flags``. Grouped by Polars (a loop over
    the ratings in Python cost about 1 s per 100,000)."""
    columns = ["task", "item_id", "field", "values", "confidences", "low", "flagged"]
    if ratings.empty:
        return pd.DataFrame(columns=columns, dtype=object).astype({"low": bool, "flagged": bool})
    text = ["task", "item_id", "field", "value", "confidence", "notes"]
    present = ratings.reindex(columns=text).astype(object)
    frame = pl.from_pandas(present).with_columns(pl.col(text).cast(pl.String))
    confidence = pl.col("confidence").str.to_lowercase()
    flagged = pl.any_horizontal(
        pl.lit(False), *(pl.col("notes").str.contains(flag, literal=True) for flag in flags)
    ).fill_null(False)
    grouped = (
        frame.group_by("task", "item_id", "field", maintain_order=True)
        .agg(
            pl.col("value").alias("values"),
            confidence.alias("confidences"),
            (confidence == "low").fill_null(False).any().alias("low"),
            flagged.any().alias("flagged"),
        )
        .sort("task", "item_id", "field")
    )
    return pd.DataFrame(
        {c: grouped[c].to_list() for c in columns}, columns=columns, dtype=object
    ).astype({"low": bool, "flagged": bool})


def _disputed_groups(study: Study, ratings: pd.DataFrame) -> pd.DataFrame:
    """:func:`_groups` flagging the notes ``consensus.adjudicate.notes_contain`` names."""
    return _groups(ratings, tuple(study.consensus.adjudicate.notes_contain))


def _items_where(groups: pd.DataFrame, column: str) -> set[tuple[str, str]]:
    hit = groups[groups[column].astype(bool)]
    return set(zip(hit["task"], hit["item_id"], strict=True))


def _agreement(spec, values: list[str]) -> float:
    """1 for full agreement, lower for spread: modal share (labels) or 1 - range/scale (Likert)."""
    if len(values) <= 1:
        return 1.0
    if isinstance(spec, LikertField):
        nums = [float(v) for v in values]
        return 1.0 - (max(nums) - min(nums)) / (spec.max - spec.min)
    return Counter(values).most_common(1)[0][1] / len(values)


def find_disputes(
    study: Study,
    ratings: pd.DataFrame,
    tiers: dict[str, str],
    groups: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Fields to adjudicate under ``consensus.adjudicate`` (see the module doc), with the
    reasons (comma-separated), the agreement among the ratings and their number. ``groups``:
    the ratings' :func:`_disputed_groups`, when the caller has them already."""
    rule = study.consensus.adjudicate
    if groups is None:
        groups = _disputed_groups(study, ratings)
    uncertain_items = _items_where(groups, "low") if rule.uncertain else set()
    flagged_items = _items_where(groups, "flagged")
    rows = []
    for task, item, field, values, confidences in zip(
        groups["task"],
        groups["item_id"],
        groups["field"],
        groups["values"],
        groups["confidences"],
        strict=True,
    ):
        spec = field_spec(study, task, field)
        reasons = []
        if isinstance(spec, LikertField) and rule.likert_gap is not None and len(values) > 1:
            nums = [float(v) for v in values]
            if max(nums) - min(nums) >= rule.likert_gap:
                reasons.append("likert_gap")
        if (
            isinstance(spec, BinaryField | CategoricalField)
            and len(set(values)) > 1
            and tiers.get(item) in rule.binary_disagreement_tiers
        ):
            reasons.append("binary_disagreement")
        if (task, item) in uncertain_items:
            reasons.append("uncertain")
        if (task, item) in flagged_items:
            reasons.append("flagged")
        if (
            isinstance(spec, LikertField)
            and len(values) > 1
            and on_scale(study, values, confidences)[0] is None
        ):
            reasons.append("likert_between")
        if reasons:
            rows.append(
                (task, item, field, ",".join(reasons), _agreement(spec, values), len(values))
            )
    return pd.DataFrame(rows, columns=list(DISPUTE_COLUMNS))


def _field_specs(study: Study) -> dict[tuple[str, str], object]:
    """Each (task, field)'s field spec."""
    return {(t, f): spec for t, task in study.tasks.items() for f, spec in task.fields.items()}


def _majority(values: list[str]) -> str | None:
    label, count = Counter(values).most_common(1)[0]
    return str(label) if count * 2 > len(values) else None


def _central(study: Study, values: list[str]) -> float:
    """Mean or median of a field's ratings. Plain Python, here and in :func:`_support` and
    :func:`mean_rating`: on a few ratings numpy's cost per call was about 2 s per 100,000
    items, and the ratings are whole numbers, so every sum is exact in any order."""
    nums = [float(v) for v in values]
    return sum(nums) / len(nums) if study.consensus.likert == "mean" else median(nums)


def _support(spec, values: list[str], value: str | None) -> float | None:
    if value is None or not values:
        return None
    if isinstance(spec, LikertField):
        v = float(value)
        return sum(abs(float(x) - v) <= 0.5 for x in values) / len(values)
    return sum(x == value for x in values) / len(values)


def _higher_confidence(values: list[str], confidences: list[str | None]) -> str | None:
    """The value the most confident ratings agree on (``None`` if they differ or none has a
    confidence)."""
    ranks = [CONFIDENCE_RANK.get(c, -1) if c else -1 for c in confidences]
    top = max(ranks, default=-1)
    chosen = {v for v, r in zip(values, ranks, strict=True) if r == top}
    return chosen.pop() if top >= 0 and len(chosen) == 1 else None


def on_scale(
    study: Study, values: list[str], confidences: list[str | None]
) -> tuple[str | None, str]:
    """A Likert consensus that is a point of the scale, and the method that gave it.

    The median or mean (``consensus.likert``) when it is a whole point; else the rules of
    ``consensus.likert_between`` in order: ``higher_confidence`` (the value the ratings of
    the highest confidence level agree on), ``nearest_down`` / ``nearest_up`` (the nearest
    point, an exact half going down / up), ``adjudicate`` (no value: the field is disputed).
    """
    central = _central(study, values)
    if float(central).is_integer():
        return format_number(central), study.consensus.likert
    for rule in study.consensus.likert_between:
        if rule == "higher_confidence":
            value = _higher_confidence(values, confidences)
            if value is not None:
                return format_number(float(value)), rule
        elif rule == "nearest_down":
            return format_number(float(np.ceil(central - 0.5))), rule
        elif rule == "nearest_up":
            return format_number(float(np.floor(central + 0.5))), rule
        else:
            return None, rule
    return None, "adjudicate"


def _aggregate(
    study: Study, spec, values: list[str], confidences: list[str | None]
) -> tuple[str | None, str]:
    """Majority label or Likert point of ``values`` (:func:`on_scale`); the method name."""
    if isinstance(spec, LikertField):
        return on_scale(study, values, confidences)
    return _majority(values), "majority"


def mean_rating(spec, values: list[str]) -> float | None:
    """The unrounded mean of a binary or Likert field's ratings (``None`` for labels)."""
    if isinstance(spec, CategoricalField) or not values:
        return None
    return sum(float(v) for v in values) / len(values)


def resolve_field(
    study: Study,
    spec,
    values: list[str],
    reasons: str,
    decision: str | None,
    tier: str | None,
    pending: str | None,
    confidences: list[str | None] | None = None,
) -> dict:
    """One field's policy consensus (see the module doc). ``pending`` says where an open
    dispute stands (``awaiting adjudication``...), used as the reason; ``confidences`` are
    the ratings' confidence levels, in the order of ``values``."""
    confidences = confidences if confidences is not None else [None] * len(values)
    n = len(values)
    out = {"value": None, "status": "unresolved", "method": None, "reason": reasons or None}

    def note(text: str) -> str:
        return f"{reasons}; {text}" if reasons else text

    if decision is not None:
        return {**out, "value": decision, "status": "adjudicated", "method": "adjudicator"}
    if n == 0:
        return {**out, "reason": note("no ratings (every rater skipped)"), "final": True}
    if not reasons:
        if n == 1:
            return {**out, "value": values[0], "status": "single", "method": "single_rating"}
        if len(set(values)) == 1:
            value, method = _aggregate(study, spec, values, confidences)
            return {**out, "value": value, "status": "unanimous", "method": method}
        value, method = _aggregate(study, spec, values, confidences)
        if value is None:
            why = f"tie; tier {tier} is not adjudicated" if tier else "tie"
            return {**out, "reason": why, "final": True}
        return {**out, "value": value, "status": "majority", "method": method}
    if study.consensus.tie_break == "third_annotator" and n >= 3:
        value, method = _aggregate(study, spec, values, confidences)
        if value is not None:
            return {**out, "value": value, "status": "tie_broken", "method": method}
    return {**out, "reason": note(pending or AWAITING_ADJUDICATION)}


DS_COLUMNS = ["task", "item_id", "field", "ds_value", "ds_confidence", "ds_note"]


def _ds_columns(study: Study, ratings: pd.DataFrame) -> pd.DataFrame:
    """Dawid-Skene value and posterior per (task, item, field), fitted per task and field.

    A fit that did not converge gives no value: its items get a ``ds_note`` saying so
    instead (in the reason of a ``consensus.method: dawid_skene`` study, which then keeps
    the policy's value)."""
    parts = []
    for (task, field), rows in ratings.groupby(["task", "field"], sort=True):
        spec = field_spec(study, task, field)
        fit = dawid_skene(
            rows["item_id"], rows["annotator_id"], rows["value"], classes=classes(spec)
        )
        labels = fit.labels().rename(
            columns={"item": "item_id", "value": "ds_value", "confidence": "ds_confidence"}
        )
        labels["ds_note"] = None
        if not fit.converged:
            labels["ds_value"] = None
            labels["ds_confidence"] = np.nan
            labels["ds_note"] = (
                f"Dawid-Skene did not converge in {fit.iterations} iterations; policy value kept"
            )
        parts.append(labels.assign(task=task, field=field))
    if not parts:
        return pd.DataFrame(columns=DS_COLUMNS)
    return pd.concat(parts, ignore_index=True)[DS_COLUMNS]


POLICY_COLUMNS = [
    "task",
    "item_id",
    "field",
    "n_ratings",
    "values",
    "value",
    "status",
    "method",
    "reason",
    "confidence",
    "policy_value",
    "rating_mean",
]


def _field_grid(study: Study, ratings: pd.DataFrame, tiers: dict[str, str]) -> pd.DataFrame:
    """One row per rated item and rating field: its counting ``values`` and ``confidences``
    (empty lists where every rater skipped) and the dispute ``reasons`` (NaN where none)."""
    rated = ratings[["task", "item_id"]].drop_duplicates()
    fields = {name: task.rating_fields for name, task in study.tasks.items()}
    grid = [
        (task, item, field)
        for task, item in zip(rated["task"], rated["item_id"], strict=True)
        for field in fields[task]
    ]
    frame = pd.DataFrame(grid, columns=["task", "item_id", "field"])
    groups = _disputed_groups(study, ratings)
    frame = frame.merge(groups[["task", "item_id", "field", "values", "confidences"]], how="left")
    for column in ("values", "confidences"):
        frame[column] = frame[column].map(lambda v: v if isinstance(v, list) else [])
    disputes = find_disputes(study, ratings, tiers, groups)
    return frame.merge(disputes[["task", "item_id", "field", "reasons"]], how="left")


def _latest_decisions(adjudications: pd.DataFrame | None) -> dict[tuple[str, str, str], str]:
    """The adjudicator's value by (task, item, field); a later decision replaces an earlier."""
    if adjudications is None or not len(adjudications):
        return {}
    latest = adjudications.sort_values("decided_at", kind="stable")
    return {
        (t, i, f): v
        for t, i, f, v in zip(
            latest["task"], latest["item_id"], latest["field"], latest["value"], strict=True
        )
    }


def _policy_row(
    study: Study,
    spec,
    values: list[str],
    confidences: list[str | None],
    reasons: str,
    decision: str | None,
    tier: str | None,
    pending: str | None,
) -> dict:
    """One field's policy result: :func:`resolve_field`, ``excluded`` where the study drops
    fields with no way forward, and the support, policy value and unrounded mean beside it."""
    result = resolve_field(study, spec, values, reasons, decision, tier, pending, confidences)
    final = result.pop("final", False)
    if result["status"] == "unresolved" and final and study.consensus.unresolved == "exclude":
        result["status"] = "excluded"
    result["confidence"] = _support(spec, values, result["value"])
    result["policy_value"] = result["value"]
    result["rating_mean"] = mean_rating(spec, values)
    return result


def _policy_frame(
    study: Study,
    frame: pd.DataFrame,
    decisions: dict[tuple[str, str, str], str],
    tiers: dict[str, str],
    pending: dict[tuple[str, str, str], str],
) -> pd.DataFrame:
    """The policy's consensus (``POLICY_COLUMNS``) for every row of :func:`_field_grid`.

    A field's result depends on its task and field, values, confidences, dispute reasons,
    decision, tier and pending state alone, so it is worked out once per distinct set of
    them (at 100,000 items, 248,000 fields took 5.6 s one at a time)."""
    specs = _field_specs(study)
    results: dict[tuple, dict] = {}
    picked = []
    # as Python objects: iterating Arrow-backed text costs about 1 us per value
    for task, item, field, values, confidences, reasons in zip(
        *(frame[c].to_numpy(dtype=object) for c in ("task", "item_id", "field")),
        frame["values"],
        frame["confidences"],
        frame["reasons"].to_numpy(dtype=object),
        strict=True,
    ):
        at = (task, item, field)
        key = (
            task,
            field,
            tuple(values),
            tuple(confidences),
            reasons if isinstance(reasons, str) else "",
            decisions.get(at),
            tiers.get(item),
            pending.get(at),
        )
        result = results.get(key)
        if result is None:
            result = results[key] = _policy_row(
                study, specs[task, field], values, confidences, *key[4:]
            )
        picked.append(result)
    if not picked:
        return pd.DataFrame(columns=POLICY_COLUMNS)
    columns = {c: frame[c].tolist() for c in ("task", "item_id", "field")}
    columns["n_ratings"] = [len(v) for v in frame["values"]]
    columns["values"] = frame["values"].tolist()
    columns |= {c: [r[c] for r in picked] for c in POLICY_COLUMNS[5:]}
    return pd.DataFrame(columns, columns=POLICY_COLUMNS)


def _value_numbers(study: Study, out: pd.DataFrame) -> list[float | None]:
    """``value_num`` of each row: the consensus as a number, ``None`` for a categorical label."""
    specs = _field_specs(study)
    return [
        number(v) if not isinstance(specs[t, f], CategoricalField) else None
        for t, f, v in zip(
            *(out[c].to_numpy(dtype=object) for c in ("task", "field", "value")), strict=True
        )
    ]


def compute_consensus(
    study: Study,
    ratings: pd.DataFrame,
    items: pd.DataFrame,
    adjudications: pd.DataFrame | None = None,
    pending: dict[tuple[str, str, str], str] | None = None,
    computed_at: datetime | None = None,
) -> pd.DataFrame:
    """``gold.consensus`` rows of one study (without the ``study`` column).

    ``ratings``: the counting ratings (:func:`raterlab.ingest.study_tables.counting_ratings`);
    ``items``: ``task, item_id, tier`` of every item rated (a row per item and rating field
    is produced for each rated item); ``adjudications``: ``gold.adjudications`` rows;
    ``pending``: where an open dispute stands, by (task, item, field).
    """
    pending = pending or {}
    computed_at = computed_at or datetime.now(UTC)
    # in the order they were written (rating ids grow), whatever order the read gave
    ratings = ratings.sort_values("rating_id", kind="stable") if len(ratings) else ratings
    tiers = dict(zip(items["item_id"], items["tier"], strict=True)) if len(items) else {}
    frame = _field_grid(study, ratings, tiers)
    out = _policy_frame(study, frame, _latest_decisions(adjudications), tiers, pending)
    out = out.merge(_ds_columns(study, ratings), how="left", on=["task", "item_id", "field"])
    if study.consensus.method == "dawid_skene":
        out = _apply_dawid_skene(out, study.consensus.dawid_skene_overrides_unanimous)
    out = out.drop(columns="ds_note")
    out["value_num"] = _value_numbers(study, out)
    out["computed_at"] = computed_at
    out["n_ratings"] = out["n_ratings"].astype("int64")
    return out[names(CONSENSUS)[1:]].reset_index(drop=True)


def with_pending(consensus: pd.DataFrame, pending: dict[tuple[str, str, str], str]) -> pd.DataFrame:
    """``consensus`` with the reason of each open dispute saying where it stands. The
    unresolved rows' reasons are written at once (a cell written at a time copied the column
    on each write while it was being read: minutes at a million items)."""
    out = consensus.copy()
    open_ = (out["status"] == "unresolved").to_numpy(dtype=bool, na_value=False)
    if not pending or not open_.any():
        return out
    rows = out.loc[open_, ["task", "item_id", "field", "reason"]]
    out.loc[open_, "reason"] = [
        reason.replace(AWAITING_ADJUDICATION, where)
        if (where := pending.get((task, item, field))) and isinstance(reason, str)
        else reason
        for task, item, field, reason in zip(
            rows["task"], rows["item_id"], rows["field"], rows["reason"], strict=True
        )
    ]
    return out


def _apply_dawid_skene(out: pd.DataFrame, override_unanimous: bool) -> pd.DataFrame:
    """Every field not adjudicated takes the Dawid-Skene posterior mode (see the module doc).

    A value every rater gave (``single``, ``unanimous``) stays, unless the study declares
    ``consensus.dawid_skene_overrides_unanimous``: then the model's value replaces it, and
    where that is a value no rater gave the status says so (``model_override``). A field
    whose fit did not converge keeps the policy's value, and its reason says why."""
    out = out.astype({c: object for c in ("value", "status", "method", "reason")})
    given = out["status"].isin(["single", "unanimous"]).to_numpy()
    fitted = ((out["status"] != "adjudicated") & out["ds_value"].notna()).to_numpy()
    use = fitted if override_unanimous else fitted & ~given
    change = use & ~given
    overridden = use & given & (out["ds_value"].astype(str) != out["value"].astype(str))
    out["value"] = np.where(use, out["ds_value"], out["value"])
    out["confidence"] = np.where(use, out["ds_confidence"], out["confidence"])
    out["method"] = np.where(use, "dawid_skene", out["method"])
    out["status"] = np.where(change, "majority", out["status"])
    out["status"] = np.where(overridden, "model_override", out["status"])
    out["reason"] = [
        r.split(";")[0] if c and isinstance(r, str) else r
        for c, r in zip(change, out["reason"], strict=True)
    ]
    unconverged = out["ds_note"].notna() & (out["status"] != "adjudicated")
    out.loc[unconverged, "reason"] = [
        f"{r}; {n}" if isinstance(r, str) else n
        for r, n in zip(
            out.loc[unconverged, "reason"], out.loc[unconverged, "ds_note"], strict=True
        )
    ]
    return out


def item_status(consensus: pd.DataFrame) -> pd.DataFrame:
    """Per (task, item): ``n_fields``, ``n_resolved``, ``adjudicated``, ``tie_broken``,
    ``status`` (resolved, unresolved or excluded)."""
    if consensus.empty:
        return pd.DataFrame(
            columns=[
                "task",
                "item_id",
                "n_fields",
                "n_resolved",
                "adjudicated",
                "tie_broken",
                "status",
            ]
        )
    flags = consensus.assign(
        resolved=consensus["status"].isin(RESOLVED),
        adjudicated=consensus["status"].eq("adjudicated"),
        tie_broken=consensus["status"].eq("tie_broken"),
        excluded=consensus["status"].eq("excluded"),
    )
    per = flags.groupby(["task", "item_id"], sort=True).agg(
        n_fields=("field", "size"),
        n_resolved=("resolved", "sum"),
        adjudicated=("adjudicated", "any"),
        tie_broken=("tie_broken", "any"),
        excluded=("excluded", "any"),
    )
    per["status"] = np.where(
        per["excluded"],
        "excluded",
        np.where(per["n_resolved"] == per["n_fields"], "resolved", "unresolved"),
    )
    return per.drop(columns="excluded").reset_index()
