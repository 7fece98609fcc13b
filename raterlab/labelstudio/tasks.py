"""Label Studio tasks for one annotator's packet: the shown keys only, the packet token as id.

One Label Studio project per packet and task, as a lab sets it up for blind work: each
annotator sees only their own packet. A task's ``data`` holds the task's shown keys (lists and
mappings rendered as text, so a ``Text`` tag can show them) plus ``item`` (the packet token),
``annotator_id`` and ``batch`` (both known to the annotator; the import needs them to name
the return). Nothing from the sealed key or a hidden key is written.
"""

from __future__ import annotations

import json
from pathlib import Path

from raterlab.design.items import display, packet_items
from raterlab.design.packets import packet_dir, template_name
from raterlab.labelstudio.config import label_config
from raterlab.protocol import Study
from raterlab.settings import Home

PACKET_KEYS = ("item", "annotator_id", "batch")


def packet_tasks(home: Home, study: Study, annotator: str, batch: str) -> dict[str, list[dict]]:
    """Per task of the packet, the Label Studio tasks (import JSON), in packet order."""
    out: dict[str, list[dict]] = {}
    for item in packet_items(home, study, annotator, batch):
        data = {key: display(value) for key, value in item.shown.items()}
        data.update(item=item.token, annotator_id=annotator, batch=batch)
        out.setdefault(item.task, []).append({"data": data})
    return out


def export_packet(home: Home, study: Study, annotator: str, batch: str) -> list[Path]:
    """Write, beside the packet's CSV templates, each task's config and tasks file:
    ``<template stem>.labelstudio.xml`` and ``<template stem>.labelstudio.json``."""
    folder = packet_dir(home.outbox, study, annotator, batch)
    written = []
    for task, tasks in packet_tasks(home, study, annotator, batch).items():
        stem = Path(template_name(study, annotator, task)).stem
        config = folder / f"{stem}.labelstudio.xml"
        config.write_text(label_config(study, task), encoding="utf-8")
        data = folder / f"{stem}.labelstudio.json"
        data.write_text(json.dumps(tasks, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        written += [config, data]
    return written
