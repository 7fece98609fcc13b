"""Dagster resources: where state lives, and access to studies and the warehouse."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

import dagster as dg
import duckdb
from pydantic import PrivateAttr

from raterlab import warehouse
from raterlab.design import load_or_create_secret
from raterlab.errors import PublishFailed, SecretMismatch
from raterlab.heap import freeze_heap
from raterlab.protocol import Study, load_study
from raterlab.publish import publish, publish_later, publish_pending
from raterlab.settings import Home, studies_dir


class Raterlab(dg.ConfigurableResource):
    """``RATERLAB_HOME`` (state) and the study folder, from the environment unless configured."""

    home: str = ""
    studies: str = ""
    _in_run: bool = PrivateAttr(default=False)

    def setup_for_execution(self, context: dg.InitResourceContext) -> None:
        """At the start of each run: :func:`raterlab.heap.freeze_heap`, the warehouse kept
        attached between the steps' connections (:func:`raterlab.warehouse.linger`), and
        the steps' gold tables published as the run ends (:meth:`publish`)."""
        freeze_heap()
        warehouse.linger()
        self._in_run = True

    def teardown_after_execution(self, context: dg.InitResourceContext) -> None:
        """At the end of each run, failed or not: the gold tables its steps wrote published
        (a failed publish is logged; the next run or command publishes them), and the
        warehouse let go at once (:func:`raterlab.warehouse.release`)."""
        self._in_run = False
        try:
            if self.paths.warehouse.exists():
                with self.warehouse() as con:
                    publish_pending(con, self.paths.published)
        except PublishFailed as exc:
            context.log.error(str(exc))
        finally:
            warehouse.release()

    def publish(self, con: duckdb.DuckDBPyConnection, tables: Iterable[str]) -> None:
        """Publish ``tables`` (``schema.name``; the gold ones are copied) over ``con``, a
        writable warehouse connection (:func:`raterlab.publish.publish`). Within a run they
        are only recorded as unpublished (:func:`raterlab.publish.publish_later`) and
        copied once, as the run ends: a run's steps published
        about 14 times, 50-90 ms each at 1,000 items, and researchers now see a run's tables
        together, never one step's new rows beside another's old ones."""
        if self._in_run:
            publish_later(con, tables)
        else:
            publish(con, self.paths.published, tables)

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
