"""The ranking at a glance, as PNG bytes for the report: each system's strength with its 95%
bootstrap interval (a dot plot, strongest on top), and the win-rate matrix (a heatmap, each
cell the row system's win rate against the column system, ties counting half). Drawn on a
bare ``Figure`` (no pyplot state, no GUI backend)."""

from __future__ import annotations

from io import BytesIO

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

INK, MUTED = "#1f4e79", "#8c8c8c"


def _png(fig: Figure, dpi: int = 100) -> bytes:
    buffer = BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi)
    return buffer.getvalue()


def strength_plot(ranking: pd.DataFrame, title: str) -> bytes | None:
    """Strengths of one field and slice's ``gold.pairwise_ranking`` rows with their 95%
    intervals, labelled with the rank interval; ``None`` when no system has a strength. A grey
    point: the strengths needed the ridge (``ridge`` > 0), so they are not estimates."""
    rows = ranking[ranking["strength"].notna()].sort_values("strength", ascending=False)
    if rows.empty:
        return None
    rows = rows.reset_index(drop=True)
    fig = Figure(figsize=(5.4, 0.45 * len(rows) + 1.3), layout="constrained")
    ax = fig.subplots()
    colour = MUTED if (rows["ridge"].fillna(0) > 0).any() else INK
    low = (rows["strength"] - rows["ci_low"]).clip(lower=0).fillna(0)
    high = (rows["ci_high"] - rows["strength"]).clip(lower=0).fillna(0)
    ax.errorbar(
        rows["strength"],
        range(len(rows)),
        xerr=[low, high],
        fmt="o",
        color=colour,
        capsize=3,
        markersize=5,
    )
    labels = [
        f"{system}  (rank {_ranks(r, lo, hi)})"
        for system, r, lo, hi in zip(
            rows["system"], rows["rank"], rows["rank_low"], rows["rank_high"], strict=True
        )
    ]
    ax.set_yticks(range(len(rows)), labels, fontsize=9)
    ax.invert_yaxis()
    ax.axvline(0, color="#b03a2e", linewidth=0.8)
    ax.grid(axis="x", alpha=0.3)
    ax.set_xlabel("strength (log scale, mean 0); 95% interval over prompts", fontsize=8)
    ax.set_title(title, fontsize=10, loc="left")
    return _png(fig)


def _ranks(rank: object, low: object, high: object) -> str:
    if pd.isna(rank):
        return "n/a"
    if pd.isna(low) or pd.isna(high):
        return f"{int(rank)}"
    return f"{int(rank)}, {int(low)}-{int(high)}"


def win_rate_matrix(win_rates: pd.DataFrame, order: list[str]) -> pd.DataFrame:
    """Systems x opponents of ``win_rate`` (one field and slice of
    ``gold.pairwise_win_rates``), rows and columns in ``order``; NaN where two systems never
    met and on the diagonal."""
    wide = win_rates.pivot_table(
        index="system", columns="opponent", values="win_rate", aggfunc="first"
    )
    return wide.reindex(index=order, columns=order)


def win_rate_heatmap(win_rates: pd.DataFrame, order: list[str], title: str) -> bytes | None:
    """The win-rate matrix as a heatmap (0.5 white, wins blue, losses red), each cell
    annotated with the win rate and the number of comparisons; ``None`` without rows."""
    if win_rates.empty:
        return None
    rates = win_rate_matrix(win_rates, order)
    counts = win_rates.pivot_table(
        index="system", columns="opponent", values="n_comparisons", aggfunc="first"
    ).reindex(index=order, columns=order)
    size = 0.75 * len(order) + 2.2
    fig = Figure(figsize=(size + 0.9, size), layout="constrained")
    ax = fig.subplots()
    image = ax.imshow(np.ma.masked_invalid(rates.to_numpy(float)), cmap="RdBu", vmin=0, vmax=1)
    for i, j in np.ndindex(rates.shape):
        value = rates.iat[i, j]
        if pd.isna(value):
            continue
        ink = "white" if abs(value - 0.5) > 0.3 else "black"
        ax.text(
            j,
            i,
            f"{value:.2f}\nn={int(counts.iat[i, j])}",
            ha="center",
            va="center",
            fontsize=8,
            color=ink,
        )
    ax.set_xticks(range(len(order)), order, rotation=30, ha="right", fontsize=9)
    ax.set_yticks(range(len(order)), order, fontsize=9)
    ax.set_xlabel("opponent", fontsize=8)
    ax.set_ylabel("system (row) wins against opponent (column)", fontsize=8)
    fig.colorbar(image, ax=ax, shrink=0.8, label="win rate (ties count half)")
    ax.set_title(title, fontsize=10, loc="left")
    return _png(fig)
