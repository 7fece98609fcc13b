"""Reading a returned .xlsx: python-calamine (what raterlab uses) vs openpyxl read-only.

Writes a 20,000-row return of a six-column task (numbers typed as numbers, as Excel saves
them), then times reading every cell to the text a CSV export holds, best of 3 rounds (the
two readers in turn each round), and prints the load average and openpyxl's time as a ratio
to raterlab's.
Run with ``.venv/bin/python benchmarks/bench_xlsx.py``.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import openpyxl

from raterlab.ingest.read import read_returned
from raterlab.ingest.xlsx import cell_text

ROWS = 20_000


def _write(path: Path) -> None:
    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet("annotations")
    sheet.append(["annotator_id", "item", "score", "confidence", "notes", "time_spent_s"])
    for i in range(ROWS):
        sheet.append(["a1", f"tok{i:08d}", i % 5 + 1, "medium", "fine" if i % 3 else "", 41.5])
    book.save(path)


def _openpyxl(path: Path) -> int:
    book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    rows = [[cell_text(v) for v in row] for row in book.worksheets[0].iter_rows(values_only=True)]
    book.close()
    return len(rows) - 1


def _best(path: Path, *readers) -> list[float]:
    """Best of 3 seconds of each reader, the readers timed in turn each round."""
    best = [float("inf")] * len(readers)
    for _ in range(3):
        for at, reader in enumerate(readers):
            start = time.perf_counter()
            reader(path)
            best[at] = min(best[at], time.perf_counter() - start)
    return best


def _load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    before = _load()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "return.xlsx"
        _write(path)
        assert len(read_returned(path)) == _openpyxl(path) == ROWS
        calamine, pyxl = _best(path, read_returned, _openpyxl)
    print(f"Load average (1, 5, 15 min) {before} before the run, {_load()} after.\n")
    print(f"| reader | {ROWS:,} rows (s) | this / raterlab |\n|---|---|---|")
    print(f"| raterlab read_returned (python-calamine, to text frame) | {calamine:.3f} | 1x |")
    print(f"| openpyxl read_only, values only, to text | {pyxl:.3f} | {pyxl / calamine:.0f}x |")


if __name__ == "__main__":
    main()
