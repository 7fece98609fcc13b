"""The comparison at a glance: per field, the mean difference (level - reference) with its 95%
bootstrap interval, on all items and per slice value; a line at zero (no difference).
Drawn on a bare ``Figure`` (no pyplot state, no GUI backend)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from raterlab import figures
from raterlab.comparison.conditions import ALL

SIGNIFICANT, OTHER = "#1f4e79", "#8c8c8c"
TEXT = ("task", "field", "level", "reference", "slice")
NUMBERS = ("mean_diff", "mean_diff_low", "mean_diff_high", "p_holm")


def shown(rows: pd.DataFrame) -> pd.DataFrame:
    """What the plot shows of ``rows``, in plain types and a fresh index: the same whether
    the table comes from the computation or back from the warehouse (whose string and
    boolean types differ), so that the export's copy of the plot is not drawn again."""
    return pd.DataFrame(
        {c: rows[c].astype(str) for c in TEXT} | {c: rows[c].astype("float64") for c in NUMBERS}
    ).reset_index(drop=True)


def comparison_plot(title: str, table: pd.DataFrame, path: Path) -> Path | None:
    """Write the PNG to ``path``; ``None`` when no contrast has a difference yet. Points are
    dark where the (Holm-corrected, for slices) test has p < 0.05."""
    rows = table[table["mean_diff"].notna()]
    if rows.empty:
        return None
    inputs = figures.digest(__name__, title, shown(rows))
    if figures.unchanged(path, inputs):
        return path
    panels = list(rows.groupby(["task", "field"], sort=True))
    heights = [max(1.2, 0.28 * len(part) + 0.6) for _, part in panels]
    fig = Figure(figsize=(8, sum(heights) + 0.8), layout="constrained")
    axes = fig.subplots(len(panels), 1, squeeze=False, height_ratios=heights)[:, 0]
    several_tasks = rows["task"].nunique() > 1
    for ax, ((task, field), part) in zip(axes, panels, strict=True):
        part = part.reset_index(drop=True)
        y = range(len(part))
        low = (part["mean_diff"] - part["mean_diff_low"]).clip(lower=0).fillna(0)
        high = (part["mean_diff_high"] - part["mean_diff"]).clip(lower=0).fillna(0)
        significant = (part["p_holm"].fillna(1) < 0.05).to_numpy()
        for colour, chosen in ((SIGNIFICANT, significant), (OTHER, ~significant)):
            if chosen.any():
                ax.errorbar(
                    part["mean_diff"][chosen],
                    [i for i in y if chosen[i]],
                    xerr=[low[chosen], high[chosen]],
                    fmt="o",
                    color=colour,
                    capsize=3,
                    markersize=4,
                )
        labels = [
            f"{lvl} - {ref}" + ("" if s == ALL else f"  [{s}]")
            for lvl, ref, s in zip(part["level"], part["reference"], part["slice"], strict=True)
        ]
        ax.set_yticks(list(y), labels, fontsize=8)
        ax.invert_yaxis()
        ax.axvline(0, color="#b03a2e", linewidth=1)
        ax.set_title(f"{task}.{field}" if several_tasks else field, fontsize=9, loc="left")
        ax.grid(axis="x", alpha=0.3)
    axes[-1].set_xlabel("mean difference, 95% bootstrap interval (dark: p < 0.05, Holm)")
    fig.suptitle(f"{title}: differences per condition", fontsize=10)
    return figures.save(fig, path, inputs, dpi=100)
