"""Blinding: opaque item tokens and a shuffled order per packet.

A token is ``HMAC-SHA256(secret, study|annotator|batch|item|copy)`` in base32, cut to 12
characters (60 bits). Without the secret, tokens cannot be derived from source ids, and two
annotators (or two copies of a duplicate) never share one. The token -> item mapping is the
*sealed key*: it lives in the warehouse only, never in an outbox file.

Order within a packet: calibration items first (shuffled among themselves), then everything
else shuffled together, with each duplicate copy placed at least half a packet away from its
original. Nothing marks an item as a duplicate, attention check or calibration item.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from pathlib import Path

import numpy as np
import pandas as pd

from raterlab.design.assignment import COLUMNS as ASSIGNMENT_COLUMNS
from raterlab.protocol import Study

TOKEN_LENGTH = 12
KEY_COLUMNS = (*ASSIGNMENT_COLUMNS, "position", "token")
"""Columns of the sealed key (``staging.blinding_key``), as :func:`seal` returns them."""


def load_or_create_secret(path: Path) -> bytes:
    """The installation's blinding secret, created (32 random bytes, mode 0600) on first use."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(secrets.token_bytes(32))
        path.chmod(0o600)
    return path.read_bytes()


def token(secret: bytes, *parts: object) -> str:
    """The opaque token for one packet row (lowercase base32: letters and digits 2-7)."""
    message = "|".join(str(p) for p in parts).encode()
    digest = hmac.new(secret, message, hashlib.sha256).digest()
    return base64.b32encode(digest).decode().lower()[:TOKEN_LENGTH]


def _order(rows: pd.DataFrame, rng: np.random.Generator) -> list[int]:
    """Row labels of one packet in presentation order (see the module docstring)."""
    calibration = rows.index[rows["kind"] == "calibration"].to_numpy(copy=True)
    copies = rows[rows["copy"] == 1]
    body = rows.index[(rows["kind"] != "calibration") & (rows["copy"] == 0)].to_numpy(copy=True)
    order = list(rng.permutation(calibration))
    body_order = list(rng.permutation(body))
    original = {
        (t, i): label
        for label, t, i in zip(rows.index, rows["task"], rows["item_id"], strict=True)
        if rows.at[label, "copy"] == 0
    }
    for label, t, i in zip(copies.index, copies["task"], copies["item_id"], strict=True):
        at = body_order.index(original[(t, i)])
        gap = max(1, (len(body_order) + 1) // 2)
        slots = [q for q in range(len(body_order) + 1) if abs(q - at) >= gap]
        body_order.insert(int(rng.choice(slots)), label)
    return order + body_order


def seal(study: Study, assignments: pd.DataFrame, secret: bytes) -> pd.DataFrame:
    """The sealed key: ``assignments`` plus ``position`` (1-based, per packet) and ``token``.

    A packet is one (annotator, batch); its order is shuffled with a generator seeded from the
    study's seed and the packet, so the same seed gives the same packets.
    """
    parts = []
    for (annotator, batch), rows in assignments.groupby(["annotator_id", "batch"], sort=True):
        key = int.from_bytes(hashlib.sha256(f"{annotator}|{batch}".encode()).digest()[:8])
        rng = np.random.default_rng([study.design.seed, 3, key])
        ordered = rows.loc[_order(rows, rng)].copy()
        ordered["position"] = np.arange(1, len(ordered) + 1)
        parts.append(ordered)
    key_table = pd.concat(parts, ignore_index=True)
    key_table["token"] = [
        token(secret, study.name, a, b, i, c)
        for a, b, i, c in zip(
            key_table["annotator_id"],
            key_table["batch"],
            key_table["item_id"],
            key_table["copy"],
            strict=True,
        )
    ]
    if key_table["token"].duplicated().any():
        raise RuntimeError("token collision; rotate the blinding secret")
    return key_table
