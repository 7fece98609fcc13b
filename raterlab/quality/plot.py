"""One PNG the PI can read at a glance: a scorecard of the main metrics per annotator (red
where flagged), each annotator's leniency with its 95% interval, and the weekly spot-check
disagreement when the study has spot checks. Drawn on a bare ``Figure`` (no pyplot state, no
GUI backend)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from raterlab import figures
from raterlab.quality.ratings import ALL, EVERYONE

SCORECARD = (
    ("duplicate_within_one", "duplicates\nwithin 1"),
    ("attention_pass_rate", "attention\npassed"),
    ("calibration_within_one", "calibration\nwithin 1"),
    ("calibration_mean_signed_error", "calibration\nerror"),
    ("rushed_share", "rushed\nshare"),
    ("median_time_s", "median\ntime (s)"),
    ("leniency", "leniency"),
    ("scale_extremes_share", "scale ends\nshare"),
    ("spot_check_disagreement", "spot-check\ndisagreement"),
)
FLAGGED, FINE, EMPTY = "#f4a3a3", "#d9ecd9", "#f2f2f2"


def _scorecard(ax: Axes, table: pd.DataFrame, annotators: list[str]) -> None:
    pooled = table[(table["slice"] == ALL) & (table["annotator_id"] != EVERYONE)]
    columns = [(m, label) for m, label in SCORECARD if m in set(pooled["metric"])]
    ax.set_xlim(0, max(len(columns), 1))
    ax.set_ylim(0, max(len(annotators), 1))
    ax.invert_yaxis()
    for j, (name, _) in enumerate(columns):
        rows = pooled[pooled["metric"] == name].set_index("annotator_id")
        for i, annotator in enumerate(annotators):
            if annotator in rows.index:
                row = rows.loc[annotator]
                color = FLAGGED if row["flagged"] else FINE
                value = row["value"]
                text = f"{value:.0f}" if name == "median_time_s" else f"{value:.2f}"
            else:
                color, text = EMPTY, ""
            ax.add_patch(Rectangle((j, i), 1, 1, facecolor=color, edgecolor="white"))
            ax.text(j + 0.5, i + 0.5, text, ha="center", va="center", fontsize=9)
    ax.set_xticks(np.arange(len(columns)) + 0.5, [label for _, label in columns], fontsize=8)
    ax.set_yticks(np.arange(len(annotators)) + 0.5, annotators)
    ax.tick_params(length=0)
    for side in ax.spines.values():
        side.set_visible(False)
    ax.set_title("Rater scorecard (red: flagged)", fontsize=10)


def _leniency(ax: Axes, table: pd.DataFrame, annotators: list[str]) -> None:
    rows = table[(table["metric"] == "leniency") & (table["slice"] == ALL)]
    rows = rows.set_index("annotator_id").reindex(annotators)
    y = np.arange(len(annotators))
    values = rows["value"].to_numpy(dtype=float)
    low = values - rows["ci_low"].to_numpy(dtype=float)
    high = rows["ci_high"].to_numpy(dtype=float) - values
    colors = ["#c0392b" if f is True else "#34495e" for f in rows["flagged"]]
    ax.errorbar(values, y, xerr=[low, high], fmt="none", ecolor="#7f8c8d", capsize=3)
    ax.scatter(values, y, c=colors, zorder=3)
    ax.axvline(0, color="black", linewidth=0.8)
    target = rows["target"].dropna()
    if len(target):
        for x in (-target.iloc[0], target.iloc[0]):
            ax.axvline(x, color="#c0392b", linestyle=":", linewidth=0.8)
    ax.set_yticks(y, annotators)
    ax.invert_yaxis()
    ax.set_xlabel("mean difference from the other raters (points)")
    ax.set_title("Leniency (+) / severity (-), 95% CI", fontsize=10)


def _weekly(ax: Axes, weekly: pd.DataFrame, limit: float | None) -> None:
    ax.plot(weekly["week"], weekly["share"], marker="o")
    if limit is not None:
        ax.axhline(limit, color="#c0392b", linestyle=":", label=f"max {limit:.0%}")
        ax.legend(fontsize=8)
    ax.set_ylim(0, max(0.3, float(weekly["share"].max()) * 1.2))
    ax.set_ylabel("disagreement")
    ax.set_title("Spot checks: single annotator vs checker", fontsize=10)
    ax.tick_params(axis="x", labelrotation=45, labelsize=8)


def plot_quality(
    table: pd.DataFrame,
    path: Path,
    weekly: pd.DataFrame | None = None,
    max_disagreement: float | None = None,
    title: str = "",
) -> Path:
    """Write the figure to ``path`` (PNG, folders created) and return it; a file drawn from
    the same inputs is left as it is (:mod:`raterlab.figures`)."""
    inputs = figures.digest(__name__, table, weekly, max_disagreement, title)
    if figures.unchanged(path, inputs):
        return path
    annotators = sorted(a for a in table["annotator_id"].unique() if a != EVERYONE)
    panels = 3 if weekly is not None and len(weekly) else 2
    height = max(2.8, 0.45 * len(annotators) + 1.8)
    fig = Figure(figsize=(6.5 * panels, height))
    axes = fig.subplots(1, panels, gridspec_kw={"width_ratios": [1.6, 1, 1][:panels]})
    _scorecard(axes[0], table, annotators)
    _leniency(axes[1], table, annotators)
    if panels == 3:
        _weekly(axes[2], weekly, max_disagreement)
    if title:
        fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    return figures.save(fig, path, inputs, dpi=110)
