"""What publishing the gold tables costs: a DuckDB copy swapped in (what ``raterlab.publish``
does) against writing the same tables as Parquet (the alternative: views over Parquet files).
Run by hand, not by CI:

    .venv/bin/python benchmarks/bench_publish.py [--ratings 1000000]

Builds a warehouse whose ``gold.ratings`` has ``--ratings`` rows and ``gold.rating_values``
four per rating (the shape ingest writes; random values) plus a small ``gold.agreement``, and
times, best of 3, interleaved: :func:`raterlab.publish.publish` of everything; a plain DuckDB
copy of the same gold tables into a fresh file (``ATTACH``, ``CREATE TABLE ... AS SELECT *``
per table, ``DETACH``: the floor under publish's bookkeeping, views and atomic swap);
``COPY ... TO ... (FORMAT parquet)`` of the two large tables; and the publish an agreement
run does (only ``gold.agreement`` copied, the rest taken from the previous file). Prints the
machine, the load average and a markdown row per size for benchmarks/README.md
("## Publishing"), with each alternative's ratio to publish.
"""

from __future__ import annotations

import argparse
import os
import platform
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


def plain_copy(con, target: Path) -> None:
    """The gold tables copied into a fresh DuckDB file, nothing else."""
    target.unlink(missing_ok=True)
    con.execute(f"ATTACH '{target}' AS plain")
    con.execute("CREATE SCHEMA plain.gold")
    for table in ("ratings", "rating_values", "agreement"):
        con.execute(f"CREATE TABLE plain.gold.{table} AS SELECT * FROM gold.{table}")
    con.execute("DETACH plain")


def measure(folder: Path, n: int) -> tuple[float, float, float, float, int, int]:
    db = folder / f"warehouse_{n}.duckdb"
    build(db, n)
    target = folder / f"published_{n}.duckdb"
    full, plain, parquet, agreement = [], [], [], []
    with warehouse.connect(db) as con:
        for attempt in range(3):
            full.append(timed(lambda: publish(con, target)))
            plain.append(timed(lambda: plain_copy(con, folder / f"plain_{n}.duckdb")))
            out = folder / f"parquet_{n}_{attempt}"
            out.mkdir()

            def write_parquet(out: Path = out) -> None:
                for table in ("ratings", "rating_values"):
                    con.execute(f"COPY gold.{table} TO '{out / table}.parquet' (FORMAT parquet)")

            parquet.append(timed(write_parquet))
            agreement.append(timed(lambda: publish(con, target, ["gold.agreement"])))
    size = sum(p.stat().st_size for p in out.iterdir())
    return (min(full), min(plain), min(parquet), min(agreement), target.stat().st_size, size)


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.machine()


def load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ratings", type=int, nargs="*", default=list(SIZES))
    args = parser.parse_args()
    before = load()
    rows = [
        "| ratings | rating_values | publish all (s) | plain DuckDB copy (s) | publish / plain "
        "| Parquet of the two (s) | Parquet / publish | publish after agreement (s) "
        "| after agreement / publish all | copy MB | Parquet MB |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.ratings:
            full, plain, parquet, agreement, copy_bytes, parquet_bytes = measure(Path(tmp), n)
            rows.append(
                f"| {n:,} | {4 * n:,} | {full:.2f} | {plain:.2f} | {full / plain:.2f}x "
                f"| {parquet:.2f} | {parquet / full:.2f}x | {agreement:.2f} "
                f"| {agreement / full:.2f}x | {copy_bytes / 1e6:.0f} | {parquet_bytes / 1e6:.0f} |"
            )
    print(f"Machine: {cpu_model()}, {os.cpu_count()} CPUs; Python {platform.python_version()}.")
    print(f"Load average (1, 5, 15 min) {before} before the run, {load()} after.\n")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
