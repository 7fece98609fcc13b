"""`raterlab calibrate HUMAN JUDGES`: judges against humans on any two files."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from raterlab.cli.commands import COMMANDS
from raterlab.cli.ratings_options import (
    add_output_arguments,
    add_unit_argument,
    names,
    print_table,
)

if TYPE_CHECKING:
    import pandas as pd

EPILOG = """\
HUMAN: one row per unit and rater, a column per field (--fields).
JUDGES: one row per unit and judge (and field, with --field), a score column (--score).
Levels: item (units pooled), group (--group: within each group, averaged), system (--system:
per-system means). --long prints every statistic (bias, comparisons with Williams' test,
the alternative annotator test, per-class precision/recall...) instead of the summary.
--ppi prints prediction-powered estimates instead (PPI++, power-tuned): per judge and field
(per label of a --categorical field), the mean over all units of JUDGES the judge scored of
the per-unit human aggregate (--aggregate; for a label, the share of raters giving it), from
the humans on the units HUMAN rates and the judge's score, used as is as the prediction, on
all; beside it the classical human-only estimate and the effective number of human labels
(--confidence sets the level of both intervals). See docs/judges.md.
example:
  raterlab calibrate human.csv judge_scores.csv --unit id,model_id --rater annotator \\
      --fields consistency,relevance --judge judge --score score --group id --system model_id --ci
"""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "calibrate",
        help=COMMANDS["calibrate"][1],
        description="Compare each judge's scores with the human ratings of the same units.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("human", help="human ratings file (.csv, .tsv, .jsonl, .json, .parquet)")
    p.add_argument("judges", help="judge scores file (same formats)")
    add_unit_argument(p, default=["unit"])
    p.add_argument("--rater", default="rater", help="rater id column of HUMAN")
    p.add_argument("--fields", type=names, required=True, help="human fields, comma-separated")
    p.add_argument("--categorical", type=names, default=[], help="fields compared by kappa")
    p.add_argument("--judge", default="judge", help="judge name column of JUDGES")
    p.add_argument("--score", default="score", help="score column of JUDGES")
    p.add_argument("--field", help="field column of JUDGES (default: every field)")
    p.add_argument("--group", help="column for the group level (e.g. the prompt or document)")
    p.add_argument("--system", help="column for the system level (e.g. the model)")
    p.add_argument("--aggregate", choices=("mean", "median"), default="mean")
    p.add_argument("--long", action="store_true", help="every statistic, one row each")
    p.add_argument(
        "--ppi",
        action="store_true",
        help="prediction-powered estimates of the human mean over all units of JUDGES",
    )
    p.add_argument("--epsilon", type=float, default=0.2, help="alternative annotator test margin")
    p.add_argument(
        "--alt-min-humans",
        type=int,
        default=2,
        help="humans a unit needs to count in the alternative annotator test (default 2, "
        "as the authors' code)",
    )
    add_output_arguments(p, ci_default=True)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from raterlab.agreement.ratings_file import read_ratings_file

    if args.ppi:
        return _run_ppi(args)
    from raterlab.judges.field_input import Options
    from raterlab.judges.files import calibrate_files, summary

    levels = ("item", *(["group"] if args.group else []), *(["system"] if args.system else []))
    options = Options(
        aggregate=args.aggregate,
        resamples=args.n_resamples if args.ci else 0,
        confidence=args.confidence,
        seed=args.seed,
        epsilon=args.epsilon,
        min_alt_humans=args.alt_min_humans,
        levels=levels,
    )
    try:
        long = calibrate_files(
            read_ratings_file(args.human),
            read_ratings_file(args.judges),
            units=args.unit,
            rater=args.rater,
            fields=args.fields,
            judge=args.judge,
            score=args.score,
            field=args.field,
            group=args.group,
            system=args.system,
            categorical=args.categorical,
            options=options,
        )
    except ValueError as error:
        print(f"raterlab calibrate: error: {error}", file=sys.stderr)
        return 2
    print_table(long if args.long else summary(long, args.ci), args.format, _text)
    return 0


def _run_ppi(args: argparse.Namespace) -> int:
    from raterlab.agreement.ratings_file import read_ratings_file
    from raterlab.judges.files import ppi_files

    try:
        table = ppi_files(
            read_ratings_file(args.human),
            read_ratings_file(args.judges),
            units=args.unit,
            rater=args.rater,
            fields=args.fields,
            judge=args.judge,
            score=args.score,
            field=args.field,
            categorical=args.categorical,
            aggregate=args.aggregate,
            confidence=args.confidence,
        )
    except ValueError as error:
        print(f"raterlab calibrate: error: {error}", file=sys.stderr)
        return 2
    print_table(table, args.format, _ppi_text)
    return 0


def _ppi_text(table: pd.DataFrame) -> str:
    table["label"] = table["label"].fillna("-")
    return table.to_string(index=False, float_format="{:.4f}".format, na_rep="-")


def _text(table: pd.DataFrame) -> str:
    counts = [c for c in ("n", "n_groups") if c in table]
    table[counts] = table[counts].astype(object).where(table[counts].notna(), "-")
    return table.to_string(index=False, float_format="{:.4f}".format, na_rep="-")
