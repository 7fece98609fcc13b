"""Asset checks, partitioned by study like the assets they check."""

import warnings

import dagster as dg

# Partitioned asset checks are a preview feature in Dagster 1.13; we rely on it knowingly (a
# check's status must be that of the study the PI looks at), so its warning is not news.
warnings.filterwarnings(
    "ignore", message="Specifying a partitions_def on an AssetCheckSpec", category=dg.PreviewWarning
)
