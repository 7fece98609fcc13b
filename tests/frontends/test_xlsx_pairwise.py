"""The .xlsx packet of a pairwise task: the two responses as response_left / response_right on
the reference sheet, a left / right / tie drop-down, no system names; filled in, it is
ingested like the CSV."""

from __future__ import annotations

import openpyxl

from raterlab import warehouse
from raterlab.design.xlsx import xlsx_packet
from raterlab.ingest import ingest_file


def test_pairwise_workbook_is_blind_and_offers_the_sides(arena):
    study, home, _, generations = arena
    (path,) = xlsx_packet(home, study, "rater_ana", "main")
    book = openpyxl.load_workbook(path)
    reference = [[c.value for c in row] for row in book["reference"].iter_rows()]
    assert reference[0] == ["item", "category", "prompt", "response_left", "response_right"]
    annotations = book["annotations"]
    header = [c.value for c in annotations[1]]
    (rule,) = [r for r in annotations.data_validations.dataValidation if r.type == "list"]
    assert str(rule.sqref).startswith(f"{chr(ord('A') + header.index('preference'))}2:")
    sheet, cells = rule.formula1.split("!")
    assert [c.value for (c,) in book[sheet][cells.replace("$", "")]] == ["left", "right", "tie"]
    text = " ".join(str(c.value) for ws in book for row in ws.iter_rows() for c in row)
    systems = {r[k] for r in generations["record"] for k in ("system_a", "system_b")}
    assert not any(system in text for system in systems)

    column = header.index("preference") + 1
    for n, row in enumerate(annotations.iter_rows(min_row=2), start=0):
        row[column - 1].value = ("left", "right", "tie")[n % 3]
        row[header.index("time_spent_s")].value = 30
    returned = home.inbox / study.name / "rater_ana__main__rater_ana_annotations.xlsx"
    returned.parent.mkdir(parents=True, exist_ok=True)
    book.save(returned)
    with warehouse.connect(home.warehouse) as con:
        result = ingest_file(study, returned, home, con)
        values = con.execute(
            "SELECT DISTINCT value FROM gold.labels WHERE field = 'preference' ORDER BY 1"
        ).fetchall()
    assert result.status == "accepted", result.validation.issues
    assert values == [("a",), ("b",), ("tie",)]
