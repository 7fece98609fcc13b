"""Options shared by the commands that read ratings files (``agree``, ``calibrate``), so
that the same option means the same thing in both."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd


def names(text: str) -> list[str]:
    """``a, b,c`` -> ``["a", "b", "c"]``."""
    return [part.strip() for part in text.split(",") if part.strip()]


def add_unit_argument(parser: argparse.ArgumentParser, default: list[str] | None) -> None:
    """``--unit``: one or several columns naming the unit (``--unit doc,system``)."""
    parser.add_argument(
        "--unit",
        type=names,
        default=default,
        help="unit id column(s), comma-separated; several name a unit together (default: 'unit')",
    )


def add_output_arguments(parser: argparse.ArgumentParser, ci_default: bool) -> None:
    """``--format``, the bootstrap interval's options and ``--seed``."""
    parser.add_argument("--format", choices=("table", "json", "csv"), default="table")
    parser.add_argument(
        "--ci",
        action=argparse.BooleanOptionalAction,
        default=ci_default,
        help=f"bootstrap intervals over units (default: {'on' if ci_default else 'off'})",
    )
    parser.add_argument("--confidence", type=float, default=0.95)
    parser.add_argument("--n-resamples", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")


def print_table(
    table: pd.DataFrame, output: str, show: Callable[[pd.DataFrame], str] | None = None
) -> None:
    """``table`` as JSON records, CSV (neutralised for spreadsheets: rater and field names
    come from the file read), or text (``show``, else pandas' own)."""
    from raterlab.csvsafe import csv_text

    if output == "json":
        records = table.astype(object).where(table.notna(), None).to_dict(orient="records")
        print(json.dumps(records, indent=2, default=_plain))
    elif output == "csv":
        print(csv_text(table), end="")
    else:
        print(show(table) if show else table.to_string(index=False, na_rep="-"))


def _plain(value: object) -> object:
    import numpy as np

    return value.item() if isinstance(value, np.generic) else str(value)
