"""Behaviour profiles of simulated annotators, and which annotator gets which.

A profile says how a rater departs from the latent truth:

========================  =====================================================================
``good``                  small noise (Likert sd 0.4, 3% binary/categorical flips), on time
``lenient``               Likert shifted up by 0.7 points, binary biased to 1 (P(0->1) = 0.15)
``severe``                Likert shifted down by 0.7 points, binary biased to 0 (P(1->0) = 0.15)
``rushed``                every time below ``design.time_floor_s``, Likert sd 0.9, 15% flips,
                          fails attention checks, overconfident, often ignores the guide's
                          edge cases
``inconsistent``          a little noisier than good, and every hidden duplicate copy differs
                          from the first copy by 2+ Likert points / a flipped label
``position_biased``       as good, but on a pair answers ``left`` half the time whatever the
                          responses (so about three answers in four are ``left``)
========================  =====================================================================

Assignment rule (deterministic, from the order of ``design.annotators``): the panel starts
with at least two good raters (a problem rater shows against good peers; with fewer, agreement
cannot tell who drifts), ``1 + (n - 1) // 4`` of them in large panels and at least ``n - 4``;
the remaining annotators, in list order, take the problem profiles in the fixed priority
order ``lenient, rushed, inconsistent, severe``. The failing profiles (rushed, inconsistent)
never exceed half the panel, so at least half the annotators rate faithfully (good, or
consistently shifted)::

    1 annotator:  good
    2 annotators: good, good
    3 annotators: good, good, lenient
    4 annotators: good, good, lenient, rushed
    5 annotators: good, good, lenient, rushed, inconsistent
    6 annotators: good, good, lenient, rushed, inconsistent, severe
    9 annotators: good x 5, lenient, rushed, inconsistent, severe

In a study with a pairwise task, ``lenient`` (a shift of scores, which a choice between two
responses does not have) is replaced by ``position_biased``: its panel of 5 is good, good,
position_biased, rushed, inconsistent.

Each annotator's parameters get a small seeded jitter (speed, noise), recorded with the
profile so later stages can check what they recover. Every profile answers attention checks
right (except rushed) and follows the study's ``edge_cases`` most of the time.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace

from raterlab.simulate.seeding import rng_for

PRIORITY = ("lenient", "rushed", "inconsistent", "severe")
FAILING = ("rushed", "inconsistent")


@dataclass(frozen=True)
class Profile:
    """How one simulated annotator rates."""

    name: str
    likert_bias: float = 0.0
    likert_sd: float = 0.4
    to_one: float = 0.03
    """P(a true 0 is written as 1)."""
    to_zero: float = 0.03
    """P(a true 1 is written as 0)."""
    categorical_flip: float = 0.03
    speed: float = 1.0
    """Multiplies the time an item takes (below 1: faster)."""
    rushed: bool = False
    """Every time is below the study's time floor."""
    attention_fail: float = 0.0
    """P(an attention check is answered against its known answer); at least one per packet
    fails when positive."""
    duplicate_gap: bool = False
    """Hidden duplicate copies are answered 2+ Likert points apart, labels flipped."""
    confidence: tuple[float, float, float] = (0.07, 0.38, 0.55)
    """P(low), P(medium), P(high)."""
    skip_rate: float = 0.02
    """P(``skip``) on a field that allows it, on an ordinary item."""
    comment_rate: float = 0.2
    """P(an optional text field is filled anyway)."""
    follows_guide: float = 0.95
    """P(an answer the study's ``edge_cases`` fix is given as the guide says)."""
    position_bias: float = 0.0
    """P(a pair is answered ``left`` whatever its responses)."""
    pair_sd: float = 0.5
    """Noise (sd) on a pair's latent preference as this rater perceives it."""

    def parameters(self) -> dict:
        return {k: v for k, v in asdict(self).items() if k != "name"}


BASE: dict[str, Profile] = {
    "good": Profile("good"),
    "lenient": Profile("lenient", likert_bias=0.6, to_one=0.12, to_zero=0.01, follows_guide=0.9),
    "severe": Profile("severe", likert_bias=-0.7, to_one=0.01, to_zero=0.15),
    "rushed": Profile(
        "rushed",
        likert_sd=0.9,
        to_one=0.15,
        to_zero=0.15,
        categorical_flip=0.15,
        speed=0.3,
        rushed=True,
        attention_fail=0.8,
        pair_sd=1.2,
        confidence=(0.02, 0.18, 0.80),
        skip_rate=0.0,
        comment_rate=0.03,
        follows_guide=0.3,
    ),
    "inconsistent": Profile(
        "inconsistent",
        likert_sd=0.55,
        to_one=0.06,
        to_zero=0.06,
        categorical_flip=0.06,
        duplicate_gap=True,
        confidence=(0.12, 0.45, 0.43),
        follows_guide=0.85,
        pair_sd=0.7,
    ),
    "position_biased": Profile("position_biased", position_bias=0.5),
}


def profile_names(n: int, pairwise: bool = False) -> list[str]:
    """Profile names for a panel of ``n`` annotators, in list order (see the module doc);
    ``pairwise``: the study has a pairwise task."""
    n_good = min(n, max(2, 1 + (n - 1) // 4, n - len(PRIORITY)))
    names = ["good"] * n_good + list(PRIORITY[: n - n_good])
    return [("position_biased" if pairwise and p == "lenient" else p) for p in names]


def assign_profiles(
    annotators: list[str], seed: tuple[int, ...], pairwise: bool = False
) -> dict[str, Profile]:
    """Each annotator's profile, with a small seeded jitter of speed and noise."""
    out = {}
    names = profile_names(len(annotators), pairwise)
    for annotator, name in zip(annotators, names, strict=True):
        base = BASE[name]
        rng = rng_for(seed, "profile", annotator)
        jitter = rng.uniform(0.85, 1.2)
        out[annotator] = replace(
            base,
            speed=round(base.speed * rng.uniform(0.8, 1.25), 3),
            likert_sd=round(base.likert_sd * jitter, 3),
        )
    return out


def after_discussion(profile: Profile, rounds: int) -> Profile:
    """The rater after ``rounds`` failed pilots were discussed and the guide revised (the
    protocol's re-pilot): Likert noise and label flips divided by ``1 + rounds``; a bias stays."""
    if rounds <= 0:
        return profile
    factor = 1 + rounds
    return replace(
        profile,
        likert_sd=round(profile.likert_sd / factor, 3),
        to_one=profile.to_one / factor,
        to_zero=profile.to_zero / factor,
        categorical_flip=profile.categorical_flip / factor,
    )


def profile_frame_rows(profiles: dict[str, Profile]) -> list[dict]:
    """Rows of ``staging.sim_profiles``: annotator_id, profile, parameters (a dict)."""
    return [
        {"annotator_id": a, "profile": p.name, "parameters": p.parameters()}
        for a, p in profiles.items()
    ]
