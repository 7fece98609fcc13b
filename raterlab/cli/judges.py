"""`raterlab judges import STUDY FILE`: a judge's verdicts, loaded for the next calibration."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from raterlab.judges.columns import FILE_COLUMNS, OPTIONAL_COLUMNS
from raterlab.settings import Home, studies_dir


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("judges", help="judge verdicts of a study (import a judge file)")
    actions = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    imp = actions.add_parser(
        "import",
        help="validate a judge file against the study and store it",
        description=(
            f"Columns: {', '.join(FILE_COLUMNS)}, optional {', '.join(OPTIONAL_COLUMNS)}. "
            "Each judge must be declared in the study's judges.panel with source: import. "
            "Importing a judge again replaces its verdicts; the judge_calibration and "
            "judge_substitution assets read them on their next run."
        ),
    )
    imp.add_argument("study", help="study name (a file in studies/)")
    imp.add_argument("file", type=Path, help="judge file: .csv, .tsv, .jsonl, .json or .parquet")
    imp.set_defaults(func=run_import)


def run_import(args: argparse.Namespace) -> int:
    from raterlab.design import GenerationsError, read_generations
    from raterlab.judges.verdicts import (
        JudgeFileError,
        judges_dir,
        read_judge_file,
        store_imported,
    )
    from raterlab.protocol import StudyError, load_study

    try:
        study = load_study(studies_dir() / f"{args.study}.yaml")
        generations = read_generations(study)
        tasks_of = dict(zip(generations["item_id"].astype(str), generations["task"], strict=True))
        verdicts = read_judge_file(study, args.file, tasks_of)
    except (StudyError, GenerationsError, JudgeFileError, FileNotFoundError) as error:
        print(f"raterlab judges import: {error}", file=sys.stderr)
        return 2
    folder = judges_dir(Home.from_env().root, study.name)
    for path in store_imported(verdicts, folder):
        rows = verdicts[verdicts["judge"] == path.stem]
        invalid = int(rows["value"].isna().sum())
        print(f"{path.stem}: {len(rows)} verdicts ({invalid} unreadable) -> {path}")
    return 0
