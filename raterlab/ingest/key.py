"""The sealed key of a study, read once per run for the checks of every returned file.

It is kept as DuckDB returns it, an Arrow table: its tokens go to Polars for the join, and
the rows a file matches are taken from it (a million-row file's unblinded rows are Arrow
text from the start, not Polars text converted back).

A file's tokens are found by a hash join with the key's tokens, and each packet's rows are
listed once: checking a file then costs in proportion to the file, not to the key (a run
checks hundreds of files against a key of every packet row of the study). A hash join, not a
sort and a binary search: the key is not copied in token order, and a file's tokens, which
come in packet order, are not looked up at random in a sorted million (0.17 s for a million
shuffled tokens, against 0.55 s sorted and searched).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import polars as pl
import pyarrow as pa

PACKET = ("annotator_id", "batch", "task")
"""What identifies a packet in the key."""


@dataclass(frozen=True)
class SealedKey:
    rows: pa.Table
    """The key's rows (token, annotator_id, round, batch, task, item_id, kind, copy, swapped); each
    token once."""

    def __len__(self) -> int:
        return self.rows.num_rows

    @cached_property
    def _tokens(self) -> pl.DataFrame:
        return pl.from_arrow(self.rows.select(["token"])).with_row_index("_pos")

    @cached_property
    def packets(self) -> dict[tuple[str, str, str], np.ndarray]:
        """Each packet's row positions in :attr:`rows`."""
        listed = (
            self.columns(list(PACKET))
            .with_row_index("_pos")
            .group_by(PACKET)
            .agg(pl.col("_pos").cast(pl.Int64))
        )
        return {
            packet: positions.to_numpy()
            for packet, positions in zip(
                listed.select(*PACKET).iter_rows(), listed["_pos"], strict=True
            )
        }

    def columns(self, names: list[str], at: pl.Series | None = None) -> pl.DataFrame:
        """The key's columns ``names`` (of the rows at positions ``at``, default all)."""
        return pl.from_arrow(self.take(at, names) if at is not None else self.rows.select(names))

    def take(self, at: pl.Series, names: list[str] | None = None) -> pa.Table:
        """The key's rows at positions ``at`` (no nulls), of the columns ``names`` (default
        all); a run of positions (a file in its packet's order) is a slice, not a copy."""
        rows = self.rows if names is None else self.rows.select(names)
        if len(at) and (at.diff().drop_nulls() == 1).all():
            return rows.slice(at[0], len(at))
        return rows.take(at.to_arrow())

    def find(self, tokens: pl.Series) -> pl.Series:
        """Each token's position in :attr:`rows`; null where the key does not hold it."""
        run = self._run(tokens)
        if run is not None:
            return run
        asked = pl.DataFrame({"token": tokens.cast(pl.String)})
        known = self._tokens
        if 8 * len(asked) < len(known):  # a few tokens: hash them, not the whole key
            known = known.filter(pl.col("token").is_in(asked["token"].implode()))
        found = asked.join(known, on="token", how="left", maintain_order="left")
        return found["_pos"]

    def _run(self, tokens: pl.Series) -> pl.Series | None:
        """The positions of ``tokens`` if they are a run of the key's rows in its order, as a
        file returned in its packet's order is (the key is read in the order it was sealed,
        packet by packet): told by one lookup and one comparison, where the join hashes every
        token. ``None`` otherwise."""
        known = self._tokens["token"]
        if tokens.is_empty() or len(tokens) > len(known):
            return None
        first = self._tokens.filter(pl.col("token") == tokens[0])["_pos"]
        if first.is_empty() or first[0] + len(tokens) > len(known):
            return None
        start = first[0]
        if not (known.slice(start, len(tokens)) == tokens.cast(pl.String)).fill_null(False).all():
            return None
        run = pl.int_range(start, start + len(tokens), dtype=pl.get_index_type(), eager=True)
        return run.alias("_pos")

    def packet_rows(self, packets: pl.DataFrame) -> np.ndarray:
        """The row positions of the packets listed (by :data:`PACKET` columns)."""
        parts = [self.packets.get(p, np.empty(0, np.int64)) for p in packets.iter_rows()]
        return np.concatenate(parts) if parts else np.empty(0, np.int64)
