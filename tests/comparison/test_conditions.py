"""gold.condition_comparison and gold.condition_means from a study's ``comparison``."""

from __future__ import annotations

import copy

import numpy as np
import pandas as pd
import pytest

from raterlab.comparison import condition_comparison, condition_means, unit_values
from raterlab.comparison.stats import wilcoxon_signed_rank
from raterlab.protocol import StudyError, parse_study
from tests.consensus.conftest import TINY


def study(**comparison):
    data = copy.deepcopy(TINY)
    data["tasks"]["t"]["hidden"] = ["condition", "prompt_id", "category"]
    data["comparison"] = comparison
    return parse_study(data)


def paired_data(seed: int = 0):
    """30 prompts in two categories: in ``sec`` A beats B by 2 points, in ``api`` they tie
    (up to noise that cancels in the median consensus)."""
    rng = np.random.default_rng(seed)
    items, consensus, ratings = [], [], []
    for p in range(30):
        category = "sec" if p % 2 else "api"
        base = int(rng.integers(1, 4))
        for condition in ("A", "B"):
            item = f"p{p:02d}-{condition}"
            value = base + (2 if condition == "A" and category == "sec" else 0)
            record = {"condition": condition, "prompt_id": f"p{p:02d}", "category": category}
            items.append({"item_id": item, "task": "t", "tier": "GOLD", "record": record})
            consensus.append({"task": "t", "item_id": item, "field": "score", "value_num": value})
            consensus.append({"task": "t", "item_id": item, "field": "kind", "value_num": None})
            for rater in ("r1", "r2"):
                ratings.append(
                    {
                        "task": "t",
                        "item_id": item,
                        "annotator_id": rater,
                        "field": "score",
                        "value_num": float(value),
                    }
                )
    return pd.DataFrame(items), pd.DataFrame(consensus), pd.DataFrame(ratings)


def test_paired_ab_per_category_with_holm():
    s = study(by="condition", baseline="B", pair="prompt_id", slices=["category"], fields=["score"])
    items, consensus, ratings = paired_data()
    units = unit_values(s, consensus, items)
    assert set(units["field"]) == {"score"}
    table = condition_comparison(s, units, ratings).set_index("slice")
    assert list(table.index) == ["all", "category=api", "category=sec"]
    assert (table["level"] == "A").all() and (table["reference"] == "B").all()
    assert table["paired"].all() and table["test"].eq("wilcoxon_signed_rank").all()
    sec, api, overall = table.loc["category=sec"], table.loc["category=api"], table.loc["all"]
    assert sec["n_units"] == 15 and sec["mean_diff"] == 2 and sec["win_share"] == 1
    assert sec["mean_diff_low"] == sec["mean_diff_high"] == 2
    assert api["tie_share"] == 1 and np.isnan(api["p_value"])
    assert overall["mean_diff"] == 1 and overall["win_share"] == 0.5
    assert overall["p_value"] == pytest.approx(
        wilcoxon_signed_rank(np.r_[[2] * 15, [0] * 15]).p_value
    )
    assert sec["rank_biserial"] == 1
    # Holm over the category family: the single defined p-value is its own family of one.
    assert sec["p_holm"] == pytest.approx(sec["p_value"])
    assert overall["p_holm"] == overall["p_value"]
    assert sec["adjusted_diff"] == pytest.approx(2) and sec["n_raters"] == 2


def test_means_per_level_and_slice():
    s = study(by="condition", baseline="B", pair="prompt_id", slices=["category"])
    items, consensus, _ = paired_data()
    means = condition_means(s, unit_values(s, consensus, items))
    row = means[(means["slice"] == "category=sec") & (means["level"] == "A")].iloc[0]
    b = means[(means["slice"] == "category=sec") & (means["level"] == "B")].iloc[0]
    assert row["mean"] - b["mean"] == pytest.approx(2)
    assert row["ci_low"] <= row["mean"] <= row["ci_high"]
    assert set(means["field"]) == {"score"}


def test_unpaired_many_levels_each_against_the_rest():
    s = study(by="category")
    items, consensus, ratings = paired_data()
    items["record"] = [
        {**r, "category": ["x", "y", "z"][i % 3]} for i, r in enumerate(items["record"])
    ]
    table = condition_comparison(s, unit_values(s, consensus, items), ratings)
    assert list(table["level"]) == ["x", "y", "z"]
    assert (table["reference"] == "rest").all() and (~table["paired"]).all()
    assert table["test"].eq("mann_whitney").all()
    assert table["win_share"].isna().all()


def test_no_labels_yet_gives_empty_tables():
    s = study(by="condition", baseline="B", pair="prompt_id")
    items, consensus, ratings = paired_data()
    units = unit_values(s, consensus.iloc[0:0], items)
    assert condition_comparison(s, units, ratings.iloc[0:0]).empty
    assert condition_means(s, units).empty


@pytest.mark.parametrize(
    ("comparison", "where"),
    [
        ({"by": "colour"}, "comparison.by"),
        ({"by": "condition", "pair": "prompt"}, "comparison.pair"),
        ({"by": "condition", "slices": ["nope"]}, "comparison.slices[0]"),
        ({"by": "condition", "fields": ["kind"]}, "comparison.fields[0]"),
    ],
)
def test_bad_declaration_names_its_path(comparison, where):
    with pytest.raises(StudyError) as error:
        study(**comparison)
    assert where in str(error.value)


def test_export_format_writes_the_tables_and_plot(tmp_path):
    from raterlab.exports import exporter
    from raterlab.exports.bundle import ExportBundle

    s = study(by="condition", baseline="B", pair="prompt_id", slices=["category"])
    items, consensus, ratings = paired_data()
    labels = ratings.assign(
        value=ratings["value_num"].astype(int).astype(str), kind="item", copy=0, round="main"
    )
    bundle = ExportBundle(s, items, consensus, pd.DataFrame(), labels)
    files = exporter("condition_comparison")(bundle, tmp_path)
    assert [f.name for f in files] == [
        "condition_comparison.csv",
        "condition_means.csv",
        "condition_comparison.png",
    ]
    exported = pd.read_csv(files[0])
    expected = condition_comparison(s, unit_values(s, consensus, items), ratings)
    assert list(exported.columns) == list(expected.columns)
    np.testing.assert_allclose(exported["mean_diff"], expected["mean_diff"])
    assert files[2].read_bytes().startswith(b"\x89PNG")


def test_records_decoded_for_record_keys_give_the_same_units() -> None:
    """The comparison step decodes each item's record for :func:`record_keys` alone (``by``,
    ``pair`` and the slices that are item keys): the units are those of whole records."""
    from raterlab.comparison.conditions import record_keys

    s = study(by="condition", baseline="B", pair="prompt_id", slices=["category", "tier"])
    items, consensus, _ = paired_data()
    items["record"] = [{**r, "response": "text " * 100} for r in items["record"]]
    assert record_keys(s) == ["condition", "category", "prompt_id"]
    slim = items.assign(
        record=[{k: r[k] for k in record_keys(s) if k in r} for r in items["record"]]
    )
    pd.testing.assert_frame_equal(unit_values(s, consensus, slim), unit_values(s, consensus, items))
