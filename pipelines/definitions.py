"""The code location: every asset, check, job, schedule and sensor, and their resources."""

import dagster as dg

from assets.agreement import agreement_assets
from assets.comparison import comparison_assets
from assets.consensus import consensus_assets
from assets.design import design_assets
from assets.ingest import ingest_assets
from assets.judges import judge_assets
from assets.metrics import metrics_assets
from assets.quality import quality_assets
from assets.report import report_assets
from checks.agreement import agreement_checks
from checks.consensus import consensus_checks
from checks.design import design_checks
from checks.ingest import ingest_checks
from checks.judges import judge_checks
from checks.quality import quality_checks
from checks.tables import structure_checks
from pipelines.jobs import agreement_job, annotation_job, ingest_job, packets_job
from pipelines.schedules import nightly_agreement
from pipelines.sensors import inbox_sensor
from resources import Raterlab

defs = dg.Definitions(
    assets=[
        *design_assets,
        *ingest_assets,
        *agreement_assets,
        *quality_assets,
        *consensus_assets,
        *metrics_assets,
        *judge_assets,
        *comparison_assets,
        *report_assets,
    ],
    asset_checks=[
        *design_checks,
        *ingest_checks,
        *agreement_checks,
        *quality_checks,
        *consensus_checks,
        *judge_checks,
        *structure_checks,
    ],
    jobs=[annotation_job, packets_job, ingest_job, agreement_job],
    schedules=[nightly_agreement],
    sensors=[inbox_sensor],
    resources={"raterlab": Raterlab()},
)
