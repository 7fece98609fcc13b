"""Metadata the Dagster UI renders well: tables as Markdown tables, plots as inline images."""

from pathlib import Path

import dagster as dg
import pandas as pd

from raterlab.report.html import data_uri


def table_md(frame: pd.DataFrame, empty: str = "none") -> dg.MetadataValue:
    """``frame`` as a Markdown table (numbers to 3 decimals), or the ``empty`` sentence."""
    if frame.empty:
        return dg.MetadataValue.md(empty)
    return dg.MetadataValue.md(frame.round(3).to_markdown(index=False))


def image_md(path: Path, alt: str = "") -> dg.MetadataValue:
    """The PNG at ``path`` shown inline in the asset's metadata (a ``data:`` URI), described
    by ``alt`` (default: the file's name)."""
    return dg.MetadataValue.md(f"![{alt or path.name}]({data_uri(path)})")
