"""The win-rate matrix: each system against each opponent it met."""

from __future__ import annotations

import pandas as pd

COLUMNS = ["system", "opponent", "wins", "losses", "ties", "n_comparisons", "win_rate"]


def win_rates(rows: pd.DataFrame) -> pd.DataFrame:
    """One row per ordered pair (system, opponent) that ``rows`` (counted comparisons with
    ``outcome``) compare: the system's ``wins``, ``losses`` and ``ties`` against the opponent
    and ``win_rate`` = (wins + ties / 2) / n_comparisons, so that the two rows of a pair have
    win rates summing to 1."""
    forward = pd.DataFrame(
        {
            "system": rows["system_a"],
            "opponent": rows["system_b"],
            "won": rows["outcome"] == "a",
            "lost": rows["outcome"] == "b",
        }
    )
    backward = pd.DataFrame(
        {
            "system": rows["system_b"],
            "opponent": rows["system_a"],
            "won": rows["outcome"] == "b",
            "lost": rows["outcome"] == "a",
        }
    )
    both = pd.concat([forward, backward]).assign(tied=lambda f: ~f["won"] & ~f["lost"])
    if both.empty:
        return pd.DataFrame(columns=COLUMNS)
    table = both.groupby(["system", "opponent"], as_index=False).agg(
        wins=("won", "sum"),
        losses=("lost", "sum"),
        ties=("tied", "sum"),
        n_comparisons=("won", "size"),
    )
    table["win_rate"] = (table["wins"] + table["ties"] / 2) / table["n_comparisons"]
    return table[COLUMNS]
