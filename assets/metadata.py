"""Metadata the Dagster UI renders well: tables as Markdown tables, lists as Markdown lists,
plots as inline images."""

from collections.abc import Iterable
from pathlib import Path

import dagster as dg
import pandas as pd

from raterlab.report.html import data_uri


def table_md(
    frame: pd.DataFrame, empty: str = "none", decimals: int | None = 3
) -> dg.MetadataValue:
    """``frame`` as a Markdown table (numbers rounded to ``decimals``; ``None``: as they
    are), or the ``empty`` sentence when it has no rows."""
    if not len(frame):
        return dg.MetadataValue.md(empty)
    shown = frame if decimals is None else frame.round(decimals)
    return dg.MetadataValue.md(shown.to_markdown(index=False))


def list_md(lines: Iterable[str], empty: str = "none") -> dg.MetadataValue:
    """``lines`` as a Markdown list, or the ``empty`` sentence when there are none."""
    return dg.MetadataValue.md("\n".join(f"- {line}" for line in lines) or empty)


def image_md(path: Path, alt: str = "") -> dg.MetadataValue:
    """The PNG at ``path`` shown inline in the asset's metadata (a ``data:`` URI), described
    by ``alt`` (default: the file's name)."""
    return dg.MetadataValue.md(f"![{alt or path.name}]({data_uri(path)})")
