"""Simulated annotators: latent truth per item, rater profiles, filled returns with the
spreadsheet quirks and mistakes real ones have, and a record of everything planted.

Pure Python (no Dagster): :func:`simulate` fills a study's outbox packets into its inbox.
"""

from raterlab.simulate.profiles import BASE, PRIORITY, Profile, assign_profiles, profile_names
from raterlab.simulate.run import (
    ROUNDS,
    SimulationError,
    Summary,
    returned_name,
    simulate,
    simulations_dir,
)
from raterlab.simulate.truth import Truth, draw_truth, repair, violations
from raterlab.simulate.variants import MISTAKES, VARIANTS

__all__ = [
    "BASE",
    "MISTAKES",
    "PRIORITY",
    "ROUNDS",
    "VARIANTS",
    "Profile",
    "SimulationError",
    "Summary",
    "Truth",
    "assign_profiles",
    "draw_truth",
    "profile_names",
    "repair",
    "returned_name",
    "simulate",
    "simulations_dir",
    "violations",
]
