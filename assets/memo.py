"""Asset and check bodies that skip their work when their inputs did not change
(:mod:`raterlab.memo`)."""

from raterlab import memo, warehouse
from resources import Raterlab


def unchanged(rl: Raterlab, study: str, step: str, inputs: str) -> bool:
    """Whether ``step``'s tables for ``study`` were written from exactly ``inputs``."""
    with rl.warehouse(read_only=True) as con:
        return memo.unchanged(con, study, step, inputs)


def record(rl: Raterlab, study: str, step: str, inputs: str) -> None:
    """Record ``inputs`` for ``step`` alone (a check that passed on them)."""
    with rl.warehouse() as con, warehouse.transaction(con):
        memo.remember(con, study, step, inputs)
