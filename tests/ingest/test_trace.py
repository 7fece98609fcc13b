"""docs/architecture.md is true: the trace of one label from a returned CSV cell to
``gold.labels`` names at most six files, and an ingest of a returned file calls each named
function of each named file, in the order the table gives."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from raterlab import warehouse
from raterlab.ingest import ingest_file
from tests.ingest.conftest import filled, template, write

ROOT = Path(__file__).resolve().parents[2]
ROW = re.compile(r"^\| \d+ \| `(?P<file>raterlab/[\w/]+\.py)` \| `(?P<function>\w+)` \|", re.M)


def trace() -> list[tuple[str, str]]:
    """(file, function) of each step of the documented trace, in order."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    table = text.split("<!-- trace:start -->")[1].split("<!-- trace:end -->")[0]
    return [(m["file"], m["function"]) for m in ROW.finditer(table)]


def first_calls(run) -> list[tuple[str, str]]:
    """(file relative to the repository, function) of every raterlab function ``run`` calls,
    in the order of each one's first call."""
    seen: dict[tuple[str, str], None] = {}

    def profile(frame, event, _arg):
        if event == "call":
            path = Path(frame.f_code.co_filename)
            if path.is_relative_to(ROOT / "raterlab"):
                seen.setdefault((str(path.relative_to(ROOT)), frame.f_code.co_name), None)

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return list(seen)


def test_the_trace_names_at_most_six_files() -> None:
    steps = trace()
    assert steps, "docs/architecture.md has no trace table between its markers"
    assert len({file for file, _ in steps}) <= 6


def test_an_ingest_goes_through_the_trace_in_order(issued) -> None:
    study, home, _key, _generations = issued
    frame = filled(home, "a1", "pilot", "answer")
    frame.loc[0, "score"] = "4"
    path = write(frame, home.inbox / "mini" / template(home, "a1", "pilot", "answer").name)

    def run() -> None:
        with warehouse.connect(home.warehouse) as con:
            assert ingest_file(study, path, home, con).status == "accepted"

    called = first_calls(run)
    steps = trace()
    missing = [step for step in steps if step not in called]
    assert not missing, f"documented but not called: {missing}"
    assert [called.index(step) for step in steps] == sorted(called.index(s) for s in steps)
    with warehouse.connect(home.warehouse, read_only=True) as con:
        stored = con.execute(
            "SELECT value FROM gold.labels WHERE study = 'mini' AND field = 'score' "
            "AND source_row = 2"
        ).fetchall()
    assert stored == [("4",)]
