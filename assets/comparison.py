"""Results per condition or system (the study's ``comparison``), after consensus."""

import dagster as dg

from assets.metadata import image_md, table_md
from assets.study_asset import StudyStep, study_asset
from raterlab.comparison.conditions import ALL
from raterlab.comparison.plot import comparison_plot
from raterlab.comparison.store import compare_study, write_comparison
from raterlab.report.sections import readable_comparison


@study_asset(
    name="condition_comparison",
    group="consensus",
    deps=["consensus"],
    kinds={"duckdb"},
    table="gold.condition_comparison",
)
def condition_comparison_asset(step: StudyStep) -> dg.MaterializeResult:
    """The study's answer per condition or system: ``gold.condition_comparison`` (each value
    against the baseline or the rest: mean and median difference with bootstrap intervals,
    Wilcoxon signed-rank and sign test on paired units or Mann-Whitney, rank-biserial,
    win/tie/loss shares, a rater-adjusted estimate, per slice with Holm) and
    ``gold.condition_means``, from the consensus and the study's ``comparison``."""
    study = step.study
    if study.comparison is None:
        step.create_empty_tables()
        return dg.MaterializeResult(metadata={"comparison": "the study declares none"})
    if step.warehouse_unchanged():
        return step.skipped()
    with step.raterlab.warehouse(read_only=True) as con:
        table, means = compare_study(con, study)
    with step.raterlab.warehouse() as con:
        write_comparison(con, study.name, table, means)
        step.publish(con, ["gold.condition_comparison", "gold.condition_means"])
    plot = comparison_plot(study.title, table, step.reports / "condition_comparison.png")
    overall = table[table["slice"] == ALL]
    return dg.MaterializeResult(
        metadata={
            "compared": f"{study.comparison.by}"
            + (f" (paired by {study.comparison.pair})" if study.comparison.pair else ""),
            "rows": len(table),
            "result": table_md(
                readable_comparison(study, overall) if len(overall) else overall,
                "no two values with consensus values to compare yet",
            ),
            "means": table_md(means[means["slice"] == ALL], "no consensus values yet"),
            "plot": image_md(plot) if plot else "nothing to plot yet",
        }
    )
