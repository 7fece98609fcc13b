"""Simulated annotators: latent truth per item, rater profiles, filled returns with the
spreadsheet quirks and mistakes real ones have, and a record of everything planted.

Pure Python (no Dagster): :func:`simulate` fills a study's outbox packets into its inbox.
"""

from raterlab.lazy import exports

__all__, __getattr__, __dir__ = exports(
    __name__,
    {
        "BASE": "profiles",
        "PRIORITY": "profiles",
        "Profile": "profiles",
        "assign_profiles": "profiles",
        "profile_names": "profiles",
        "ROUNDS": "names",
        "SimulationError": "run",
        "Summary": "run",
        "simulate": "run",
        "simulations_dir": "run",
        "Truth": "truth",
        "draw_truth": "truth",
        "repair": "truth",
        "violations": "truth",
        "MISTAKES": "variants",
        "VARIANTS": "variants",
    },
)
