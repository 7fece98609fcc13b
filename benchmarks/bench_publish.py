"""What publishing the gold tables costs: a DuckDB copy swapped in (what ``raterlab.publish``
does) against writing the same tables as Parquet (the alternative: views over Parquet files).
Run by hand, not by CI:

    .venv/bin/python benchmarks/bench_publish.py [--ratings 1000000]

Builds a warehouse whose ``gold.ratings`` has ``--ratings`` rows and ``gold.rating_values``
four per rating (the shape ingest writes; random values) plus a small ``gold.agreement``, and
times, best of 3: :func:`raterlab.publish.publish` of everything; ``COPY ... TO ... (FORMAT
parquet)`` of the two large tables; and the publish an agreement run does (only
``gold.agreement`` copied, the rest taken from the previous file). Prints a markdown row per
size for benchmarks/README.md ("## Publishing").
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from raterlab import warehouse
from raterlab.publish import publish

SIZES = (10_000, 100_000, 1_000_000)


def build(path: Path, n: int) -> None:
    with warehouse.connect(path) as con:
        con.execute(
            """CREATE OR REPLACE TABLE gold.ratings AS
               SELECT 'gold_tiers' AS study, i AS rating_id, 'task_' || (i % 4) AS task,
                      'item-' || (i // 8) AS item_id, 'ann_' || (i % 8) AS annotator_id,
                      'high' AS confidence, random() * 300 AS time_spent_s, NULL AS notes,
                      'item' AS kind, 0 AS copy, 'main' AS round, 'b' || (i % 40) AS batch,
                      md5(i::VARCHAR) AS token, 'file_' || (i % 200) || '.csv' AS source_file,
                      md5((i % 200)::VARCHAR) AS source_sha256, i AS source_row,
                      now() AS ingested_at
               FROM range(?) t(i)""",
            [n],
        )
        con.execute(
            """CREATE OR REPLACE TABLE gold.rating_values AS
               SELECT study, rating_id, 'field_' || f AS field,
                      (1 + (hash(rating_id, f) % 5))::VARCHAR AS value,
                      (1 + (hash(rating_id, f) % 5))::DOUBLE AS value_num
               FROM gold.ratings, range(4) f(f)"""
        )
        con.execute(
            """CREATE OR REPLACE TABLE gold.agreement AS
               SELECT 'gold_tiers' AS study, 'field_' || i AS field, random() AS estimate
               FROM range(200) t(i)"""
        )
        con.execute(
            """CREATE OR REPLACE VIEW gold.labels AS SELECT r.*, v.field, v.value, v.value_num
               FROM gold.ratings r JOIN gold.rating_values v USING (study, rating_id)"""
        )


def timed(action) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def measure(folder: Path, n: int) -> tuple[float, float, float, int, int]:
    db = folder / f"warehouse_{n}.duckdb"
    build(db, n)
    target = folder / f"published_{n}.duckdb"
    full, parquet, agreement = [], [], []
    with warehouse.connect(db) as con:
        for attempt in range(3):
            full.append(timed(lambda: publish(con, target)))
            out = folder / f"parquet_{n}_{attempt}"
            out.mkdir()

            def write_parquet(out: Path = out) -> None:
                for table in ("ratings", "rating_values"):
                    con.execute(f"COPY gold.{table} TO '{out / table}.parquet' (FORMAT parquet)")

            parquet.append(timed(write_parquet))
            agreement.append(timed(lambda: publish(con, target, ["gold.agreement"])))
    size = sum(p.stat().st_size for p in out.iterdir())
    return min(full), min(parquet), min(agreement), target.stat().st_size, size


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ratings", type=int, nargs="*", default=list(SIZES))
    args = parser.parse_args()
    print(
        "| ratings | rating_values | publish all (s) | Parquet of the two (s) "
        "| publish after agreement (s) | copy MB | Parquet MB |"
    )
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.ratings:
            full, parquet, agreement, copy_bytes, parquet_bytes = measure(Path(tmp), n)
            print(
                f"| {n:,} | {4 * n:,} | {full:.2f} | {parquet:.2f} | {agreement:.2f} "
                f"| {copy_bytes / 1e6:.0f} | {parquet_bytes / 1e6:.0f} |"
            )


if __name__ == "__main__":
    main()
