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
WIDTH, DPI, LABEL_SIZE = 8.0, 100, 8
GAP = 0.5
"""Inches between two panels: the upper one's x tick labels and the lower one's title."""
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
    panels = [(key, part.reset_index(drop=True)) for key, part in rows.groupby(["task", "field"])]
    labels = [_labels(part) for _, part in panels]
    heights = [max(1.2, 0.28 * len(part) + 0.6) for _, part in panels]
    size = (WIDTH, sum(heights) + 0.8)
    fig = Figure(figsize=size)
    axes = fig.subplots(len(panels), 1, squeeze=False, height_ratios=heights)[:, 0]
    _place(fig, axes, size, _text_width([t for part in labels for t in part], DPI))
    several_tasks = rows["task"].nunique() > 1
    for ax, ((task, field), part), names in zip(axes, panels, labels, strict=True):
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
        ax.set_yticks(list(y), names, fontsize=LABEL_SIZE)
        ax.invert_yaxis()
        ax.axvline(0, color="#b03a2e", linewidth=1)
        ax.set_title(f"{task}.{field}" if several_tasks else field, fontsize=9, loc="left")
        ax.grid(axis="x", alpha=0.3)
    axes[-1].set_xlabel("mean difference, 95% bootstrap interval (dark: p < 0.05, Holm)")
    fig.suptitle(f"{title}: differences per condition", fontsize=10, y=1 - 0.1 / size[1], va="top")
    return figures.save(fig, path, inputs, dpi=DPI)


def _labels(part: pd.DataFrame) -> list[str]:
    """Each contrast's label on the y axis: ``level - reference``, and ``[slice]``."""
    return [
        f"{lvl} - {ref}" + ("" if s == ALL else f"  [{s}]")
        for lvl, ref, s in zip(part["level"], part["reference"], part["slice"], strict=True)
    ]


def _text_width(texts: list[str], dpi: int) -> float:
    """Width in inches of the widest of ``texts`` in the tick labels' font."""
    from matplotlib.backends.backend_agg import RendererAgg
    from matplotlib.font_manager import FontProperties

    renderer, font = RendererAgg(1, 1, dpi), FontProperties(size=LABEL_SIZE)
    return (
        max(renderer.get_text_width_height_descent(t, font, ismath=False)[0] for t in texts) / dpi
    )


def _place(fig: Figure, axes, size: tuple[float, float], label_width: float) -> None:
    """Margins in inches, set once (a constrained layout measured every text of the figure
    on each draw: a third of the time of a save): room for the longest y label on the left,
    the title above, the x labels below and each panel's title and tick labels between."""
    width, height = size
    left = (label_width + 0.25) / width
    top, bottom = 1 - 0.55 / height, 0.55 / height
    panels = len(axes)
    mean_axis = (height * (top - bottom) - GAP * (panels - 1)) / panels
    fig.subplots_adjust(
        left=min(left, 0.7), right=1 - 0.2 / width, top=top, bottom=bottom, hspace=GAP / mean_axis
    )
