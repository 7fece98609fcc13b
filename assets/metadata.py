"""Metadata the Dagster UI renders well: tables as Markdown tables, plots as inline images."""

import base64
from pathlib import Path

import dagster as dg
import pandas as pd


def table_md(frame: pd.DataFrame, empty: str = "none") -> dg.MetadataValue:
    """``frame`` as a Markdown table (numbers to 3 decimals), or the ``empty`` sentence."""
    if frame.empty:
        return dg.MetadataValue.md(empty)
    return dg.MetadataValue.md(frame.round(3).to_markdown(index=False))


def data_uri(path: Path) -> str:
    """A PNG file as a ``data:`` URI, so it shows without a request to any server."""
    return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def image_md(path: Path) -> dg.MetadataValue:
    """The PNG at ``path`` shown inline in the asset's metadata."""
    return dg.MetadataValue.md(f"![{path.name}]({data_uri(path)})")
