"""Judge verdicts of a study, from the generations' hidden keys and from imported judge files.

Every verdict becomes one long row :data:`VERDICT_COLUMNS`: ``value`` is the verdict as the
human field would hold it (``0``/``1`` for binary, a declared label for categorical, a number
for Likert) or NULL when it cannot be read that way, and ``raw`` keeps what the judge said,
so an unparseable verdict is counted (valid rate) instead of dropped.

A judge file (``raterlab judges import STUDY FILE``; CSV, TSV, JSONL, JSON or Parquet) is long:
``item_id, judge, field, value`` and optional ``confidence`` (0-1), ``rationale`` and ``run``
(several runs of the same judge on the same item: one verdict per item, field and run; a file
without the column, or an empty cell, is run :data:`DEFAULT_RUN`); ``judge`` is declared in
the study with ``source: import`` and ``field`` is one of the file field names its ``fields``
map names. A verdict on a pairwise field also names the order the judge saw the pair in,
``left_system`` and ``right_system`` (the pair's two systems), and its ``value`` is written as
the judge saw it, as an annotator would (``left``, ``right``, ``tie``, ``much_left``,
``much_right``); it is stored in the pair's canonical orientation (``a``, ``b``, ``tie``,
``much_a``, ``much_b``: :func:`raterlab.protocol.pairwise.canonical`) beside the order, so it
compares with the humans' consensus, and one verdict is allowed per item, judge, field,
order and run. The validated rows are stored per judge in
``$RATERLAB_HOME/judges/<study>/<judge>.csv``; importing a judge again replaces its verdicts.
Verdicts from the generations' hidden keys are run :data:`DEFAULT_RUN`. The calibration reads
each verdict's first run (:func:`first_runs`); the repeat-run consistency
(:mod:`raterlab.judges.robustness`) reads them all.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from raterlab.agreement.ratings_file import RatingsFileError, read_ratings_file
from raterlab.csvsafe import restore_column, write_csv
from raterlab.design.pairs import pair_systems
from raterlab.files import sha256_of
from raterlab.judges.columns import DEFAULT_RUN, FILE_COLUMNS, OPTIONAL_COLUMNS, SIDE_COLUMNS
from raterlab.protocol import BinaryField, CategoricalField, LikertField, Study
from raterlab.protocol.fields import PairwiseField
from raterlab.protocol.judges import Judge
from raterlab.protocol.pairwise import canonical

VERDICT_COLUMNS = (
    "task",
    "item_id",
    "judge",
    "field",
    "value",
    "raw",
    "confidence",
    "rationale",
    "source",
    "run",
    "left_system",
    "right_system",
)
_TRUE = {"1", "true", "yes", "y"}
_FALSE = {"0", "false", "no", "n"}


class JudgeFileError(ValueError):
    """A judge file that cannot be imported; one line per problem (file, row, column, rule,
    value)."""

    def __init__(self, file: Path, problems: list[str]):
        self.problems = problems
        shown = "\n".join(f"  {p}" for p in problems[:20])
        more = f"\n  ... and {len(problems) - 20} more" if len(problems) > 20 else ""
        super().__init__(f"{file}: {len(problems)} problem(s)\n{shown}{more}")


def _frame(rows: list[tuple]) -> pd.DataFrame:
    """Verdict rows as a frame whose text columns hold ``None``, never NaN."""
    frame = pd.DataFrame(rows, columns=list(VERDICT_COLUMNS))
    text = [c for c in VERDICT_COLUMNS if c != "confidence"]
    frame[text] = frame[text].astype(object).where(frame[text].notna(), None)
    return frame.astype({"confidence": float})


def parse_verdict(spec: Any, raw: Any) -> str | None:
    """The verdict as the field's canonical text, or None when it is not a value of the field."""
    if raw is None or (isinstance(raw, float) and np.isnan(raw)):
        return None
    text = str(raw).strip()
    if isinstance(spec, BinaryField):
        low = text.lower()
        return "1" if low in _TRUE else "0" if low in _FALSE else None
    if isinstance(spec, CategoricalField):
        return {label.lower(): label for label in spec.labels}.get(text.lower())
    if isinstance(spec, LikertField):
        try:
            number = float(text)
        except ValueError:
            return None
        return f"{number:g}" if spec.min <= number <= spec.max else None
    return None


def _run(value: Any) -> str:
    """A file's ``run`` cell as text (a whole number read as a float without ``.0``);
    :data:`DEFAULT_RUN` when the file has no run or the cell is empty."""
    if value is None or (not isinstance(value, str) and pd.isna(value)) or str(value).strip() == "":
        return DEFAULT_RUN
    if isinstance(value, float | np.floating) and float(value).is_integer():
        return str(int(value))
    return str(value).strip()


def _run_order(run: str) -> tuple[int, float | str]:
    """Runs in natural order: numbers by value (``2`` before ``10``), then other names."""
    try:
        return (0, float(run))
    except ValueError:
        return (1, run)


def first_runs(verdicts: pd.DataFrame, per_order: bool = False) -> pd.DataFrame:
    """Each (task, item, judge, field)'s verdict of its first run in natural order (runs
    ``1, 2, 10`` before ``a``): the one verdict per item a calibration compares with the
    humans (of a pair judged in both orders, the first in the file). ``per_order``: one per
    order a pair was judged in (``left_system``) instead. Rows without a ``run`` column are
    returned as they are."""
    if "run" not in verdicts.columns or verdicts.empty:
        return verdicts
    keys = ["task", "item_id", "judge", "field", *(["left_system"] if per_order else [])]
    order = verdicts["run"].map(_run_order)
    ranked = verdicts.assign(_order=order).sort_values("_order", kind="stable")
    first = ranked.drop_duplicates(keys, keep="first")
    return first.drop(columns="_order").sort_index()


def _confidence(value: Any) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return float("nan")
    return number if 0 <= number <= 1 else float("nan")


def generation_verdicts(study: Study, generations: pd.DataFrame) -> pd.DataFrame:
    """Verdicts of the ``source: generations`` judges, from each item's hidden keys: a row
    per item holding the key, in the items' order and, within an item, in the order the
    judges and their fields are declared.

    Built a column at a time per (task, judge, field), not a row at a time: at a million
    items the judges' 7.4 million verdicts were as many Python tuples before they became a
    frame. Each distinct value of a key is parsed and written as text once, and its rows
    share that text."""
    panel = study.judges.panel if study.judges else {}
    judges = [(judge, spec) for judge, spec in panel.items() if spec.source == "generations"]
    items = generations[generations["role"] == "item"]
    parts: list[dict[str, Any]] = []
    for task_name, task in study.tasks.items():
        rows = np.flatnonzero((items["task"] == task_name).to_numpy(dtype=bool))
        if rows.size == 0:
            continue
        records = items["record"].iloc[rows].tolist()
        ids = np.array([str(i) for i in items["item_id"].iloc[rows]], dtype=object)
        rated, hidden = set(task.rating_fields), set(task.hidden)
        pairs = [
            (judge, spec, field, key)
            for judge, spec in judges
            for field, key in spec.fields.items()
            if field in rated and key in hidden
        ]
        confidences = {
            judge: np.array([_confidence(r.get(spec.confidence)) for r in records])
            for judge, spec, _, _ in pairs
            if spec.confidence
        }
        for order, (judge, _, field, key) in enumerate(pairs):
            found = np.array([key in r for r in records], dtype=bool)
            raws = [r[key] for r, has in zip(records, found, strict=True) if has]
            confidence = confidences.get(judge)
            parts.append(
                {
                    "_item": rows[found],
                    "_pair": np.full(len(raws), order, dtype=np.int32),
                    "task": task_name,
                    "item_id": ids[found],
                    "judge": judge,
                    "field": field,
                    **_parsed(task.fields[field], raws),
                    "confidence": np.full(len(raws), np.nan)
                    if confidence is None
                    else confidence[found],
                }
            )
    return _verdict_frame(parts)


def _parsed(spec: Any, raws: list) -> dict[str, np.ndarray]:
    """Each of ``raws``' verdict (:func:`parse_verdict`) and text (``str``, ``None`` for
    ``None``), made once per distinct value (told apart by ``repr``)."""
    codes, _ = pd.factorize(np.array(list(map(repr, raws)), dtype=object))
    picked = [raws[n] for n in np.unique(codes, return_index=True)[1]]  # one raw per code
    values = np.array([parse_verdict(spec, raw) for raw in picked], dtype=object)
    texts = np.array([None if raw is None else str(raw) for raw in picked], dtype=object)
    return {"value": values[codes], "raw": texts[codes]}


def _verdict_frame(parts: list[dict[str, Any]]) -> pd.DataFrame:
    """The frame of :data:`VERDICT_COLUMNS` from ``parts`` (arrays, or one value for all of
    a part's rows), in the order of their ``_item``, then ``_pair``; the other columns those
    of every generation's verdict (``source`` and ``run``; ``None``)."""
    if not parts:
        empty = pd.DataFrame(columns=list(VERDICT_COLUMNS), dtype=object)
        return empty.astype({"confidence": float})
    part = np.repeat(np.arange(len(parts)), [len(p["_item"]) for p in parts])
    order = np.lexsort(
        (np.concatenate([p["_pair"] for p in parts]), np.concatenate([p["_item"] for p in parts]))
    )
    part = part[order]
    constant = {"source": "generations", "run": DEFAULT_RUN}

    def column(name: str) -> np.ndarray:
        if name not in parts[0]:
            cells = np.empty(len(order), dtype=object)
            cells.fill(constant.get(name))  # one object (np.full would copy a text per row)
            return cells
        if not isinstance(parts[0][name], np.ndarray):
            return np.array([p[name] for p in parts], dtype=object)[part]
        return np.concatenate([p[name] for p in parts])[order]

    return pd.DataFrame(
        {
            c: pd.Series(column(c), dtype=float if c == "confidence" else object)
            for c in VERDICT_COLUMNS
        }
    )


def record_keys(study: Study) -> list[str]:
    """The item keys the judge steps read from the items' records: each ``source:
    generations`` judge's verdict and confidence keys, the judges' ``group`` and ``system``
    keys, the key of ``calibrate_on`` and the study's ``slices`` (records decoded for these
    alone: :meth:`raterlab.ingest.study_tables.StudyTables.records`)."""
    keys = list(study.slices)
    judges = study.judges
    if judges is not None:
        keys += [k for k in (judges.group, judges.system) if k]
        if judges.calibrate_on:
            keys.append(judges.calibrate_on.partition("=")[0])
        for spec in judges.panel.values():
            if spec.source == "generations":
                keys += [*spec.fields.values(), *([spec.confidence] if spec.confidence else [])]
    return list(dict.fromkeys(keys))


def judges_dir(root: Path, study: str) -> Path:
    return root / "judges" / study


def _read_frame(path: Path) -> pd.DataFrame:
    """The judge file as a frame with at least :data:`FILE_COLUMNS`; a file that cannot be
    read, or lacks a column, raises :class:`JudgeFileError`.

    CSV and TSV are read as text, so a verdict such as "n/a" or "4" reaches the parser as the
    judge wrote it."""
    try:
        if path.suffix.lower() in (".csv", ".tsv"):
            sep = "\t" if path.suffix.lower() == ".tsv" else ","
            frame = pd.read_csv(path, sep=sep, dtype=str, keep_default_na=False, na_values=[""])
        else:
            frame = read_ratings_file(path)
    except (RatingsFileError, ValueError, OSError) as error:
        raise JudgeFileError(path, [str(error)]) from None
    missing = [c for c in FILE_COLUMNS if c not in frame.columns]
    if missing:
        raise JudgeFileError(
            path,
            [
                f"missing column(s) {missing}; a judge file has {list(FILE_COLUMNS)}"
                f" and optionally {list(OPTIONAL_COLUMNS)} (it has {list(frame.columns)})"
            ],
        )
    return frame


def _verdict_target(
    study: Study,
    importable: dict[str, Judge],
    tasks_of: dict[str, str],
    where: str,
    record: dict,
) -> tuple[str, str] | str:
    """The task and rating field a file row's verdict is for, or the problem that stops it:
    a judge not declared for import, a field the judge does not map, an item not in the
    study, or a field the item's task does not rate."""
    judge = str(record["judge"])
    item_id = str(record["item_id"])
    if judge not in importable:
        known = ", ".join(sorted(importable)) or "none"
        return (
            f"{where}, column judge: {judge!r} is not a judge declared with source: import "
            f"in judges.panel (declared: {known})"
        )
    by_file_field = {name: field for field, name in importable[judge].fields.items()}
    file_field = str(record["field"])
    if file_field not in by_file_field:
        return (
            f"{where}, column field: {file_field!r} is not a field of judge {judge!r} "
            f"(its fields: {', '.join(sorted(by_file_field))})"
        )
    task_name = tasks_of.get(item_id)
    if task_name is None:
        return f"{where}, column item_id: {item_id!r} is not an item of the study"
    field = by_file_field[file_field]
    if field not in study.tasks[task_name].rating_fields:
        return (
            f"{where}, column field: item {item_id!r} is a {task_name} item, which has no "
            f"rating field {field!r}"
        )
    return task_name, field


def _text(value: Any) -> str | None:
    """A file cell as text, None when it is empty."""
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return None
    return str(value).strip() or None


def _pair_order(field: str, where: str, item_id: str, record: dict) -> tuple[str, str] | str:
    """The (left, right) systems of a verdict on a pairwise field, or the problem: a missing
    cell, or a system that is not one of the pair's two (in either order)."""
    sides = {c: _text(record.get(c)) for c in SIDE_COLUMNS}
    for column, system in sides.items():
        if system is None:
            return (
                f"{where}, column {column}: a verdict on the pairwise field {field!r} "
                f"names the systems as the judge saw them ({', '.join(SIDE_COLUMNS)}); "
                f"got an empty cell"
            )
    systems = pair_systems(item_id)
    left, right = sides["left_system"], sides["right_system"]
    if systems is None or sorted((left, right)) != list(systems):
        pair = (
            "no pair of systems" if systems is None else f"the pair {systems[0]!r}, {systems[1]!r}"
        )
        column = "left_system" if systems is None or left not in systems else "right_system"
        return (
            f"{where}, column {column}: item {item_id!r} compares {pair}; left_system and "
            f"right_system must be its two systems, got {left!r} and {right!r}"
        )
    return left, right


def _pairwise_value(spec: PairwiseField, raw: str | None, left: str, item_id: str) -> str | None:
    """A judge's answer as seen (``left``, ``right``...; any case) in the pair's canonical
    orientation, None when it is not an answer the field offers."""
    word = None if raw is None else raw.strip().lower()
    if word not in spec.answers_seen():
        return None
    systems = pair_systems(item_id)
    return canonical(word, swapped=systems is not None and left == systems[1])


def _imported_row(
    study: Study,
    importable: dict[str, Judge],
    tasks_of: dict[str, str],
    seen: dict[tuple, int],
    index: int,
    record: dict,
) -> tuple | str:
    """One file row (``index``, 1 being the header) as a verdict row, or its problem.

    ``seen`` holds the row of each (item, judge, field, run, left system) verdict read so far
    (the left system is None but for a pairwise field); the row's own is added, so a second
    verdict for the same field, run and order is named with the first's row."""
    where = f"row {index}"
    target = _verdict_target(study, importable, tasks_of, where, record)
    if isinstance(target, str):
        return target
    task_name, field = target
    spec = study.tasks[task_name].fields[field]
    judge, item_id = str(record["judge"]), str(record["item_id"])
    order: tuple[str, str] | tuple[None, None] = (None, None)
    if isinstance(spec, PairwiseField):
        found = _pair_order(field, where, item_id, record)
        if isinstance(found, str):
            return found
        order = found
    run = _run(record.get("run"))
    key = (item_id, judge, field, run, order[0])
    if key in seen:
        what = f"{(item_id, judge, field)} in run {run!r}"
        what += f" with {order[0]!r} on the left" if order[0] is not None else ""
        return f"{where}: a second verdict for {what} (first on row {seen[key]})"
    seen[key] = index
    confidence = record.get("confidence")
    if confidence is not None and not pd.isna(confidence) and np.isnan(_confidence(confidence)):
        return f"{where}, column confidence: {confidence!r} is not a number between 0 and 1"
    raw = record["value"]
    raw = None if raw is None or (isinstance(raw, float) and np.isnan(raw)) else str(raw)
    if isinstance(spec, PairwiseField):
        value = _pairwise_value(spec, raw, str(order[0]), item_id)
    else:
        value = parse_verdict(spec, raw)
    rationale = record.get("rationale")
    return (
        task_name,
        item_id,
        judge,
        field,
        value,
        raw,
        _confidence(confidence),
        None if rationale is None or pd.isna(rationale) else str(rationale),
        "import",
        run,
        *order,
    )


def read_judge_file(study: Study, path: Path, tasks_of: dict[str, str]) -> pd.DataFrame:
    """Validate a judge file against the study; returns :data:`VERDICT_COLUMNS` rows.

    ``tasks_of`` maps each item id of the study to its task. Raises :class:`JudgeFileError`
    naming file, row, column, rule and value for every problem.
    """
    frame = _read_frame(path)
    panel = study.judges.panel if study.judges else {}
    importable = {name: j for name, j in panel.items() if j.source == "import"}
    problems: list[str] = []
    rows = []
    seen: dict[tuple, int] = {}
    for index, record in enumerate(frame.to_dict("records"), start=2):
        row = _imported_row(study, importable, tasks_of, seen, index, record)
        if isinstance(row, str):
            problems.append(row)
        else:
            rows.append(row)
    if problems:
        raise JudgeFileError(path, problems)
    return _frame(rows)


def store_imported(verdicts: pd.DataFrame, folder: Path) -> list[Path]:
    """Write each judge's rows to ``folder/<judge>.csv`` (replacing that judge's file),
    neutralised for spreadsheets (a rationale is model text); :func:`imported_verdicts`
    reads them back as they were."""
    return [
        write_csv(rows, folder / f"{judge}.csv")
        for judge, rows in verdicts.groupby("judge", sort=True)
    ]


def _stored_files(folder: Path) -> list[Path]:
    """The judge files imported into ``folder``, in name order."""
    return sorted(folder.glob("*.csv")) if folder.is_dir() else []


def imported_files(folder: Path) -> str:
    """The judge files imported into ``folder`` (what :func:`imported_verdicts` reads) as one
    text for a fingerprint: each file's name and SHA-256."""
    return "\n".join(f"{f.name} {sha256_of(f)}" for f in _stored_files(folder))


def imported_verdicts(folder: Path) -> pd.DataFrame:
    """Every stored imported verdict of a study (empty when nothing was imported)."""
    files = _stored_files(folder)
    if not files:
        return pd.DataFrame(columns=list(VERDICT_COLUMNS))
    text = {c: str for c in VERDICT_COLUMNS if c != "confidence"}
    frames = [pd.read_csv(f, dtype=text, keep_default_na=False, na_values=[""]) for f in files]
    rows = pd.concat(frames, ignore_index=True).reindex(columns=list(VERDICT_COLUMNS))
    for column in text:
        rows[column] = restore_column(rows[column])
    rows["run"] = rows["run"].fillna(DEFAULT_RUN)  # stored before runs were kept: one run
    return _frame(list(rows.itertuples(index=False)))
