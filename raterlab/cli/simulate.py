"""``raterlab simulate``: simulated annotators fill a study's packets and return them."""

from __future__ import annotations

import argparse
from collections import Counter

from raterlab.settings import Home, studies_dir
from raterlab.simulate.names import ROUNDS

PROGRESS_FROM = 20
"""Show a progress bar when at least this many files are to be filled."""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "simulate",
        help="simulated annotators fill the outbox packets and drop returns in the inbox",
        description=(
            "Fill a study's packets as annotators would (good, lenient, severe, rushed and "
            "inconsistent raters; spreadsheet quirks; a few mistakes) into "
            "$RATERLAB_HOME/inbox/<study>/, and record what was planted in the warehouse "
            "(staging.sim_truth, staging.sim_profiles, staging.sim_files) and in "
            "$RATERLAB_HOME/simulations/<study>/planted.json."
        ),
    )
    parser.add_argument("study", help="study name (a file <study>.yaml in the studies folder)")
    parser.add_argument(
        "--round", choices=ROUNDS, default="all", help="which packets to fill (default: all)"
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="simulation seed, combined with the study's seed"
    )
    parser.add_argument(
        "--clean",
        action="store_true",
        help="remove earlier simulated returns of the round and fill every packet again",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import Progress

    from raterlab.protocol import StudyError, load_study
    from raterlab.simulate import SimulationError, simulate

    console = Console()
    try:
        study = load_study(studies_dir() / f"{args.study}.yaml")
    except StudyError as exc:
        console.print(f"[red]{exc}[/red]")
        return 2
    home = Home.from_env()
    bar = Progress(console=console, transient=True)
    task = None

    def advance(done: int, total: int) -> None:
        nonlocal task
        if total < PROGRESS_FROM:
            return
        if task is None:
            bar.start()
            task = bar.add_task(f"simulating {study.name}", total=total)
        bar.update(task, completed=done)

    try:
        summary = simulate(
            study, home, round=args.round, seed=args.seed, clean=args.clean, progress=advance
        )
    except SimulationError as exc:
        console.print(f"[red]raterlab simulate: {exc}[/red]")
        return 1
    finally:
        bar.stop()
    files = summary.written
    mistakes = Counter(m["kind"] for m in summary.mistakes)
    variants = int((files["variants"] != "[]").sum())
    lines = [
        f"[bold]{study.name}[/bold]: {len(files)} file(s) written, {summary.rows} rows, "
        f"in {home.inbox / study.name}",
        "  profiles  " + ", ".join(f"{a} {p}" for a, p in summary.profiles.items()),
        f"  variants  {variants} file(s)",
        "  mistakes  "
        + (", ".join(f"{n} {k}" for k, n in sorted(mistakes.items())) or "none planted"),
        f"  planted   {summary.planted}, staging.sim_truth ({summary.truth_rows} rows), "
        "staging.sim_profiles, staging.sim_files",
    ]
    if summary.already_returned or summary.not_in_outbox:
        lines.insert(
            1,
            f"  skipped   {summary.already_returned} already returned, "
            f"{summary.not_in_outbox} not in the outbox",
        )
    for line in lines:
        console.print(line, soft_wrap=True, highlight=False)
    return 0
