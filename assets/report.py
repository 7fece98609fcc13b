"""The study report at the end of the graph: ``reports/<study>/index.html``."""

import os

import dagster as dg

from assets.study_asset import StudyStep, study_asset
from raterlab.report.answers import first_screen
from raterlab.report.build import load_inputs, write_page


@study_asset(
    group="report",
    deps=[
        "condition_comparison",
        "agreement",
        "pilot_agreement",
        "rater_quality",
        "judge_calibration",
        "judge_verdicts",
        "system_metrics",
        "pairwise_ranking",
    ],
    kinds={"html"},
)
def report(step: StudyStep) -> dg.MaterializeResult:
    """The page the PI reads top to bottom: the study's question answered as its study file
    declares (``report:``), design, pilot gate, agreement (the protocol's coefficient
    first), rater quality, adjudication, consensus, results per condition, judge verdicts
    and calibration, the gold contract, quarantined files, other gold tables and the study's
    disclosures. One self-contained HTML file (plots embedded, nothing loaded from a server);
    long tables are folded, with every row in ``tables/<name>.csv`` beside it. Written again
    only when a table of the study changed (or the page is gone)."""
    study, reports = step.study, step.raterlab.paths.reports
    page = reports / study.name / "index.html"
    served = os.environ.get("RATERLAB_REPORTS_URL")
    url = f"{served.rstrip('/')}/{study.name}/index.html" if served else page.as_uri()
    where = {"open_report": dg.MetadataValue.url(url), "path": dg.MetadataValue.path(str(page))}
    if step.warehouse_unchanged(outputs=[page]):
        return step.skipped(**where)
    with step.raterlab.warehouse(read_only=True) as con:
        inputs = load_inputs(con, study, reports)
    write_page(inputs, reports)
    answer = first_screen(inputs)
    summary = "\n".join(f"- {line}" for line in answer.lines) or answer.verdict
    return dg.MaterializeResult(
        metadata={
            **where,
            "question": study.report.question or "",
            "answer": dg.MetadataValue.md(summary),
        }
    )
