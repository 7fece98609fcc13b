"""The code location: every asset, check, job, schedule and sensor, and their resources."""

from __future__ import annotations

import dagster as dg

from assets.design import design_assets
from checks.design import design_checks
from resources import Raterlab

annotation_job = dg.define_asset_job(
    "annotation_job",
    selection=dg.AssetSelection.all(),
    description="The whole loop for one study (a partition): protocol to packets.",
    executor_def=dg.in_process_executor,
)

defs = dg.Definitions(
    assets=design_assets,
    asset_checks=design_checks,
    jobs=[annotation_job],
    resources={"raterlab": Raterlab()},
)
