"""The shape every asset of a study shares, said once.

:func:`study_asset` declares the asset (one partition per study, its group, upstream assets,
kinds, and the column schema of the tables it writes) and calls its body with a
:class:`StudyStep`: the study and the bookkeeping around the body's computation. A body
reads its inputs (:meth:`StudyStep.frame`), asks whether they are those its tables were
written from (:meth:`StudyStep.unchanged`, then :meth:`StudyStep.skipped`), computes with
raterlab's functions, writes and publishes its tables (:meth:`StudyStep.write`) and returns
its metadata.
"""

import inspect
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import dagster as dg
import duckdb
import pandas as pd

from assets.frames import generations_text, optional_frame, study_frame
from assets.memo import unchanged
from assets.partitions import study_partitions
from assets.tables import create_tables, structure_results, structure_specs, table_metadata
from raterlab import memo
from raterlab import warehouse as wh
from raterlab.heap import memory_returned
from raterlab.protocol import Study
from raterlab.publish import publish
from raterlab.tables import written_by
from resources import Raterlab


@dataclass
class StudyStep:
    """One materialization of the asset ``name`` for ``study``. ``inputs`` is the fingerprint
    of what the body read, once :meth:`unchanged` has computed it."""

    context: dg.AssetExecutionContext
    raterlab: Raterlab
    study: Study
    name: str
    inputs: str | None = None
    tables_inputs: str | None = None
    """The fingerprint of the study's tables before this asset, once
    :meth:`warehouse_unchanged` has computed it (recorded under :attr:`tables_step`)."""
    tables_same: bool = False
    """Whether :attr:`tables_inputs` is the one recorded."""

    @property
    def tables_step(self) -> str:
        """The name :attr:`tables_inputs` is recorded under: ``<asset>/tables``."""
        return f"{self.name}/tables"

    @property
    def reports(self) -> Path:
        """The study's report folder, ``reports/<study>/``."""
        return self.raterlab.paths.reports / self.study.name

    def frame(self, table: str, json_columns: tuple[str, ...] = ()) -> pd.DataFrame:
        """The study's rows of ``table`` (:func:`assets.frames.study_frame`)."""
        return study_frame(self.raterlab, table, self.study.name, json_columns)

    def optional_frame(self, table: str) -> pd.DataFrame | None:
        """The study's rows of ``table``, or ``None`` before it exists."""
        return optional_frame(self.raterlab, table, self.study.name)

    def generations_text(self) -> pd.DataFrame:
        """The study's ``raw.generations``, JSON as text (for a fingerprint)."""
        return generations_text(self.raterlab, self.study.name)

    def unchanged(self, *parts: object) -> bool:
        """Fingerprint the study and ``parts`` (what the body read; see
        :func:`raterlab.memo.fingerprint`) into :attr:`inputs`, and say whether this asset's
        tables for the study were written from exactly that."""
        self.inputs = memo.fingerprint(self.study, *parts)
        return unchanged(self.raterlab, self.study.name, self.name, self.inputs)

    def warehouse_unchanged(self, *parts: object, outputs: Iterable[Path] = ()) -> bool:
        """Whether the study's tables as they are in the warehouse
        (:func:`raterlab.memo.study_digest`) and ``parts`` (files the body reads besides) are
        what this asset's tables and ``outputs`` (files it writes, all still there) were
        last made from: a cheap test, in DuckDB, for a body that reads many tables, before
        any of its own. The tables are every table of the study but those this asset and the
        assets after it in the graph write (:func:`later_tables`); those beside it are in (a
        neighbour written after this asset in the last run makes the next run compute again,
        once). The fingerprint is kept in :attr:`tables_inputs`, recorded once the body has
        returned (:meth:`remember_tables`)."""
        leave_out = later_tables(self.name)
        with self.raterlab.warehouse(read_only=True) as con:
            digest = memo.study_digest(con, self.study.name, leave_out)
            self.tables_inputs = memo.fingerprint(self.study, digest, *parts)
            self.tables_same = memo.unchanged(
                con, self.study.name, self.tables_step, self.tables_inputs
            )
        return self.tables_same and all(p.exists() for p in outputs)

    def skipped(self, **metadata: object) -> dg.MaterializeResult:
        """The result of a body that found its tables written from the same inputs, with the
        metadata of the materialization that wrote them (``metadata`` over it)."""
        return dg.MaterializeResult(
            metadata={
                **self.last_metadata(),
                "unchanged": "same inputs as the last write: nothing recomputed",
                **metadata,
                "inputs": self.inputs,
            }
        )

    def last_metadata(self) -> dict[str, dg.MetadataValue]:
        """The metadata of this asset's last materialization for the study (none before)."""
        records = self.context.instance.fetch_materializations(
            dg.AssetRecordsFilter(
                asset_key=dg.AssetKey(self.name), asset_partitions=[self.study.name]
            ),
            limit=1,
        ).records
        materialization = records[0].asset_materialization if records else None
        return dict(materialization.metadata) if materialization else {}

    def create_empty_tables(self) -> None:
        """Create (typed, empty) the tables this asset declares, for a study that gives it
        nothing to write (no judges, no comparison), so that their structural checks find
        them."""
        with self.raterlab.warehouse() as con:
            create_tables(con, self.name)

    def recorded(self, names: Iterable[str]) -> dict[str, str | None]:
        """The fingerprint last recorded under each of ``names`` for the study (parts of
        this asset's work, see :meth:`write`), ``None`` where there is none."""
        with self.raterlab.warehouse(read_only=True) as con:
            return {name: memo.recorded(con, self.study.name, name) for name in names}

    def write(
        self,
        frames: Mapping[str, wh.Rows],
        *,
        published: bool = False,
        parts: Mapping[str, str] | None = None,
    ) -> dict[str, int]:
        """Replace the study's rows of ``frames``' tables in one transaction, with
        :attr:`inputs` recorded beside them when the body fingerprinted its inputs (and the
        fingerprint of each of ``parts``); create (typed, empty) the asset's other declared
        tables, so that their structural checks find them; then, if ``published``, publish
        the tables. Returns rows written per table."""
        with self.raterlab.warehouse() as con:
            create_tables(con, self.name)
            if self.inputs is None:
                written = wh.replace_study_tables(con, self.study.name, frames)
            else:
                written = memo.write_tables(
                    con, self.study.name, frames, self.name, self.inputs, parts
                )
            if published:
                self.publish(con, written)
        return written

    def remember_tables(self) -> None:
        """Record :attr:`tables_inputs`, once the body has returned: whatever it did (wrote
        its tables and files, or found them up to date by its own test), they are now what
        the study's tables make, and the next run that finds the same skips on the cheap
        test (:meth:`warehouse_unchanged`). A body that fails records nothing."""
        if self.tables_inputs is not None and not self.tables_same:
            with self.raterlab.warehouse() as con, wh.transaction(con):
                memo.remember(con, self.study.name, self.tables_step, self.tables_inputs)

    def publish(self, con: duckdb.DuckDBPyConnection, tables: Iterable[str]) -> None:
        """Publish ``tables`` (``schema.name``; the gold ones are copied) over ``con``, a
        writable warehouse connection (:func:`raterlab.publish.publish`)."""
        publish(con, self.raterlab.paths.published, tables)


@cache
def _children() -> dict[str, set[str]]:
    """Each asset of the ``assets`` package (what the code location loads) and the assets
    that depend on it."""
    import assets

    children: dict[str, set[str]] = {}
    for definition in dg.load_assets_from_package_module(assets):
        for spec in definition.specs:
            for dep in spec.deps:
                children.setdefault(dep.asset_key.to_user_string(), set()).add(
                    spec.key.to_user_string()
                )
    return children


def later_tables(name: str) -> set[str]:
    """The declared tables written by the asset ``name`` and by every asset after it in the
    code location's asset graph (:func:`raterlab.tables.written_by`), whichever job runs it:
    a job of part of the graph finds the same tables as the whole loop does."""
    later, todo = set(), [name]
    while todo:
        asset = todo.pop()
        if asset not in later:
            later.add(asset)
            todo.extend(_children().get(asset, ()))
    return {t.name for asset in later for t in written_by(asset)}


Body = Callable[[StudyStep], dg.MaterializeResult | Iterator[dg.MaterializeResult]]


def study_asset(
    *,
    group: str,
    kinds: set[str],
    deps: Sequence[dg.AssetsDefinition | dg.AssetKey | str] = (),
    table: str | None = None,
    name: str | None = None,
    **asset_args: object,
) -> Callable[[Body], dg.AssetsDefinition]:
    """Declare ``body`` (named ``name``, default the function's name) as an asset partitioned
    by study, in ``group``, after ``deps``, of ``kinds``; ``table`` is the table it is mainly
    about (its column schema, with those of the other tables the asset writes, goes into the
    definition's metadata: :func:`assets.tables.table_metadata`). ``asset_args`` go to
    :func:`dagster.asset` as they are. The body's docstring is the asset's description; a
    body that yields (an asset whose output is optional) stays a generator. The structural
    checks of the gold tables the asset writes (``<table>_structure``,
    :func:`assets.tables.structure_specs`) are the asset's own and are evaluated in its step,
    after the body returns. What the process freed is given back to the system before the
    body and after it (:func:`raterlab.heap.memory_returned`; before: what an asset check
    run since freed), so that each step starts from what the process holds, not from what
    the steps before it held at their peaks."""

    def decorate(body: Body) -> dg.AssetsDefinition:
        asset_name = name or body.__name__

        def step(context: dg.AssetExecutionContext, raterlab: Raterlab) -> StudyStep:
            return StudyStep(context, raterlab, raterlab.study(context.partition_key), asset_name)

        checks = structure_specs(asset_name)
        if inspect.isgeneratorfunction(body):
            if checks:
                raise TypeError(f"{asset_name} writes gold tables: its body must return")

            def compute(
                context: dg.AssetExecutionContext, raterlab: Raterlab
            ) -> Iterator[dg.MaterializeResult]:
                with memory_returned():
                    yield from body(step(context, raterlab))

        else:

            def compute(
                context: dg.AssetExecutionContext, raterlab: Raterlab
            ) -> dg.MaterializeResult:
                this = step(context, raterlab)
                with memory_returned():
                    result = body(this)
                this.remember_tables()
                if not checks:
                    return result
                return dg.MaterializeResult(
                    metadata=result.metadata,
                    check_results=[
                        *(result.check_results or ()),
                        *structure_results(raterlab, asset_name, context.partition_key),
                    ],
                    data_version=result.data_version,
                    tags=result.tags,
                )

        compute.__doc__ = body.__doc__
        return dg.asset(
            name=asset_name,
            partitions_def=study_partitions,
            group_name=group,
            deps=list(deps),
            kinds=kinds,
            metadata=table_metadata(asset_name, table) if table else None,
            check_specs=checks or None,
            **asset_args,
        )(compute)

    return decorate
