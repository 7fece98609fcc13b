"""Attention checks: obvious items with a known answer (``expected`` in ``raw.generations``).

A check is one attention rating; it is passed when every field named in ``expected`` holds
the expected value (a number equal to it on Likert and binary fields, the same label on a
categorical one). An empty or skipped answer fails. Per annotator:

``attention_pass_rate`` = passed checks / checks, flagged below ``quality.attention_min_pass``.

Each failed check is an item flag ``attention_failed`` naming the answers that missed.
"""

from __future__ import annotations

import pandas as pd

from raterlab.protocol import Study
from raterlab.quality.ratings import ALL, RATING_KEY, metric, rating_fields, show


def expected_answers(generations: pd.DataFrame, role: str) -> pd.DataFrame:
    """Long table ``item_id, field, expected`` of the items with ``role``."""
    own = generations[generations["role"] == role]
    rows = [
        (item, field, value)
        for item, expected in zip(own["item_id"], own["expected"], strict=True)
        if isinstance(expected, dict)
        for field, value in expected.items()
    ]
    return pd.DataFrame(rows, columns=["item_id", "field", "expected"], dtype=object)


def _matches(study: Study, task: pd.Series, field: pd.Series, x: pd.Series, want: pd.Series):
    fields = rating_fields(study)
    out = []
    for t, f, got, exp in zip(task, field, x, want, strict=True):
        info = fields.get((t, f))
        if got is None or got != got:
            out.append(False)
        elif info is not None and info.numeric:
            try:
                out.append(float(got) == float(exp))
            except (TypeError, ValueError):
                out.append(False)
        else:
            out.append(str(got) == str(exp))
    return out


def answers_vs_expected(
    study: Study, labels: pd.DataFrame, rows: pd.DataFrame, generations: pd.DataFrame, kind: str
) -> pd.DataFrame:
    """Every (rating, expected field) of ``kind`` ratings: ``x`` (missing when not answered),
    ``expected``, ``match``. ``labels`` gives the ratings, ``rows`` (prepared) their values."""
    ratings = labels.loc[labels["kind"] == kind, list(RATING_KEY)].drop_duplicates()
    ratings = ratings.astype({"copy": int})
    want = expected_answers(generations, "attention" if kind == "attention" else kind)
    grid = ratings.merge(want, on="item_id")
    values = rows.loc[rows["kind"] == kind, [*RATING_KEY, "field", "x"]]
    grid = grid.merge(values, on=[*RATING_KEY, "field"], how="left")
    grid["match"] = _matches(study, grid["task"], grid["field"], grid["x"], grid["expected"])
    return grid


def attention_checks(
    study: Study, labels: pd.DataFrame, rows: pd.DataFrame, generations: pd.DataFrame
) -> pd.DataFrame:
    """One row per attention check: the rating key, ``passed`` and ``missed`` (text)."""
    grid = answers_vs_expected(study, labels, rows, generations, "attention")
    if grid.empty:
        return pd.DataFrame(columns=[*RATING_KEY, "passed", "missed"])

    def missed(part: pd.DataFrame) -> str:
        bad = part[~part["match"]].sort_values("field", kind="stable")
        return "; ".join(
            f"{f} {'empty' if x is None or x != x else show(x)} (expected {show(e)})"
            for f, x, e in zip(bad["field"], bad["x"], bad["expected"], strict=True)
        )

    checks = grid.groupby(list(RATING_KEY), sort=True)
    out = checks["match"].all().rename("passed").to_frame()
    out["missed"] = checks[["field", "x", "expected", "match"]].apply(missed)
    return out.reset_index()


def attention_metrics(study: Study, checks: pd.DataFrame) -> list[dict]:
    target = study.quality.attention_min_pass
    return [
        metric(
            annotator,
            "attention_pass_rate",
            ALL,
            own["passed"].mean(),
            len(own),
            target=target,
            comparison=">=",
        )
        for annotator, own in checks.groupby("annotator_id", sort=True)
    ]


def attention_flags(checks: pd.DataFrame) -> list[dict]:
    failed = checks[~checks["passed"].astype(bool)]
    return [
        {
            "annotator_id": a,
            "task": t,
            "item_id": i,
            "flag": "attention_failed",
            "detail": f"batch {b}: {m}",
        }
        for a, t, i, b, m in zip(
            failed["annotator_id"],
            failed["task"],
            failed["item_id"],
            failed["batch"],
            failed["missed"],
            strict=True,
        )
    ]
