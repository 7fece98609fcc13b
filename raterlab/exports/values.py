"""How the JSON exports write values: plain JSON scalars, rating values typed by their
field, and JSON files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TextIO

import numpy as np
import pandas as pd

from raterlab.protocol import CategoricalField, Study


def plain(value):
    """A JSON-friendly scalar (NaN -> None, numpy -> Python, whole floats -> int)."""
    if value is None or type(value) in (str, int, bool):  # most cells, at once
        return value
    if type(value) is float:  # the next most, without numpy's scalar checks
        if value != value:
            return None
        return int(value) if value.is_integer() else value
    if isinstance(value, float | np.floating):
        if np.isnan(value):
            return None
        return int(value) if float(value).is_integer() else float(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, pd.Timestamp):
        return value.isoformat()
    return value


def typed_value(study: Study, task: str, field: str, value, value_num=None):
    """A consensus or rating value as JSON: a number for binary and Likert, else the text."""
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return None
    spec = study.tasks[task].fields.get(field)
    if spec is not None and spec.is_rating and not isinstance(spec, CategoricalField):
        number = value_num if value_num is not None and not pd.isna(value_num) else value
        try:
            return plain(float(number))
        except (TypeError, ValueError):
            return value
    return value


def dump_json(path: Path, document, one_per_line: str | None = None) -> Path:
    """Write ``document`` as indented UTF-8 JSON (its folder created); returns ``path``. The
    text is written as it is encoded, never held whole (the sample test cases of 100,000
    items: 675 MB more while written as one string).

    ``one_per_line``: a key of ``document`` whose list is written one element per line, each
    as :func:`json.dumps` writes it on one line. Indenting is done by Python's own encoder,
    not its C one: the 100,000 cases of a study's samples (160 MB) took 4.7-5.2 s to write
    indented, 1.8-2.1 s one per line."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as handle:
        if one_per_line is None:
            json.dump(document, handle, indent=2, ensure_ascii=False)
        else:
            _dump_lines(handle, document, one_per_line)
        handle.write("\n")
    return path


def _dump_lines(handle: TextIO, document: dict, key: str) -> None:
    """``document`` as :func:`dump_json` writes it, the list under ``key`` one element per
    line."""
    handle.write("{")
    for n, (name, value) in enumerate(document.items()):
        handle.write(("," if n else "") + "\n  " + json.dumps(name, ensure_ascii=False) + ": ")
        if name == key and value:
            handle.write("[")
            for m, element in enumerate(value):
                handle.write(
                    ("," if m else "") + "\n    " + json.dumps(element, ensure_ascii=False)
                )
            handle.write("\n  ]")
        else:
            handle.write(json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n  "))
    handle.write("\n}" if document else "}")
