"""`raterlab agree` on files in both layouts and formats, and on real published ratings."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from raterlab.agreement import cohen_kappa, gwet_ac2, krippendorff_alpha
from raterlab.cli import main
from tests.agreement import published as pub

REALDATA = Path(__file__).resolve().parents[3] / "shared" / "realdata"
KEYS = {"field", "coefficient", "level", "estimate", "ci_low", "ci_high", "n_units", "n_raters"}


def run(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = main(["agree", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def long_csv(tmp_path: Path) -> Path:
    """Two raters, two fields, in the long layout."""
    ratings = pub.SAS_AGREE.astype(int)
    frame = pd.DataFrame(
        {
            "item": np.repeat(np.arange(len(ratings)), 2),
            "annotator": ["ann", "bob"] * len(ratings),
            "score": ratings.ravel(),
            "label": np.where(ratings.ravel() > 1, "yes", "no"),
        }
    )
    path = tmp_path / "ratings.csv"
    frame.to_csv(path, index=False)
    return path


def test_long_file_json(capsys: pytest.CaptureFixture[str], long_csv: Path) -> None:
    code, out, _ = run(
        capsys, long_csv, "--unit", "item", "--rater", "annotator", "--format", "json"
    )
    assert code == 0
    records = json.loads(out)
    assert all(set(record) >= KEYS for record in records)
    assert [(r["field"], r["coefficient"]) for r in records[:4]] == [
        ("score", "percent_agreement"),
        ("score", "cohen_kappa"),
        ("score", "krippendorff_alpha"),
        ("score", "gwet_ac1"),
    ]
    kappa = records[1]
    assert kappa["estimate"] == pytest.approx(0.4842, abs=5e-5)  # SAS' published value
    assert (kappa["level"], kappa["n_units"], kappa["n_raters"]) == ("nominal", 19, 2)
    assert kappa["ci_low"] < kappa["estimate"] < kappa["ci_high"]  # intervals by default
    assert kappa["band"] == "moderate"  # Landis & Koch: .41-.60
    assert {r["field"] for r in records} == {"score", "label"}
    code, out, _ = run(
        capsys, long_csv, "--unit", "item", "--rater", "annotator", "--format", "json", "--no-ci"
    )
    kappa = json.loads(out)[1]
    assert kappa["ci_low"] is None and kappa["ci_high"] is None


def test_fields_level_coefficients_and_ci(
    capsys: pytest.CaptureFixture[str], long_csv: Path
) -> None:
    code, out, _ = run(
        capsys, long_csv, "--unit", "item", "--rater", "annotator", "--fields", "score",
        "--level", "ordinal", "--coefficients", "cohen_kappa:linear,icc:ICC(3,1)",
        "--ci", "--n-resamples", "200", "--seed", "1", "--format", "csv",
    )  # fmt: skip
    assert code == 0
    table = pd.read_csv(pd.io.common.StringIO(out))
    assert table["coefficient"].tolist() == ["cohen_kappa", "icc"]
    assert table["options"].tolist() == ["weights=linear", "kind=ICC(3,1)"]
    kappa = table.iloc[0]
    assert kappa["estimate"] == pytest.approx(0.4701, abs=5e-5)  # SAS' weighted kappa
    assert kappa["ci_low"] < kappa["estimate"] < kappa["ci_high"]
    again = run(capsys, long_csv, "--unit", "item", "--rater", "annotator", "--fields", "score",
                "--level", "ordinal", "--coefficients", "cohen_kappa:linear,icc:ICC(3,1)",
                "--ci", "--n-resamples", "200", "--seed", "1", "--format", "csv")  # fmt: skip
    assert again[1] == out


def test_wide_files_in_every_format(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    frame = pd.DataFrame(pub.KRIPPENDORFF_2011, columns=["A", "B", "C", "D"])
    frame.insert(0, "unit", [f"u{i}" for i in range(len(frame))])
    expected = float(krippendorff_alpha(pub.KRIPPENDORFF_2011, "interval"))
    frame.to_csv(tmp_path / "wide.csv", index=False)
    frame.to_json(tmp_path / "wide.jsonl", orient="records", lines=True)
    frame.to_parquet(tmp_path / "wide.parquet")
    for name in ("wide.csv", "wide.jsonl", "wide.parquet"):
        code, out, _ = run(capsys, tmp_path / name, "--level", "interval", "--format", "json")
        assert code == 0, name
        alpha = json.loads(out)[0]
        assert (alpha["field"], alpha["coefficient"]) == ("rating", "krippendorff_alpha")
        assert alpha["estimate"] == pytest.approx(expected, abs=1e-12)
        assert (alpha["n_units"], alpha["n_raters"]) == (11, 4)


def test_table_output_and_notes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "wide.csv"
    pd.DataFrame({"unit": [1, 2, 3], "a": ["x", "x", "x"], "b": ["x", "x", "x"]}).to_csv(
        path, index=False
    )
    code, out, _ = run(capsys, path)
    assert code == 0
    header, *rows = out.splitlines()
    assert header.split() == [
        "field", "coefficient", "options", "level", "estimate", "se", "ci_low", "ci_high",
        "band", "n_units", "n_raters", "note",
    ]  # fmt: skip
    assert rows[0].split()[:5] == ["rating", "percent_agreement", "nominal", "1.0000", "0.0000"]
    kappa = next(row for row in rows if row.split()[1] == "cohen_kappa")
    assert kappa.split()[-1] == "[1]"  # the reason is a footnote, not a column of prose
    assert "[1] " in out and "only one category ('x')" in out  # 0/0 here: said, not NaN


def test_header_only_file_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "empty.csv"
    path.write_text("unit,rater,score\n")
    code, out, err = run(capsys, path)
    assert code == 2 and out == ""
    assert err == f"raterlab agree: error: {path} holds no ratings (no rows below its header)\n"


def test_a_word_among_numbers_is_refused_with_its_row(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "scores.csv"
    path.write_text("unit,rater,score\nu1,a,1\nu1,b,2\nu2,a,five\nu2,b,5\nu3,a,3\nu3,b,3\n")
    code, out, err = run(capsys, path, "--level", "ordinal")
    assert code == 2 and out == ""
    assert "field 'score'" in err and "row 4, column 'score': 'five'" in err  # spreadsheet row
    code, out, _ = run(capsys, path, "--categories", "1,2,3,4,5,five", "--format", "json")
    assert code == 0 and json.loads(out)[0]["n_units"] == 3  # declared: a category, as meant


def test_several_unit_columns_name_a_unit(capsys: pytest.CaptureFixture[str], tmp_path: Path):
    path = tmp_path / "systems.csv"
    path.write_text(
        "doc,system,rater,score\nd1,A,a,1\nd1,A,b,1\nd1,B,a,5\nd1,B,b,4\nd2,A,a,3\nd2,A,b,3\n"
    )
    code, out, _ = run(capsys, path, "--unit", "doc,system", "--format", "json", "--no-ci")
    assert code == 0
    assert {r["n_units"] for r in json.loads(out) if r["estimate"] is not None} == {3}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--unit", "id"], "unknown unit column(s) 'id'; the file has: item, annotator"),
        (["--unit", "item", "--rater", "who"], "unknown rater column(s) 'who'"),
        (["--unit", "item", "--rater", "annotator", "--fields", "x"], "unknown field column"),
        (["--unit", "item", "--fields", "score"], "--fields needs a long file"),
        (["--unit", "item", "--rater", "annotator", "--coefficients", "tau"], "unknown coeff"),
        (["--unit", "item", "--rater", "annotator", "--coefficients", "fleiss_kappa:x"], "no op"),
    ],
)
def test_errors_exit_non_zero(
    capsys: pytest.CaptureFixture[str], long_csv: Path, args: list[str], message: str
) -> None:
    code, out, err = run(capsys, long_csv, *args)
    assert code == 2
    assert out == ""
    assert err.startswith("raterlab agree: error: ")
    assert message in err


def test_unreadable_inputs(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert "no such file" in run(capsys, tmp_path / "missing.csv")[2]
    (tmp_path / "ratings.xlsx").write_text("")
    assert "unknown file type '.xlsx'" in run(capsys, tmp_path / "ratings.xlsx")[2]
    twice = tmp_path / "twice.csv"
    pd.DataFrame({"unit": [1, 1], "rater": ["a", "a"], "score": [1, 2]}).to_csv(twice, index=False)
    code, _, err = run(capsys, twice)
    assert code == 2
    assert "unit 1, rater 'a' appears on more than one row" in err


def dialsummeval_long(path: Path) -> Path:
    """DialSummEval (Gao & Wan 2022) human judgments in the long layout.

    Each JSONL line is a summary of a dialogue with ``annotations``, a list of three dicts
    (annotator 0, 1, 2) scoring consistency, relevance, fluency and coherence on 1-5.
    """
    summaries = pd.read_json(REALDATA / "dialsummeval" / "human_judgment.jsonl", lines=True)
    long = pd.DataFrame(
        {"unit": f"{s.id}/{s.model_id}", "rater": rater, **scores}
        for s in summaries.itertuples()
        for rater, scores in enumerate(s.annotations)
    )
    long.to_csv(path, index=False)
    return path


@pytest.mark.skipif(not REALDATA.is_dir(), reason="shared/realdata is not next to the checkout")
def test_real_dialsummeval_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = dialsummeval_long(tmp_path / "dialsummeval.csv")
    code, out, _ = run(capsys, path, "--level", "ordinal", "--format", "json")
    assert code == 0
    records = {(r["field"], r["coefficient"]): r for r in json.loads(out)}
    assert len(records) == 4 * 3  # 4 dimensions x (percent agreement, alpha, AC2)
    wide = pd.read_csv(path).pivot(index="unit", columns="rater", values="fluency")
    alpha = records[("fluency", "krippendorff_alpha")]
    assert alpha["estimate"] == pytest.approx(float(krippendorff_alpha(wide, "ordinal")))
    assert (alpha["n_units"], alpha["n_raters"]) == (1400, 3)
    # the README's prevalence paradox: fluency is mostly 4-5, so alpha is near zero while
    # AC2, whose chance agreement does not grow with skew, stays high
    ac2 = records[("fluency", "gwet_ac2")]
    assert ac2["estimate"] == pytest.approx(float(gwet_ac2(wide, "ordinal")))
    assert alpha["estimate"] < 0.1 < 0.7 < ac2["estimate"]


@pytest.mark.skipif(not REALDATA.is_dir(), reason="shared/realdata is not next to the checkout")
def test_real_qags_file_with_worker_ids(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """QAGS (Wang et al. 2020): 3 crowd workers (of many) per summary sentence, yes/no."""
    articles = pd.read_json(REALDATA / "qags" / "mturk_xsum.jsonl", lines=True)
    long = pd.DataFrame(
        {"unit": f"{a}/{s}", "worker": r["worker_id"], "supported": r["response"]}
        for a, article in enumerate(articles["summary_sentences"])
        for s, sentence in enumerate(article)
        for r in sentence["responses"]
    )
    path = tmp_path / "qags.jsonl"
    long.to_json(path, orient="records", lines=True)
    code, out, _ = run(capsys, path, "--rater", "worker", "--format", "json")
    assert code == 0
    records = {r["coefficient"]: r for r in json.loads(out)}
    wide = long.pivot(index="unit", columns="worker", values="supported")
    assert records["fleiss_kappa"]["n_raters"] == wide.shape[1] > 3
    assert records["fleiss_kappa"]["n_units"] == len(wide)
    assert records["krippendorff_alpha"]["estimate"] == pytest.approx(
        float(krippendorff_alpha(wide))
    )
    assert 0 < records["fleiss_kappa"]["estimate"] < records["percent_agreement"]["estimate"]


def test_cli_matches_library_on_a_two_rater_file(
    capsys: pytest.CaptureFixture[str], long_csv: Path
) -> None:
    code, out, _ = run(capsys, long_csv, "--unit", "item", "--rater", "annotator",
                       "--fields", "label", "--format", "json")  # fmt: skip
    assert code == 0
    kappa = next(r for r in json.loads(out) if r["coefficient"] == "cohen_kappa")
    labels = np.where(pub.SAS_AGREE > 1, "yes", "no")
    assert kappa["estimate"] == pytest.approx(float(cohen_kappa(labels)))
    assert kappa["se"] == pytest.approx(cohen_kappa(labels).se)
