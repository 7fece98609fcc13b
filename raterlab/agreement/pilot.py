"""The pilot gate, one attempt per pilot round, and the pilot agreement matrices.

The gate computes exactly the coefficient ``thresholds.pilot_gate`` names, with exactly its
options (``weights: unweighted`` is Cohen's kappa as ``sklearn.metrics.cohen_kappa_score``
computes it by default), on the ratings of the latest pilot round, and compares it with
``min`` (``strict``: estimate > min). Whether the coefficient can be computed for the design
is checked when the study is loaded (:mod:`raterlab.protocol.checks`), so the gate never
changes coefficient and never stays shut for want of one. Beside the gated estimate each
attempt reports its 95% bootstrap interval, the study's band, and, for a Likert field rated
by two annotators, linear and quadratic weighted kappa.

Every attempt (one per pilot round: ``pilot``, ``pilot-2``...) is kept with its estimate,
interval, the study and guide version it was rated under and when it was evaluated
(``gold.pilot_gates``); each round's rater-by-rater score matrix (the protocol's "agreement
matrix", counts of units rated k by one annotator and l by the other) is
``gold.pilot_matrices``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

import numpy as np
import pandas as pd

from raterlab.agreement.bands import apply_bands, landis_koch_band
from raterlab.agreement.by_field import agreement_table
from raterlab.agreement.declared import declared_coefficient, declared_options
from raterlab.agreement.study import field_matrix, rating_fields
from raterlab.design.rounds import guide_sha256, pilot_rounds
from raterlab.protocol import CategoricalField, LikertField, Study

GATE_COLUMNS = (
    "attempt",
    "round",
    "task",
    "field",
    "coefficient",
    "options",
    "estimate",
    "ci_low",
    "ci_high",
    "n_units",
    "n_raters",
    "minimum",
    "strict",
    "passed",
    "gate_passed",
    "band",
    "kappa_linear",
    "kappa_quadratic",
    "study_version",
    "guide_sha256",
    "evaluated_at",
    "note",
)
MATRIX_COLUMNS = ("round", "task", "field", "rater_a", "rater_b", "score_a", "score_b", "count")


@dataclass(frozen=True)
class Gate:
    passed: bool
    message: str
    table: pd.DataFrame
    """One row per gated field of the attempt (:data:`GATE_COLUMNS`); empty without one."""
    round: str | None = None
    """The pilot round judged (the latest)."""


def _band(study: Study, value: float) -> str:
    if pd.isna(value):
        return ""
    bands = study.thresholds.bands
    return landis_koch_band(value) if bands == "landis_koch" else apply_bands(value, bands)


def _weighted_kappas(matrix: pd.DataFrame, spec: object) -> tuple[float, float]:
    """Linear and quadratic weighted kappa beside the gate (Likert, two raters), else NaN."""
    if not isinstance(spec, LikertField) or matrix.shape[1] != 2:
        return np.nan, np.nan
    table = agreement_table(
        {"f": matrix},
        "ordinal",
        ["cohen_kappa:linear", "cohen_kappa:quadratic"],
        list(spec.domain()),
    )
    return float(table["estimate"].iloc[0]), float(table["estimate"].iloc[1])


def gate_attempt(
    study: Study,
    rows: pd.DataFrame,
    round_name: str,
    attempt: int,
    n_resamples: int = 1000,
    evaluated_at: datetime | None = None,
) -> pd.DataFrame:
    """The gate on one pilot round's ratings: a row per gated field (:data:`GATE_COLUMNS`)."""
    gate = study.thresholds.pilot_gate
    if gate is None:
        raise ValueError(f"study {study.name} declares no thresholds.pilot_gate")
    own = rows[rows["round"] == round_name]
    found = []
    for task, field, spec in rating_fields(study):
        if gate.fields and field not in gate.fields:
            continue
        matrix = field_matrix(own, task, field, spec)
        level, name = declared_coefficient(gate, spec)
        categories = list(spec.domain())
        result = agreement_table(
            {field: matrix}, level, [name], categories, ci=n_resamples > 0, n_resamples=n_resamples
        ).iloc[0]
        estimate = float(result["estimate"])
        clears = estimate > gate.min if gate.strict else estimate >= gate.min
        passed = bool(not np.isnan(estimate) and clears)
        linear, quadratic = _weighted_kappas(matrix, spec)
        found.append(
            {
                "attempt": attempt,
                "round": round_name,
                "task": task,
                "field": field,
                "coefficient": gate.coefficient,
                "options": declared_options(gate),
                "estimate": estimate,
                "ci_low": float(result["ci_low"]),
                "ci_high": float(result["ci_high"]),
                "n_units": int(result["n_units"]),
                "n_raters": int(result["n_raters"]),
                "minimum": gate.min,
                "strict": gate.strict,
                "passed": passed,
                "band": _band(study, estimate),
                "kappa_linear": linear,
                "kappa_quadratic": quadratic,
                "note": result["note"],
            }
        )
    table = pd.DataFrame(found)
    return table.assign(
        gate_passed=bool(len(table)) and bool(table["passed"].all()),
        study_version=study.version,
        guide_sha256=guide_sha256(study),
        evaluated_at=evaluated_at or datetime.now(UTC),
    )[list(GATE_COLUMNS)]


def expected_ratings(key: pd.DataFrame, round_name: str) -> int:
    """Ordinary ratings a pilot round's packets ask for (from the sealed key)."""
    own = key[(key["round"] == round_name) & (key["kind"] == "item")]
    return len(own.drop_duplicates(["item_id", "annotator_id", "task"]))


def pilot_gate(
    study: Study, rows: pd.DataFrame, key: pd.DataFrame, n_resamples: int = 1000
) -> Gate:
    """Whether the main round may go out: the latest pilot round is complete and clears
    ``thresholds.pilot_gate`` on every field it names (default: every rating field).

    ``rows``: ordinary ratings (:func:`raterlab.agreement.study.ratings`); ``key``: the sealed
    key, whose pilot rounds say which round is the latest and what it asks for.
    """
    gate = study.thresholds.pilot_gate
    if study.design.pilot is None or gate is None:
        return Gate(True, "no pilot gate in this study", pd.DataFrame(columns=list(GATE_COLUMNS)))
    rounds = pilot_rounds(key["round"])
    latest = rounds[-1] if rounds else "pilot"
    expected = expected_ratings(key, latest)
    own = rows[rows["round"] == latest]
    returned = own.drop_duplicates(["item_id", "annotator_id", "task"]).shape[0]
    if expected == 0 or returned < expected:
        return Gate(
            False,
            f"{latest} incomplete: {returned} of {expected} ratings returned",
            pd.DataFrame(columns=list(GATE_COLUMNS)),
            latest,
        )
    table = gate_attempt(study, rows, latest, len(rounds), n_resamples)
    sign = ">" if gate.strict else ">="
    if table["gate_passed"].iloc[0]:
        return Gate(
            True,
            f"{latest}: {gate.coefficient} {sign} {gate.min} on every gated field",
            table,
            latest,
        )
    failing = table[~table["passed"]].sort_values("estimate", na_position="first").iloc[0]
    value = "not computable" if pd.isna(failing["estimate"]) else f"{failing['estimate']:.3f}"
    message = (
        f"main round held back: {latest} {gate.coefficient} on {failing['task']}."
        f"{failing['field']} is {value}, needs {sign} {gate.min}"
    )
    return Gate(False, message, table, latest)


def gate_history(previous: pd.DataFrame | None, attempt: pd.DataFrame) -> pd.DataFrame:
    """``gold.pilot_gates`` after an attempt: earlier rounds' attempts kept as they were, the
    attempt's own round replaced (re-evaluating a round is idempotent)."""
    if attempt.empty:
        return previous if previous is not None else pd.DataFrame(columns=list(GATE_COLUMNS))
    if previous is None or previous.empty:
        return attempt.reset_index(drop=True)
    kept = previous[~previous["round"].isin(attempt["round"].unique())]
    out = pd.concat([kept[list(GATE_COLUMNS)], attempt], ignore_index=True)
    return out.sort_values(["attempt", "task", "field"], kind="stable").reset_index(drop=True)


def pilot_matrices(study: Study, rows: pd.DataFrame) -> pd.DataFrame:
    """Per pilot round, rating field and pair of annotators: how many units one rated
    ``score_a`` and the other ``score_b`` (every cell of the declared scale, zeros too)."""
    found = []
    for round_name in pilot_rounds(rows["round"]) if len(rows) else []:
        own = rows[rows["round"] == round_name]
        for task, field, spec in rating_fields(study):
            matrix = field_matrix(own, task, field, spec)
            domain = [str(v) for v in spec.domain()]
            names = sorted(matrix.columns)
            for i, a in enumerate(names):
                for b in names[i + 1 :]:
                    pair = matrix[[a, b]].dropna()
                    if pair.empty:
                        continue
                    text = pair if isinstance(spec, CategoricalField) else pair.map(_integer)
                    counts = pd.crosstab(text[a], text[b]).reindex(
                        index=domain, columns=domain, fill_value=0
                    )
                    long = counts.stack().rename("count").reset_index()
                    long.columns = ["score_a", "score_b", "count"]
                    found.append(
                        long.assign(round=round_name, task=task, field=field, rater_a=a, rater_b=b)
                    )
    if not found:
        return pd.DataFrame(columns=list(MATRIX_COLUMNS))
    out = pd.concat(found, ignore_index=True)
    return out.astype({"count": "int64"})[list(MATRIX_COLUMNS)]


def _integer(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def matrix_markdown(matrices: pd.DataFrame) -> str:
    """The pilot matrices as the protocol draws them: one table per round, field and pair,
    the second annotator's scores down, the first's across, with total agreement."""
    parts = []
    for (rnd, task, field, a, b), block in matrices.groupby(
        ["round", "task", "field", "rater_a", "rater_b"], sort=False
    ):
        table = block.pivot(index="score_b", columns="score_a", values="count")
        order = list(dict.fromkeys(block["score_a"]))
        table = table.reindex(index=order, columns=order)
        total = int(block["count"].sum())
        same = int(block.loc[block["score_a"] == block["score_b"], "count"].sum())
        header = "| | " + " | ".join(f"{a}: {s}" for s in order) + " |"
        lines = [
            f"### {rnd}: {task}.{field}, {a} x {b}",
            "",
            header,
            "|" + "---|" * (len(order) + 1),
        ]
        for score in order:
            cells = " | ".join(str(int(v)) for v in table.loc[score])
            lines.append(f"| **{b}: {score}** | {cells} |")
        share = f"{same}/{total} = {same / total:.0%}" if total else "no shared units"
        lines += ["", f"Total agreement: {share}.", ""]
        parts.append("\n".join(lines))
    return "\n".join(parts)
