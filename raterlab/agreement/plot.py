"""A forest plot of a study's agreement: one line per field, the protocol's coefficient (the
headline rows of ``gold.agreement``) with its 95% interval and the study's minimum."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd

from raterlab import figures
from raterlab.protocol import Study


def headline(table: pd.DataFrame) -> pd.DataFrame:
    """Each field's headline row on all items (the protocol's coefficient, ``gold.agreement``
    column ``headline``); a table without one gives each field's Krippendorff's alpha at the
    field's own level."""
    rows = table[(table["slice"] == "all") & table["estimate"].notna()]
    if "headline" in rows and rows["headline"].astype(bool).any():
        rows = rows[rows["headline"].astype(bool)]
    else:
        rows = rows[rows["coefficient"] == "krippendorff_alpha"]
        rows = rows[rows["level"].isin(["nominal", "ordinal"])]
    return rows.sort_values(["task", "field"]).reset_index(drop=True)


def _minimum(study: Study, declared_by: object) -> float | None:
    """The highest minimum among the thresholds a row answers (``declared_by``)."""
    found = []
    for name in str(declared_by or "").split(","):
        name = name.strip()
        if name == "thresholds.pilot_gate" and study.thresholds.pilot_gate is not None:
            found.append(study.thresholds.pilot_gate.min)
        elif name.startswith("thresholds.minimums["):
            index = int(name.removeprefix("thresholds.minimums[").rstrip("]"))
            if index < len(study.thresholds.minimums):
                found.append(study.thresholds.minimums[index].min)
    return max(found) if found else None


def forest_plot(study: Study, table: pd.DataFrame, path: Path) -> Path | None:
    """Write the plot as PNG to ``path``; ``None`` when there is nothing to plot yet. A
    file drawn from the same rows and study is left as it is (:mod:`raterlab.figures`)."""
    rows = headline(table)
    if rows.empty:
        return None
    inputs = figures.digest(__name__, study, rows)
    if figures.unchanged(path, inputs):
        return path
    names = [
        f"{t}.{f}" if len(study.tasks) > 1 else f
        for t, f in zip(rows["task"], rows["field"], strict=True)
    ]
    labels = [
        f"{n}\n{c} ({lv})" if lv else f"{n}\n{c}"
        for n, c, lv in zip(names, rows["coefficient"], rows["level"], strict=True)
    ]
    fig, ax = plt.subplots(figsize=(7.5, max(2.6, 0.6 * len(rows) + 1.6)))
    y = range(len(rows))
    low = (rows["estimate"] - rows["ci_low"]).clip(lower=0).fillna(0)
    high = (rows["ci_high"] - rows["estimate"]).clip(lower=0).fillna(0)
    ax.errorbar(rows["estimate"], y, xerr=[low, high], fmt="o", color="#1f4e79", capsize=3)
    declared = rows["declared_by"] if "declared_by" in rows else [None] * len(rows)
    targets = [_minimum(study, d) for d in declared]
    marks = [(m, i) for i, m in enumerate(targets) if m is not None]
    if marks:
        ax.scatter(
            [m for m, _ in marks],
            [i for _, i in marks],
            marker="|",
            s=300,
            color="#b03a2e",
            label="the study's minimum",
        )
        ax.legend(loc="lower left", fontsize=8, frameon=False)
    ax.set_yticks(list(y), labels)
    ax.invert_yaxis()
    ax.set_xlim(min(-0.1, float(rows["ci_low"].min()) - 0.05), 1.0)
    ax.set_xlabel("the protocol's coefficient per field (95% bootstrap interval)")
    ax.set_title(f"{study.title}: agreement per field", fontsize=10, pad=16)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    figures.save(fig, path, inputs, dpi=110)
    plt.close(fig)
    return path
