"""A forest plot of a study's agreement: one line per field, estimate and 95% interval."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd

from raterlab.protocol import Study


def headline(table: pd.DataFrame) -> pd.DataFrame:
    """Each field's Krippendorff's alpha on all items, at the field's own level."""
    rows = table[(table["slice"] == "all") & (table["coefficient"] == "krippendorff_alpha")]
    rows = rows[rows["level"].isin(["nominal", "ordinal"]) & rows["estimate"].notna()]
    return rows.sort_values(["task", "field"]).reset_index(drop=True)


def forest_plot(study: Study, table: pd.DataFrame, path: Path) -> Path | None:
    """Write the plot as PNG to ``path``; ``None`` when there is nothing to plot yet."""
    rows = headline(table)
    if rows.empty:
        return None
    labels = [
        f"{t}.{f}" if len(study.tasks) > 1 else f
        for t, f in zip(rows["task"], rows["field"], strict=True)
    ]
    fig, ax = plt.subplots(figsize=(7, max(2.6, 0.45 * len(rows) + 1.6)))
    y = range(len(rows))
    low = (rows["estimate"] - rows["ci_low"]).clip(lower=0).fillna(0)
    high = (rows["ci_high"] - rows["estimate"]).clip(lower=0).fillna(0)
    ax.errorbar(rows["estimate"], y, xerr=[low, high], fmt="o", color="#1f4e79", capsize=3)
    for threshold in study.thresholds.minimums:
        if threshold.coefficient == "krippendorff_alpha":
            ax.axvline(threshold.min, color="#b03a2e", linestyle="--", linewidth=1)
            ax.text(
                threshold.min,
                1.01,
                f"minimum {threshold.min}",
                color="#b03a2e",
                fontsize=8,
                ha="center",
                transform=ax.get_xaxis_transform(),
            )
    ax.set_yticks(list(y), labels)
    ax.invert_yaxis()
    ax.set_xlim(min(-0.1, float(rows["ci_low"].min()) - 0.05), 1.0)
    ax.set_xlabel("Krippendorff's alpha (95% bootstrap interval)")
    ax.set_title(f"{study.title}: agreement per field", fontsize=10, pad=16)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
