"""``condition_comparison`` export: the study's results per condition or system, as files a
paper or a slide deck can take as they are.

``comparison/condition_comparison.csv`` and ``comparison/condition_means.csv`` (the columns
of the gold tables of the same names, see ``docs/gold_tables.md``) and
``comparison/condition_comparison.png`` (differences with 95% intervals, per slice).
The tables are the gold tables themselves (the ``condition_comparison`` asset runs before the
export), so the files match the warehouse and the rest of the export.
"""

from __future__ import annotations

from pathlib import Path

from raterlab.comparison.plot import comparison_plot
from raterlab.csvsafe import write_csv
from raterlab.exports.bundle import ExportBundle


def comparison_files(bundle: ExportBundle, folder: Path) -> list[Path]:
    """Write the comparison tables and plot; nothing when the study declares no comparison."""
    study = bundle.study
    if study.comparison is None:
        return []
    table, means = bundle.comparison()
    out = folder / "comparison"
    out.mkdir(parents=True, exist_ok=True)
    files = [out / "condition_comparison.csv", out / "condition_means.csv"]
    write_csv(table, files[0])
    write_csv(means, files[1])
    plot = comparison_plot(study.title, table, out / "condition_comparison.png")
    return [*files, *([plot] if plot else [])]
