"""``raterlab study``: check study files and write the JSON Schema editors use."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from raterlab.design import GenerationsError, read_generations
from raterlab.protocol import StudyError, load_study, study_json_schema
from raterlab.settings import studies_dir


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
    paths = args.paths or sorted(studies_dir().glob("*.yaml"))
    failed = 0
    for path in paths:
        try:
            study = load_study(path)
            items = read_generations(study)
        except (StudyError, GenerationsError) as exc:
            failed += 1
            print(f"FAIL {path}\n{exc}")
            continue
        counts = items.groupby("task").size().to_dict()
        print(f"ok   {path}: {len(study.tasks)} task(s), {len(items)} items {counts}")
    return 1 if failed else 0


def run_schema(args: argparse.Namespace) -> int:
    text = json.dumps(study_json_schema(), indent=2) + "\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    else:
        print(text, end="")
    return 0
