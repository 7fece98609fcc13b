"""The demo's spreadsheet annotator: simulated returns rewritten as .xlsx, then ingested."""

from __future__ import annotations

from raterlab import warehouse
from raterlab.ingest import ingest_file
from raterlab.simulate import simulate
from raterlab.simulate.spreadsheet import as_spreadsheets


def test_simulated_annotator_returns_xlsx_that_ingest_accepts(issued):
    study, home, _, _ = issued
    returned = simulate(study, home)
    clean = returned.written[
        (returned.written["annotator_id"] == "a1") & (returned.written["mistakes"] == "[]")
    ]
    workbooks = as_spreadsheets(study, home, returned.written, "a1")
    assert len(workbooks) == len(clean) > 0
    for path in workbooks:
        assert path.suffix == ".xlsx" and not path.with_suffix(".csv").exists()
        with warehouse.connect(home.warehouse) as con:
            result = ingest_file(study, path, home, con)
        assert result.status == "accepted", result.validation.issues
        assert result.n_labels > 0
