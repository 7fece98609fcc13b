"""Simulated annotators over a study's outbox: fill the packets, drop the returns in the inbox,
and write down everything that was planted.

A return lands in ``$RATERLAB_HOME/inbox/<study>/<annotator>__<batch>__<template name>``.
What was planted goes to the warehouse (one study's rows replaced per run) and to
``$RATERLAB_HOME/simulations/<study>/planted.json``:

``staging.sim_truth``     study, item_id, task, role, field, value (text), value_num (double,
                          null for labels), source (latent, hint, edge_case, expected, constraint)
``staging.sim_profiles``  study, annotator_id, profile, parameters (JSON text)
``staging.sim_files``     study, file, annotator_id, round, batch, task, profile, n_rows,
                          n_attention, n_attention_failed, variants (JSON list), mistakes (JSON
                          list of {row, column, kind, value, ...}), sha256, seed, template,
                          corrected

A file with a planted mistake also gets its corrected version (what the annotator would send
after hearing back) under ``simulations/<study>/corrected/``; ``corrected`` names it.

The simulator is a lab tool: it reads the sealed key and the generations to know which item
is behind each token. Every random choice is seeded by ``(design.seed, seed)`` and the thing it
is about (item, annotator, file), so the same seed gives the same bytes, packet by packet.
"""

from __future__ import annotations

import csv
import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

import duckdb
import pandas as pd

from raterlab import warehouse
from raterlab.design.generations import JSON_COLUMNS, record_of
from raterlab.design.packets import returned_name, template_name
from raterlab.design.rounds import in_round, pilot_number, pilot_rounds
from raterlab.files import write_atomic
from raterlab.protocol import Study, Task
from raterlab.protocol.pairwise import SUFFIXES
from raterlab.protocol.rules import condition_keys
from raterlab.settings import Home
from raterlab.simulate.fill import TemplateRow, fill_file
from raterlab.simulate.names import ROUNDS
from raterlab.simulate.profiles import (
    Profile,
    after_discussion,
    assign_profiles,
    profile_frame_rows,
)
from raterlab.simulate.seeding import rng_for
from raterlab.simulate.truth import Truth, draw_truth
from raterlab.simulate.variants import FileKey, FilePlan, plan_files, plant_mistake, to_csv

SIM_FILES_COLUMNS = (
    "file",
    "annotator_id",
    "round",
    "batch",
    "task",
    "profile",
    "n_rows",
    "n_attention",
    "n_attention_failed",
    "variants",
    "mistakes",
    "sha256",
    "seed",
    "template",
    "corrected",
)
INT_COLUMNS = ("n_rows", "n_attention", "n_attention_failed", "seed")
TABLES = ("staging.sim_truth", "staging.sim_profiles", "staging.sim_files")

Progress = Callable[[int, int], None]


class SimulationError(RuntimeError):
    """The study cannot be simulated as asked (no packets yet, mixed seeds...)."""


@dataclass
class Summary:
    """What one run did."""

    study: str
    seed: int
    written: pd.DataFrame
    """This run's rows of ``staging.sim_files``."""
    already_returned: int
    not_in_outbox: int
    profiles: dict[str, str]
    truth_rows: int
    planted: Path

    @property
    def rows(self) -> int:
        return int(self.written["n_rows"].sum()) if not self.written.empty else 0

    @property
    def mistakes(self) -> list[dict]:
        return [m for text in self.written["mistakes"] for m in json.loads(text)]


def simulations_dir(home: Home, study: str) -> Path:
    return home.root / "simulations" / study


def _count(con: duckdb.DuckDBPyConnection, table: str, study: str) -> int:
    """The study's rows of ``table`` (0 when there is no such table)."""
    if not warehouse.table_exists(con, table):
        return 0
    return con.execute(f"SELECT count(*) FROM {table} WHERE study = ?", [study]).fetchall()[0][0]


def _read(con: duckdb.DuckDBPyConnection, table: str, study: str) -> pd.DataFrame | None:
    """The study's rows of ``table``, or ``None`` when it has none (or no such table)."""
    frame = warehouse.read_study_rows(con, table, study)
    return None if frame.empty else frame


def load_inputs(con: duckdb.DuckDBPyConnection, study: Study) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The sealed key and the generations of ``study`` from the warehouse."""
    key = _read(con, "staging.blinding_key", study.name)
    generations = _read(con, "raw.generations", study.name)
    if key is None or key.empty or generations is None or generations.empty:
        raise SimulationError(
            f"no sealed key for study {study.name!r} in the warehouse: run the annotation job "
            "first (make demo)"
        )
    return key, generations


def _unread_keys(study: Study) -> dict[str, set[str]]:
    """Per task, the shown keys the truth never reads: an item's prompts and responses, only
    measured (:func:`_decoded`). Slice keys and the keys of edge-case conditions are read."""
    wanted = set(study.slices) | {k for case in study.edge_cases for k in condition_keys(case.when)}
    return {name: set(_shown_keys(task)) - wanted for name, task in study.tasks.items()}


def _decoded(study: Study, generations: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, int]]:
    """``generations`` (as stored) with JSON decoded, each record without the shown keys the
    truth never reads, and the characters each item shows (a pair: both responses): a
    million items' records held whole took about 3.6 GB."""
    dropped = _unread_keys(study)
    records, lengths = [], {}
    for item_id, task, text in zip(
        generations["item_id"], generations["task"], generations["record"], strict=True
    ):
        record = record_of(text)
        shown = _shown_keys(study.tasks[task])
        lengths[str(item_id)] = sum(len(str(record.get(k, ""))) for k in shown)
        records.append({k: v for k, v in record.items() if k not in dropped[task]})
    others = tuple(c for c in JSON_COLUMNS if c != "record")
    return warehouse.decode_json(generations, others).assign(record=records), lengths


def _sides(key: pd.DataFrame) -> pd.Series:
    """The key's ``swapped`` (false where a key sealed before pairs has none)."""
    if "swapped" not in key:
        return pd.Series(False, index=key.index)
    return key["swapped"].fillna(False).astype(bool)


def _shown_keys(task: Task) -> list[str]:
    """The record keys an item shows (a pair shows both responses, on either side)."""
    if task.pairwise is None:
        return task.shown
    return [*task.shown, *(task.pairwise.response + s for s in SUFFIXES)]


def _template_tokens(path: Path, item_column: str) -> tuple[list[str], list[str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        header = next(reader)
        at = header.index(item_column)
        return header, [row[at] for row in reader if row]


@dataclass
class _Context:
    study: Study
    home: Home
    seed: tuple[int, ...]
    truth: Truth
    profiles: dict[str, Profile]
    by_token: dict[str, tuple[str, str, int, bool]]
    text_length: dict[str, int]
    pilot_rounds: int
    """Pilot rounds in the key (repeated pilots mean discussed disagreements)."""


def _simulate_file(ctx: _Context, key: FileKey, plan: FilePlan, template: Path) -> dict:
    """Fill one template, write the return (and its corrected version), describe it."""
    study = ctx.study
    columns, tokens = _template_tokens(template, study.packet.item_column)
    rows = []
    for tok in tokens:
        if tok not in ctx.by_token:
            raise SimulationError(f"{template}: token {tok!r} is not in the sealed key")
        item_id, kind, copy, swapped = ctx.by_token[tok]
        length = ctx.text_length.get(item_id, 0)
        rows.append(TemplateRow(tok, item_id, kind, copy, length, swapped))
    profile = (
        ctx.profiles.get(key.annotator_id)
        or assign_profiles([key.annotator_id], ctx.seed)[key.annotator_id]
    )
    number = pilot_number(key.round)
    profile = after_discussion(profile, (number or ctx.pilot_rounds) - 1)
    parts = (key.annotator_id, key.batch, key.task)
    filled = fill_file(
        study,
        key.task,
        key.annotator_id,
        rows,
        ctx.truth.items,
        profile,
        rng_for(ctx.seed, "file", *parts),
    )
    cells = [f.cells for f in filled]
    name = returned_name(key.annotator_id, key.batch, template.name)
    mistakes = []
    corrected = ""
    if plan.mistake:
        clean = to_csv(
            study, key.task, columns, cells, plan.variants, rng_for(ctx.seed, "variants", *parts)
        )
        corrected_path = simulations_dir(ctx.home, study.name) / "corrected" / name
        write_atomic(corrected_path, clean)
        corrected = str(corrected_path.relative_to(ctx.home.root))
        cells, record = plant_mistake(
            study,
            key.task,
            plan.mistake,
            cells,
            [r.kind for r in rows],
            rng_for(ctx.seed, "mistake", *parts),
        )
        mistakes.append(record)
    data = to_csv(
        study, key.task, columns, cells, plan.variants, rng_for(ctx.seed, "variants", *parts)
    )
    write_atomic(ctx.home.inbox / study.name / name, data)
    return {
        "file": name,
        "annotator_id": key.annotator_id,
        "round": key.round,
        "batch": key.batch,
        "task": key.task,
        "profile": profile.name,
        "n_rows": len(cells),
        "n_attention": sum(r.kind == "attention" for r in rows),
        "n_attention_failed": sum(f.attention_failed for f in filled),
        "variants": json.dumps(list(plan.variants)),
        "mistakes": json.dumps(mistakes, ensure_ascii=False),
        "sha256": hashlib.sha256(data).hexdigest(),
        "seed": ctx.seed[1],
        "template": str(template.relative_to(ctx.home.outbox)),
        "corrected": corrected,
    }


def _file_keys(key: pd.DataFrame) -> list[FileKey]:
    packets = key[["annotator_id", "batch", "task", "round"]].drop_duplicates()
    return sorted(FileKey(*row) for row in packets.itertuples(index=False))


def _forget(home: Home, study: str, previous: pd.DataFrame) -> None:
    """Remove earlier simulated returns (and corrected copies) listed in ``previous``."""
    for file, corrected in zip(previous["file"], previous["corrected"], strict=True):
        (home.inbox / study / file).unlink(missing_ok=True)
        if corrected:
            (home.root / corrected).unlink(missing_ok=True)


def _check_arguments(round: str, seed: int) -> None:
    """Refuse a round the simulator does not know, or a negative seed, before touching anything."""
    if round not in ROUNDS:
        raise SimulationError(f"round must be one of {', '.join(ROUNDS)}, not {round!r}")
    if seed < 0:
        raise SimulationError("the seed must be zero or a positive integer")


def _in_chosen_round(rounds: pd.Series, round: str) -> pd.Series:
    """Which of ``rounds`` the run is about: ``all`` means every pilot and the main round."""
    chosen = (
        rounds.map(lambda r: r == "main" or pilot_number(r) is not None)
        if round == "all"
        else in_round(rounds, round)
    )
    return chosen.astype(bool)


def _previous_files(
    con: duckdb.DuckDBPyConnection, study: Study, home: Home, round: str, seed: int, clean: bool
) -> pd.DataFrame:
    """The study's earlier ``staging.sim_files`` rows that this run keeps.

    With ``clean`` the chosen round's earlier returns are removed from disk and dropped.
    The rest must have been simulated with ``seed``: mixing seeds in one inbox would plant
    two truths for the same items.
    """
    previous = _read(con, "staging.sim_files", study.name)
    if previous is None:
        previous = pd.DataFrame(columns=list(SIM_FILES_COLUMNS))
    chosen = _in_chosen_round(previous["round"], round)
    if clean:
        _forget(home, study.name, previous[chosen])
        previous = previous[~chosen]
    mixed = previous[previous["seed"] != seed]
    if not mixed.empty:
        raise SimulationError(
            f"the inbox holds returns simulated with --seed {int(mixed['seed'].iloc[0])}; "
            f"use that seed, or --clean (with --round all) to start over with {seed}"
        )
    return previous


@dataclass
class _Todo:
    """The round's packets sorted into those to fill now and those passed over (counted)."""

    files: list[tuple[FileKey, FilePlan, Path]]
    already_returned: int
    not_in_outbox: int


def _packets_to_fill(
    study: Study,
    home: Home,
    plans: dict[FileKey, FilePlan],
    round: str,
    clean: bool,
    done_files: set[str],
) -> _Todo:
    """The planned files of ``round`` whose template is in the outbox and not yet returned.

    A file counts as returned when ``staging.sim_files`` lists it or it is in the inbox,
    unless ``clean`` asks to fill it again.
    """
    todo = _Todo(files=[], already_returned=0, not_in_outbox=0)
    for file_key, plan in plans.items():
        if round != "all" and not in_round(pd.Series([file_key.round]), round).iloc[0]:
            continue
        packet = home.outbox / study.name / file_key.annotator_id / file_key.batch
        template = packet / template_name(study, file_key.annotator_id, file_key.task)
        name = returned_name(file_key.annotator_id, file_key.batch, template.name)
        if not template.is_file():
            todo.not_in_outbox += 1
        elif not clean and (name in done_files or (home.inbox / study.name / name).exists()):
            todo.already_returned += 1
        else:
            todo.files.append((file_key, plan, template))
    return todo


def _context(
    study: Study,
    home: Home,
    full_seed: tuple[int, ...],
    key: pd.DataFrame,
    generations: pd.DataFrame,
    profiles: dict[str, Profile],
) -> _Context:
    """Everything filling a file needs: the drawn truth, the profiles, and the key by token
    (``generations`` as stored)."""
    decoded, lengths = _decoded(study, generations)
    return _Context(
        study=study,
        home=home,
        seed=full_seed,
        truth=draw_truth(study, decoded, full_seed),
        profiles=profiles,
        by_token={
            t: (str(i), k, int(c), bool(s))
            for t, i, k, c, s in zip(
                key["token"], key["item_id"], key["kind"], key["copy"], _sides(key), strict=True
            )
        },
        text_length=lengths,
        pilot_rounds=max(1, len(pilot_rounds(key["round"]))),
    )


def _fill_files(
    ctx: _Context, files: list[tuple[FileKey, FilePlan, Path]], progress: Progress | None
) -> pd.DataFrame:
    """Fill each file in order, reporting progress; one ``staging.sim_files`` row per file."""
    written = []
    for done, (file_key, plan, template) in enumerate(files, start=1):
        written.append(_simulate_file(ctx, file_key, plan, template))
        if progress:
            progress(done, len(files))
    return pd.DataFrame(written, columns=list(SIM_FILES_COLUMNS))


def _merge_files(previous: pd.DataFrame, new: pd.DataFrame) -> pd.DataFrame:
    """The study's ``staging.sim_files`` after this run: earlier rows not refilled, plus the
    new ones, sorted by file and typed so the table's columns never drift between runs."""
    kept = previous[~previous["file"].isin(new["file"])]
    files = pd.concat([kept, new], ignore_index=True) if not kept.empty else new
    files = files.sort_values("file", kind="stable").reset_index(drop=True)
    return files.astype(
        {c: "int64" for c in INT_COLUMNS}
        | {c: "string" for c in SIM_FILES_COLUMNS if c not in INT_COLUMNS}
    )


def _profile_frame(profiles: dict[str, Profile]) -> pd.DataFrame:
    """The ``staging.sim_profiles`` rows, with each profile's parameters as sorted JSON text."""
    return pd.DataFrame(
        [
            {**r, "parameters": json.dumps(r["parameters"], sort_keys=True)}
            for r in profile_frame_rows(profiles)
        ],
        columns=["annotator_id", "profile", "parameters"],
    )


def _summary(
    study: Study,
    seed: int,
    written: pd.DataFrame,
    todo: _Todo,
    profiles: dict[str, Profile],
    truth_rows: int,
    planted: Path,
) -> Summary:
    """What the run did, with each annotator's profile by name."""
    return Summary(
        study=study.name,
        seed=seed,
        written=written,
        already_returned=todo.already_returned,
        not_in_outbox=todo.not_in_outbox,
        profiles={a: p.name for a, p in profiles.items()},
        truth_rows=truth_rows,
        planted=planted,
    )


def simulate(
    study: Study,
    home: Home,
    *,
    round: str = "all",
    seed: int = 0,
    clean: bool = False,
    progress: Progress | None = None,
) -> Summary:
    """Fill the outbox packets of ``study`` (one round or all) as simulated annotators would.

    Packets already returned (in the inbox, or listed in ``staging.sim_files``) are left
    alone unless ``clean``, which first removes the earlier simulated returns of the round.
    When every packet is returned already, nothing is drawn or written again (the planted
    truth and ``planted.json`` stay as the run that wrote them left them).
    """
    _check_arguments(round, seed)
    full_seed = (study.design.seed, seed)
    with warehouse.connect(home.warehouse) as con:
        key, generations = load_inputs(con, study)
        previous = _previous_files(con, study, home, round, seed, clean)
        plans = plan_files(study, _file_keys(key), full_seed)
        todo = _packets_to_fill(study, home, plans, round, clean, set(previous["file"]))
        pairwise = any(task.pairwise is not None for task in study.tasks.values())
        profiles = assign_profiles(list(study.design.annotators), full_seed, pairwise)
        planted = simulations_dir(home, study.name) / "planted.json"
        truth_rows = _count(con, "staging.sim_truth", study.name)
        if not todo.files and not clean and truth_rows and planted.is_file():
            nothing = pd.DataFrame(columns=list(SIM_FILES_COLUMNS))
            return _summary(study, seed, nothing, todo, profiles, truth_rows, planted)
        ctx = _context(study, home, full_seed, key, generations, profiles)
        new = _fill_files(ctx, todo.files, progress)
        files = _merge_files(previous, new)
        truth_frame = ctx.truth.frame()
        warehouse.replace_study_rows(con, "staging.sim_truth", study.name, truth_frame)
        warehouse.replace_study_rows(
            con, "staging.sim_profiles", study.name, _profile_frame(profiles)
        )
        warehouse.replace_study_rows(con, "staging.sim_files", study.name, files)
    planted = write_planted(home, study, seed, ctx.truth, profiles, files)
    return _summary(study, seed, new, todo, profiles, len(truth_frame), planted)


def write_planted(
    home: Home,
    study: Study,
    seed: int,
    truth: Truth,
    profiles: dict[str, Profile],
    files: pd.DataFrame,
) -> Path:
    """``simulations/<study>/planted.json``: the three tables plus the truth's item effects,
    the truth written 10,000 rows at a time (a million items' truth held as one text: about
    7 GB)."""
    file_rows = [
        {
            **row,
            "variants": json.loads(row["variants"]),
            "mistakes": json.loads(row["mistakes"]),
        }
        for row in files.to_dict(orient="records")
    ]
    for row in file_rows:
        for column in INT_COLUMNS:
            row[column] = int(row[column])
    document = {
        "study": study.name,
        "study_seed": study.design.seed,
        "seed": seed,
        "profiles": profile_frame_rows(profiles),
        "effects": truth.effects,
        "binary_polarity": truth.polarity,
        "hints": truth.hints,
        "files": file_rows,
    }
    path = simulations_dir(home, study.name) / "planted.json"
    write_atomic(path, _planted_chunks(document, _truth_rows(truth)))
    return path


def _truth_rows(truth: Truth) -> Iterator[dict]:
    """The planted truth as ``planted.json``'s ``truth`` rows: one per item and field."""
    for item_id, t in truth.items.items():
        for field, value in t.values.items():
            yield {
                "item_id": item_id,
                "task": t.task,
                "role": t.role,
                "field": field,
                "value": value,
                "source": t.source[field],
            }


def _planted_chunks(document: dict, truth: Iterator[dict]) -> Iterator[bytes]:
    """``document`` with a last key ``truth`` holding the rows of ``truth``, as UTF-8 JSON
    indented by one space: the text ``json.dumps({**document, "truth": list(truth)},
    indent=1, ensure_ascii=False) + "\\n"`` would be, made 10,000 rows at a time."""
    head = json.dumps(document, indent=1, ensure_ascii=False)  # ends with "\n}"
    yield (head[:-2] + ',\n "truth": [').encode("utf-8")
    first = True
    while batch := list(islice(truth, 10_000)):
        # "[\n {...},\n {...}\n]": the rows one level deeper, without the brackets.
        rows = json.dumps(batch, indent=1, ensure_ascii=False)[1:-2].replace("\n", "\n ")
        yield (("" if first else ",") + rows).encode("utf-8")
        first = False
    yield ("]\n}\n" if first else "\n ]\n}\n").encode("utf-8")
