"""The code location: the assets and checks of every stage, loaded from the ``assets``
package; the jobs, schedules and sensors, loaded from their modules; and their resources."""

import warnings

import dagster as dg

import assets
from pipelines import jobs, schedules, sensors
from resources import Raterlab

# Loading jobs, schedules and sensors from modules is a preview feature in Dagster 1.13 (the
# assets' and checks' loaders are stable); we rely on it knowingly, so its warning is not news.
warnings.filterwarnings(
    "ignore", message="Function `load_definitions_from_modules`", category=dg.PreviewWarning
)

defs = dg.Definitions.merge(
    dg.Definitions(
        assets=dg.load_assets_from_package_module(assets),
        asset_checks=dg.load_asset_checks_from_package_module(assets),
        resources={"raterlab": Raterlab()},
    ),
    dg.load_definitions_from_modules([jobs, schedules, sensors]),
)
