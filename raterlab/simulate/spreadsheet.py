"""A simulated annotator who works in Excel: their clean returns become ``.xlsx`` workbooks.

``make demo`` uses this so that one annotator per study returns through a non-CSV front end:
each of their simulated CSV returns without a planted mistake is rewritten as the packet's
spreadsheet (:func:`raterlab.design.xlsx.write_workbook`) with numbers typed as numbers, the
way Excel saves what a person typed, and the CSV is removed from the inbox. The workbook
then goes through the one ingest path like every return.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from raterlab.design.xlsx import write_workbook
from raterlab.ingest.read import ROW, UnreadableFile, read_returned
from raterlab.protocol import Study
from raterlab.settings import Home


def as_spreadsheets(study: Study, home: Home, written: pd.DataFrame, annotator: str) -> list[Path]:
    """Rewrite ``annotator``'s clean returns among ``written`` (rows of ``staging.sim_files``)
    as ``.xlsx`` in the inbox; returns the workbooks written."""
    mine = written[(written["annotator_id"] == annotator) & (written["mistakes"] == "[]")]
    out = []
    for file, task in zip(mine["file"], mine["task"], strict=True):
        path = home.inbox / study.name / file
        try:
            frame = read_returned(path)
        except (UnreadableFile, FileNotFoundError):
            continue
        rows = frame.drop(columns=ROW).to_dict(orient="records")
        out.append(write_workbook(study, task, rows, path.with_suffix(".xlsx")))
        path.unlink()
    return out
