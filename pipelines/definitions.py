"""The code location: every asset, check, job, schedule and sensor, and their resources."""

import dagster as dg

from assets.design import design_assets
from assets.ingest import ingest_assets
from checks.design import design_checks
from checks.ingest import ingest_checks
from pipelines.jobs import annotation_job, ingest_job, packets_job
from pipelines.sensors import inbox_sensor
from resources import Raterlab

defs = dg.Definitions(
    assets=[*design_assets, *ingest_assets],
    asset_checks=[*design_checks, *ingest_checks],
    jobs=[annotation_job, packets_job, ingest_job],
    sensors=[inbox_sensor],
    resources={"raterlab": Raterlab()},
)
