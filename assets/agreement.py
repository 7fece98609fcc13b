"""Agreement per field and slice, pairwise tables and matrices; the pilot gate's numbers. Its
checks: the pilot gate (blocking) and the study's minimums (warnings)."""

import dagster as dg
import pandas as pd

from assets.frames import decoded_generations, generations_text, study_frame
from assets.metadata import image_md, table_md
from assets.partitions import study_partitions
from assets.study_asset import StudyStep, study_asset
from raterlab.agreement.incremental import (
    TASK_TABLES,
    agreement_update,
    changed_tasks,
    task_inputs,
)
from raterlab.agreement.pilot import gate_history, matrix_markdown, pilot_gate, pilot_matrices
from raterlab.agreement.plot import forest_plot
from raterlab.agreement.study import label_columns, ratings
from raterlab.design.rounds import PILOT, latest_pilot_only, round_labels
from raterlab.membership import is_in
from raterlab.protocol import Study
from raterlab.report.headline import headline_table
from raterlab.tables.ddl import quoted
from resources import Raterlab

GROUP = "agreement"


def _labels_of_round(rl: Raterlab, study: Study, round_name: str | None) -> pd.DataFrame:
    """The study's ``gold.labels`` (of one round) with the columns agreement reads."""
    columns = label_columns(study)
    if round_name is None:
        return study_frame(rl, "gold.labels", study.name, columns=columns)
    with rl.warehouse(read_only=True) as con:
        return round_labels(con, study.name, round_name, ", ".join(map(quoted, columns)))


def study_ratings(raterlab: Raterlab, study: Study, round_name: str | None = None) -> pd.DataFrame:
    """Ordinary ratings of a study (of one round, ``pilot`` standing for every pilot round)
    with the item attributes its slices use (no other record key); only the rated items'
    records are decoded."""
    labels = _labels_of_round(raterlab, study, round_name)
    generations = generations_text(raterlab, study.name)
    generations = generations[is_in(generations["item_id"], labels["item_id"])]
    items = decoded_generations(generations, keys=study.slices)[["item_id", "task", "record"]]
    routed = study_frame(raterlab, "staging.routed_items", study.name)
    items = items.merge(routed[["item_id", "tier", "stratum"]], on="item_id", how="left")
    return ratings(labels, items, keys=study.slices)


@study_asset(group=GROUP, deps=["labels"], kinds={"duckdb"}, table="gold.pilot_gates")
def pilot_agreement(step: StudyStep) -> dg.MaterializeResult:
    """The latest pilot round's agreement against the study's gate (``thresholds.pilot_gate``)
    in ``staging.pilot_gate``; its blocking check holds back the main-round packets. Every
    attempt (one per pilot round) is kept in ``gold.pilot_gates``, each round's score matrix
    per pair of annotators in ``gold.pilot_matrices`` and ``reports/<study>/pilot_matrices.md``."""
    study = step.study
    # without a pilot the tables say so whatever the ratings are: the study is the input
    if step.unchanged() if study.design.pilot is None else step.warehouse_unchanged():
        return step.skipped()
    rows = study_ratings(step.raterlab, study, PILOT)
    gate = pilot_gate(study, rows, step.frame("staging.blinding_key"))
    history = gate_history(step.optional_frame("gold.pilot_gates"), gate.table)
    matrices_table = pilot_matrices(study, rows)
    frames = {
        "staging.pilot_gate": pd.DataFrame(
            [{"passed": gate.passed, "message": gate.message, "round": gate.round}]
        ),
        "gold.pilot_matrices": matrices_table,
    }
    if len(gate.table):
        frames["gold.pilot_gates"] = history
    step.write(frames, published=True)
    if len(matrices_table):
        report = step.reports / "pilot_matrices.md"
        report.parent.mkdir(parents=True, exist_ok=True)
        report.write_text(
            f"# {study.title}: pilot agreement matrices\n\n{matrix_markdown(matrices_table)}",
            encoding="utf-8",
        )
    attempts = (
        history.drop_duplicates("round")[
            ["attempt", "round", "gate_passed", "study_version", "evaluated_at"]
        ]
        if len(history)
        else history
    )
    return dg.MaterializeResult(
        metadata={
            "passed": gate.passed,
            "message": gate.message,
            "fields": table_md(gate.table, decimals=None),
            "attempts": table_md(attempts, decimals=None),
        }
    )


@study_asset(group=GROUP, deps=["labels"], kinds={"duckdb"}, table="gold.agreement")
def agreement(step: StudyStep) -> dg.MaterializeResult:
    """``gold.agreement``: every rating field x slice x coefficient of its type, with 95%
    bootstrap intervals and interpretation bands, the protocol's coefficient of each field
    marked ``headline`` (listed first in the metadata); ``gold.agreement_pairwise`` and
    ``gold.agreement_matrices``; ``staging.agreement_thresholds`` (the study's minimums).
    The four tables are replaced in one transaction, then published; left as they are when
    the study and the ratings it counts are those of the last write (the third annotators'
    ratings and the decisions of adjudication rounds are not counted), and computed again
    only for the tasks whose ratings changed otherwise
    (:mod:`raterlab.agreement.incremental`)."""
    study = step.study
    if step.warehouse_unchanged(outputs=[step.reports / "agreement.png"]):
        return step.skipped()
    rows = latest_pilot_only(study_ratings(step.raterlab, study))
    recompute = not step.unchanged(rows)
    changed = []
    if not recompute:
        table = step.frame("gold.agreement")
    else:
        parts = task_inputs(study, rows, step.name)
        changed = changed_tasks(parts, step.recorded(parts))
        frames = agreement_update(
            study, rows, changed, lambda: {name: step.frame(name) for name in TASK_TABLES}
        )
        table = frames["gold.agreement"]
        step.write(frames, published=True, parts=parts)
    plot = forest_plot(study, table, step.reports / "agreement.png")
    overall = table[(table["slice"] == "all") & table["estimate"].notna()]
    shown = overall.sort_values("headline", ascending=False, kind="stable")[
        [
            "task",
            "field",
            "headline",
            "coefficient",
            "level",
            "estimate",
            "ci_low",
            "ci_high",
            "n_units",
            "band",
        ]
    ]
    return dg.MaterializeResult(
        metadata={
            "rows": len(table),
            "ratings": len(rows),
            "recomputed": recompute,
            "tasks_recomputed": ", ".join(changed) or "none",
            "inputs": step.inputs,
            "plot": dg.MetadataValue.path(str(plot)) if plot else "no ratings yet",
            "forest_plot": image_md(plot) if plot else "no ratings yet",
            "overall": table_md(shown, "no ratings yet"),
        }
    )


@dg.asset_check(
    asset=pilot_agreement, name="pilot_gate", partitions_def=study_partitions, blocking=True
)
def pilot_gate_open(
    context: dg.AssetCheckExecutionContext, raterlab: Raterlab
) -> dg.AssetCheckResult:
    """The main round goes out only when the pilot is complete and its agreement clears the
    study's gate. Until then this check fails as a warning (a held-back main round is the
    design working, not a broken run) and the main-round packets are skipped."""
    gate = study_frame(raterlab, "staging.pilot_gate", context.partition_key).iloc[0]
    passed = bool(gate["passed"])
    return dg.AssetCheckResult(
        passed=passed,
        severity=dg.AssetCheckSeverity.WARN,
        metadata={
            "status": "open: the main round may go out" if passed else "closed: main round held",
            "message": str(gate["message"]),
        },
    )


@dg.asset_check(asset=agreement, partitions_def=study_partitions)
def agreement_thresholds(
    context: dg.AssetCheckExecutionContext, raterlab: Raterlab
) -> dg.AssetCheckResult:
    """Every minimum the study declares (per field, or pooled per task), as a warning; its
    metadata leads with the protocol's coefficient of each field on all items (the
    ``headline`` rows of ``gold.agreement``) against its target."""
    study = raterlab.study(context.partition_key)
    results = study_frame(raterlab, "staging.agreement_thresholds", study.name)
    if results.empty:
        return dg.AssetCheckResult(passed=True, metadata={"note": "no ratings yet"})
    failing = results[~results["passed"].astype(bool)]
    table = study_frame(raterlab, "gold.agreement", study.name)
    headline = headline_table(study, table, ["all"])
    return dg.AssetCheckResult(
        passed=failing.empty,
        severity=dg.AssetCheckSeverity.WARN,
        metadata={
            "headline": table_md(headline, "no headline rows", decimals=None),
            "below_minimum": len(failing),
            "thresholds": table_md(results, "no thresholds"),
        },
    )
