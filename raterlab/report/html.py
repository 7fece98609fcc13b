"""The pieces of a self-contained HTML page: escaped tables, images as ``data:`` URIs, inline
CSS. Nothing on the page makes a request: no scripts, fonts, stylesheets or images from a
server."""

from __future__ import annotations

import base64
import html
import struct
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"
"""The page may load nothing: images only from ``data:`` URIs, styles only inline."""

CSS = """
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d1d1f;
       max-width: 1100px; margin: 2em auto; padding: 0 1.5em; }
h1 { font-size: 1.7em; margin-bottom: .2em; }
h2 { border-bottom: 2px solid #1f4e79; padding-bottom: .2em; margin-top: 2.2em; }
h3 { margin-top: 1.4em; }
table { border-collapse: collapse; margin: .6em 0 1em; font-size: .88em; }
th, td { border: 1px solid #d0d7de; padding: .25em .6em; text-align: left; vertical-align: top; }
td { white-space: nowrap; } td.text { white-space: normal; min-width: 18em; }
th { background: #eef3f8; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.flag td { background: #fdecea; }
.wide { overflow-x: auto; }
img { max-width: 100%; border: 1px solid #e1e4e8; margin: .5em 0; }
.lead { font-size: 1.1em; background: #f4f8fb; border-left: 4px solid #1f4e79;
        padding: .6em 1em; }
.ok { color: #1a7f37; font-weight: 600; } .held { color: #b03a2e; font-weight: 600; }
.note { color: #57606a; font-size: .9em; }
.disclosure { background: #fff8e1; border-left: 4px solid #d4a017; padding: .5em 1em; }
nav ol { columns: 1; display: flex; flex-wrap: wrap; gap: .2em 1.2em; padding-left: 0;
         list-style-position: inside; font-size: .85em; margin: .3em 0 0; }
details { margin: .5em 0 1em; } summary { cursor: pointer; color: #1f4e79; }
section:first-of-type h2 { margin-top: 1em; }
"""


LONG = 40
"""Cells longer than this wrap; shorter ones (numbers, names, intervals) stay on one line."""


@dataclass
class Section:
    """One numbered section of the report; ``anchor`` is its id in the page."""

    title: str
    anchor: str
    parts: list[str] = field(default_factory=list)

    def add(self, *parts: str) -> Section:
        self.parts.extend(parts)
        return self


def esc(text: object) -> str:
    return html.escape(str(text))


def paragraph(text: str, css: str = "") -> str:
    """A paragraph of plain text (escaped)."""
    return f'<p class="{css}">{esc(text)}</p>' if css else f"<p>{esc(text)}</p>"


def heading(text: str) -> str:
    return f"<h3>{esc(text)}</h3>"


def _cell(value: object) -> tuple[str, bool]:
    """Text of a cell and whether it is a number (right-aligned)."""
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return "", False
    if isinstance(value, bool | np.bool_):
        return ("yes" if value else "no"), False
    if isinstance(value, int | np.integer):
        return str(int(value)), True
    if isinstance(value, float | np.floating):
        return (f"{value:.3g}" if abs(value) < 1e-3 and value != 0 else f"{value:.3f}"), True
    if isinstance(value, pd.Timestamp):
        return value.strftime("%Y-%m-%d %H:%M"), False
    return str(value), False


def table(frame: pd.DataFrame, flag: pd.Series | None = None, empty: str = "none") -> str:
    """``frame`` as an HTML table (every cell escaped); rows where ``flag`` is true shaded."""
    if frame.empty:
        return paragraph(empty, "note")
    head = "".join(f"<th>{esc(c)}</th>" for c in frame.columns)
    rows = []
    flags = flag.to_numpy() if flag is not None else np.zeros(len(frame), dtype=bool)
    for values, flagged in zip(frame.itertuples(index=False), flags, strict=True):
        cells = []
        for value in values:
            text, numeric = _cell(value)
            css = "num" if numeric else ("text" if len(text) > LONG else "")
            cells.append(f'<td class="{css}">{esc(text)}</td>' if css else f"<td>{esc(text)}</td>")
        rows.append(
            f'<tr class="flag">{"".join(cells)}</tr>' if flagged else f"<tr>{''.join(cells)}</tr>"
        )
    body = f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    return f'<div class="wide">{body}</div>'


SHOWN_ROWS = 50
"""Rows a collapsed table shows; the whole table is a CSV beside the report."""


def fmt(value: float, signed: bool = False, digits: int = 2) -> str:
    """A number to ``digits`` decimals (``n/a`` for NaN), signed on request."""
    if value is None or pd.isna(value):
        return "n/a"
    return f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"


def interval(value: float, low: float, high: float, signed: bool = False, digits: int = 2) -> str:
    """``0.66 [0.52, 0.78]``; the value alone without an interval; ``""`` without a value."""
    if value is None or pd.isna(value):
        return ""
    if pd.isna(low) or pd.isna(high):
        return fmt(value, signed, digits)
    return f"{fmt(value, signed, digits)} [{fmt(low, signed, digits)}, {fmt(high, signed, digits)}]"


def collapsed(summary: str, frame: pd.DataFrame, csv: str | None = None) -> str:
    """``frame`` folded away under ``summary`` (a click opens it): its first
    :data:`SHOWN_ROWS` rows, and a link to ``csv`` (a path relative to the report) holding
    every row when it has more."""
    more = ""
    if csv and len(frame) > SHOWN_ROWS:
        more = (
            f'<p class="note">First {SHOWN_ROWS} of {len(frame)} rows; every row: '
            f'<a href="{esc(csv)}">{esc(csv)}</a>.</p>'
        )
    elif csv:
        more = f'<p class="note">As CSV: <a href="{esc(csv)}">{esc(csv)}</a>.</p>'
    body = table(frame.head(SHOWN_ROWS))
    return f"<details><summary>{esc(summary)} ({len(frame)} rows)</summary>{more}{body}</details>"


def png_size(path: Path) -> tuple[int, int]:
    """Width and height of a PNG file, from its header."""
    with path.open("rb") as handle:
        header = handle.read(24)
    return struct.unpack(">II", header[16:24])


def data_uri(path: Path) -> str:
    """A PNG file as a ``data:`` URI."""
    return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def image(path: Path, alt: str) -> str:
    """The PNG at ``path`` embedded in the page."""
    return f'<img src="{data_uri(path)}" alt="{esc(alt)}">'


def page(title: str, subtitle: str, sections: list[Section]) -> str:
    """The whole document: a title, a one-paragraph table of contents and the numbered
    sections (the first one, the answer, on the first screen)."""
    toc = "".join(f'<li><a href="#{s.anchor}">{esc(s.title)}</a></li>' for s in sections)
    body = "".join(
        f'<section id="{s.anchor}"><h2>{i}. {esc(s.title)}</h2>{"".join(s.parts)}</section>'
        for i, s in enumerate(sections, 1)
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        f"<title>{esc(title)}</title><style>{CSS}</style></head><body>"
        f'<h1>{esc(title)}</h1><p class="note">{esc(subtitle)}</p>'
        f"<nav><ol>{toc}</ol></nav>{body}</body></html>\n"
    )
