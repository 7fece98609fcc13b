"""Checks across returned files against the sealed key (:func:`cross_checks`): every token
an item of this study's packets, of the file's task, once per file, assigned to the annotator
the row names and from the packets of the file's annotator; assigned rows missing make the
return incomplete (a warning). All the files' tokens are found in the key by one hash join."""

from __future__ import annotations

import numpy as np
import pandas as pd
import polars as pl

from raterlab.ingest.issues import NO_ISSUES, issue_rows, no_issues
from raterlab.ingest.key import PACKET, SealedKey
from raterlab.ingest.read import ROW


def _issues(
    names: pd.api.extensions.ExtensionArray,
    found: pl.DataFrame,
    column: str,
    rule: str,
    message: str | pl.Expr,
    value: str,
) -> pd.DataFrame:
    """Issues for the rows of ``found`` (a frame with :data:`ROW` and ``_file``, the index of
    each row's file in ``names``): ``value`` names the column holding each row's value;
    ``message`` is text or an expression per row. ``_file`` is kept, to split by file."""
    if found.is_empty():
        return no_issues()
    if not isinstance(message, str):
        message = found.select(message).to_series().to_numpy()
    at = found["_file"].to_numpy()
    issues = issue_rows(
        names[at], found[ROW].to_numpy(), column, rule, found[value].to_numpy(), message
    )
    return issues.assign(_file=at)


def _incomplete(
    key: SealedKey,
    known: pl.DataFrame,
    names: pd.api.extensions.ExtensionArray,
    bounds: np.ndarray,
) -> pd.DataFrame:
    """A warning per file that leaves out assigned rows of the packets it answers (those of
    its own annotator), with the first five missing tokens."""
    positions = known["_pos"].to_numpy()
    answered = known.filter(~pl.col("_foreign")).select("_file", *PACKET).unique()
    packets: dict[int, list[tuple]] = {}
    for n, *packet in answered.sort("_file", *PACKET).iter_rows():
        packets.setdefault(n, []).append(tuple(packet))
    parts = []
    returned = np.zeros(len(key), dtype=bool)  # the key rows the file at hand returned
    for n, listed in packets.items():
        expected = key.packet_rows(pl.DataFrame(listed, schema=list(PACKET), orient="row"))
        own = positions[bounds[n] : bounds[n + 1]]
        returned[own] = True
        missing = expected[~returned[expected]]
        returned[own] = False
        if len(missing):
            issue = issue_rows(
                names[n],
                [pd.NA],
                "item",
                "incomplete",
                [f"{len(missing)} of {len(expected)}"],
                f"incomplete return: {len(missing)} assigned row(s) are missing, e.g. "
                + ", ".join(key.rows["token"].take(missing[:5]).to_pylist()),
                severity="warning",
            )
            parts.append(issue.assign(_file=n))
    return pd.concat(parts, ignore_index=True) if parts else no_issues()


def _matched(frames: list[pd.DataFrame], key: SealedKey) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The files' rows (:data:`ROW`, token, the annotator id given, ``_file``: the file's
    index) found in the key by one search: those of unknown tokens, and the known ones
    with their packet (:data:`~raterlab.ingest.key.PACKET`), ``_pos`` (their key row),
    ``_owner`` (their file's annotator: the one most of its rows belong to; of several, the
    first by name) and ``_foreign`` (from another annotator's packets)."""
    sizes = np.array([len(f) for f in frames], dtype=np.int64)

    def column(name: str) -> pl.Series:
        # Arrow-backed text goes over without Python strings (a million-row file's tokens)
        return pl.concat([pl.Series(name, f[name]) for f in frames]).cast(pl.String)

    rows = pl.DataFrame(
        {
            ROW: np.concatenate([f[ROW].to_numpy(dtype=np.int64) for f in frames]),
            "token": column("item"),
            "given": column("annotator_id"),
            "_file": np.repeat(np.arange(len(frames)), sizes),
        },
        schema={ROW: pl.Int64, "token": pl.String, "given": pl.String, "_file": pl.Int64},
    ).with_columns(pl.col("token", "given").str.strip_chars())
    matched = rows.with_columns(key.find(rows["token"]))
    unknown = matched.filter(pl.col("_pos").is_null())
    known = matched.filter(pl.col("_pos").is_not_null())
    known = pl.concat([known, key.columns(list(PACKET), known["_pos"])], how="horizontal")
    known = known.with_columns(
        _owner=pl.col("annotator_id").mode().sort().first().over("_file")
    ).with_columns(_foreign=pl.col("annotator_id") != pl.col("_owner"))
    return unknown, known


def _duplicates(unknown: pl.DataFrame, known: pl.DataFrame, n_key: int) -> pl.DataFrame:
    """The rows (``_file``, :data:`ROW`, token) whose token came earlier in their file, by
    file and row (``n_key``: the key's rows)."""
    picked = ("_file", ROW, "token")
    # a file and a key row as one integer: hashed far faster than a struct of the two
    seen = pl.col("_file").cast(pl.UInt64) * n_key + pl.col("_pos").cast(pl.UInt64)
    return pl.concat(
        [
            known.filter(~seen.is_first_distinct()).select(*picked)
            if known.select(seen.n_unique()).item() < len(known)  # 3x faster when none
            else known.clear().select(*picked),
            unknown.filter(~pl.struct("_file", "token").is_first_distinct()).select(*picked),
        ]
    ).sort("_file", ROW)


def cross_checks(
    frames: list[pd.DataFrame], key: SealedKey, task: str, files: list[str]
) -> list[tuple[pd.DataFrame, pd.DataFrame]]:
    """Checks across each file (``frames``, named ``files``, all of ``task``) against the
    sealed key.

    Each token must be an item of this study's packets (else it was altered or belongs
    elsewhere), of this task, appear once in its file, carry the annotator id it was assigned
    to, and come from the packets of the file's annotator (the one most of its rows belong
    to; of several, the first by name). Assigned rows of the packets a file answers that are
    missing make the return incomplete (a warning). Returns, per file, the issues and the
    rows joined to the key.

    All the files' tokens are found in the key by one hash join (:class:`SealedKey`) and
    checked together, by file: checked one by one, the fixed cost of each Polars step made
    this about 8 ms per file.
    """
    names = pd.array(files, dtype="str")
    unknown, known = _matched(frames, key)
    duplicates = _duplicates(unknown, known, len(key))
    bounds = np.searchsorted(known["_file"].to_numpy(), np.arange(len(frames) + 1))
    parts = [
        _issues(
            names,
            unknown,
            "item",
            "unknown_item",
            "this item id is not in any packet of the study; was it changed?",
            "token",
        ),
        _issues(
            names,
            known.filter(pl.col("task") != task),
            "item",
            "wrong_task",
            f"this item belongs to another task's file, not {task}",
            "token",
        ),
        _issues(
            names,
            known.filter(pl.col("annotator_id") != pl.col("given")),
            "annotator_id",
            "not_assigned",
            pl.format("this item was assigned to {}, not to this annotator", "annotator_id"),
            "given",
        ),
        _issues(
            names,
            known.filter("_foreign"),
            "annotator_id",
            "other_packet",
            pl.format(
                "this row is from {}'s packet; a file returns one annotator's packets "
                "(this one is {}'s) and never changes another annotator's ratings",
                "annotator_id",
                "_owner",
            ),
            "annotator_id",
        ),
        _issues(
            names,
            duplicates,
            "item",
            "duplicate_item",
            "this item appears more than once in the file",
            "token",
        ),
        _incomplete(key, known, names, bounds),
    ]
    by_file = _by_file([p for p in parts if not p.empty])
    joined = key.take(known["_pos"]).append_column(ROW, known[ROW].to_arrow())
    joined = joined.to_pandas(types_mapper=pd.ArrowDtype)
    return [
        (
            by_file.get(n, NO_ISSUES),
            joined.iloc[bounds[n] : bounds[n + 1]].reset_index(drop=True),
        )
        for n in range(len(frames))
    ]


def _by_file(parts: list[pd.DataFrame]) -> dict[int, pd.DataFrame]:
    """Issues with ``_file`` split by file, each file's in the order of ``parts`` (rule
    order), then row order."""
    if not parts:
        return {}
    issues = pd.concat(parts, ignore_index=True)
    order = np.argsort(issues["_file"].to_numpy(), kind="stable")
    issues = issues.iloc[order]
    return {
        n: group.drop(columns="_file").reset_index(drop=True)
        for n, group in issues.groupby("_file", sort=False)
    }
