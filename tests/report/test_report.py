"""The study report: every section present, plots embedded, nothing loaded from elsewhere;
later stages' tables rendered generically when they exist."""

from __future__ import annotations

import base64
import re
from html import unescape as html_unescape

import duckdb
import pytest

from raterlab.protocol import load_study
from raterlab.report import render
from raterlab.report.build import load_inputs
from tests.conftest import BUNDLED, STUDIES

SECTIONS = (
    "Design",
    "Pilot gate",
    "Agreement",
    "Rater quality",
    "Adjudication",
    "Consensus",
    "Results per condition or system",
    "Gold-table contract",
    "Quarantined files",
    "Disclosures",
)
IMG = re.compile(r'<img src="data:image/png;base64,([A-Za-z0-9+/=]+)"')


def sections(html: str) -> list[str]:
    return re.findall(r"<h2>\d+\. ([^<]+)</h2>", html)


def first_section(html: str) -> tuple[str, str]:
    """The first section's anchor and title."""
    match = re.search(r'<section id="([^"]+)"><h2>1\. ([^<]+)</h2>', html)
    assert match, "no numbered section"
    return match.group(1), html_unescape(match.group(2))


@pytest.mark.parametrize("name", BUNDLED)
def test_every_section_and_plot_is_in_the_page(reports, name):
    html = reports[name].read_text(encoding="utf-8")
    assert [s for s in SECTIONS if s not in sections(html)] == []
    images = IMG.findall(html)
    expected = {"plugin_triggers": 3, "rag_triplet": 1}.get(name, 2)  # rag: one system
    assert len(images) == expected
    assert all(base64.b64decode(i).startswith(b"\x89PNG") for i in images)
    # Nothing that could make a request: no URLs in src, links only within the page or to
    # the CSV files written beside it; a CSP that forbids loading anything.
    assert not re.search(r'src="(?!data:)', html)
    assert not re.search(r'href="(?!#|tables/[a-z_]+\.csv")', html)
    for link in re.findall(r'href="(tables/[a-z_]+\.csv)"', html):
        assert (reports[name].parent / link).is_file()
    assert first_section(html)[0] == "answer"
    assert "default-src 'none'" in html


def test_later_stages_render_generically_only_where_present(reports):
    plugin = reports["plugin_triggers"].read_text(encoding="utf-8")
    assert "Judge calibration" in sections(plugin)
    assert "<td>trigger</td>" in plugin and "0.810" in plugin
    # The judge section leads with the verdicts on all items, before the calibration.
    judge = plugin[plugin.index('<section id="judge">') :]
    judge = judge[: judge.index("</section>")]
    verdicts = judge.index("May this judge replace the humans?")
    assert verdicts < judge.index("Calibration against the humans") < judge.index("<img")
    first_table = judge[verdicts : judge.index("</table>")]
    assert "<td>only with human correction (PPI)</td>" in first_table
    assert "<td>1.80 (bound 2)</td>" in first_table
    assert "in the slice" not in first_table  # the slices are folded below
    rag = reports["rag_triplet"].read_text(encoding="utf-8")
    assert "Other gold tables" in sections(rag)
    assert "<summary>gold.rag_metric_families (1 rows)</summary>" in rag
    assert "<td>grounding</td>" in rag
    empathy = reports["empathy"].read_text(encoding="utf-8")
    assert "Judge calibration" not in sections(empathy)
    assert "Other gold tables" not in sections(empathy)


def test_the_answer_and_the_disclosures(reports):
    ab = reports["correctness_ab"].read_text(encoding="utf-8")
    assert "correctness: A - B = " in ab and "prompt_id pairs" in ab and "Wilcoxon" in ab
    gold = reports["gold_tiers"].read_text(encoding="utf-8")
    assert "5% noise floor" in gold
    assert "The main round has not gone out (pilot incomplete: 3 of 40)" in gold
    rag = reports["rag_triplet"].read_text(encoding="utf-8")
    assert "No metrics yet" in rag


def test_a_study_with_nothing_yet(tmp_path):
    study = load_study(STUDIES / "empathy.yaml")
    with duckdb.connect(str(tmp_path / "empty.duckdb")) as con:
        html = render(load_inputs(con, study, tmp_path))
    assert sections(html)[1 : len(SECTIONS) - 1] == list(SECTIONS[:-2])
    assert first_section(html) == (
        "answer",
        "Do annotators agree on each dimension, and are they consistent with themselves?",
    )
    assert "No agreement computed yet." in html
    assert "<img" not in html


def test_cli_writes_a_report(tmp_path, monkeypatch, capsys):
    from raterlab.cli import main

    monkeypatch.setenv("RATERLAB_HOME", str(tmp_path))
    duckdb.connect(str(tmp_path / "warehouse.duckdb")).close()
    assert main(["report", "write", "correctness_ab"]) == 0
    page = tmp_path / "reports" / "correctness_ab" / "index.html"
    assert str(page) in capsys.readouterr().out
    assert first_section(page.read_text(encoding="utf-8")) == (
        "answer",
        "Is condition A (with instruction memory) more correct than B?",
    )


def test_planned_precision_beside_achieved(reports):
    """The agreement section shows, per declared minimum, the interval width the design
    planned (as ``raterlab study check`` prints it) beside the width the ratings gave."""
    from raterlab.planning.study_precision import planned_precision

    study = load_study(STUDIES / "correctness_ab.yaml")
    html = reports["correctness_ab"].read_text(encoding="utf-8")
    agreement = html[html.index('<section id="agreement">') :]
    agreement = agreement[: agreement.index("</section>")]
    assert "Precision planned by the design against achieved" in agreement
    planned = planned_precision(study)
    for row in planned.itertuples():
        assert row.threshold in agreement
        assert f"{row.planned_ci_width:.3g}"[:4] in agreement


def test_the_planned_widths_are_read_from_the_warehouse_when_there(monkeypatch):
    """``staging.planned_precision`` (written once by the assignment step) is what the page
    shows; the widths are simulated again only for a warehouse without it."""
    import pandas as pd

    from raterlab.planning.study_precision import planned_precision
    from raterlab.report import planned as planned_module

    study = load_study(STUDIES / "correctness_ab.yaml")
    stored = planned_precision(study).assign(planned_ci_width=0.123)
    no_achieved = pd.DataFrame(
        columns=["threshold", "task", "field", "slice", "n_units", "ci_low", "ci_high"]
    )

    def simulated(_study):
        raise AssertionError("planned widths simulated again")

    monkeypatch.setattr(planned_module, "planned_precision", simulated)
    shown = planned_module.planned_and_achieved(study, no_achieved, pd.DataFrame(), stored)
    assert (shown["planned_ci_width"] == 0.123).all() and len(shown) == len(stored)
    with pytest.raises(AssertionError, match="simulated again"):
        planned_module.planned_and_achieved(study, no_achieved, pd.DataFrame())
