"""`raterlab agree`: agreement coefficients of any ratings file."""

from __future__ import annotations

import argparse
import json
import re
import sys

from raterlab.agreement.alpha import LEVELS
from raterlab.agreement.ratings_file import ratings_matrices, read_ratings_file
from raterlab.agreement.report import COEFFICIENTS, agreement_table

EPILOG = """\
layouts: long (one row per unit and rater, a column per field; needs a rater column) or
wide (a unit column and one column per rater, one field).
coefficients: {names}; add an option after a colon, e.g. cohen_kappa:quadratic,
gwet_ac2:ordinal, icc:ICC(3,1), krippendorff_alpha:interval.
example: raterlab agree ratings.csv --rater annotator --fields correctness --level ordinal --ci
"""


def _names(text: str) -> list[str]:
    """Split on commas outside parentheses: ``alpha,icc:ICC(3,1)`` has two names."""
    return [part.strip() for part in re.split(r",(?![^(]*\))", text) if part.strip()]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "agree",
        help="agreement coefficients (alpha, kappas, AC1/AC2, ICC) of a ratings file",
        description="Compute inter-rater agreement per field of a CSV, JSONL or Parquet file.",
        epilog=EPILOG.format(names=", ".join(COEFFICIENTS)),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("path", help="ratings file: .csv, .tsv, .jsonl, .json or .parquet")
    p.add_argument("--unit", help="unit id column (default: 'unit')")
    p.add_argument("--rater", help="rater id column of a long file (default: 'rater' if present)")
    p.add_argument("--fields", type=_names, help="comma-separated fields of a long file")
    p.add_argument("--level", choices=LEVELS, default="nominal", help="level of measurement")
    p.add_argument("--coefficients", type=_names, help="comma-separated coefficients")
    p.add_argument("--categories", type=_names, help="the scale in order, e.g. 1,2,3,4,5")
    p.add_argument("--format", choices=("table", "json", "csv"), default="table")
    p.add_argument("--ci", action="store_true", help="add bootstrap confidence intervals")
    p.add_argument("--ci-method", choices=("percentile", "bca"), default="percentile")
    p.add_argument("--confidence", type=float, default=0.95)
    p.add_argument("--n-resamples", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        matrices = ratings_matrices(
            read_ratings_file(args.path), unit=args.unit, rater=args.rater, fields=args.fields
        )
        table = agreement_table(
            matrices,
            level=args.level,
            coefficients=args.coefficients,
            categories=args.categories,
            ci=args.ci,
            n_resamples=args.n_resamples,
            confidence=args.confidence,
            ci_method=args.ci_method,
            seed=args.seed,
        )
    except ValueError as error:
        print(f"raterlab agree: error: {error}", file=sys.stderr)
        return 2
    if args.format == "json":
        records = table.astype(object).where(table.notna(), None).to_dict(orient="records")
        print(json.dumps(records, indent=2))
    elif args.format == "csv":
        print(table.to_csv(index=False), end="")
    else:
        hidden = [] if args.ci else ["ci_low", "ci_high"]
        hidden += [] if table["note"].astype(bool).any() else ["note"]
        shown = table.drop(columns=hidden)
        print(shown.to_string(index=False, float_format="{:.4f}".format, na_rep="-"))
    return 0
