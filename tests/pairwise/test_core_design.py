"""The design of a pairwise study: pair items from generations, sides drawn per packet,
balanced and sealed in the key, shown only as response_left/response_right, and the
blinding check that fails when a side or a system leaks."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from scipy.stats import binomtest

from raterlab.design import assign, read_generations, routed_items, seal, write_packets
from raterlab.design.generations import GenerationsError
from raterlab.design.pairs import balanced_sides, chosen_pairs
from raterlab.design.verify import verify_no_hidden_values
from raterlab.protocol import Study, load_study
from raterlab.protocol.pairwise import PairBudget
from tests.conftest import STUDIES

SECRET = b"pairwise-core-tests-secret-32byt"


@pytest.fixture(scope="module")
def study() -> Study:
    return load_study(STUDIES / "pairwise_arena.yaml")


@pytest.fixture(scope="module")
def generations(study: Study) -> pd.DataFrame:
    return read_generations(study)


def _connected(pairs: list[tuple[str, str]]) -> bool:
    """Whether the graph of ``pairs`` over the systems they name is connected."""
    nodes = sorted({s for pair in pairs for s in pair})
    at = {s: i for i, s in enumerate(nodes)}
    rows, cols = zip(*[(at[a], at[b]) for a, b in pairs], strict=True)
    graph = coo_matrix((np.ones(len(pairs)), (rows, cols)), shape=(len(nodes), len(nodes)))
    return connected_components(graph, directed=False)[0] == 1


def _key(study: Study, generations: pd.DataFrame, seed: int | None = None) -> pd.DataFrame:
    if seed is not None:
        design = study.design.model_copy(update={"seed": seed})
        study = study.model_copy(update={"design": design})
    return seal(study, assign(study, routed_items(study, generations), generations), SECRET)


def test_pair_items_are_a_connected_budget_per_prompt(study: Study, generations) -> None:
    items = generations[generations["role"] == "item"]
    assert len(items) == 30 * 4
    records = items["record"].tolist()
    assert all(r["system_a"] < r["system_b"] for r in records)
    assert items["item_id"].tolist() == [
        f"{r['prompt_id']}:{r['system_a']}~{r['system_b']}" for r in records
    ]
    every: list[tuple[str, str]] = []
    for prompt, group in items.groupby(items["record"].map(lambda r: r["prompt_id"])):
        pairs = [(r["system_a"], r["system_b"]) for r in group["record"]]
        assert len(set(pairs)) == 4, prompt
        assert _connected(pairs), prompt  # a spanning tree plus one pair
        every += pairs
    assert _connected(every) and len({s for pair in every for s in pair}) == 4
    # Each pair carries both responses and both planted qualities, never a bare `system`.
    assert {"response_a", "response_b", "quality_a", "quality_b"} <= set(records[0])
    assert "system" not in records[0] and "response" not in records[0]


@pytest.mark.parametrize("budget", [3, 4, 5, 6, 10])
def test_chosen_pairs_keep_every_prompt_connected(budget: int) -> None:
    systems = ["s1", "s2", "s3", "s4"]
    for seed in range(20):
        pairs = chosen_pairs(systems, PairBudget(budget=budget), np.random.default_rng(seed))
        assert len(pairs) == min(budget, 6) and len(set(pairs)) == len(pairs)
        assert _connected(pairs)


def test_bad_generations_are_named(tmp_path: Path, study: Study) -> None:
    lines = (STUDIES / "pairwise_arena" / "generations.jsonl").read_text().splitlines()
    first = json.loads(lines[0])
    twice = {**first, "id": "again"}
    other = {**json.loads(lines[1]), "category": "science"}
    path = tmp_path / "generations.jsonl"
    path.write_text("\n".join([lines[0], json.dumps(twice), json.dumps(other), *lines[2:]]))
    with pytest.raises(GenerationsError) as caught:
        read_generations(study, path)
    text = str(caught.value)
    assert "has system 'aurora-large' twice (first on line 1)" in text
    assert "'category' differs between its systems" in text


def _pairwise_rows(key: pd.DataFrame) -> pd.DataFrame:
    return key[(key["task"] == "preference") & (key["copy"] == 0)]


def test_sides_are_balanced_in_every_packet(study: Study, generations) -> None:
    key = _key(study, generations)
    for (annotator, batch), rows in _pairwise_rows(key).groupby(["annotator_id", "batch"]):
        n_swapped = int(rows["swapped"].sum())
        assert abs(2 * n_swapped - len(rows)) <= 1, (annotator, batch)
    for (annotator, batch), rows in _pairwise_rows(key).groupby(["annotator_id", "batch"]):
        counts = _left_counts(rows, generations)
        for system in {s for s, _ in counts}:
            gap = counts[(system, "left")] - counts[(system, "right")]
            assert abs(gap) <= 2, (annotator, batch, system, gap)
    first = key[key["copy"] == 0].set_index(["annotator_id", "batch", "item_id"])["swapped"]
    duplicates = key[key["kind"] == "duplicate"]
    assert len(duplicates) == 5 * 4
    for row in duplicates.itertuples():
        assert row.swapped != first[(row.annotator_id, row.batch, row.item_id)]


def _left_counts(key: pd.DataFrame, generations: pd.DataFrame) -> Counter:
    records = dict(zip(generations["item_id"], generations["record"], strict=True))
    counts: Counter = Counter()
    for item_id, swapped in zip(key["item_id"], key["swapped"], strict=True):
        record = records[item_id]
        left, right = (
            (record["system_b"], record["system_a"])
            if swapped
            else (
                record["system_a"],
                record["system_b"],
            )
        )
        counts[(left, "left")] += 1
        counts[(right, "right")] += 1
    return counts


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_system_is_on_the_left_about_half_the_time(study: Study, generations, seed) -> None:
    """Exact binomial tests (Bonferroni over the systems and the overall share) that each
    system, and system_a overall, is shown left with probability 1/2."""
    key = _pairwise_rows(_key(study, generations, seed))
    key = key[key["kind"] == "item"]
    counts = _left_counts(key, generations)
    systems = sorted({s for s, _ in counts})
    tests = {
        system: binomtest(
            counts[(system, "left")], counts[(system, "left")] + counts[(system, "right")]
        )
        for system in systems
    }
    tests["overall"] = binomtest(int((~key["swapped"]).sum()), len(key))
    alpha = 0.01 / len(tests)
    assert all(t.pvalue > alpha for t in tests.values()), {k: t.pvalue for k, t in tests.items()}
    # ... while a design that put system_a on the left every time is caught by the same test.
    assert binomtest(len(key), len(key)).pvalue < alpha


def test_sides_are_reproducible_from_the_seed(study: Study, generations) -> None:
    first, again = _key(study, generations), _key(study, generations)
    assert first["swapped"].tolist() == again["swapped"].tolist()
    assert _key(study, generations, 99)["swapped"].tolist() != first["swapped"].tolist()


@pytest.fixture(scope="module")
def packets(study: Study, generations, tmp_path_factory):
    outbox = tmp_path_factory.mktemp("outbox")
    key = _key(study, generations)
    files = write_packets(study, key, generations, outbox)
    return key, files, outbox


def test_packets_show_the_sealed_sides_and_nothing_else(study: Study, generations, packets):
    key, files, outbox = packets
    records = dict(zip(generations["item_id"], generations["record"], strict=True))
    sealed = key.set_index("token")
    for file in files.loc[files["kind"] == "reference", "file"]:
        for line in (outbox / file).read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            row = sealed.loc[entry["item"]]
            record = records[row["item_id"]]
            left, right = ("b", "a") if row["swapped"] else ("a", "b")
            assert entry["response_left"] == record[f"response_{left}"]
            assert entry["response_right"] == record[f"response_{right}"]
            assert set(entry) == {
                "item",
                "position",
                "task",
                "category",
                "prompt",
                "response_left",
                "response_right",
            }
    systems = {r["system_a"] for r in records.values()} | {r["system_b"] for r in records.values()}
    for file in files["file"]:
        text = (outbox / file).read_text(encoding="utf-8")
        assert not any(s in text for s in systems), file
        assert "swapped" not in text and "system_a" not in text
    assert verify_no_hidden_values(study, generations, files, outbox)[0] == []


@pytest.mark.parametrize(
    "leak",
    [
        lambda e, r: {**e, "swapped": True},  # the side itself
        lambda e, r: {**e, "left": "a"},  # the side under another name
        lambda e, r: {**e, "note": f"left is {r['system_a']}"},  # a system's name
    ],
)
def test_the_blinding_check_fails_when_a_side_or_a_system_leaks(
    study: Study, generations, packets, tmp_path: Path, leak
) -> None:
    key, files, outbox = packets
    records = dict(zip(generations["item_id"], generations["record"], strict=True))
    reference = files.loc[files["kind"] == "reference", "file"].iloc[0]
    copy = tmp_path / reference
    copy.parent.mkdir(parents=True)
    lines = (outbox / reference).read_text(encoding="utf-8").splitlines()
    entry = json.loads(lines[0])
    item_id = key.set_index("token").loc[entry["item"], "item_id"]
    lines[0] = json.dumps(leak(entry, records[item_id]))
    copy.write_text("\n".join(lines) + "\n", encoding="utf-8")
    problems, _ = verify_no_hidden_values(
        study, generations, files[files["file"] == reference], tmp_path
    )
    assert problems and reference in problems[0]


def _excess(pairs: list[tuple[str, str]], sides: np.ndarray) -> Counter:
    excess: Counter = Counter()
    for (a, b), swapped in zip(pairs, sides, strict=True):
        excess[b if swapped else a] += 1
        excess[a if swapped else b] -= 1
    return excess


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), max_size=40),
    st.integers(0, 2**32 - 1),
)
def test_balanced_sides_halve_the_pairs_and_no_exchange_evens_them_further(edges, seed) -> None:
    """Swapped and unswapped counts differ by at most one, and the sides are a local optimum:
    no exchange of an unswapped and a swapped pair lowers sum((left - right) ** 2)."""
    pairs = [(f"s{min(a, b)}", f"s{max(a, b) + 1}") for a, b in edges]
    sides = balanced_sides(pairs, np.random.default_rng(seed))
    assert abs(2 * int(sides.sum()) - len(pairs)) <= 1
    cost = sum(v * v for v in _excess(pairs, sides).values())
    for i in np.flatnonzero(~sides):
        for j in np.flatnonzero(sides):
            other = sides.copy()
            other[i], other[j] = True, False
            assert sum(v * v for v in _excess(pairs, other).values()) >= cost
