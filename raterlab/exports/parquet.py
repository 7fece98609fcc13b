"""``parquet_tables``, the export every study gets: ``parquet/{items,consensus,adjudications,
labels}.parquet``."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from raterlab.exports.bundle import ExportBundle


def parquet_tables(bundle: ExportBundle, folder: Path) -> list[Path]:
    """The study's gold tables as Parquet (the item ``record`` as JSON text)."""
    out = []
    tables = {
        "items": bundle.items,
        "consensus": bundle.consensus,
        "adjudications": bundle.adjudications,
        "labels": bundle.labels,
    }
    for name, frame in tables.items():
        data = frame.copy()
        if "record" in data:
            data["record"] = data["record"].map(
                lambda r: json.dumps(r, ensure_ascii=False) if isinstance(r, dict) else r
            )
        data.insert(0, "study", bundle.study.name)
        path = folder / "parquet" / f"{name}.parquet"
        path.parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(pa.Table.from_pandas(data, preserve_index=False), path)
        out.append(path)
    return out
