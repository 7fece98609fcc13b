"""The sealed key of a study, indexed once per run for the checks of every returned file.

Its rows are sorted by token, so a file's tokens are found by binary search, and each packet's
rows are listed: checking a file then costs in proportion to the file, not to the key (a run
checks hundreds of files against a key of every packet row of the study).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

PACKET = ("annotator_id", "batch", "task")
"""What identifies a packet in the key."""


@dataclass(frozen=True)
class SealedKey:
    rows: pl.DataFrame
    """The key's rows (token, annotator_id, round, batch, task, item_id, kind, copy), sorted
    by token."""
    packets: dict[tuple[str, str, str], np.ndarray]
    """Each packet's row positions in :attr:`rows`."""

    @classmethod
    def index(cls, key: pl.DataFrame) -> SealedKey:
        rows = key.sort("token")
        by_packet = rows.select(*PACKET).with_row_index("_pos").sort(*PACKET, "_pos")
        positions = by_packet["_pos"].to_numpy().astype(np.int64)
        bounds = (
            by_packet.with_row_index("_at")
            .group_by(PACKET, maintain_order=True)
            .agg(pl.col("_at").first(), pl.len())
        )
        packets = {
            (annotator, batch, task): positions[start : start + n]
            for annotator, batch, task, start, n in bounds.iter_rows()
        }
        return cls(rows, packets)

    def __len__(self) -> int:
        return len(self.rows)

    def find(self, tokens: pl.Series) -> pl.Series:
        """Each token's position in :attr:`rows`; null where the key does not hold it."""
        known = self.rows["token"]
        if known.is_empty():
            return pl.Series("_pos", [None] * len(tokens), pl.get_index_type())
        at = known.search_sorted(tokens.cast(pl.String))
        inside = at < len(known)
        candidate = known.gather(at.clip(0, len(known) - 1))
        hit = inside & (candidate == tokens).fill_null(False)
        return pl.select(pl.when(hit).then(at)).to_series().alias("_pos")

    def packet_rows(self, packets: pl.DataFrame) -> np.ndarray:
        """The row positions of the packets listed (by :data:`PACKET` columns)."""
        parts = [self.packets.get(p, np.empty(0, np.int64)) for p in packets.iter_rows()]
        return np.concatenate(parts) if parts else np.empty(0, np.int64)
