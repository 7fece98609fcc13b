"""The names the command line offers before it computes anything: levels of measurement and
coefficient names. Importing this loads neither NumPy nor pandas, so ``raterlab agree
--help`` starts at once."""

LEVELS = ("nominal", "ordinal", "interval", "ratio")
"""Levels of measurement (Krippendorff's), from least to most assumed of the values."""

COEFFICIENT_NAMES = (
    "percent_agreement",
    "cohen_kappa",
    "scott_pi",
    "fleiss_kappa",
    "conger_kappa",
    "light_kappa",
    "krippendorff_alpha",
    "gwet_ac1",
    "gwet_ac2",
    "brennan_prediger",
    "icc",
)
"""The coefficients :func:`raterlab.agreement.by_field.agreement_table` computes (its
``COEFFICIENTS`` has one entry per name, in this order)."""
