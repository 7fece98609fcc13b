"""`raterlab agree`: agreement coefficients of any ratings file."""

from __future__ import annotations

import argparse
import re
import sys
from typing import TYPE_CHECKING

from raterlab.agreement.names import COEFFICIENT_NAMES, LEVELS
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
layouts: long (one row per unit and rater, a column per field; needs a rater column) or
wide (a unit column and one column per rater, one field).
coefficients: {names}; add an option after a colon, e.g. cohen_kappa:quadratic,
gwet_ac2:ordinal, icc:ICC(3,1), krippendorff_alpha:interval.
bands: Krippendorff's for alpha (.667 tentative, .8 reliable), Koo & Li's for the ICC, Landis
& Koch's for the kappas, pi, AC1/AC2 and Brennan-Prediger; none for percent agreement.
example: raterlab agree ratings.csv --rater annotator --fields correctness --level ordinal
"""


def _coefficient_names(text: str) -> list[str]:
    """Split on commas outside parentheses: ``alpha,icc:ICC(3,1)`` has two names."""
    return [part.strip() for part in re.split(r",(?![^(]*\))", text) if part.strip()]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "agree",
        help=COMMANDS["agree"][1],
        description="Compute inter-rater agreement per field of a CSV, JSONL or Parquet file.",
        epilog=EPILOG.format(names=", ".join(COEFFICIENT_NAMES)),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("path", help="ratings file: .csv, .tsv, .jsonl, .json or .parquet")
    add_unit_argument(p, default=None)
    p.add_argument("--rater", help="rater id column of a long file (default: 'rater' if present)")
    p.add_argument("--fields", type=names, help="comma-separated fields of a long file")
    p.add_argument("--level", choices=LEVELS, default="nominal", help="level of measurement")
    p.add_argument("--coefficients", type=_coefficient_names, help="comma-separated coefficients")
    p.add_argument(
        "--categories",
        type=_coefficient_names,
        help="the scale in order, e.g. 1,2,3,4,5 (also says that words in a field are labels)",
    )
    add_output_arguments(p, ci_default=True)
    p.add_argument("--ci-method", choices=("percentile", "bca"), default="percentile")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from raterlab.agreement.bands import conventional_band
    from raterlab.agreement.by_field import agreement_table
    from raterlab.agreement.ratings_file import ratings_matrices, read_ratings_file

    try:
        matrices = ratings_matrices(
            read_ratings_file(args.path),
            unit=args.unit,
            rater=args.rater,
            fields=args.fields,
            labels=args.categories is not None,
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
    table.insert(
        table.columns.get_loc("ci_high") + 1,
        "band",
        list(map(conventional_band, table["coefficient"], table["estimate"])),
    )
    print_table(table, args.format, lambda t: _text(t, args.ci))
    return 0


def _text(table: pd.DataFrame, ci: bool) -> str:
    """The table for a terminal: a row's note becomes a numbered footnote below it."""
    notes = [note for note in table["note"] if note]
    marks = [f"[{notes.index(note) + 1}]" if note else "" for note in table["note"]]
    hidden = ["note", *([] if ci else ["ci_low", "ci_high"])]
    shown = table.drop(columns=hidden).assign(note=marks) if notes else table.drop(columns=hidden)
    text = shown.to_string(index=False, float_format="{:.4f}".format, na_rep="-")
    footnotes = [f"[{i}] {note}" for i, note in enumerate(dict.fromkeys(notes), start=1)]
    return "\n".join([text, *footnotes])
