"""One partition per study file in the studies folder."""

from __future__ import annotations

import dagster as dg

from raterlab.protocol import discover_studies
from raterlab.settings import studies_dir

study_partitions = dg.StaticPartitionsDefinition(sorted(discover_studies(studies_dir())))
