"""The values a consensus row's ``status`` and ``method`` may take (the tables themselves are
declared in :mod:`raterlab.tables.consensus` and :mod:`raterlab.tables.adjudication`)."""

from __future__ import annotations

STATUSES = (
    "unanimous",
    "majority",
    "adjudicated",
    "tie_broken",
    "single",
    "model_override",
    "unresolved",
    "excluded",
)
"""Every status a consensus row may have."""

RESOLVED = ("unanimous", "majority", "adjudicated", "tie_broken", "single", "model_override")
"""Statuses that carry a value."""

METHODS = (
    "adjudicator",
    "majority",
    "median",
    "mean",
    "higher_confidence",
    "nearest_down",
    "nearest_up",
    "single_rating",
    "dawid_skene",
)
"""How a consensus value was reached (``NULL`` where there is no value); the three
``consensus.likert_between`` rules name a Likert median or mean settled onto the scale."""
