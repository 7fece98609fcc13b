"""Round names: ``pilot``, then ``pilot-2``, ``pilot-3``... when a failed pilot gate is
followed by a new pilot on the revised guide, and ``main``.

A repeated pilot gives the same pilot items to the same annotators again (new tokens, new
packets); its ratings replace the earlier pilot rounds' ratings of those items wherever
ratings are counted (:func:`latest_pilot_only`), while every gate attempt keeps its own round.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from datetime import datetime

import duckdb
import pandas as pd

from raterlab import warehouse
from raterlab.protocol import Study

PILOT = "pilot"
TIEBREAK_ROUND = "tiebreak"
"""The round of a third annotator's rating of a disputed item (the sealed key's rows added by
:mod:`raterlab.adjudication.third_annotator`): not an ordinary round of the design, so
agreement and rater bias leave it out."""
_REPEATED = re.compile(r"^pilot-(\d+)$")


def pilot_number(name: str) -> int | None:
    """1 for ``pilot``, n for ``pilot-n``, ``None`` for any other round."""
    if name == PILOT:
        return 1
    match = _REPEATED.match(str(name))
    return int(match.group(1)) if match else None


def pilot_name(number: int) -> str:
    """``pilot`` for 1, ``pilot-n`` after."""
    return PILOT if number == 1 else f"{PILOT}-{number}"


def pilot_rounds(names: Iterable[str]) -> list[str]:
    """The pilot rounds among ``names``, in order."""
    found = {n for n in names if pilot_number(n) is not None}
    return sorted(found, key=lambda n: pilot_number(n) or 0)


def _pilot_numbers(names: pd.Series) -> pd.Series:
    """:func:`pilot_number` of each round name, parsed once per distinct name (a study's
    hundreds of thousands of ratings carry a handful of round names)."""
    return names.map({n: pilot_number(n) for n in pd.unique(names)})


def is_pilot(names: pd.Series) -> pd.Series:
    """Whether each round name is a pilot round."""
    return _pilot_numbers(names).notna()


def in_round(names: pd.Series, round_name: str) -> pd.Series:
    """Rows of a round, where ``pilot`` stands for every pilot round."""
    return is_pilot(names) if round_name == PILOT else (names == round_name)


def round_labels(
    con: duckdb.DuckDBPyConnection, study: str, round_name: str, columns: str = "*"
) -> pd.DataFrame:
    """``study``'s rows of ``gold.labels`` of one round (``pilot``: every pilot round), the
    round filtered in the query: a study without a pilot reads no ratings for its pilot
    agreement. Only ``columns`` (SQL) when given. Empty before the table exists."""
    if not warehouse.table_exists(con, "gold.labels"):
        return pd.DataFrame()
    names = con.execute(
        "SELECT DISTINCT round FROM gold.labels WHERE study = ? AND round IS NOT NULL", [study]
    ).fetchall()
    names = pd.Series([n for (n,) in names], dtype=object)
    wanted = names[in_round(names, round_name)].tolist()
    return warehouse.read_study_rows(con, "gold.labels", study, columns, ("round", wanted))


def latest_pilot_only(rows: pd.DataFrame) -> pd.DataFrame:
    """``rows`` without the ratings a later pilot round superseded: per annotator, task and
    item, only the latest pilot round's ratings count (other rounds are kept as they are)."""
    if rows.empty or "round" not in rows:
        return rows
    number = _pilot_numbers(rows["round"])
    pilot = number.notna()
    if not pilot.any():
        return rows
    keys = ["annotator_id", "task", "item_id"]
    latest = number[pilot].groupby([rows.loc[pilot, k] for k in keys]).transform("max")
    keep = pd.Series(True, index=rows.index)
    keep[pilot] = number[pilot] == latest
    return rows[keep.to_numpy()]


class RepilotError(ValueError):
    """A new pilot round is not allowed now (the gate passed, the round is incomplete, or the
    study's ``design.pilot.rounds`` are used up)."""


PILOT_ROUND_COLUMNS = ("round", "number", "study_version", "guide_sha256", "reason", "created_at")
"""Columns of ``staging.pilot_rounds``: every repeated pilot round, when and why it began."""


def next_pilot_round(
    study: Study,
    rounds: pd.DataFrame,
    gate: dict,
    guide_sha256: str | None,
    now: datetime,
) -> dict:
    """The ``staging.pilot_rounds`` row that starts the next pilot round.

    ``gate`` is the ``staging.pilot_gate`` row (passed, message, round). Allowed only when the
    latest pilot round is complete and failed the gate (its message is kept as the reason)
    and ``design.pilot.rounds`` allows another; the guide should have been revised in
    between (its hash is recorded, so attempts can be told apart).
    """
    pilot = study.design.pilot
    if pilot is None or study.thresholds.pilot_gate is None:
        raise RepilotError(f"study {study.name} has no pilot gate")
    latest = 1 + len(rounds)
    message = str(gate.get("message") or "")
    if gate.get("round") != pilot_name(latest):
        raise RepilotError(f"{pilot_name(latest)} has not been judged by the gate yet")
    if gate.get("passed"):
        raise RepilotError(f"{pilot_name(latest)} passed the gate; nothing to repeat")
    if "incomplete" in message:
        raise RepilotError(f"{pilot_name(latest)} is not complete: {message}")
    if latest >= pilot.rounds:
        raise RepilotError(
            f"design.pilot.rounds is {pilot.rounds}; {pilot_name(latest)} was the last allowed"
        )
    return {
        "round": pilot_name(latest + 1),
        "number": latest + 1,
        "study_version": study.version,
        "guide_sha256": guide_sha256,
        "reason": message,
        "created_at": now,
    }


def guide_sha256(study: Study) -> str | None:
    """Content hash of the study's guide file, to tell guide revisions apart."""
    if not study.guide:
        return None
    path = study.path_of(study.guide)
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None
