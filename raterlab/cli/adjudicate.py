"""``raterlab adjudicate``: the adjudication loop and consensus from the command line.

::

    raterlab adjudicate queue STUDY       # disputed fields, lowest agreement first
    raterlab adjudicate issue STUDY       # write adjudication / third-annotator packets
    raterlab adjudicate ingest STUDY [FILE]   # ingest returned decisions (default: the inbox)
    raterlab adjudicate simulate STUDY    # simulated adjudicators and third annotators
    raterlab adjudicate consensus STUDY   # gold.items, gold.consensus, views, exports

The same functions the Dagster assets run (group ``consensus``); the third annotators'
returns are ordinary returned files (``raterlab ingest`` or the ingest job reads them).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from raterlab.settings import Home, studies_dir

if TYPE_CHECKING:
    from duckdb import DuckDBPyConnection

    from raterlab.protocol import Study

ACTIONS = ("queue", "issue", "ingest", "simulate", "consensus")


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "adjudicate",
        help="adjudication queue, packets, returned decisions, and consensus",
        description=__doc__.split("::")[0].strip(),
    )
    parser.add_argument("action", choices=ACTIONS)
    parser.add_argument("study", help="study name (a file <study>.yaml in the studies folder)")
    parser.add_argument("path", nargs="?", type=Path, help="ingest: one decisions file")
    parser.add_argument("--seed", type=int, default=0, help="simulate: simulation seed")
    parser.add_argument(
        "--error",
        type=float,
        default=0.05,
        help="simulate: share of decisions that miss the truth (default 0.05)",
    )
    parser.add_argument(
        "--no-exports", action="store_true", help="consensus: do not write the exports"
    )
    parser.set_defaults(func=run)


def _print_frame(frame, limit: int = 20) -> None:
    print(frame.head(limit).to_string(index=False) if len(frame) else "  (none)")


def _load(study_name: str) -> tuple[Study, Home] | int:
    """The study and the home it runs in, or the exit code (2) after saying why not: the
    study file does not load, or no annotation job has made a warehouse yet."""
    from raterlab.protocol import StudyError, load_study

    try:
        study = load_study(studies_dir() / f"{study_name}.yaml")
    except StudyError as exc:
        print(f"raterlab adjudicate: {exc}")
        return 2
    home = Home.from_env()
    if not home.warehouse.exists():
        print(f"raterlab adjudicate: no warehouse at {home.warehouse}; run the annotation job")
        return 2
    return study, home


def _simulate(study: Study, home: Home, seed: int, error: float) -> int:
    """Simulated adjudicators and third annotators fill the issued packets; say how many."""
    from raterlab.simulate import SimulationError
    from raterlab.simulate.adjudicators import simulate_adjudication

    try:
        done = simulate_adjudication(study, home, seed=seed, error=error)
    except SimulationError as exc:
        print(f"raterlab adjudicate: {exc}")
        return 1
    print(
        f"{study.name}: {len(done.adjudication_files)} decisions file(s) "
        f"({done.decisions} decisions, {done.errors} off the truth), "
        f"{len(done.third_annotator_files)} third-annotator file(s) "
        f"({done.third_annotator_rows} rows)"
    )
    return 0


def _queue(con: DuckDBPyConnection, study: Study) -> None:
    """Refresh the stored queue and print its backlog and its open fields by priority."""
    from raterlab.adjudication.queue import backlog
    from raterlab.adjudication.stored_queue import refresh_queue

    queue = refresh_queue(con, study)
    print(f"{study.name}: {len(queue)} disputed field(s)")
    _print_frame(backlog(queue))
    _print_frame(
        queue[queue["priority"].notna()][
            ["priority", "task", "item_id", "field", "reasons", "agreement", "route", "state"]
        ]
    )


def _issue(con: DuckDBPyConnection, study: Study, home: Home) -> None:
    """Write the adjudication and tie-break packets and print where they went."""
    from raterlab.adjudication.packets import issue_packets
    from raterlab.design import load_or_create_secret

    issued = issue_packets(study, home, con, load_or_create_secret(home.blinding_secret, con))
    print(
        f"{study.name}: adjudication batch {issued['adjudication_batch'] or '-'} "
        f"({issued['cases']} case(s), {issued['fields']} field(s)); tiebreak batch "
        f"{issued['tiebreak_batch'] or '-'} ({issued['tiebreak_items']} item(s))"
    )
    for packet in issued["packets"]:
        print(f"  {home.outbox / packet}")


def _ingest(con: DuckDBPyConnection, study: Study, home: Home, path: Path | None) -> int:
    """Ingest one decisions file (or the inbox), print each file's outcome and publish the
    adjudication tables; 1 when a file was rejected."""
    from raterlab.adjudication.ingest import ingest_decisions, ingest_inbox
    from raterlab.publish import publish

    results = [ingest_decisions(study, path, home, con)] if path else ingest_inbox(study, home, con)
    for r in results:
        line = f"{r.file}: {r.status}"
        if r.status == "accepted":
            line += f", {r.n_decisions} decision(s)"
            if r.n_older:
                line += f" ({r.n_older} older than the decision in force: kept in history)"
        elif r.status == "rejected":
            line += f", {r.n_errors} error(s); report: {r.report}"
        print(line)
    publish(con, home.published, ["gold.adjudications", "gold.adjudication_history"])
    return 1 if any(r.status == "rejected" for r in results) else 0


def _consensus(con: DuckDBPyConnection, study: Study, home: Home) -> None:
    """Build and publish the consensus tables; print the statuses and the recovery of the
    planted truth (when the study was simulated)."""
    from raterlab.consensus.recovery import overall
    from raterlab.gold.build import CONSENSUS_TABLES, build_consensus
    from raterlab.publish import publish

    built = build_consensus(con, study)
    publish(con, home.published, CONSENSUS_TABLES)
    print(f"{study.name}: {len(built.consensus)} consensus row(s), {len(built.items)} item(s)")
    _print_frame(built.consensus["status"].value_counts().rename_axis("status").reset_index())
    if len(built.recovery):
        print("recovery of the planted truth:")
        _print_frame(overall(built.recovery))


def _write_exports(study: Study, home: Home) -> None:
    """Write the study's exports from the warehouse (read only, after the consensus commits)."""
    from raterlab import warehouse
    from raterlab.exports.bundle import load_bundle
    from raterlab.exports.write import write_exports

    with warehouse.connect(home.warehouse, read_only=True) as con:
        bundle = load_bundle(con, study)
    files = write_exports(bundle, home.root / "exports")
    print(f"exports: {len(files)} file(s) in {home.root / 'exports' / study.name}")


def run(args: argparse.Namespace) -> int:
    """Run one ``raterlab adjudicate`` action; the exit code (0 done, 1 a rejected file or a
    failed simulation, 2 no study or no warehouse)."""
    from raterlab import warehouse

    loaded = _load(args.study)
    if isinstance(loaded, int):
        return loaded
    study, home = loaded
    if args.action == "simulate":
        return _simulate(study, home, args.seed, args.error)
    code = 0
    with warehouse.connect(home.warehouse) as con:
        if args.action == "queue":
            _queue(con, study)
        elif args.action == "issue":
            _issue(con, study, home)
        elif args.action == "ingest":
            code = _ingest(con, study, home, args.path)
        else:
            _consensus(con, study, home)
    if args.action == "consensus" and not args.no_exports:
        _write_exports(study, home)
    return code
