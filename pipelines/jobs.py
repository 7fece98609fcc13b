"""Jobs: the whole loop, packets only, and ingest only."""

import dagster as dg

from assets.partitions import study_partitions

annotation_job = dg.define_asset_job(
    "annotation_job",
    selection=dg.AssetSelection.all(),
    partitions_def=study_partitions,
    description="The whole loop for one study: protocol, packets, ingest of returned files.",
    executor_def=dg.in_process_executor,
)

packets_job = dg.define_asset_job(
    "packets_job",
    selection=dg.AssetSelection.groups("design"),
    partitions_def=study_partitions,
    description="From the study file to blinded packets in the outbox.",
    executor_def=dg.in_process_executor,
)

ingest_job = dg.define_asset_job(
    "ingest_job",
    selection=dg.AssetSelection.groups("ingest"),
    partitions_def=study_partitions,
    description="Ingest every pending file in the study's inbox.",
    executor_def=dg.in_process_executor,
)
