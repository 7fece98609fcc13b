"""The study report at the end of the graph: ``reports/<study>/index.html``."""

import os

import dagster as dg

from assets.agreement import agreement, pilot_agreement
from assets.comparison import condition_comparison_asset
from assets.judges import judge_calibration
from assets.metrics import system_metrics
from assets.partitions import study_partitions
from assets.quality import rater_quality
from raterlab.comparison.table import ALL
from raterlab.consensus.inputs import read_table
from raterlab.report import write_report
from raterlab.report.sections import contrast_sentence
from resources import Raterlab


@dg.asset(
    partitions_def=study_partitions,
    group_name="report",
    deps=[
        condition_comparison_asset,
        agreement,
        pilot_agreement,
        rater_quality,
        judge_calibration,
        system_metrics,
    ],
    kinds={"html"},
)
def report(context: dg.AssetExecutionContext, raterlab: Raterlab) -> dg.MaterializeResult:
    """The page the PI reads top to bottom: the answer, design, pilot gate, agreement, rater
    quality, adjudication, consensus, results per condition, judge calibration, the gold
    contract, quarantined files, other gold tables and the study's disclosures. One
    self-contained HTML file (plots embedded, nothing loaded from a server)."""
    study = raterlab.study(context.partition_key)
    with raterlab.warehouse(read_only=True) as con:
        path = write_report(con, study, raterlab.paths.reports)
        comparison = read_table(con, "gold.condition_comparison", study.name)
    answer = "the study declares no comparison"
    if study.comparison is not None:
        answer = f"no two values of {study.comparison.by} with consensus values to compare yet"
    if study.comparison is not None and comparison is not None:
        overall = comparison[(comparison["slice"] == ALL) & comparison["mean_diff"].notna()]
        overall = overall.sort_values("p_value", na_position="last").head(6)
        lines = [f"- {contrast_sentence(study, row)}" for _, row in overall.iterrows()]
        answer = "\n".join(lines) or answer
    served = os.environ.get("RATERLAB_REPORTS_URL")
    url = f"{served.rstrip('/')}/{study.name}/index.html" if served else path.as_uri()
    return dg.MaterializeResult(
        metadata={
            "open_report": dg.MetadataValue.url(url),
            "path": dg.MetadataValue.path(str(path)),
            "answer": dg.MetadataValue.md(answer),
        }
    )


report_assets = [report]
