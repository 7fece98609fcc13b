"""Results per condition or system (the study's ``comparison``), after consensus."""

import dagster as dg

from assets.consensus import consensus
from assets.metadata import image_md, table_md
from assets.partitions import study_partitions
from assets.tables import create_tables, table_metadata
from raterlab.comparison.conditions import ALL
from raterlab.comparison.plot import comparison_plot
from raterlab.comparison.store import compare_study, write_comparison
from raterlab.publish import publish
from raterlab.report.sections import readable_comparison
from resources import Raterlab


@dg.asset(
    name="condition_comparison",
    partitions_def=study_partitions,
    group_name="consensus",
    deps=[consensus],
    kinds={"duckdb"},
    metadata=table_metadata("condition_comparison", "gold.condition_comparison"),
)
def condition_comparison_asset(
    context: dg.AssetExecutionContext, raterlab: Raterlab
) -> dg.MaterializeResult:
    """The study's answer per condition or system: ``gold.condition_comparison`` (each value
    against the baseline or the rest: mean and median difference with bootstrap intervals,
    Wilcoxon signed-rank and sign test on paired units or Mann-Whitney, rank-biserial,
    win/tie/loss shares, a rater-adjusted estimate, per slice with Holm) and
    ``gold.condition_means``, from the consensus and the study's ``comparison``."""
    study = raterlab.study(context.partition_key)
    if study.comparison is None:
        with raterlab.warehouse() as con:
            create_tables(con, "condition_comparison")
        return dg.MaterializeResult(metadata={"comparison": "the study declares none"})
    with raterlab.warehouse(read_only=True) as con:
        table, means = compare_study(con, study)
    with raterlab.warehouse() as con:
        write_comparison(con, study.name, table, means)
        publish(
            con, raterlab.paths.published, ["gold.condition_comparison", "gold.condition_means"]
        )
    plot = comparison_plot(
        study.title, table, raterlab.paths.reports / study.name / "condition_comparison.png"
    )
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


comparison_assets = [condition_comparison_asset]
