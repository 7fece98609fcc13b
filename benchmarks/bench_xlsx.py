"""Reading a returned .xlsx: python-calamine (what raterlab uses) vs openpyxl read-only.

Writes a 20,000-row return of a six-column task (numbers typed as numbers, as Excel saves
them), then times, best of 3, reading every cell to the text a CSV export holds.
Run with ``.venv/bin/python benchmarks/bench_xlsx.py``.
"""

from __future__ import annotations

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


def _best(fn, path: Path) -> float:
    times = []
    for _ in range(3):
        start = time.perf_counter()
        fn(path)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "return.xlsx"
        _write(path)
        assert len(read_returned(path)) == _openpyxl(path) == ROWS
        calamine = _best(read_returned, path)
        pyxl = _best(_openpyxl, path)
    print(f"| reader | {ROWS:,} rows (s) |\n|---|---|")
    print(f"| raterlab read_returned (python-calamine, to text frame) | {calamine:.3f} |")
    print(f"| openpyxl read_only, values only, to text | {pyxl:.3f} |")


if __name__ == "__main__":
    main()
