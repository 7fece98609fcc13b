"""What happens to a file on its way back: spreadsheet variants and a few honest mistakes.

Variants keep a return valid; a parser has to cope with them:

``bom``                 UTF-8 byte order mark (Excel's "CSV UTF-8")
``crlf``                Windows line endings (the baseline is ``\\n``)
``likert_float``        Likert cells written ``5.0``
``columns_reordered``   the same columns in another order
``trailing_empty_row``  a last row of empty cells
``extra_blank_column``  one more column with an empty header and empty cells

Mistakes make a return invalid (one per chosen file); each is listed as
``{row, column, kind, value}`` with ``row`` the spreadsheet row as a person finds it (the
header is row 1, so the first data row is 2; the same numbering as the ingest reports):

``token_altered``   one character of the ``item`` token changed (value: the new token)
``missing_note``    a score that requires a note (a 1 or 5...) with the note left empty
                    (value: ``""``; ``trigger`` holds the answers that require it)
``out_of_range``    a Likert value one above the scale (a binary ``2``)
``missing_row``     a row left out, an incomplete return (value: the token of that row)

Which files get what is planned once over every template of the study, seeded, so a packet
gets the same treatment whether it is simulated alone or with all others: about 30% of files
get one or two variants (each variant appears once before any repeats); 1 mistake file for
fewer than 12 files, 2 below 40, else 3; at most one per annotator, only for annotators with
more than one file, main-round files before pilot files.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any

import numpy as np

from raterlab.design.packets import internal_names
from raterlab.protocol import SKIP_VALUE, BinaryField, LikertField, ListField, Study, TextField
from raterlab.simulate.seeding import rng_for

VARIANTS = (
    "bom",
    "crlf",
    "likert_float",
    "columns_reordered",
    "trailing_empty_row",
    "extra_blank_column",
)
MISTAKES = ("token_altered", "missing_note", "out_of_range", "missing_row")
VARIANT_SHARE = 0.3
TOKEN_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567"
FIRST_ROW = 2
"""Spreadsheet row of the first data row (the header is row 1)."""


@dataclass(frozen=True, order=True)
class FileKey:
    """One template of one packet."""

    annotator_id: str
    batch: str
    task: str
    round: str


@dataclass(frozen=True)
class FilePlan:
    variants: tuple[str, ...] = ()
    mistake: str | None = None


def _has_likert(study: Study, task: str) -> bool:
    return any(isinstance(s, LikertField) for s in study.tasks[task].fields.values())


def _note_rules(study: Study, task: str) -> list:
    """Conditional rules whose required fields are notes or lists (what people forget)."""
    spec = study.tasks[task]
    return [
        rule
        for rule in spec.conditional
        if any(isinstance(spec.fields[f], TextField | ListField) for f in rule.require)
    ]


def applicable_mistakes(study: Study, task: str) -> list[str]:
    spec = study.tasks[task]
    out = ["token_altered", "missing_row"]
    if _note_rules(study, task):
        out.append("missing_note")
    if any(isinstance(s, LikertField | BinaryField) for s in spec.fields.values()):
        out.append("out_of_range")
    return [m for m in MISTAKES if m in out]


def mistake_count(n_files: int) -> int:
    if n_files < 2:
        return 0
    return 1 if n_files < 12 else 2 if n_files < 40 else 3


def plan_files(
    study: Study, files: list[FileKey], seed: tuple[int, ...]
) -> dict[FileKey, FilePlan]:
    """Variants and mistakes for every template of the study (see the module doc)."""
    files = sorted(files)
    rng = rng_for(seed, "plan")
    variants: dict[FileKey, tuple[str, ...]] = {}
    n_var = max(1, round(VARIANT_SHARE * len(files))) if files else 0
    cycle = [str(v) for v in rng.permutation(VARIANTS)]
    for i, index in enumerate(sorted(rng.choice(len(files), size=n_var, replace=False))):
        key = files[int(index)]
        allowed = [v for v in VARIANTS if v != "likert_float" or _has_likert(study, key.task)]
        first = cycle[i % len(cycle)]
        first = first if first in allowed else allowed[int(rng.integers(len(allowed)))]
        chosen = [first]
        if rng.random() < 0.35:
            second = allowed[int(rng.integers(len(allowed)))]
            if second != first:
                chosen.append(second)
        variants[key] = tuple(v for v in VARIANTS if v in chosen)
    per_annotator: dict[str, int] = {}
    for key in files:
        per_annotator[key.annotator_id] = per_annotator.get(key.annotator_id, 0) + 1
    eligible = [k for k in files if per_annotator[k.annotator_id] > 1]
    jitter = rng.random(len(eligible))
    eligible = [k for _, k in sorted(zip(jitter, eligible, strict=True), key=lambda p: p[0])]
    eligible.sort(key=lambda k: k.round == "pilot")
    mistakes: dict[FileKey, str] = {}
    kinds = [str(k) for k in rng.permutation(MISTAKES)]
    taken: set[str] = set()
    for key in eligible:
        if len(mistakes) == mistake_count(len(files)):
            break
        if key.annotator_id in taken:
            continue
        allowed = applicable_mistakes(study, key.task)
        kind = kinds[len(mistakes) % len(kinds)]
        mistakes[key] = kind if kind in allowed else allowed[int(rng.integers(len(allowed)))]
        taken.add(key.annotator_id)
    return {
        key: FilePlan(variants=variants.get(key, ()), mistake=mistakes.get(key)) for key in files
    }


def _ordinary(rows: list[dict], kinds: list[str]) -> list[int]:
    return [i for i, kind in enumerate(kinds) if kind in ("item", "duplicate")] or list(
        range(len(rows))
    )


def plant_mistake(
    study: Study,
    task: str,
    kind: str,
    rows: list[dict[str, Any]],
    kinds: list[str],
    rng: np.random.Generator,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """``rows`` (cells of a clean file) with one mistake of ``kind``, and its record.

    ``kinds`` holds each row's kind from the sealed key. Falls back to ``token_altered``
    when the file offers no place for the mistake asked for.
    """
    rows = [dict(r) for r in rows]
    spec = study.tasks[task]
    candidates = _ordinary(rows, kinds)
    if kind == "missing_row" and len(rows) > 1:
        i = candidates[int(rng.integers(len(candidates)))]
        removed = rows.pop(i)
        return rows, {"row": i + FIRST_ROW, "column": None, "kind": kind, "value": removed["item"]}
    if kind == "missing_note":
        planted = _missing_note(study, task, rows, candidates, rng)
        if planted is not None:
            return rows, planted
    if kind == "out_of_range":
        numeric = [n for n, s in spec.fields.items() if isinstance(s, LikertField | BinaryField)]
        name = numeric[int(rng.integers(len(numeric)))]
        usable = [i for i in candidates if rows[i][name] != SKIP_VALUE]
        if usable:
            i = usable[int(rng.integers(len(usable)))]
            field = spec.fields[name]
            value = field.max + 1 if isinstance(field, LikertField) else 2
            rows[i][name] = value
            return rows, {"row": i + FIRST_ROW, "column": name, "kind": kind, "value": value}
    i = int(rng.integers(len(rows)))
    token = rows[i]["item"]
    at = int(rng.integers(len(token)))
    new_char = rng.choice([c for c in TOKEN_ALPHABET if c != token[at]])
    altered = token[:at] + str(new_char) + token[at + 1 :]
    rows[i]["item"] = altered
    return rows, {
        "row": i + FIRST_ROW,
        "column": study.packet.item_column,
        "kind": "token_altered",
        "value": altered,
        "original": token,
    }


def _missing_note(
    study: Study, task: str, rows: list[dict], candidates: list[int], rng: np.random.Generator
) -> dict | None:
    """Blank a required note on a row whose answers require it (forcing a Likert extreme on
    an ordinary row if no row requires a note yet)."""
    spec = study.tasks[task]
    rules = _note_rules(study, task)

    def triggered(row: dict, rule) -> dict:
        return {
            n: row[n] for n in rule.when.any_of if row[n] != SKIP_VALUE and row[n] in rule.when.in_
        }

    options = [(i, r) for i in candidates for r in rules if triggered(rows[i], r)]
    if not options:
        for rule in rules:
            likert = [n for n in rule.when.any_of if isinstance(spec.fields[n], LikertField)]
            values = [v for n in likert for v in rule.when.in_ if v in spec.fields[n].domain()]
            if likert and values:
                i = candidates[int(rng.integers(len(candidates)))]
                rows[i][likert[0]] = max(values)
                options = [(i, rule)]
                break
    if not options:
        return None
    i, rule = options[int(rng.integers(len(options)))]
    notes = [f for f in rule.require if isinstance(spec.fields[f], TextField | ListField)]
    for name in notes:
        rows[i][name] = ""
    return {
        "row": i + FIRST_ROW,
        "column": notes[0],
        "kind": "missing_note",
        "value": "",
        "trigger": triggered(rows[i], rule),
    }


def _cell(value: Any, likert_float: bool) -> str:
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int | np.integer):
        return f"{int(value)}.0" if likert_float else str(int(value))
    return "" if value is None else str(value)


def to_csv(
    study: Study,
    task: str,
    columns: list[str],
    rows: list[dict[str, Any]],
    variants: tuple[str, ...],
    rng: np.random.Generator,
) -> bytes:
    """The bytes of a returned file: ``rows`` (keyed by internal names, ``item`` and
    ``time_spent_s``) under the packet's ``columns``, with ``variants`` applied. When the
    study makes time spent optional, the simulated annotator adds the time column."""
    columns = list(columns)
    internal = internal_names(study)
    if study.packet.time_column not in columns:
        columns.append(study.packet.time_column)
    if "columns_reordered" in variants:
        order = list(columns)
        while order == columns and len(columns) > 1:
            order = [columns[int(i)] for i in rng.permutation(len(columns))]
        columns = order
    likert = (
        {n for n, s in study.tasks[task].fields.items() if isinstance(s, LikertField)}
        if "likert_float" in variants
        else set()
    )
    header = [*columns, ""] if "extra_blank_column" in variants else columns
    buffer = io.StringIO()
    terminator = "\r\n" if "crlf" in variants else "\n"
    writer = csv.writer(buffer, lineterminator=terminator)
    writer.writerow(header)
    for row in rows:
        cells = [_cell(row.get(internal.get(c, c), ""), c in likert) for c in columns]
        writer.writerow([*cells, ""] if "extra_blank_column" in variants else cells)
    if "trailing_empty_row" in variants:
        writer.writerow([""] * len(header))
    text = buffer.getvalue()
    if "bom" in variants:
        text = "\ufeff" + text
    return text.encode("utf-8")
