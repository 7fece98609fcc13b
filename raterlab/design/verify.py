"""Checks that what was built matches the study: assignment against the design, packets
against the sealed key, and packet files against the hidden values they must never hold.

Each function returns ``(problems, numbers)``: plain sentences (empty when all is well) and
the figures a PI wants to see beside the check.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import ahocorasick
import pandas as pd

from raterlab.design.blinding import TOKEN_ALPHABET, TOKEN_LENGTH
from raterlab.design.rounds import is_pilot, latest_pilot_only
from raterlab.protocol import Study, Task
from raterlab.protocol.pairwise import SUFFIXES, pair_hidden_keys

Result = tuple[list[str], dict[str, Any]]
MIN_LEAK_LENGTH = 6
"""Hidden string values shorter than this (``A``, ``yes``) are too common to scan for."""


def verify_assignments(study: Study, routed: pd.DataFrame, assignments: pd.DataFrame) -> Result:
    """Every sampled item has the intended number of independent annotators, and the pilot,
    spot-check (per week, i.e. batch) and tier shares are the design's."""
    problems: list[str] = []
    items = routed[routed["sampled"]]
    ratings = latest_pilot_only(assignments[assignments["kind"] == "item"])
    n_annotators = len(study.design.annotators)
    counts = ratings.groupby("item_id")["annotator_id"].agg(["size", "nunique"])
    counts = counts.reindex(items["item_id"], fill_value=0)
    if (counts["size"] != counts["nunique"]).any():
        problems.append("an annotator was given the same item twice outside planted duplicates")
    pilot_ids = set(ratings.loc[is_pilot(ratings["round"]), "item_id"])
    spot_ids = set(ratings.loc[ratings["spot_check"], "item_id"])
    tiers = items.set_index("item_id")["tier"]
    expected = tiers.map(study.design.overlap)
    expected[expected.index.isin(list(spot_ids))] += 1
    expected[expected.index.isin(list(pilot_ids))] = n_annotators
    wrong = counts.index[counts["nunique"] != expected]
    for item_id in wrong[:10]:
        problems.append(
            f"item {item_id} ({tiers[item_id]}) has {counts.at[item_id, 'nunique']} "
            f"annotator(s), expected {expected[item_id]}"
        )
    if study.design.pilot and not study.design.pilot.by:  # by groups: a share of groups
        for task, group in items.groupby("task"):
            want = round(study.design.pilot.fraction * len(group))
            got = int(group["item_id"].isin(pilot_ids).sum())
            if got != want:
                problems.append(f"pilot of task {task} has {got} items, expected {want}")
    single_rows = ratings[
        (ratings["round"] == "main")
        & ~ratings["spot_check"].astype(bool)
        & (ratings["tier"].map(study.design.overlap) == 1)
    ]
    weeks = single_rows.groupby("batch").size()
    want_spot = int(sum(round(study.design.spot_check * n) for n in weeks))
    if len(spot_ids) != want_spot:
        problems.append(
            f"{len(spot_ids)} spot-checked items, expected {want_spot} "
            f"({study.design.spot_check:.0%} of each week's single-annotator items)"
        )
    main = ratings[ratings["round"] == "main"]
    load = main.groupby("annotator_id").size().reindex(study.design.annotators, fill_value=0)
    numbers = {
        "items": len(items),
        "ratings": len(ratings),
        "tier_share": (tiers.value_counts(normalize=True).round(3)).to_dict(),
        "pilot_items": len(pilot_ids),
        "spot_checked_items": len(spot_ids),
        "duplicates": int((assignments["kind"] == "duplicate").sum()),
        "attention_rows": int((assignments["kind"] == "attention").sum()),
        "calibration_rows": int((assignments["kind"] == "calibration").sum()),
        "main_load_min": int(load.min()),
        "main_load_max": int(load.max()),
    }
    if load.max() - load.min() > max(2, 0.1 * load.mean()):
        problems.append(f"unbalanced main-round load: {load.to_dict()}")
    return problems, numbers


def read_template_tokens(path: Path, item_column: str = "item") -> list[str]:
    """The item-token column of a written annotations template."""
    with path.open(encoding="utf-8", newline="") as handle:
        return [row[item_column] for row in csv.DictReader(handle)]


def verify_packets(
    key: pd.DataFrame, files: pd.DataFrame, outbox: Path, item_column: str = "item"
) -> Result:
    """Every key row's token is in exactly its own packet's template, once, and no other
    (``item_column``: the study's ``packet.item_column``)."""
    problems: list[str] = []
    found = []
    for row in files[files["kind"] == "template"].itertuples():
        for tok in read_template_tokens(outbox / row.file, item_column):
            found.append((tok, row.annotator_id, row.batch, row.task))
    found_df = pd.DataFrame(found, columns=["token", "annotator_id", "batch", "task"])
    twice = found_df[found_df["token"].duplicated()]
    if not twice.empty:
        problems.append(f"{len(twice)} token(s) appear in more than one row or packet")
    merged = key.merge(found_df, on="token", how="outer", suffixes=("", "_file"), indicator=True)
    missing = merged[merged["_merge"] == "left_only"]
    extra = merged[merged["_merge"] == "right_only"]
    misplaced = merged[
        (merged["_merge"] == "both")
        & (
            (merged["annotator_id"] != merged["annotator_id_file"])
            | (merged["batch"] != merged["batch_file"])
            | (merged["task"] != merged["task_file"])
        )
    ]
    if not missing.empty:
        problems.append(f"{len(missing)} assigned row(s) are in no packet")
    if not extra.empty:
        problems.append(f"{len(extra)} packet row(s) are not in the sealed key")
    if not misplaced.empty:
        problems.append(f"{len(misplaced)} row(s) are in another annotator's or batch's packet")
    numbers = {
        "packets": int(files[["annotator_id", "batch"]].drop_duplicates().shape[0]),
        "rows": len(found_df),
        "files": len(files),
    }
    return problems, numbers


def hidden_needles(study: Study, generations: pd.DataFrame) -> set[str]:
    """Hidden values distinctive enough to look for in packet files, and the source ids.

    Every hidden value is a needle, even one that also occurs in shown text (a hidden
    ``component`` equal to the shown ``expected_component``, a ``chunk_id`` inside another
    item's shown ``contexts``): where it appears as part of what an item shows it is not a
    leak, and :func:`verify_no_hidden_values` leaves exactly that shown text out of the scan;
    anywhere else it is found.
    """
    needles = {text for text in _values_of(study, generations) if len(text) >= MIN_LEAK_LENGTH}
    return needles | {str(i) for i in generations["item_id"]}


def hidden_record_keys(study: Study) -> list[str]:
    """The item keys the hidden-value scan reads from the records: every task's hidden keys
    (records decoded for these alone: their prompts and responses are most of their size)."""
    return list(dict.fromkeys(k for task in study.tasks.values() for k in _hidden_of(task)))


def _hidden_of(task: Task) -> list[str]:
    """The hidden keys of the task's item records: of a pair item, each system's own keys
    (``system_a``, ``system_b``...) but the responses it shows."""
    return task.hidden if task.pairwise is None else pair_hidden_keys(task)


def _values_of(study: Study, generations: pd.DataFrame, keys: list[str] | None = None) -> set[str]:
    """The items' values of hidden ``keys`` (default: every hidden key of their task; a key
    of a pair's systems stands for both of its suffixed keys), as text; booleans and nested
    values are not searched for."""
    found = set()
    wanted = None if keys is None else {*keys, *(k + s for k in keys for s in SUFFIXES)}
    for task, record in zip(generations["task"], generations["record"], strict=True):
        hidden = _hidden_of(study.tasks[task])
        for key in hidden if wanted is None else wanted & set(hidden):
            value = record.get(key)
            if isinstance(value, str | int | float) and not isinstance(value, bool):
                found.add(str(value))
    return found


def _unshown(study: Study, entry: dict) -> dict:
    """A reference line without the item's shown values (a packet line has them at the top
    level beside its ``task``; an adjudication line under ``item``)."""
    task = study.tasks.get(entry.get("task", ""))
    shown = set(task.shown) if task is not None else set()
    rest = {k: v for k, v in entry.items() if k not in shown}
    if isinstance(rest.get("item"), dict):
        rest.pop("item")
    return rest


def _pair_entry_problems(study: Study, entry: dict) -> list[str]:
    """Keys of a pair's reference line beyond its token, position, task and shown keys: any
    other key (a side, a system's name) would unblind it."""
    task = study.tasks.get(entry.get("task", ""))
    if task is None or task.pairwise is None:
        return []
    allowed = {study.packet.item_column, "position", "task", *task.shown}
    return sorted(set(entry) - allowed)


def needle_automaton(needles: set[str]) -> ahocorasick.Automaton:
    """An Aho-Corasick automaton over the needles: one pass over a text finds every needle
    in it, in time linear in the text and the matches (Aho & Corasick 1975), where a regex
    alternation tries each needle at each position."""
    automaton = ahocorasick.Automaton()
    for needle in needles:
        automaton.add_word(needle, needle)
    automaton.make_automaton()
    return automaton


def first_needle(
    automaton: ahocorasick.Automaton,
    longest: int,
    text: str,
    skip: Callable[[int, int], bool] | None = None,
) -> str | None:
    """The needle a leftmost-longest search finds first in ``text`` (the leftmost start, the
    longest needle there), or None; a match ``skip(start, end)`` says is no leak is passed
    over. Matches come in order of their end; once a match ends more than ``longest``
    characters after the best start so far, none can start earlier."""
    best: tuple[int, str] | None = None
    for end, needle in automaton.iter(text):
        start = end - len(needle) + 1
        if best is not None and end - longest + 1 > best[0]:
            break
        if skip is not None and skip(start, end):
            continue
        if best is None or (start, -len(needle)) < (best[0], -len(best[1])):
            best = (start, needle)
    return best[1] if best else None


def inside_token(text: str, start: int, end: int, is_token: Callable[[str], bool]) -> bool:
    """Whether ``text[start:end + 1]`` lies inside a packet row's opaque token: the run of
    token characters around it is :data:`~raterlab.design.blinding.TOKEN_LENGTH` long and
    ``is_token`` knows it. A short item id such as ``att3`` is in about one token in 100,000
    by chance (9 places, 32^4 strings); that is no leak."""
    if not all(c in TOKEN_ALPHABET for c in text[start : end + 1]):
        return False
    left, right = start, end + 1
    while left > 0 and text[left - 1] in TOKEN_ALPHABET and start - left < TOKEN_LENGTH:
        left -= 1
    while right < len(text) and text[right] in TOKEN_ALPHABET and right - end <= TOKEN_LENGTH:
        right += 1
    return right - left == TOKEN_LENGTH and is_token(text[left:right])


def verify_no_hidden_values(
    study: Study,
    generations: pd.DataFrame,
    files: pd.DataFrame,
    outbox: Path,
    is_token: Callable[[str], bool] | None = None,
) -> Result:
    """No packet file holds a hidden value, a hidden key, or a source item id, anywhere but
    inside the shown values of the items it presents (substring search: a needle inside a
    longer word is found too) and inside the rows' opaque tokens (:func:`inside_token`, when
    ``is_token`` says which words are tokens: a token is random text, and holds a short id by
    chance); a pair's reference line holds nothing but its token, position, task and shown
    keys (so neither its sides nor its systems)."""
    needles = hidden_needles(study, generations)
    automaton = needle_automaton(needles) if needles else None
    longest = max(map(len, needles), default=0)
    in_guide = needles - _values_of(study, generations, study.packet.guide_may_name)
    guide_automaton = needle_automaton(in_guide) if in_guide else None
    guide = Path(study.guide).name if study.guide else None
    shown = {key for task in study.tasks.values() for key in task.shown}
    hidden_keys = study.hidden_keys() - shown
    problems: list[str] = []
    for file in files["file"]:
        text = (outbox / file).read_text(encoding="utf-8")
        if file.endswith(".jsonl"):
            entries = [json.loads(line) for line in text.splitlines() if line.strip()]
            for number, entry in enumerate(entries, start=1):
                leaked = hidden_keys.intersection(entry)
                if leaked:
                    problems.append(f"{file}:{number} holds hidden key(s) {sorted(leaked)}")
                if extra := _pair_entry_problems(study, entry):
                    problems.append(f"{file}:{number} shows a pair with key(s) {extra}")
            text = "\n".join(json.dumps(_unshown(study, e), ensure_ascii=False) for e in entries)
        search = guide_automaton if guide and Path(file).name == guide else automaton
        skip = None if is_token is None else partial(inside_token, text, is_token=is_token)
        if search is not None and (found := first_needle(search, longest, text, skip)):
            problems.append(f"{file} holds hidden value {found[:40]!r}")
    return problems, {"files_scanned": len(files), "values_searched": len(needles)}
