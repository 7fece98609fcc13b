"""The shared bootstrap draws: kept for the next caller, and the statistics on them are the
ones fresh draws give."""

from __future__ import annotations

import numpy as np

from raterlab.agreement.bootstrap import resample_counts
from raterlab.judges import resample


def test_kept_draws_are_the_fresh_draws_and_give_the_same_statistics() -> None:
    values = np.random.default_rng(0).normal(size=300)
    resample._cached_draw.cache_clear()
    first = resample.run(300, [resample.mean_consumer(values)], 250, seed=9)[0]["mean"]
    again = resample.run(300, [resample.mean_consumer(values)], 250, seed=9)[0]["mean"]
    assert resample._cached_draw.cache_info().hits >= 1
    rng = np.random.default_rng(9)
    step = resample.CHUNK_CELLS // 300
    fresh = np.concatenate(
        [
            resample_counts(rng.integers(0, 300, size=(min(step, 250 - s), 300)), 300)
            @ values
            / 300
            for s in range(0, 250, step)
        ]
    )
    np.testing.assert_array_equal(first.replicates, again.replicates)
    np.testing.assert_allclose(first.replicates, fresh, rtol=1e-12, atol=1e-15)
    assert first.estimate == again.estimate


def test_a_draw_too_large_to_keep_is_drawn_each_time(monkeypatch) -> None:
    monkeypatch.setattr(resample, "CACHED_CELLS", 10)
    resample._cached_draw.cache_clear()
    one = resample.drawn_counts(50, 20, 1, 7)
    two = resample.drawn_counts(50, 20, 1, 7)
    assert resample._cached_draw.cache_info().currsize == 0
    assert [c.shape for c in one] == [(7, 50), (7, 50), (6, 50)]
    assert all(
        (a == b).all() and (a.sum(axis=1) == 50).all() for a, b in zip(one, two, strict=True)
    )
