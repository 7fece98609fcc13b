"""Planning a study size before annotation: power for comparisons, units for agreement
intervals, human labels for prediction-powered estimates, and the precision a study's design
plans for its declared thresholds. The names below are imported when first used
(:mod:`raterlab.lazy`).

>>> from raterlab.planning import plan_comparison
>>> plan_comparison(effect_size=0.5, power_target=0.8, alpha=0.05, paired=True).n_pairs
34
"""

from raterlab.lazy import exports

__all__, __getattr__, __dir__ = exports(
    __name__,
    {
        "plan_comparison": "power",
        "plan_agreement": "agreement_units",
        "simulated_width": "agreement_units",
        "plan_judge": "judge_labels",
        "ppi_variance": "judge_labels",
        "planned_precision": "study_precision",
    },
)
