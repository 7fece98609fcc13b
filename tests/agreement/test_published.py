"""Every coefficient against values published with worked examples (sources in published.py)."""

from __future__ import annotations

import pytest

from raterlab.agreement import (
    ICC_KINDS,
    brennan_prediger,
    category_agreement,
    cohen_kappa,
    conger_kappa,
    fleiss_kappa,
    gwet_ac1,
    gwet_ac2,
    icc,
    kendall_tau,
    krippendorff_alpha,
    light_kappa,
    percent_agreement,
    scott_pi,
    spearman_rho,
)
from tests.agreement import published as pub


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
def test_krippendorff_2011(level: str) -> None:
    alpha = krippendorff_alpha(pub.KRIPPENDORFF_2011, level=level)
    assert float(alpha) == pytest.approx(pub.KRIPPENDORFF_2011_ALPHA[level], abs=5e-4)
    assert alpha.n_units == 11  # unit 12 has a single value: not pairable


def test_hayes_krippendorff_2007_ordinal() -> None:
    alpha = krippendorff_alpha(pub.HAYES_KRIPPENDORFF_2007, level="ordinal")
    assert float(alpha) == pytest.approx(0.7598, abs=5e-5)


def test_fleiss_1971() -> None:
    kappa = fleiss_kappa(pub.FLEISS_1971)
    assert float(kappa) == pytest.approx(0.430, abs=5e-4)
    # statsmodels and R irr print 0.4302445 for the same data
    assert float(kappa) == pytest.approx(0.4302445, abs=1e-7)


def test_fleiss_1971_category_kappas() -> None:
    table = category_agreement(pub.FLEISS_1971)
    assert table["kappa"].tolist() == pytest.approx([0.245, 0.245, 0.520, 0.471, 0.566], abs=5e-4)


def test_light_kappa_irr_diagnoses() -> None:
    assert float(light_kappa(pub.FLEISS_1971)) == pytest.approx(0.459, abs=5e-4)


def test_cohen_kappa_sas() -> None:
    kappa = cohen_kappa(pub.SAS_AGREE)
    assert float(kappa) == pytest.approx(0.4842, abs=5e-5)
    assert kappa.se == pytest.approx(0.1380, abs=5e-5)
    weighted = cohen_kappa(pub.SAS_AGREE, weights="linear")
    assert float(weighted) == pytest.approx(0.4701, abs=5e-5)
    assert weighted.se == pytest.approx(0.1457, abs=5e-5)


def test_cohen_kappa_irrcac_abstractors() -> None:
    kappa = cohen_kappa(pub.ABSTRACTORS)
    assert float(kappa) == pytest.approx(0.7964094, abs=1e-7)
    assert kappa.se == pytest.approx(0.05891072, abs=1e-8)
    quadratic = cohen_kappa(pub.ABSTRACTORS, weights="quadratic")
    assert float(quadratic) == pytest.approx(0.8921569, abs=1e-7)
    assert quadratic.se == pytest.approx(0.03535151, abs=1e-8)


def test_two_rater_coefficients_irrcac_abstractors() -> None:
    assert float(scott_pi(pub.ABSTRACTORS)) == pytest.approx(0.7962397, abs=1e-7)
    assert float(gwet_ac1(pub.ABSTRACTORS)) == pytest.approx(0.8493305, abs=1e-7)
    assert float(gwet_ac2(pub.ABSTRACTORS, "quadratic")) == pytest.approx(0.9402369, abs=1e-7)
    assert float(brennan_prediger(pub.ABSTRACTORS)) == pytest.approx(0.835, abs=1e-9)
    assert float(krippendorff_alpha(pub.ABSTRACTORS)) == pytest.approx(0.7972585, abs=1e-7)
    assert float(percent_agreement(pub.ABSTRACTORS)) == pytest.approx(0.89, abs=1e-9)


def test_irrcac_raw4raters() -> None:
    ratings = pub.CAC_RAW4RATERS
    expected = [  # (result, estimate, standard error), irrCAC README
        (percent_agreement(ratings), 0.8181818, 0.12561),
        (gwet_ac1(ratings), 0.77544, 0.14295),
        (fleiss_kappa(ratings), 0.76117, 0.15302),
        (brennan_prediger(ratings), 0.77273, 0.14472),
    ]
    for result, estimate, se in expected:
        assert float(result) == pytest.approx(estimate, abs=5e-6), result.coefficient
        assert result.se == pytest.approx(se, abs=5e-6), result.coefficient
    conger = conger_kappa(ratings)
    assert float(conger) == pytest.approx(0.76282, abs=5e-6)
    assert conger.expected == pytest.approx(0.2334252, abs=1e-7)
    assert float(krippendorff_alpha(ratings)) == pytest.approx(0.74342, abs=5e-6)


def test_gwet_ac2_irrcac_raw4raters() -> None:
    # weighting vignette: quadratic AC2 0.914 (pa 0.9753788, pe 0.7137044, se 0.10396)
    ac2 = gwet_ac2(pub.CAC_RAW4RATERS, "quadratic")
    assert float(ac2) == pytest.approx(0.914, abs=5e-4)
    assert (ac2.observed, ac2.expected) == pytest.approx((0.9753788, 0.7137044), abs=1e-7)
    assert ac2.se == pytest.approx(0.10396, abs=5e-6)
    # irrCAC output for linear and ordinal weights (as asserted by afergadis/irrCAC's tests)
    assert float(gwet_ac2(pub.CAC_RAW4RATERS, "linear")) == pytest.approx(0.859, abs=5e-4)
    assert float(gwet_ac2(pub.CAC_RAW4RATERS, "ordinal")) == pytest.approx(0.899, abs=5e-4)


def test_irrcac_distrib_6raters() -> None:
    ratings = pub.DISTRIB_6RATERS
    ac1 = gwet_ac1(ratings)
    assert (float(ac1), ac1.se) == pytest.approx((0.4448007, 0.08418757), abs=1e-7)
    kappa = fleiss_kappa(ratings)
    assert (float(kappa), kappa.se) == pytest.approx((0.4139265, 0.08119291), abs=1e-7)
    bp = brennan_prediger(ratings)
    assert (float(bp), bp.se) == pytest.approx((0.4388889, 0.08312142), abs=1e-7)
    assert float(krippendorff_alpha(ratings)) == pytest.approx(0.4204384, abs=1e-7)


@pytest.mark.parametrize("kind", ICC_KINDS)
def test_shrout_fleiss_1979(kind: str) -> None:
    result = icc(pub.SHROUT_FLEISS_1979, kind)
    assert float(result) == pytest.approx(pub.SHROUT_FLEISS_1979_ICC[kind], abs=5e-3)


def test_rank_correlations_hollander_wolfe() -> None:
    assert float(kendall_tau(pub.TUNA_X, pub.TUNA_Y)) == pytest.approx(0.4444444, abs=1e-7)
    assert float(spearman_rho(pub.TUNA_X, pub.TUNA_Y)) == pytest.approx(0.6, abs=1e-12)
