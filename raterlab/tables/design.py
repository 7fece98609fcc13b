"""Tables of the study design that researchers read (``gold.tier_costs``)."""

from __future__ import annotations

from raterlab.tables import fields as f
from raterlab.tables.model import Column, Table

TIER_COSTS = Table(
    "gold.tier_costs",
    "What each routing tier costs to label, from the study's `tiers:` (`raterlab/design/cost.py`).",
    grain="routing tier, and an `all` row",
    written_by="routed_items",
    columns=(
        f.STUDY,
        f.TIER.described("The routing tier, or `all`."),
        f.N.described("Sampled items routed to the tier."),
        Column("share", f.DOUBLE, "`n` over all sampled items."),
        Column(
            "cost_per_case",
            f.DOUBLE,
            "The tier's `cost_per_case`; for `all`, the tier costs weighted by the routed shares.",
        ),
        Column("cost", f.DOUBLE, "`n * cost_per_case`."),
        Column("cases_per_labeler_day", f.DOUBLE, "The tier's labeler throughput."),
        Column("labeler_days", f.DOUBLE, "`n / cases_per_labeler_day`."),
        Column("noise_floor", f.DOUBLE, "The tier's declared `noise_floor`."),
    ),
    key=("study", "tier"),
    details="Written with `staging.routed_items` when the study declares `tiers:`; NaN where "
    "the study declares no figure.",
)

TABLES = (TIER_COSTS,)
