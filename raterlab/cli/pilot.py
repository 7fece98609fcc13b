"""``raterlab pilot``: the pilot gate's attempts, and a new pilot round after a failed one.

::

    raterlab pilot status STUDY   # every gate attempt: round, estimate, interval, guide, date
    raterlab pilot again STUDY    # after revising the guide: start pilot-2 (pilot-3, ...)

``again`` records the round in ``staging.pilot_rounds``; the next run of the annotation job
(or ``packets_job``) writes its packets: the same pilot items, new tokens.
"""

from __future__ import annotations

import argparse

from raterlab.settings import Home, studies_dir

SHOWN = ("attempt", "round", "field", "estimate", "ci_low", "ci_high", "passed", "band")


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "pilot",
        help="pilot gate attempts; a new pilot round after a failed gate",
        description=__doc__.split("::")[0].strip(),
    )
    parser.add_argument("action", choices=("status", "again"))
    parser.add_argument("study", help="study name (a file <study>.yaml in the studies folder)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from raterlab import warehouse
    from raterlab.design.repilot import repeat_pilot
    from raterlab.design.rounds import RepilotError
    from raterlab.protocol import StudyError, load_study
    from raterlab.warehouse import read_table

    try:
        study = load_study(studies_dir() / f"{args.study}.yaml")
    except StudyError as exc:
        print(f"raterlab pilot: {exc}")
        return 2
    home = Home.from_env()
    if not home.warehouse.exists():
        print(f"raterlab pilot: no warehouse at {home.warehouse}; run the annotation job")
        return 2
    if args.action == "again":
        with warehouse.connect(home.warehouse) as con:
            try:
                row = repeat_pilot(con, study)
            except RepilotError as exc:
                print(f"raterlab pilot: {exc}")
                return 1
        print(
            f"{study.name}: {row['round']} started (study version {row['study_version']}); "
            "run the annotation job to write its packets"
        )
        return 0
    with warehouse.connect(home.warehouse, read_only=True) as con:
        gates = read_table(con, "gold.pilot_gates", study.name)
    if gates is None or gates.empty:
        print(f"{study.name}: no pilot gate attempt yet")
        return 0
    numbers = [*SHOWN, "kappa_linear", "kappa_quadratic"]
    shown = (
        gates[numbers]
        .round(3)
        .assign(
            study_version=gates["study_version"],
            evaluated_at=gates["evaluated_at"].astype(str).str[:19],
        )
    )
    print(shown.to_string(index=False))
    return 0
