"""Each judge's correlation (or kappa) with its interval, against the human ceiling band."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd

HEADLINE = {"graded": "spearman", "categorical": "kappa"}


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


def calibration_plot(calibration: pd.DataFrame, path: Path) -> Path | None:
    """Write the plot as PNG to ``path``: one panel row per field, one point per judge with its
    interval, the human ceiling's interval shaded; ``None`` when there is nothing to plot."""
    rows = headline(calibration)
    if rows.empty:
        return None
    fields = list(dict.fromkeys(zip(rows["task"].fillna(""), rows["field"], strict=True)))
    judges = sorted(rows["judge"].unique())
    fig, axes = plt.subplots(
        len(fields),
        1,
        figsize=(7.5, 1.0 + 0.32 * len(judges) * len(fields) + 0.5 * len(fields)),
        squeeze=False,
        sharex=True,
    )
    for ax, (task, field) in zip(axes[:, 0], fields, strict=True):
        sub = rows[(rows["task"].fillna("") == task) & (rows["field"] == field)]
        sub = sub.set_index("judge").reindex(judges).dropna(subset=["estimate"])
        y = list(range(len(sub)))
        ceiling = sub[["human_ceiling", "ceiling_low", "ceiling_high"]].dropna().head(1)
        if len(ceiling):
            low, high = ceiling["ceiling_low"].iloc[0], ceiling["ceiling_high"].iloc[0]
            ax.axvspan(low, high, color="#d5e8d4", label="human ceiling (95% CI)")
            ax.axvline(ceiling["human_ceiling"].iloc[0], color="#2e7d32", linewidth=1)
        err_low = (sub["estimate"] - sub["ci_low"]).clip(lower=0).fillna(0)
        err_high = (sub["ci_high"] - sub["estimate"]).clip(lower=0).fillna(0)
        ax.errorbar(
            sub["estimate"], y, xerr=[err_low, err_high], fmt="o", color="#1f4e79", capsize=3
        )
        ax.set_yticks(y, list(sub.index))
        ax.invert_yaxis()
        statistic = sub["statistic"].iloc[0] if len(sub) else ""
        ax.set_title(f"{task + '.' if task else ''}{field} ({statistic})", fontsize=9, loc="left")
        ax.axvline(0, color="#999999", linewidth=0.6)
    axes[0, 0].legend(loc="lower right", fontsize=7, frameon=False)
    axes[-1, 0].set_xlabel("agreement with the humans (95% bootstrap CI)")
    axes[-1, 0].set_xlim(min(-0.2, float(rows["ci_low"].min(skipna=True) or 0) - 0.05), 1.0)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
