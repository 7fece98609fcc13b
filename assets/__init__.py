"""The Dagster assets of a study and their checks, side by side: one module per stage
(``design``, ``ingest``, ``agreement``, ``quality``, ``consensus``, ``metrics``, ``judges``,
``comparison``, ``report``) holds the stage's assets and the checks on them; ``tables`` adds
the structural check of every declared gold table. The code location loads them from this
package (``pipelines/definitions.py``). The shape every asset shares is
:func:`assets.study_asset.study_asset`; the checks are partitioned by study like the assets."""

import warnings

import dagster as dg

# Partitioned asset checks are a preview feature in Dagster 1.13; we rely on it knowingly (a
# check's status must be that of the study the PI looks at), so its warning is not news.
warnings.filterwarnings(
    "ignore", message="Specifying a partitions_def on an AssetCheckSpec", category=dg.PreviewWarning
)
