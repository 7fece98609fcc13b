"""The ordinary ratings: the one rule every reader of ratings, keys and assignments applies."""

from __future__ import annotations

import pandas as pd

from raterlab.design.kinds import ordinary


def test_only_first_copies_of_ordinary_items() -> None:
    rows = pd.DataFrame(
        {
            "kind": ["item", "duplicate", "attention", "calibration", "item"],
            "copy": [0, 1, 0, 0, 1],
        }
    )
    assert ordinary(rows).tolist() == [True, False, False, False, False]


def test_copy_stored_as_text_and_an_empty_frame() -> None:
    rows = pd.DataFrame({"kind": ["item", "item", "duplicate"], "copy": ["0", "1", "1"]})
    assert ordinary(rows).tolist() == [True, False, False]
    empty = pd.DataFrame({"kind": [], "copy": []}, dtype=object)
    assert ordinary(empty).empty
