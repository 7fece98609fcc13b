"""Jobs: the whole loop, packets only, ingest and what follows it, agreement only."""

import dagster as dg

from assets.partitions import study_partitions

_MAIN_PACKETS = dg.AssetSelection.assets("main_packets")
WRITES_WAREHOUSE = {"raterlab/warehouse": "write"}
"""Tag of every job that writes the warehouse; the instance config (``pipelines/dagster.yaml``)
lets one run with it be in progress at a time and queues the others."""

annotation_job = dg.define_asset_job(
    "annotation_job",
    selection=dg.AssetSelection.all(),
    partitions_def=study_partitions,
    description="The whole loop for one study: packets, ingest of returned files, agreement, "
    "rater quality, adjudication and consensus. Main-round packets wait for the pilot gate.",
    executor_def=dg.in_process_executor,
    tags=WRITES_WAREHOUSE,
)

packets_job = dg.define_asset_job(
    "packets_job",
    selection=dg.AssetSelection.groups("design") - _MAIN_PACKETS,
    partitions_def=study_partitions,
    description="From the study file to the pilot packets in the outbox.",
    executor_def=dg.in_process_executor,
    tags=WRITES_WAREHOUSE,
)

ingest_job = dg.define_asset_job(
    "ingest_job",
    selection=dg.AssetSelection.groups("ingest").downstream(),
    partitions_def=study_partitions,
    description="Ingest every pending file in the study's inbox, then refresh what depends on "
    "the labels (and release the main round when the pilot gate passes).",
    executor_def=dg.in_process_executor,
    tags=WRITES_WAREHOUSE,
)

agreement_job = dg.define_asset_job(
    "agreement_job",
    selection=dg.AssetSelection.groups("agreement"),
    partitions_def=study_partitions,
    description="Recompute agreement from the labels in the warehouse.",
    executor_def=dg.in_process_executor,
    tags=WRITES_WAREHOUSE,
)
