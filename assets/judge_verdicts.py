"""Judge robustness and the verdict per judge, field and slice, after the calibration."""

import dagster as dg

from assets.judges import judge_files
from assets.metadata import table_md
from assets.study_asset import StudyStep, study_asset
from raterlab.judges.pairwise_study import robustness_tables
from raterlab.judges.verdict_study import study_judge_verdicts


@study_asset(
    group="consensus",
    deps=["consensus"],
    kinds={"duckdb"},
    table="gold.judge_robustness",
)
def judge_robustness(step: StudyStep) -> dg.MaterializeResult:
    """``gold.judge_robustness``: each judge's repeat-run consistency (judge files with a
    ``run`` column), its position-swap consistency and left share (pairwise fields judged in
    both orders) and its bias against the human consensus per slice, with intervals and
    flags; and ``gold.pairwise_judges``: each judge of a pairwise field against the humans'
    winners beside its position checks."""
    study = step.study
    if study.judges is None:
        step.create_empty_tables()
        return dg.MaterializeResult(metadata={"judges": "none declared"})
    if step.warehouse_unchanged(judge_files(step)):
        return step.skipped()
    with step.raterlab.warehouse(read_only=True) as con:
        rows, pairwise = robustness_tables(con, study, step.raterlab.paths)
    step.write({"gold.judge_robustness": rows, "gold.pairwise_judges": pairwise}, published=True)
    flagged = rows[rows["flagged"].fillna(False).astype(bool)]
    shown = ["task", "field", "judge", "kappa", "consistent_share", "left_share", "flagged"]
    return dg.MaterializeResult(
        metadata={
            "rows": len(rows),
            "flagged": len(flagged),
            "flagged_checks": table_md(
                flagged[["task", "field", "judge", "slice", "check", "estimate"]]
            ),
            "pairwise_judges": table_md(pairwise[pairwise["slice"] == "all"][shown]),
        }
    )


@study_asset(
    group="consensus",
    deps=["judge_calibration", "judge_robustness", "judge_substitution"],
    kinds={"duckdb"},
    table="gold.judge_verdicts",
)
def judge_verdicts(step: StudyStep) -> dg.MaterializeResult:
    """``gold.judge_verdicts``: per judge, field and slice, ``replace`` (may replace the
    humans here), ``ppi`` (only with human correction) or ``no``, with the reasons, from the
    alternative annotator test, the human ceiling, the robustness checks and the PPI gain
    (Dorner et al.'s bound of 2 beside it)."""
    study = step.study
    if study.judges is None:
        step.create_empty_tables()
        return dg.MaterializeResult(metadata={"judges": "none declared"})
    if step.warehouse_unchanged(judge_files(step)):
        return step.skipped()
    with step.raterlab.warehouse(read_only=True) as con:
        rows = study_judge_verdicts(con, study, step.raterlab.paths)
    step.write({"gold.judge_verdicts": rows}, published=True)
    overall = rows[rows["slice"] == "all"]
    return dg.MaterializeResult(
        metadata={
            "rows": len(rows),
            "verdicts": table_md(overall[["task", "field", "judge", "verdict", "reasons"]]),
        }
    )
