"""What validating a study's returned files needs from the warehouse, read once per run
(:func:`study_context`): the sealed key, indexed, and the items each edge case matches."""

from __future__ import annotations

from dataclasses import dataclass

import duckdb

from raterlab import warehouse
from raterlab.design.generations import decode_records
from raterlab.ingest.key import SealedKey
from raterlab.protocol import Study
from raterlab.protocol.rules import condition_keys

KEY_SELECT = "token, annotator_id, round, batch, task, item_id, kind, copy, swapped"
"""The SQL select list of what validation and unblinding read of the sealed key."""


class NoPackets(RuntimeError):
    """Returned files cannot be read before the study's packets (and sealed key) exist."""


@dataclass(frozen=True)
class Context:
    """What checking a study's files needs from the warehouse, read once per run: the sealed
    key, indexed, and for each of the study's edge cases (in order) the items its condition
    matches."""

    key: SealedKey
    edge_items: tuple[frozenset[str], ...]


def study_context(con: duckdb.DuckDBPyConnection, study: Study) -> Context:
    """What validating the study's files needs, read once: the sealed key, indexed, and the
    items each of the study's edge cases matches."""
    key = (
        con.sql(
            f"SELECT {KEY_SELECT} FROM staging.blinding_key WHERE study = $study",
            params={"study": study.name},
        )
        .to_arrow_table()
        .combine_chunks()
        if warehouse.table_exists(con, "staging.blinding_key")
        else None
    )
    if key is None or key.num_rows == 0:
        raise NoPackets(
            f"no packets have been issued for study {study.name!r}: run the annotation job first"
        )
    return Context(SealedKey(key), edge_items(con, study))


def edge_items(con: duckdb.DuckDBPyConnection, study: Study) -> tuple[frozenset[str], ...]:
    """For each of the study's edge cases (in order), the items its condition matches."""
    records = {}
    if study.edge_cases:
        keys = {k for case in study.edge_cases for k in condition_keys(case.when)}
        generations = warehouse.read_study_rows(
            con, "raw.generations", study.name, "item_id, record"
        )
        texts = generations["record"]
        records = dict(zip(generations["item_id"], decode_records(texts, keys), strict=True))
    return tuple(
        frozenset(i for i, r in records.items() if case.when.matches(r))
        for case in study.edge_cases
    )
