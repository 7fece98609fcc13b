"""Asset bodies that skip their work when their inputs did not change (:mod:`raterlab.memo`)."""

import dagster as dg
import pandas as pd

from raterlab import memo, warehouse
from resources import Raterlab


def unchanged(rl: Raterlab, study: str, step: str, inputs: str) -> bool:
    """Whether ``step``'s tables for ``study`` were written from exactly ``inputs``."""
    with rl.warehouse(read_only=True) as con:
        return memo.unchanged(con, study, step, inputs)


def skipped(inputs: str, **metadata: object) -> dg.MaterializeResult:
    """The result of a step that found its tables written from the same inputs."""
    return dg.MaterializeResult(
        metadata={
            "unchanged": "same inputs as the last write: nothing recomputed",
            **metadata,
            "inputs": inputs,
        }
    )


def record(rl: Raterlab, study: str, step: str, inputs: str) -> None:
    """Record ``inputs`` for ``step`` alone (a check that passed on them)."""
    with rl.warehouse() as con, warehouse.transaction(con):
        memo.remember(con, study, step, inputs)


def write(
    rl: Raterlab, study: str, frames: dict[str, pd.DataFrame], step: str, inputs: str
) -> dict[str, int]:
    """Replace ``study``'s rows of ``frames``' tables and record ``inputs``, in one
    transaction."""
    with rl.warehouse() as con:
        return memo.write_tables(con, study, frames, step, inputs)
