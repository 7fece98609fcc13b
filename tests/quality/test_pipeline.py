"""The Dagster layer on the bundled ``empathy`` study, simulated and ingested end to end:
the asset writes the tables, the PI sample and the plot; the checks fail with the study's
severity (error) for the raters the simulator planted (whichever profiles it gives the
panel), and never name a good rater."""

from __future__ import annotations

import dagster as dg
import pytest

from assets import quality
from raterlab import warehouse
from raterlab.protocol import load_study
from raterlab.settings import Home
from resources import Raterlab
from tests.conftest import STUDIES
from tests.quality.conftest import run_study

QUALITY_CHECKS = dg.load_asset_checks_from_modules([quality])
QUIET = {"loggers": {"console": {"config": {"log_level": "ERROR"}}}}


def _run(home: Home) -> dg.ExecuteInProcessResult:
    defs = dg.Definitions(
        assets=dg.load_assets_from_modules([quality]),
        asset_checks=QUALITY_CHECKS,
        resources={"raterlab": Raterlab(home=str(home.root), studies=str(STUDIES))},
    )
    return defs.resolve_implicit_global_asset_job_def().execute_in_process(
        partition_key="empathy",
        instance=dg.DagsterInstance.ephemeral(),
        run_config=QUIET,
        raise_on_error=False,
    )


CAUGHT_BY = {
    "rushed": {"no_rushed_raters", "attention_checks_passed"},
    "inconsistent": {"self_consistency"},
    "lenient": {"no_biased_raters"},
    "severe": {"no_biased_raters"},
}
"""The checks that must flag a rater of each problem profile."""


@pytest.fixture(scope="module")
def empathy(tmp_path_factory: pytest.TempPathFactory):
    """(home, result, profiles): the bundled study simulated, ingested and assessed."""
    home = Home(tmp_path_factory.mktemp("empathy") / "home")
    profiles = run_study(load_study(STUDIES / "empathy.yaml"), home)
    assert "good" in profiles.values() and set(profiles.values()) - {"good"}, profiles
    return home, _run(home), profiles


def test_checks_flag_the_planted_raters_with_the_study_severity(empathy) -> None:
    _, result, profiles = empathy
    assert result.success  # failing checks are reported, they do not fail the run
    checks = {
        e.check_name: e
        for e in result.get_asset_check_evaluations()
        if not e.check_name.endswith("_structure")
    }
    assert set(checks) == {key.name for c in QUALITY_CHECKS for key in c.check_keys}
    flagged = {
        name: set(e.metadata["flagged_raters"].value.split(", ")) - {"none"}
        for name, e in checks.items()
    }
    for name, e in checks.items():
        assert e.passed == (flagged[name] == set()), name
    for annotator, profile in profiles.items():
        by = {name for name, raters in flagged.items() if annotator in raters}
        if profile == "good":
            assert by == set(), (annotator, by)
        else:
            assert CAUGHT_BY[profile] <= by, (annotator, profile, by)
    assert flagged["no_spot_check_drift"] == set()  # empathy has no single-annotator tier
    assert {e.severity for e in checks.values()} == {dg.AssetCheckSeverity.ERROR}
    rushed = [a for a, p in profiles.items() if p == "rushed"]
    if rushed:
        assert rushed[0] in checks["attention_checks_passed"].metadata["failed_items"].value


def test_asset_writes_tables_sample_and_plot(empathy) -> None:
    home, result, profiles = empathy
    problem = sorted(a for a, p in profiles.items() if p != "good")
    [event] = result.get_asset_materialization_events()
    metadata = event.materialization.metadata
    lines = metadata["summary"].value.splitlines()
    assert [line.split(":")[0] for line in lines] == [f"- {a}" for a in problem]
    for annotator, profile in profiles.items():
        line = next((x for x in lines if x.startswith(f"- {annotator}:")), "")
        if profile == "rushed":
            assert "rushed (rushed_share 1.00 > 0.10)" in line
        elif profile in ("lenient", "severe"):
            word = "lenient" if profile == "lenient" else "severe"
            assert f"{annotator}: {word} (leniency" in line
        elif profile == "inconsistent":
            assert "inconsistent on hidden duplicates" in line
    assert metadata["flagged_raters"].value == len(problem)
    assert (home.reports / "empathy" / "pi_sample.csv").is_file()
    png = home.reports / "empathy" / "rater_quality.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert metadata["scorecard"].value.startswith("![rater quality](data:image/png;base64,")
    with warehouse.connect(home.warehouse, read_only=True) as con:
        counts = [
            con.execute(f"SELECT count(*) FROM {t} WHERE study = 'empathy'").fetchone()[0]
            for t in ("gold.rater_quality", "gold.rater_item_flags", "gold.promotions")
        ]
        flagged = con.execute(
            "SELECT DISTINCT annotator_id FROM gold.rater_quality WHERE flagged ORDER BY 1"
        ).fetchall()
    assert counts[0] > 100 and counts[1] > 0 and counts[2] == 0
    assert [a for (a,) in flagged] == problem
    # a re-run replaces the study's rows instead of adding to them
    assert _run(home).success
    with warehouse.connect(home.warehouse, read_only=True) as con:
        again = con.execute(
            "SELECT count(*) FROM gold.rater_quality WHERE study = 'empathy'"
        ).fetchone()[0]
    assert again == counts[0]
