"""Round names: ``pilot``, then ``pilot-2``, ``pilot-3``... when a failed pilot gate is
followed by a new pilot on the revised guide, and ``main``.

A repeated pilot gives the same pilot items to the same annotators again (new tokens, new
packets); its ratings replace the earlier pilot rounds' ratings of those items wherever
ratings are counted (:func:`latest_pilot_only`), while every gate attempt keeps its own round.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import pandas as pd

PILOT = "pilot"
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


def is_pilot(names: pd.Series) -> pd.Series:
    """Whether each round name is a pilot round."""
    return names.map(lambda n: pilot_number(n) is not None).astype(bool)


def latest_pilot_only(rows: pd.DataFrame) -> pd.DataFrame:
    """``rows`` without the ratings a later pilot round superseded: per annotator, task and
    item, only the latest pilot round's ratings count (other rounds are kept as they are)."""
    if rows.empty or "round" not in rows:
        return rows
    number = rows["round"].map(pilot_number)
    pilot = number.notna()
    if not pilot.any():
        return rows
    keys = ["annotator_id", "task", "item_id"]
    latest = number[pilot].groupby([rows.loc[pilot, k] for k in keys]).transform("max")
    keep = pd.Series(True, index=rows.index)
    keep[pilot] = number[pilot] == latest
    return rows[keep.to_numpy()]
