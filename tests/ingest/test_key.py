"""The sealed key's index finds exactly the tokens a dictionary would, and each packet's rows."""

from __future__ import annotations

import numpy as np
import polars as pl

from raterlab.ingest.key import SealedKey


def _key(tokens: list[str]) -> pl.DataFrame:
    n = len(tokens)
    return pl.DataFrame(
        {
            "token": tokens,
            "annotator_id": [f"a{i % 3}" for i in range(n)],
            "batch": ["main-01" if i % 2 else "main-02" for i in range(n)],
            "task": ["t"] * n,
            "item_id": [f"i{i}" for i in range(n)],
        }
    )


def test_find_agrees_with_a_dictionary_on_known_unknown_and_edge_tokens() -> None:
    rng = np.random.default_rng(1)
    tokens = [f"{rng.integers(10**9):x}" for _ in range(500)]
    key = SealedKey(_key(tokens).to_arrow())
    asked = [*rng.choice(tokens, 200), "", "0", "zzzzzzzzzz", "ffffffffff", tokens[0] + "x"]
    found = key.find(pl.Series(asked, dtype=pl.String)).to_list()
    for token, at in zip(asked, found, strict=True):
        if token in tokens:
            assert key.rows["token"][at].as_py() == token
        else:
            assert at is None


def test_an_empty_key_finds_nothing() -> None:
    key = SealedKey(_key([]).cast(pl.String).to_arrow())
    assert key.find(pl.Series(["a", "b"])).to_list() == [None, None]


def test_packet_rows_are_the_rows_of_the_packets_asked_for() -> None:
    key = SealedKey(_key([f"tok{i:03d}" for i in range(60)]).to_arrow())
    asked = pl.DataFrame({"annotator_id": ["a1", "a2"], "batch": ["main-01", "x"], "task": "t"})
    rows = pl.from_arrow(key.rows.take(key.packet_rows(asked)))
    expected = pl.from_arrow(key.rows).filter(
        (pl.col("annotator_id") == "a1") & (pl.col("batch") == "main-01")
    )
    assert sorted(rows["token"]) == sorted(expected["token"])


def test_a_run_of_the_key_in_its_order_is_found_as_any_other_tokens() -> None:
    """A file returned in its packet's order is a run of the key: found without the join,
    with the same positions; a run with one token changed, moved or missing is not one."""
    tokens = [f"t{i:04d}" for i in range(300)]
    key = SealedKey(_key(tokens).to_arrow())
    run = tokens[40:140]
    swapped = [*run[:10], run[11], run[10], *run[12:]]
    altered = [*run[:50], "nope", *run[51:]]
    past_the_end = [*tokens[250:], "t0000"]
    for asked in (run, tokens, swapped, altered, past_the_end, run[:1]):
        found = key.find(pl.Series(asked, dtype=pl.String)).to_list()
        assert found == [tokens.index(t) if t in tokens else None for t in asked]
