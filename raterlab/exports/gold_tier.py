"""``gold_tier_jsonl``: ``gold/<task>.jsonl``, the resolved items of the GOLD tier with their
consensus labels; ``data/sample_test_cases.json``, the resolved items of the single-annotator
tiers, with each tier's noise floor disclosed."""

from __future__ import annotations

import json
from pathlib import Path

from raterlab.design.generations import record_of
from raterlab.exports.bundle import ExportBundle, ItemRows
from raterlab.exports.values import dump_json, plain, typed_value
from raterlab.protocol import Study

GOLD_TIER = "GOLD"


def gold_tier_jsonl(bundle: ExportBundle, folder: Path) -> list[Path]:
    """``gold/<task>.jsonl``: every GOLD-tier item whose fields all have a consensus value,
    one JSON object per line (see ``docs/gold_tables.md``). Unresolved and excluded items are
    left out."""
    study = bundle.study
    consensus = bundle.consensus_by_item()
    items = bundle.items[
        (bundle.items["tier"] == GOLD_TIER) & (bundle.items["status"] == "resolved")
    ]
    out = []
    for task_name in study.tasks:
        path = folder / "gold" / f"{task_name}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("w", encoding="utf-8") as handle:  # a line at a time, never the file
            for item in (
                items[items["task"] == task_name].sort_values("item_id").itertuples(index=False)
            ):
                entry = _case(study, item, consensus[(task_name, item.item_id)])
                handle.write(json.dumps(entry, ensure_ascii=False) + "\n")
        out.append(path)
    out.append(_sample_test_cases(bundle, folder, consensus))
    return out


def _sample_test_cases(bundle: ExportBundle, folder: Path, consensus: dict) -> Path:
    """``data/sample_test_cases.json``: the resolved items of the single-annotator tiers
    (ADR-001's tier-A samples), with each tier's declared noise floor disclosed; one case
    per line, as in ``gold/*.jsonl``."""
    study = bundle.study
    single = sorted(t for t, k in study.design.overlap.items() if k == 1)
    items = bundle.items[
        bundle.items["tier"].isin(single) & (bundle.items["status"] == "resolved")
    ].sort_values(["task", "item_id"])
    tiers = {}
    for tier in single:
        policy = study.tiers.get(tier)
        floor = policy.noise_floor if policy else None
        note = (
            f"Tier {tier} labels come from one annotator (spot check: "
            f"{study.design.spot_check:.0%} get a second); "
            + (
                f"accuracy claims on them carry a {floor:.0%} noise floor."
                if floor is not None
                else "no noise floor is declared for this tier."
            )
        )
        tiers[tier] = {
            "noise_floor": floor,
            "n_cases": int((items["tier"] == tier).sum()),
            "disclosure": note,
        }
    document = {
        "study": study.name,
        "exportedAt": bundle.exported_at_iso,
        "tiers": tiers,
        "cases": [
            _case(study, item, consensus[(item.task, item.item_id)])
            for item in items.itertuples(index=False)
        ],
    }
    return dump_json(folder / "data" / "sample_test_cases.json", document, one_per_line="cases")


def _case(study: Study, item, rows: ItemRows) -> dict:
    """One case with its consensus labels, as ``gold/*.jsonl`` and the samples hold it."""
    task_name = item.task
    return {
        "id": item.item_id,
        "task_type": task_name,
        "tier": item.tier,
        **{k: plain(v) for k, v in record_of(item.record).items()},
        "labels": {
            f: typed_value(study, task_name, f, v, n)
            for f, v, n in zip(rows["field"], rows["value"], rows["value_num"], strict=True)
        },
        "status": dict(zip(rows["field"], rows["status"], strict=True)),
        "confidence": {f: plain(c) for f, c in zip(rows["field"], rows["confidence"], strict=True)},
        "n_ratings": {f: int(n) for f, n in zip(rows["field"], rows["n_ratings"], strict=True)},
        "adjudicated": bool(item.adjudicated),
    }
