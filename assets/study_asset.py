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
from raterlab.protocol import Study
from raterlab.publish import publish
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

    def skipped(self, **metadata: object) -> dg.MaterializeResult:
        """The result of a body that found its tables written from the same inputs."""
        return dg.MaterializeResult(
            metadata={
                "unchanged": "same inputs as the last write: nothing recomputed",
                **metadata,
                "inputs": self.inputs,
            }
        )

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
        frames: Mapping[str, pd.DataFrame],
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

    def publish(self, con: duckdb.DuckDBPyConnection, tables: Iterable[str]) -> None:
        """Publish ``tables`` (``schema.name``; the gold ones are copied) over ``con``, a
        writable warehouse connection (:func:`raterlab.publish.publish`)."""
        publish(con, self.raterlab.paths.published, tables)


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
    after the body returns."""

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
                yield from body(step(context, raterlab))

        else:

            def compute(
                context: dg.AssetExecutionContext, raterlab: Raterlab
            ) -> dg.MaterializeResult:
                result = body(step(context, raterlab))
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
