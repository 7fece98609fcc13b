"""`raterlab judges import STUDY FILE`: a judge's verdicts, loaded for the next calibration."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from raterlab.judges.columns import FILE_COLUMNS, OPTIONAL_COLUMNS, SIDE_COLUMNS
from raterlab.settings import Home, studies_dir


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("judges", help="judge verdicts of a study (import a judge file)")
    actions = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    imp = actions.add_parser(
        "import",
        help="validate a judge file against the study and store it",
        description=(
            f"Columns: {', '.join(FILE_COLUMNS)}, optional {', '.join(OPTIONAL_COLUMNS)}. "
            f"A verdict on a pairwise field also needs {', '.join(SIDE_COLUMNS)} (the order "
            "the judge saw the pair in) and its value is written as the judge saw it: left, "
            "right, tie (much_left, much_right); one verdict per item, judge, field, order "
            "and run. "
            "Each judge must be declared in the study's judges.panel with source: import. "
            "Importing a judge again replaces its verdicts; the judge_calibration, "
            "judge_substitution and judge_robustness assets read them on their next run."
        ),
    )
    imp.add_argument("study", help="study name (a file in studies/)")
    imp.add_argument("file", type=Path, help="judge file: .csv, .tsv, .jsonl, .json or .parquet")
    imp.set_defaults(func=run_import)


def run_import(args: argparse.Namespace) -> int:
    from raterlab.design import GenerationsError
    from raterlab.judges.imports import import_judge_file
    from raterlab.judges.verdicts import JudgeFileError
    from raterlab.protocol import StudyError, load_study

    try:
        study = load_study(studies_dir() / f"{args.study}.yaml")
        verdicts, paths = import_judge_file(study, args.file, Home.from_env().root)
    except (StudyError, GenerationsError, JudgeFileError, FileNotFoundError) as error:
        print(f"raterlab judges import: {error}", file=sys.stderr)
        return 2
    for path in paths:
        rows = verdicts[verdicts["judge"] == path.stem]
        invalid = int(rows["value"].isna().sum())
        print(f"{path.stem}: {len(rows)} verdicts ({invalid} unreadable) -> {path}")
    return 0
