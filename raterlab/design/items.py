"""What an annotator's packet holds, read back from the outbox: the item tokens of a task in
packet order, each with the shown keys of its reference entry.

Front ends read packets, never the warehouse, so they only ever hold what the packet holds:
tokens and shown keys. The shown keys are filtered again against the study here, so a key
the study hides is never displayed even if a packet were written by an older version.

A packet is ``outbox/<study>/<annotator>/<batch>/`` (the layout README documents for
``RATERLAB_HOME``). This module imports neither pandas nor the rest of the design (the
package exports its names lazily), so the labeling tool's first screen does not wait for them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from raterlab.protocol import Study
from raterlab.settings import Home


@dataclass(frozen=True)
class Item:
    token: str
    task: str
    shown: dict[str, object]


class PacketError(RuntimeError):
    """The packet asked for is not in the outbox."""


def batches(home: Home, study: Study, annotator: str) -> list[str]:
    """The annotator's packets in the order they were issued (the pilot before the main
    round), by the time their reference file was written."""
    folder = home.outbox / study.name / annotator
    if not folder.is_dir():
        return []
    found = [(reference_path(home, study, annotator, p.name), p.name) for p in folder.iterdir()]
    found = [(path.stat().st_mtime, name) for path, name in found if path.is_file()]
    return [name for _, name in sorted(found)]


def reference_path(home: Home, study: Study, annotator: str, batch: str) -> Path:
    return home.outbox / study.name / annotator / batch / f"{annotator}_reference.jsonl"


def guide_path(home: Home, study: Study, annotator: str, batch: str) -> Path | None:
    """The study's guide as the packet carries it (else the study's own file); None when the
    study has no guide."""
    if not study.guide:
        return None
    own = study.path_of(study.guide)
    copy = reference_path(home, study, annotator, batch).with_name(own.name)
    return copy if copy.is_file() else own


def packet_items(home: Home, study: Study, annotator: str, batch: str) -> list[Item]:
    """Every item of one packet, in packet order (all tasks)."""
    path = reference_path(home, study, annotator, batch)
    if not path.is_file():
        have = batches(home, study, annotator)
        hint = f" (batches of {annotator}: {', '.join(have)})" if have else ""
        raise PacketError(f"no packet {batch!r} for {annotator} in {path.parent.parent}{hint}")
    entries = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    entries.sort(key=lambda e: e["position"])
    return [
        Item(
            e[study.packet.item_column],
            e["task"],
            {k: e[k] for k in study.tasks[e["task"]].shown if k in e},
        )
        for e in entries
        if e["task"] in study.tasks
    ]


def display(value: object) -> str:
    """A shown value as text: lists one entry per line, mappings as ``key: value`` lines."""
    if isinstance(value, list):
        return "\n".join(f"- {display(v)}".replace("\n", "\n  ") for v in value)
    if isinstance(value, dict):
        return "\n".join(f"{k}: {display(v)}" for k, v in value.items())
    return "" if value is None else str(value)
