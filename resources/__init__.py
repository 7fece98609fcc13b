"""Dagster resources: where state lives, and access to studies and the warehouse."""

from __future__ import annotations

import atexit
import gc
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import dagster as dg
import duckdb

from raterlab import warehouse
from raterlab.design import load_or_create_secret
from raterlab.errors import SecretMismatch
from raterlab.protocol import Study, load_study
from raterlab.settings import Home, studies_dir


class Raterlab(dg.ConfigurableResource):
    """``RATERLAB_HOME`` (state) and the study folder, from the environment unless configured."""

    home: str = ""
    studies: str = ""

    def setup_for_execution(self, context: dg.InitResourceContext) -> None:
        """At the start of each run: :func:`freeze_heap`."""
        freeze_heap()

    @property
    def paths(self) -> Home:
        return Home(Path(self.home).resolve()) if self.home else Home.from_env()

    @property
    def studies_path(self) -> Path:
        return Path(self.studies).resolve() if self.studies else studies_dir()

    def study(self, name: str) -> Study:
        return load_study(self.studies_path / f"{name}.yaml")

    def blinding_secret(self) -> bytes:
        """The blinding secret, checked against the sealed packets; a lost or changed one
        fails the step with its message (how to recover), not a traceback."""
        with self.warehouse() as con:
            try:
                return load_or_create_secret(self.paths.blinding_secret, con)
            except SecretMismatch as exc:
                raise dg.Failure(description=str(exc), allow_retries=False) from None

    @contextmanager
    def warehouse(self, read_only: bool = False) -> Iterator[duckdb.DuckDBPyConnection]:
        with warehouse.connect(self.paths.warehouse, read_only=read_only) as con:
            yield con


YOUNG_OBJECTS = 10_000
"""Allocations (less deallocations) between two collections of the youngest generation
(Python's default: 700)."""


def freeze_heap() -> None:
    """Collect the garbage, then freeze what is left (:func:`gc.freeze`), so that Python's full
    collections pass it over from now on; and collect the youngest generation every
    :data:`YOUNG_OBJECTS` allocations, not every 700.

    What a run's process holds by then is mostly the code (modules, Dagster's definitions, the
    libraries the steps import when first used: about 500,000 objects after a run), and it
    lives as long as the process; every full collection walked all of it (14 in a 1,000-item
    study loop, 0.2-0.5 s each: 3.6 s of a 41 s loop). Objects frozen are still freed when
    nothing refers to them; only a reference cycle among them would wait for the process to
    end. Unfrozen at exit, so that the interpreter's last collection frees them as before
    (nanobind, which DuckDB is built with, reports objects left over)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_OBJECTS, *gc.get_threshold()[1:])


atexit.register(gc.unfreeze)
