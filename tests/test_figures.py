"""Figures are drawn again only when what they show changes (raterlab.figures)."""

from __future__ import annotations

import pandas as pd
import pytest
from matplotlib.figure import Figure

from raterlab import figures
from raterlab.comparison.plot import comparison_plot


def _table(diff: float = 0.3) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "task": ["t", "t"],
            "field": ["score", "score"],
            "level": ["b", "c"],
            "reference": ["a", "a"],
            "slice": ["all", "all"],
            "mean_diff": [diff, -0.1],
            "mean_diff_low": [diff - 0.2, -0.3],
            "mean_diff_high": [diff + 0.2, 0.1],
            "p_holm": [0.01, 0.6],
        }
    )


@pytest.fixture
def saves(monkeypatch) -> list:
    """The paths figures are drawn to, in a process that has drawn nothing yet."""
    monkeypatch.setattr(figures, "_SAVED", {})
    calls: list = []
    original = Figure.savefig

    def counting(self, *args, **kwargs):
        calls.append(args[0])
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", counting)
    return calls


def test_same_inputs_leave_the_file_as_it_is(tmp_path, saves):
    path = tmp_path / "plot.png"
    assert comparison_plot("Study", _table(), path) == path
    first = path.read_bytes()
    assert comparison_plot("Study", _table(), path) == path
    assert len(saves) == 1
    assert path.read_bytes() == first


@pytest.mark.parametrize(
    "change", [lambda: ("Study", _table(0.5)), lambda: ("Other title", _table())]
)
def test_changed_inputs_draw_again(tmp_path, saves, change):
    path = tmp_path / "plot.png"
    comparison_plot("Study", _table(), path)
    comparison_plot(*change(), path)
    assert len(saves) == 2


def test_a_file_without_the_digest_is_drawn_again(tmp_path, saves):
    path = tmp_path / "plot.png"
    path.write_bytes(b"not a png")
    comparison_plot("Study", _table(), path)
    assert len(saves) == 1
    assert figures.unchanged(path, figures.digest("raterlab.comparison.plot", "Study", _table()))


def test_digest_tells_frames_apart_by_values_types_and_order():
    base = figures.digest(__name__, pd.DataFrame({"x": [1, 2]}))
    assert base == figures.digest(__name__, pd.DataFrame({"x": [1, 2]}))
    assert base != figures.digest(__name__, pd.DataFrame({"x": [2, 1]}))
    assert base != figures.digest(__name__, pd.DataFrame({"x": [1.0, 2.0]}))
    assert base != figures.digest(__name__, pd.DataFrame({"y": [1, 2]}))
    lists = pd.DataFrame({"x": [[1], [2]]})
    assert figures.digest(__name__, lists) != figures.digest(
        __name__, pd.DataFrame({"x": [[1], [3]]})
    )


def test_the_same_figure_at_another_place_is_copied_not_drawn(tmp_path, saves):
    report, export = tmp_path / "reports" / "plot.png", tmp_path / "exports" / "plot.png"
    comparison_plot("Study", _table(), report)
    comparison_plot("Study", _table(), export)
    assert len(saves) == 1
    assert export.read_bytes() == report.read_bytes()
    report.write_bytes(b"edited by hand")
    comparison_plot("Study", _table(), tmp_path / "third.png")
    assert len(saves) == 2


def test_the_comparison_read_back_from_the_warehouse_is_the_same_figure(tmp_path, saves):
    computed = pd.concat([_table(), _table().assign(mean_diff=None)], ignore_index=True)
    stored = computed.astype({c: "string[pyarrow]" for c in ("task", "field", "level")})
    stored = stored.iloc[::-1].iloc[::-1].set_axis(range(10, 14))
    comparison_plot("Study", computed, tmp_path / "reports" / "plot.png")
    comparison_plot("Study", stored, tmp_path / "exports" / "plot.png")
    assert len(saves) == 1
