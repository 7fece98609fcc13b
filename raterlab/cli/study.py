"""``raterlab study``: check study files and write the JSON Schema editors use.

``check`` refuses a design that cannot work and warns about one that will say little
(:mod:`raterlab.design.feasibility`: ties nothing breaks, a pilot gate too small to decide, no
rushing floor).

``check`` also checks a study file against the ratings ``$RATERLAB_HOME``'s warehouse holds
for it, if any (:func:`raterlab.ingest.changes.study_change`, read-only): a field the ratings
have and the file dropped without ``renamed`` fails; renames to apply and stored values the
rules now reject are listed.

Last, for a design that can work, ``check`` prints the precision it plans for each declared
threshold and gate: the 95% interval's width the design's units, annotators per unit and the
field's categories will give if agreement sits at the threshold
(:func:`raterlab.planning.study_precision.planned_precision`, simulated with the study's seed)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

from raterlab.errors import StudyChanged
from raterlab.settings import Home, studies_dir

if TYPE_CHECKING:
    import pandas as pd

    from raterlab.protocol import Study


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("study", help="check study files; write the study JSON Schema")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    check = actions.add_parser("check", help="validate study files and their generations")
    check.add_argument(
        "paths", nargs="*", type=Path, help="study YAML files (default: all bundled)"
    )
    check.set_defaults(func=run_check)
    schema = actions.add_parser("schema", help="write the JSON Schema of study files")
    schema.add_argument("--out", type=Path, default=None, help="file to write (default: stdout)")
    schema.set_defaults(func=run_schema)


def run_check(args: argparse.Namespace) -> int:
    from raterlab.design import GenerationsError, read_generations
    from raterlab.design.feasibility import findings
    from raterlab.protocol import StudyError, load_study

    paths = args.paths or sorted(studies_dir().glob("*.yaml"))
    failed = 0
    for path in paths:
        try:
            study = load_study(path)
            items = read_generations(study)
            against = _against_ratings(study)
        except (StudyError, GenerationsError, StudyChanged) as exc:
            failed += 1
            print(f"FAIL {path}\n{exc}")
            continue
        found = findings(study, items)
        errors = [f for f in found if f.severity == "error"]
        counts = items.groupby("task").size().to_dict()
        if errors:
            failed += 1
            print(f"FAIL {path}: the design cannot work")
        else:
            print(f"ok   {path}: {len(study.tasks)} task(s), {len(items)} items {counts}")
        for finding in found:
            print(f"     {finding.severity}: {finding.path}: {finding.message}")
        for line in against:
            print(f"     {line}")
        if not errors:
            for line in _planned(study, items):
                print(f"     {line}")
    return 1 if failed else 0


def _planned(study: Study, items: pd.DataFrame) -> list[str]:
    """The planned precision of each declared threshold and gate
    (:func:`raterlab.planning.study_precision.planned_precision`), fields that share it on
    one line."""
    from raterlab.planning.study_precision import planned_precision

    table = planned_precision(study, items)
    gate = study.thresholds.pilot_gate
    strict = {
        f"thresholds.minimums[{i}]": t.strict for i, t in enumerate(study.thresholds.minimums)
    }
    strict["thresholds.pilot_gate"] = gate is not None and gate.strict
    keys = [c for c in table.columns if c not in ("field", "study")]
    lines = []
    for key, group in table.groupby(keys, sort=False, dropna=False):
        row = dict(zip(keys, key, strict=True))
        where = f"task {row['task']} [{', '.join(group['field'])}]"
        slice_ = "" if row["slice"] == "all" else f", {row['slice']}"
        bar = f"{'>' if strict[row['threshold']] else '>='} {row['min']}{slice_}"
        head = f"planned: {row['threshold']} ({row['coefficient']} {bar}) on {where}"
        if row["note"]:
            lines.append(f"{head}: no plan ({row['note']})")
            continue
        width = row["planned_ci_width"]
        lines.append(
            f"{head}: {row['planned_units']} units x {row['n_raters']} raters, "
            f"{row['n_categories']} categories -> 95% interval about {width:.2f} wide "
            f"(± {width / 2:.2f}) at {row['min']}"
        )
    return lines


def _against_ratings(study: Study) -> list[str]:
    """What the study file does to the ratings stored for it (nothing without a warehouse);
    raises :class:`~raterlab.errors.StudyChanged` for a dropped field."""
    from raterlab import warehouse
    from raterlab.ingest.changes import study_change

    home = Home.from_env()
    if not home.warehouse.exists():
        return []
    with warehouse.connect(home.warehouse, read_only=True) as con:
        return study_change(con, study).lines()


def run_schema(args: argparse.Namespace) -> int:
    from raterlab.protocol import study_json_schema

    text = json.dumps(study_json_schema(), indent=2) + "\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    else:
        print(text, end="")
    return 0
