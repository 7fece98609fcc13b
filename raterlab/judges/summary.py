"""Plain-text lines of a study's judge calibration (the `make demo` summary)."""

from __future__ import annotations

import pandas as pd

from raterlab.judges.plot import headline


def _figure(estimate: float, low: float, high: float) -> str:
    if pd.isna(estimate):
        return "-"
    return f"{estimate:.2f}" if pd.isna(low) else f"{estimate:.2f} [{low:.2f}, {high:.2f}]"


def judge_lines(calibration: pd.DataFrame, weights: pd.DataFrame) -> list[str]:
    """Per field: the human ceiling of its headline statistic (Spearman or kappa), then each
    judge's estimate with its interval and weight, ``FLAGGED`` when outside the bounds; last,
    how many fields flagged each judge."""
    rows = headline(calibration)
    if rows.empty:
        return ["not computed"]
    keyed = weights.set_index(["task", "field", "judge"])
    lines = []
    for (task, field), block in rows.groupby(["task", "field"], sort=True, dropna=False):
        first = block.iloc[0]
        ceiling = _figure(first["human_ceiling"], first["ceiling_low"], first["ceiling_high"])
        parts = []
        for row in block.itertuples():
            text = f"{row.judge} {_figure(row.estimate, row.ci_low, row.ci_high)}"
            key = (task, field, row.judge)
            if key in keyed.index:
                text += f" weight {keyed.loc[key, 'weight']:.2f}"
                if bool(keyed.loc[key, "flagged"]):
                    text += " FLAGGED"
            parts.append(text)
        name = f"{task}.{field}" if isinstance(task, str) and task else field
        lines.append(f"{name} ({first['statistic']}; humans {ceiling}): " + ", ".join(parts))
    flagged = weights[weights["flagged"].astype(bool)].groupby("judge").size()
    fields = weights.groupby("judge").size()
    summary = ", ".join(f"{j} on {flagged[j]} of {fields[j]} fields" for j in flagged.index)
    lines.append(f"flagged (outside the bounds, deweighted): {summary or 'none'}")
    return lines
