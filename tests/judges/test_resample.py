"""The shared bootstrap draws: kept for the next caller, and the statistics on them are the
ones fresh draws give."""

from __future__ import annotations

import numpy as np

from raterlab.agreement import bootstrap
from raterlab.agreement.bootstrap import resample_counts
from raterlab.judges import resample


def test_kept_draws_are_the_fresh_draws_and_give_the_same_statistics() -> None:
    values = np.random.default_rng(0).normal(size=300)
    bootstrap.forget_draws()
    first = resample.run(300, [resample.mean_consumer(values)], 250, seed=9)[0]["mean"]
    again = resample.run(300, [resample.mean_consumer(values)], 250, seed=9)[0]["mean"]
    assert bootstrap._KEPT.hits >= 1
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
    monkeypatch.setattr(bootstrap, "CACHED_CELLS", 10)
    bootstrap.forget_draws()
    one = tuple(bootstrap.drawn_counts(50, 20, 1, 7))
    two = tuple(bootstrap.drawn_counts(50, 20, 1, 7))
    assert not bootstrap._KEPT.draws
    assert [c.shape for c in one] == [(7, 50), (7, 50), (6, 50)]
    assert all(
        (a == b).all() and (a.sum(axis=1) == 50).all() for a, b in zip(one, two, strict=True)
    )


def test_means_of_one_run_equal_each_mean_resampled_on_its_own() -> None:
    """The means of a run share one matrix product; each must still be the weighted mean of
    its own defined values, NaN (undefined units) skipped, beside a non-mean consumer."""
    rng = np.random.default_rng(3)
    columns = [rng.normal(size=400) for _ in range(4)]
    columns[1][rng.random(400) < 0.3] = np.nan
    columns[2][:] = np.nan
    consumers = [resample.mean_consumer(c) for c in columns]
    total = lambda counts: {"n": counts.sum(axis=1)}  # noqa: E731 - a non-mean consumer
    together = resample.run(400, [consumers[0], total, *consumers[1:]], 120, seed=4)
    alone = [resample.run(400, [resample.mean_consumer(c)], 120, seed=4)[0] for c in columns]
    for fused, single in zip([together[0], *together[2:]], alone, strict=True):
        np.testing.assert_allclose(
            fused["mean"].replicates, single["mean"].replicates, rtol=1e-12, equal_nan=True
        )
        np.testing.assert_allclose(
            fused["mean"].estimate, single["mean"].estimate, rtol=1e-12, equal_nan=True
        )
    assert (together[1]["n"].replicates == 400).all()
    assert np.isnan(together[3]["mean"].replicates).all()
    np.testing.assert_allclose(together[2]["mean"].estimate, np.nanmean(columns[1]))


def test_the_kept_draws_hold_at_most_their_budget(monkeypatch) -> None:
    """The oldest draws are let go once the kept ones pass :data:`CACHED_CELLS` bytes in
    all; a draw let go is drawn again, the same."""
    monkeypatch.setattr(bootstrap, "CACHED_CELLS", 3_500)
    bootstrap.forget_draws()
    first = bootstrap.drawn_counts(100, 20, 1, 7)
    bootstrap.drawn_counts(60, 20, 1, 7)
    assert list(bootstrap._KEPT.draws) == [(100, 20, 1, 7), (60, 20, 1, 7)]
    bootstrap.drawn_counts(50, 20, 2, 7)
    assert list(bootstrap._KEPT.draws) == [(60, 20, 1, 7), (50, 20, 2, 7)]
    assert bootstrap._KEPT.nbytes() <= 3_500
    again = bootstrap.drawn_counts(100, 20, 1, 7)
    assert again is not first
    assert all((a == b).all() for a, b in zip(first, again, strict=True))
    assert list(bootstrap._KEPT.draws) == [(50, 20, 2, 7), (100, 20, 1, 7)]
    bootstrap.forget_draws()
