"""Simulated adjudicators and third annotators, so the demo runs the whole adjudication loop.

- **Adjudicators** fill every adjudication packet in ``outbox/<study>/adjudication/<batch>/``
  that has no return yet: for each disputed field they decide the planted truth
  (``staging.sim_truth``), except with probability ``error`` (default 5%), when they pick a
  neighbouring value (Likert one point off, a flipped binary, another label). Each decision
  comes with a rationale that reads like one: which rater it sides with, the scale's anchor or
  the field's description, and a reason. The return lands in
  ``inbox/<study>/adjudication/<batch>__adjudication.csv``.
- **Third annotators** fill the ``tiebreak`` packets (normal templates, from the sealed key)
  like a good rater (:data:`raterlab.simulate.profiles.BASE` ``good``, via
  :func:`raterlab.simulate.fill.fill_file`), into the study's inbox under the usual return
  name, where the normal ingest picks them up. :func:`raterlab.simulate.simulate` skips a
  packet already returned, so running it afterwards does not fill these twice.

Like the annotator simulator this is a lab tool: it reads the sealed keys to know the items.
Every random choice is seeded by the study's seed, ``seed`` and the thing it is about.
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from raterlab import warehouse
from raterlab.adjudication.adjudicator_packet import (
    REFERENCE,
    TEMPLATE,
    TEMPLATE_COLUMNS,
    adjudication_dir,
)
from raterlab.adjudication.ingest import inbox_dir
from raterlab.adjudication.staging import read_adjudication_key
from raterlab.design.generations import record_of
from raterlab.design.packets import returned_name, template_name
from raterlab.design.rounds import TIEBREAK_ROUND
from raterlab.files import write_atomic
from raterlab.membership import is_in
from raterlab.protocol import BinaryField, CategoricalField, LikertField, PairwiseField, Study
from raterlab.protocol.pairwise import seen
from raterlab.settings import Home
from raterlab.simulate.fill import TemplateRow, fill_file
from raterlab.simulate.profiles import BASE
from raterlab.simulate.run import SimulationError
from raterlab.simulate.seeding import rng_for
from raterlab.simulate.truth import ItemTruth, violations
from raterlab.simulate.variants import to_csv
from raterlab.warehouse import read_table

ADJUDICATOR_ID = "adj_lead"
DECISION_ERROR = 0.05

REASONS = (
    "checked the item against the guide once more",
    "the disputed point is settled by the item text itself",
    "the other reading overlooks what the item actually says",
    "one rater's note names the decisive detail",
    "re-read the whole item; the main claim is what matters here",
    "the guide's anchor fits this case better than the neighbouring one",
    "the ratings split on a detail that does not change the verdict",
)
SIDE = {
    "all": "Agree with every rater",
    "some": "Side with {raters}",
    "none": "No rater had it right",
}


@dataclass
class AdjudicationSimulation:
    """What one run wrote."""

    study: str
    adjudication_files: list[str] = field(default_factory=list)
    decisions: int = 0
    errors: int = 0
    third_annotator_files: list[str] = field(default_factory=list)
    third_annotator_rows: int = 0

    @property
    def written(self) -> int:
        return len(self.adjudication_files) + len(self.third_annotator_files)


def truth_items(truth: pd.DataFrame) -> dict[str, ItemTruth]:
    """``staging.sim_truth`` rows back into :class:`ItemTruth` (numbers for binary/Likert)."""
    items: dict[str, ItemTruth] = {}
    for item_id, task, role, name, value, value_num, source in truth[
        ["item_id", "task", "role", "field", "value", "value_num", "source"]
    ].itertuples(index=False):
        entry = items.setdefault(str(item_id), ItemTruth(task=task, role=role))
        entry.values[name] = value if pd.isna(value_num) else int(value_num)
        entry.source[name] = source
    return items


def _near(spec, value: Any, rng: np.random.Generator) -> Any:
    """A neighbouring wrong value of ``spec``."""
    if isinstance(spec, LikertField):
        options = [v for v in (value - 1, value + 1) if spec.min <= v <= spec.max]
        return options[int(rng.integers(len(options)))]
    if isinstance(spec, BinaryField):
        return 1 - value
    others = [v for v in spec.labels if v != value]
    return others[int(rng.integers(len(others)))]


def _shown(spec, value: Any) -> str:
    if isinstance(spec, BinaryField):
        return "yes" if value == 1 else "no"
    if isinstance(spec, PairwiseField):  # the packet shows system_a on the left
        return seen(str(value), swapped=False)
    return str(value)


def _matches(spec, given: str | None, value: Any) -> bool:
    if given in (None, ""):
        return False
    if isinstance(spec, CategoricalField):
        return str(given).lower() == str(value).lower()
    try:
        return float(given) == float(value)
    except ValueError:
        return False


def rationale(
    spec, field_name: str, value: Any, ratings: list[dict], rng: np.random.Generator
) -> str:
    """A rationale for deciding ``value``: who it sides with, what it means, and why."""
    agreeing = [r["rater"] for r in ratings if _matches(spec, r["values"].get(field_name), value)]
    if ratings and len(agreeing) == len(ratings):
        side = SIDE["all"]
    elif agreeing:
        side = SIDE["some"].format(raters=" and ".join(agreeing))
    else:
        side = SIDE["none"]
    label = field_name.replace("_", " ").capitalize()
    if isinstance(spec, LikertField) and spec.anchors:
        nearest = min(spec.anchors, key=lambda k: (abs(k - value), k))
        meaning = f"{label} {value} (anchor {nearest}: {spec.anchors[nearest].rstrip('.')})"
    elif isinstance(spec, BinaryField) and spec.description:
        what = spec.description.rstrip(".")
        what = what[0].lower() + what[1:]
        meaning = f"{label} = {_shown(spec, value)}: " + (
            what if value == 1 else f"it is not the case that {what}"
        )
    else:
        meaning = f"{label} = {_shown(spec, value)}"
    reason = REASONS[int(rng.integers(len(REASONS)))]
    return f"{side}. {meaning}; {reason}."


def _read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def _returned_before(con, study: str, table: str, name: str) -> bool:
    try:
        rows = con.execute(
            f"SELECT 1 FROM {table} WHERE study = ? AND file = ?", [study, name]
        ).fetchall()
    except Exception:
        return False
    return bool(rows)


def fill_adjudication(
    study: Study,
    packet: Path,
    key: pd.DataFrame,
    truths: dict[str, ItemTruth],
    rng: np.random.Generator,
    adjudicator: str = ADJUDICATOR_ID,
    error: float = DECISION_ERROR,
) -> tuple[bytes, int, int]:
    """The decisions file for one adjudication packet; returns its bytes, the number of
    decisions and how many deviate from the truth."""
    cases = {}
    for line in (packet / REFERENCE).read_text(encoding="utf-8").splitlines():
        if line.strip():
            entry = json.loads(line)
            cases[entry["case"]] = entry
    item_of = dict(zip(key["case_token"], key["item_id"], strict=False))
    rows = _read_csv(packet / TEMPLATE)
    decided: dict[str, dict[str, Any]] = {}
    for row in rows:
        case, name = row["case"], row["field"]
        spec = study.tasks[cases[case]["task"]].fields[name]
        truth = truths[item_of[case]].values[name]
        value = _near(spec, truth, rng) if rng.random() < error else truth
        decided.setdefault(case, {})[name] = value
    for case, values in decided.items():
        task = study.tasks[cases[case]["task"]]
        truth = truths[item_of[case]].values
        if violations({**truth, **values}, task.constraints):
            decided[case] = {name: truth[name] for name in values}
    wrong = 0
    for row in rows:
        case, name = row["case"], row["field"]
        entry = cases[case]
        spec = study.tasks[entry["task"]].fields[name]
        value = decided[case][name]
        wrong += value != truths[item_of[case]].values[name]
        row["decision"] = _shown(spec, value)
        row["rationale"] = rationale(spec, name, value, entry["ratings"], rng)
        row["adjudicator_id"] = row.get("adjudicator_id") or adjudicator  # the rotation's
    text = _csv_text(rows)
    return text.encode("utf-8"), len(rows), wrong


def _csv_text(rows: list[dict[str, str]]) -> str:
    import io

    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(TEMPLATE_COLUMNS), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


def _text_lengths(study: Study, generations: pd.DataFrame) -> dict[str, int]:
    """Characters each item of ``generations`` (records decoded or as stored) shows."""
    out = {}
    for i, t, text in zip(
        generations["item_id"], generations["task"], generations["record"], strict=True
    ):
        record = record_of(text)
        out[str(i)] = sum(len(str(record.get(k, ""))) for k in study.tasks[t].shown)
    return out


def fill_third_annotators(
    study: Study,
    home: Home,
    key: pd.DataFrame,
    truths: dict[str, ItemTruth],
    generations: pd.DataFrame,
    seed: tuple[int, ...],
) -> tuple[list[str], int]:
    """Fill every unreturned ``tiebreak`` template like a good rater (``generations``: the
    records as stored, those of the tie-break items decoded); returns the inbox files written
    and their rows."""
    tiebreak = key[key["round"] == TIEBREAK_ROUND]
    lengths = _text_lengths(study, generations[is_in(generations["item_id"], tiebreak["item_id"])])
    by_token = {
        t: (str(i), k, int(c), bool(s))
        for t, i, k, c, s in zip(
            tiebreak["token"],
            tiebreak["item_id"],
            tiebreak["kind"],
            tiebreak["copy"],
            tiebreak["swapped"].fillna(False),
            strict=True,
        )
    }
    files, n_rows = [], 0
    for (annotator, batch, task), _ in tiebreak.groupby(
        ["annotator_id", "batch", "task"], sort=True
    ):
        name = template_name(study, annotator, task)
        template = home.outbox / study.name / annotator / batch / name
        target = home.inbox / study.name / returned_name(annotator, batch, name)
        if not template.is_file() or target.exists():
            continue
        with template.open(encoding="utf-8", newline="") as handle:
            reader = csv.reader(handle)
            columns = next(reader)
            tokens = [r[columns.index(study.packet.item_column)] for r in reader if r]
        rows = [
            TemplateRow(
                t,
                by_token[t][0],
                by_token[t][1],
                by_token[t][2],
                lengths.get(by_token[t][0], 0),
                by_token[t][3],
            )
            for t in tokens
        ]
        parts = (annotator, batch, task)
        filled = fill_file(
            study,
            task,
            annotator,
            rows,
            truths,
            BASE["good"],
            rng_for(seed, "third_annotator", *parts),
        )
        data = to_csv(
            study,
            task,
            columns,
            [f.cells for f in filled],
            (),
            rng_for(seed, "third_annotator_csv", *parts),
        )
        write_atomic(target, data)
        files.append(target.name)
        n_rows += len(rows)
    return files, n_rows


def simulate_adjudication(
    study: Study,
    home: Home,
    *,
    seed: int = 0,
    adjudicator: str = ADJUDICATOR_ID,
    error: float = DECISION_ERROR,
) -> AdjudicationSimulation:
    """Fill the study's open adjudication and third-annotator packets (see the module doc)."""
    summary = AdjudicationSimulation(study.name)
    full_seed = (study.design.seed, seed)
    with warehouse.connect(home.warehouse) as con:
        truth = read_table(con, "staging.sim_truth", study.name)
        if truth is None or truth.empty:
            raise SimulationError(
                f"no planted truth for study {study.name!r}: simulate the annotators first"
            )
        truths = truth_items(truth)
        adj_key = read_adjudication_key(con, study.name)
        for batch, rows in adj_key.groupby("batch", sort=True):
            packet = adjudication_dir(home.outbox, study.name, batch)
            name = f"{batch}__adjudication.csv"
            target = inbox_dir(home, study.name) / name
            if (
                not (packet / TEMPLATE).is_file()
                or target.exists()
                or _returned_before(con, study.name, "staging.adjudication_files", name)
            ):
                continue
            data, n, wrong = fill_adjudication(
                study,
                packet,
                rows,
                truths,
                rng_for(full_seed, "adjudication", batch),
                adjudicator,
                error,
            )
            write_atomic(target, data)
            summary.adjudication_files.append(name)
            summary.decisions += n
            summary.errors += wrong
        key = read_table(con, "staging.blinding_key", study.name)
        generations = read_table(con, "raw.generations", study.name)
    if key is not None and generations is not None and (key["round"] == TIEBREAK_ROUND).any():
        files, n_rows = fill_third_annotators(study, home, key, truths, generations, full_seed)
        summary.third_annotator_files = files
        summary.third_annotator_rows = n_rows
    return summary
