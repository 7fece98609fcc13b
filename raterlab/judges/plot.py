"""Each judge's correlation (or kappa) with its interval, against the human ceiling band."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd

from raterlab import figures

HEADLINE = {"graded": "spearman", "categorical": "kappa"}
HEADLINE_COLUMNS = (
    "task",
    "field",
    "judge",
    "statistic",
    "n",
    "estimate",
    "ci_low",
    "ci_high",
    "human_ceiling",
    "ceiling_low",
    "ceiling_high",
    "within_human_range",
)
"""What a headline row says: the judge's figure and the human ceiling beside it."""


def headline(calibration: pd.DataFrame) -> pd.DataFrame:
    """Item-level, all-items rows of each field's headline statistic: Spearman's rho for graded
    fields (the protocols' judge-validation statistic), Cohen's kappa for the others."""
    rows = calibration[
        (calibration["slice"] == "all")
        & (calibration["level"] == "item")
        & calibration["statistic"].isin(HEADLINE.values())
        & calibration["versus"].isna()
    ]
    return rows.sort_values(["task", "field", "judge"], na_position="first").reset_index(drop=True)


PLOTTED_TEXT = ("task", "field", "judge", "statistic")
PLOTTED_NUMBERS = ("estimate", "ci_low", "ci_high", "human_ceiling", "ceiling_low", "ceiling_high")


def _shown(rows: pd.DataFrame) -> pd.DataFrame:
    """What the plot shows of ``rows``, in plain types (missing text empty): the same whether
    the table comes from the calibration or back from the warehouse (whose types differ), so
    that the export's copy of the plot is copied, not drawn again."""
    return pd.DataFrame(
        {c: ["" if pd.isna(v) else str(v) for v in rows[c]] for c in PLOTTED_TEXT}
        | {c: rows[c].astype("float64").to_numpy() for c in PLOTTED_NUMBERS}
    )


def calibration_plot(calibration: pd.DataFrame, path: Path) -> Path | None:
    """Write the plot as PNG to ``path``: one block of rows per field, one point per judge
    with its interval, the human ceiling (leave one annotator out) as a shaded band with its
    estimate; ``None`` when there is nothing to plot."""
    rows = headline(calibration)
    rows = rows[rows["estimate"].notna()].reset_index(drop=True)
    if rows.empty:
        return None
    inputs = figures.digest(__name__, _shown(rows))
    if figures.unchanged(path, inputs):
        return path
    rows["name"] = [
        f"{t}.{f}" if isinstance(t, str) and t else f
        for t, f in zip(rows["task"], rows["field"], strict=True)
    ]
    fig, ax = plt.subplots(figsize=(7.5, 1.2 + 0.3 * len(rows)))
    labels = []
    for number, (name, block) in enumerate(rows.groupby("name", sort=False)):
        top, bottom = block.index.min() - 0.45, block.index.max() + 0.45
        ceiling = block.dropna(subset=["ceiling_low", "ceiling_high"]).head(1)
        if len(ceiling):
            ax.fill_betweenx(
                [top, bottom],
                ceiling["ceiling_low"].iloc[0],
                ceiling["ceiling_high"].iloc[0],
                color="#d5e8d4",
                label="human ceiling (95% CI)" if number == 0 else None,
            )
            ax.vlines(ceiling["human_ceiling"].iloc[0], top, bottom, color="#2e7d32")
        if number:
            ax.axhline(top, color="#cccccc", linewidth=0.6)
        labels += [
            f"{name} ({s}) {j}" for s, j in zip(block["statistic"], block["judge"], strict=True)
        ]
    low = (rows["estimate"] - rows["ci_low"]).clip(lower=0).fillna(0)
    high = (rows["ci_high"] - rows["estimate"]).clip(lower=0).fillna(0)
    ax.errorbar(
        rows["estimate"],
        rows.index,
        xerr=[low, high],
        fmt="o",
        color="#1f4e79",
        capsize=3,
        label="judge (95% CI)",
    )
    ax.set_yticks(list(rows.index), labels, fontsize=8)
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.axvline(0, color="#999999", linewidth=0.6)
    ax.set_xlim(min(-0.2, float(rows["ci_low"].min(skipna=True) or 0) - 0.05), 1.0)
    ax.set_xlabel("agreement with the humans (95% bootstrap CI)")
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, fontsize=8, frameon=False)
    fig.tight_layout()
    figures.save(fig, path, inputs, dpi=100)
    plt.close(fig)
    return path
