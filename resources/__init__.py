"""Dagster resources: where state lives, and access to studies and the warehouse."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import dagster as dg
import duckdb

from raterlab import warehouse
from raterlab.design import load_or_create_secret
from raterlab.errors import SecretMismatch
from raterlab.heap import freeze_heap
from raterlab.protocol import Study, load_study
from raterlab.settings import Home, studies_dir


class Raterlab(dg.ConfigurableResource):
    """``RATERLAB_HOME`` (state) and the study folder, from the environment unless configured."""

    home: str = ""
    studies: str = ""

    def setup_for_execution(self, context: dg.InitResourceContext) -> None:
        """At the start of each run: :func:`raterlab.heap.freeze_heap`, and the warehouse
        kept attached between the steps' connections (:func:`raterlab.warehouse.linger`)."""
        freeze_heap()
        warehouse.linger()

    def teardown_after_execution(self, context: dg.InitResourceContext) -> None:
        """At the end of each run: the warehouse let go at once
        (:func:`raterlab.warehouse.release`)."""
        warehouse.release()

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
