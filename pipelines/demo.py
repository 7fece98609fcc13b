"""``make demo``: the whole loop on every bundled study, with simulated annotators.

For each study: its bundled judge file, if it has one, is imported; packets go out;
simulated annotators return the pilot; ingest (files with planted mistakes are quarantined,
then their corrected versions resubmitted); the pilot gate decides whether the main round
goes out; annotators return it; ingest and agreement again. Runs are recorded in the
Dagster instance under ``$RATERLAB_HOME/dagster``, so ``make ui`` shows them afterwards.
"""

from __future__ import annotations

import shutil
import sys

import dagster as dg
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from pipelines.instance import instance
from raterlab import warehouse
from raterlab.design.repilot import repeat_pilot
from raterlab.design.rounds import RepilotError
from raterlab.judges.imports import BUNDLED_FILE, import_judge_file
from raterlab.judges.store import read_calibration
from raterlab.judges.summary import judge_lines
from raterlab.protocol import load_study
from raterlab.quality import flag_summary
from raterlab.settings import Home, studies_dir
from raterlab.simulate import simulate
from raterlab.simulate.adjudicators import simulate_adjudication
from raterlab.simulate.spreadsheet import as_spreadsheets

QUIET = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}
"""The demo prints its own summary; run logs stay in the Dagster instance (make ui)."""
MAX_ROUNDS = 8
"""Pilot (and repeated pilots), main round, tie-breaks and adjudication, leftovers: each round
is one job run."""


def resubmit_corrections(home: Home, study: str) -> int:
    """Put the corrected versions of quarantined simulated files back in the inbox."""
    corrected = home.root / "simulations" / study / "corrected"
    moved = 0
    for path in sorted(corrected.glob("*")) if corrected.is_dir() else []:
        target = home.inbox / study / path.name.replace("__", "__fixed__", 1)
        if not target.exists():
            shutil.copyfile(path, target)
            moved += 1
    return moved


def repeat_failed_pilot(home: Home, study) -> str | None:
    """After a failed, complete pilot: the next pilot round if the study allows one (what
    ``raterlab pilot again`` does once the guide is revised)."""
    with warehouse.connect(home.warehouse) as con:
        try:
            return repeat_pilot(con, study)["round"]
        except RepilotError:
            return None


def run_study(
    name: str, home: Home, job: dg.JobDefinition, progress: Progress, task, failed: list[str]
) -> list[str]:
    """Run the loop for one study; returns the notes to print (gate decisions) and adds each
    failed run's failing steps to ``failed``."""
    study = load_study(studies_dir() / f"{name}.yaml")
    notes: list[str] = []
    bundled = studies_dir() / name / BUNDLED_FILE
    if bundled.is_file():
        verdicts, _ = import_judge_file(study, bundled, home.root)
        notes.append(f"{name}: imported {len(verdicts)} judge verdicts from {bundled.name}")

    dagster = instance(home)  # one for the loop: building it costs 0.1-0.2 s

    def run(step: str) -> None:
        progress.update(task, description=f"{name}: {step}")
        result = job.execute_in_process(
            partition_key=name, instance=dagster, run_config=QUIET, raise_on_error=False
        )
        if not result.success:
            steps = sorted({e.step_key for e in result.get_step_failure_events()})
            failed.append(f"{name} ({step}): run {result.run_id[:8]} failed at {', '.join(steps)}")

    run("packets")
    in_excel, in_excel_annotator = 0, study.design.annotators[0]
    for round_number in range(MAX_ROUNDS):
        decisions = simulate_adjudication(study, home).written if round_number else 0
        returned = simulate(study, home)
        in_excel += len(as_spreadsheets(study, home, returned.written, in_excel_annotator))
        if returned.written.empty and not decisions:
            break
        run(f"ingest {len(returned.written) + decisions} returned file(s)")
        if resubmit_corrections(home, name):
            run("ingest corrected resubmissions")
        if repeated := repeat_failed_pilot(home, study):
            run(f"{repeated} packets")
    with warehouse.connect(home.warehouse, read_only=True) as con:
        gate = con.execute(
            "SELECT message FROM staging.pilot_gate WHERE study = ?", [name]
        ).fetchall()
        attempts = (
            con.execute(
                """SELECT round, field, coefficient, options, round(estimate, 3),
                          round(ci_low, 2), round(ci_high, 2), passed
                   FROM gold.pilot_gates WHERE study = ? ORDER BY attempt, task, field""",
                [name],
            ).fetchall()
            if warehouse.table_exists(con, "gold.pilot_gates")
            else []
        )
    if gate:
        notes.append(f"{name}: {gate[0][0]}")
    if in_excel:
        notes.append(f"{name}: {in_excel_annotator} returned {in_excel} file(s) as .xlsx")
    for rnd, field, coefficient, options, estimate, low, high, passed in attempts:
        verdict = "passed" if passed else "failed"
        notes.append(
            f"  {rnd} {field}: {coefficient} ({options}) {estimate} [{low}, {high}] {verdict}"
        )
    return notes


def summary(home: Home) -> Table:
    table = Table(title="raterlab demo")
    for column in (
        "study",
        "items",
        "packets",
        "files accepted",
        "quarantined",
        "ratings",
        "lowest agreement (protocol's coefficient)",
    ):
        table.add_column(column)
    with warehouse.connect(home.warehouse, read_only=True) as con:
        rows = con.execute(
            """
            SELECT r.study, count(*) FILTER (WHERE r.sampled),
              (SELECT count(DISTINCT (annotator_id, batch)) FROM staging.blinding_key k
                 WHERE k.study = r.study),
              (SELECT count(*) FROM staging.ingests i WHERE i.study = r.study
                 AND i.status IN ('accepted', 'superseded')),
              (SELECT count(*) FROM staging.ingests i WHERE i.study = r.study
                 AND i.status = 'rejected'),
              (SELECT count(*) FROM gold.ratings g WHERE g.study = r.study),
              (SELECT printf('%.2f %s (%s)', estimate, coefficient, field) FROM gold.agreement a
                 WHERE a.study = r.study AND slice = 'all' AND headline
                 ORDER BY estimate LIMIT 1)
            FROM staging.routed_items r GROUP BY r.study ORDER BY r.study
            """
        ).fetchall()
    for row in rows:
        table.add_row(*("" if v is None else str(v) for v in row))
    return table


def quality_lines(home: Home, studies: list[str]) -> list[str]:
    """Which simulated annotators the rater-quality checks flagged, and why."""
    lines = []
    with warehouse.connect(home.warehouse, read_only=True) as con:
        for study in studies:
            table = warehouse.read_study_rows(con, "gold.rater_quality", study)
            text = flag_summary(table) if not table.empty else "not computed"
            lines.append(f"{study}: " + text.replace("\n", "\n    "))
    return lines


def consensus_lines(home: Home) -> list[str]:
    """Status counts per study, adjudicated decisions, and recovery of the planted truth."""
    with warehouse.connect(home.warehouse, read_only=True) as con:
        statuses = con.execute(
            """SELECT study, string_agg(status || ' ' || n, ', ' ORDER BY n DESC)
               FROM (SELECT study, status, count(*) AS n FROM gold.consensus GROUP BY ALL)
               GROUP BY study ORDER BY study"""
        ).fetchall()
        recovery = dict(
            con.execute(
                """SELECT study, string_agg(method || ' ' || pct || '%', ', ' ORDER BY method)
                   FROM (SELECT study, method, round(100 * sum(recovered) / sum(n), 1) AS pct
                         FROM staging.consensus_recovery GROUP BY ALL)
                   GROUP BY study"""
            ).fetchall()
        )
    return [
        f"{study}: {counts}; recovered: {recovery.get(study, '-')}" for study, counts in statuses
    ]


def judges_lines(home: Home, studies: list[str]) -> list[str]:
    """Each judge against the human ceiling, per study with judges, and the flagged ones."""
    lines = []
    with warehouse.connect(home.warehouse, read_only=True) as con:
        for study in studies:
            result = read_calibration(con, study)
            if len(result.calibration):
                lines.append(f"{study}:")
                lines += [f"  {line}" for line in judge_lines(result.calibration, result.weights)]
    return lines


def pairwise_lines(home: Home) -> list[str]:
    """Per pairwise study: each system's share of the comparisons it won, and each
    annotator's share of `left` among their non-tie choices."""
    with warehouse.connect(home.warehouse, read_only=True) as con:
        if not warehouse.table_exists(con, "gold.pairwise_comparisons"):
            return []
        wins = con.execute(
            """SELECT study, string_agg(system || ' ' || printf('%.2f', won), ', '
                                        ORDER BY won DESC)
               FROM (SELECT study, system, avg((winner = system)::INT) AS won
                     FROM (SELECT study, winner, system_a AS system FROM gold.pairwise_comparisons
                           UNION ALL
                           SELECT study, winner, system_b FROM gold.pairwise_comparisons)
                     GROUP BY ALL)
               GROUP BY study ORDER BY study"""
        ).fetchall()
        left = dict(
            con.execute(
                """SELECT study, string_agg(annotator_id || ' ' || printf('%.2f', share), ', '
                                            ORDER BY annotator_id)
                   FROM (SELECT study, annotator_id, avg((choice = 'left')::INT) AS share
                         FROM gold.pairwise_comparisons WHERE choice <> 'tie' GROUP BY ALL)
                   GROUP BY study"""
            ).fetchall()
        )
    return [
        line
        for study, won in wins
        for line in (f"{study}: won {won}", f"{study}: left share {left.get(study, '-')}")
    ]


def quarantine_lines(home: Home) -> list[str]:
    with warehouse.connect(home.warehouse, read_only=True) as con:
        rows = con.execute(
            """SELECT i.study, i.file,
                      string_agg(DISTINCT x.rule || ' (' || x."column" || ')', ', ')
               FROM staging.ingests i JOIN staging.ingest_issues x USING (study, sha256)
               WHERE i.status = 'rejected' AND x.severity = 'error'
               GROUP BY i.study, i.file ORDER BY 1, 2"""
        ).fetchall()
    return [f"{study}/{file}: {rules}" for study, file, rules in rows]


def main() -> int:
    from pipelines.definitions import defs

    home = Home.from_env()
    console = Console()
    job = defs.resolve_job_def("annotation_job")
    studies = job.partitions_def.get_partition_keys()
    notes: list[str] = []
    failed: list[str] = []
    with Progress(console=console) as progress:
        task = progress.add_task("demo", total=len(studies))
        for study in studies:
            notes += run_study(study, home, job, progress, task, failed)
            progress.advance(task)
    console.print(summary(home))
    console.print("[bold]Pilot gates[/bold]")
    for line in notes:
        console.print(f"  {line}")
    console.print("[bold]Rater quality[/bold] (gold.rater_quality; plots in reports/<study>/)")
    for line in quality_lines(home, studies):
        console.print(f"  {line}")
    console.print(
        "[bold]Consensus[/bold] (gold.consensus; how often it recovers the planted truth)"
    )
    for line in consensus_lines(home):
        console.print(f"  {line}")
    console.print(
        "[bold]Judges[/bold] (gold.judge_calibration, gold.judge_weights; "
        "reports/<study>/judge_calibration.png)"
    )
    for line in judges_lines(home, studies):
        console.print(f"  {line}")
    console.print(
        "[bold]Pairwise[/bold] (gold.pairwise_comparisons: share of comparisons won; "
        "share of left among decided choices)"
    )
    for line in pairwise_lines(home):
        console.print(f"  {line}")
    console.print("[bold]Quarantined files[/bold] (their corrected versions were resubmitted)")
    for line in quarantine_lines(home):
        console.print(f"  {line}")
    console.print(f"Packets:    {home.outbox}/<study>/<annotator>/<batch>/")
    console.print(f"Quarantine: {home.quarantine}/<study>/ (report.md, report.json, issues.csv)")
    console.print(f"Warehouse:  duckdb {home.warehouse}   (gold.consensus, gold.labels ...)")
    console.print(f"Gold tables for queries: duckdb -readonly {home.published}")
    console.print(f"Exports:    {home.root / 'exports'}/<study>/")
    console.print(f"Reports:    {home.reports}/<study>/index.html (the study report, offline)")
    console.print("Dagster UI with these runs: make ui")
    for line in failed:
        console.print(f"[bold red]Failed run[/bold red] {line} (details: make ui)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
