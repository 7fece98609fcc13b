"""Blinding: opaque item tokens and a shuffled order per packet.

A token is ``HMAC-SHA256(secret, study|annotator|batch|item|copy)`` in base32, cut to 12
characters (60 bits). Without the secret, tokens cannot be derived from source ids, and two
annotators (or two copies of a duplicate) never share one. The token -> item mapping is the
*sealed key*: it lives in the warehouse only, never in an outbox file.

Order within a packet: calibration items first (shuffled among themselves), then everything
else shuffled together, with each duplicate copy placed at least half a packet away from its
original. Nothing marks an item as a duplicate, attention check or calibration item.

Sides of a pair (pairwise tasks, :mod:`raterlab.protocol.pairwise`): ``swapped`` is true
where the packet shows ``system_b``'s response on the left. In each packet, the first copies
of the pairs get alternating sides in a shuffled order, so the packet shows ``system_a`` on
the left in half of them (the two counts differ by at most one), then exchange sides two by
two while that evens out how often each system is on the left
(:func:`raterlab.design.pairs.balanced_sides`); a hidden duplicate is shown with the sides
of its first copy swapped. It is drawn from the study's seed and the packet, like the order,
and lives in the sealed key only.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd

from raterlab.design.assignment import COLUMNS as ASSIGNMENT_COLUMNS
from raterlab.design.pairs import balanced_sides, pair_systems
from raterlab.errors import SecretMismatch
from raterlab.protocol import Study

TOKEN_LENGTH = 12
TOKEN_ALPHABET = frozenset("abcdefghijklmnopqrstuvwxyz234567")
"""The characters of a token (:func:`token`: lowercase base32)."""
KEY_COLUMNS = (*ASSIGNMENT_COLUMNS, "position", "token", "swapped")
"""Columns of the sealed key (``staging.blinding_key``), as :func:`seal` returns them."""


def _sealed_rows(con: duckdb.DuckDBPyConnection | None) -> list[tuple]:
    """One sealed key row per study (study, annotator, batch, item, copy, token)."""
    if (
        con is None
        or not con.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'staging' "
            "AND table_name = 'blinding_key' AND table_catalog = current_database()"
        ).fetchall()[0][0]
    ):
        return []
    return con.execute(
        """SELECT study, annotator_id, batch, item_id, "copy", token FROM staging.blinding_key
           QUALIFY row_number() OVER (PARTITION BY study ORDER BY token) = 1 ORDER BY study"""
    ).fetchall()


def is_sealed_token(con: duckdb.DuckDBPyConnection, study: str, word: str) -> bool:
    """Whether ``word`` is one of ``study``'s tokens in the sealed key."""
    return bool(
        con.execute(
            "SELECT 1 FROM staging.blinding_key WHERE study = ? AND token = ? LIMIT 1",
            [study, word],
        ).fetchall()
    )


def load_or_create_secret(path: Path, con: duckdb.DuckDBPyConnection | None = None) -> bytes:
    """The installation's blinding secret: 32 random bytes, created on first use with mode
    0600 from the start (``O_EXCL``, never readable by others, even for a moment).

    With the warehouse ``con``, the secret is checked against the sealed packets: if packets
    were sealed and the secret file is missing (a home restored without ``secrets/``) or
    differs, a :class:`~raterlab.errors.SecretMismatch` says so and how to recover, instead
    of silently making a new secret that would re-key the study and reject every
    outstanding return.
    """
    sealed = _sealed_rows(con)
    if not path.exists():
        if sealed:
            raise SecretMismatch(
                f"the blinding secret {path} is missing, but packets of "
                f"{', '.join(r[0] for r in sealed)} were sealed with it: restore it from a "
                "backup of $RATERLAB_HOME/secrets/ (a new secret would re-key the study and "
                "reject every outstanding return)"
            )
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(secrets.token_bytes(32))
    secret = path.read_bytes()
    wrong = [r[0] for r in sealed if token(secret, *r[:5]) != r[5]]
    if wrong:
        raise SecretMismatch(
            f"the blinding secret {path} is not the one the packets of {', '.join(wrong)} were "
            "sealed with: restore the original from a backup of $RATERLAB_HOME/secrets/"
        )
    return secret


def token(secret: bytes, *parts: object) -> str:
    """The opaque token for one packet row (lowercase base32: letters and digits 2-7)."""
    message = "|".join(str(p) for p in parts).encode()
    digest = hmac.new(secret, message, hashlib.sha256).digest()
    return base64.b32encode(digest).decode().lower()[:TOKEN_LENGTH]


def _order(rows: pd.DataFrame, rng: np.random.Generator) -> list[int]:
    """Row labels of one packet in presentation order (see the module docstring)."""
    labels, kind, copy = rows.index.to_numpy(), rows["kind"].to_numpy(), rows["copy"].to_numpy()
    task, item = rows["task"].to_numpy(), rows["item_id"].to_numpy()
    calibration = labels[kind == "calibration"]
    body = labels[(kind != "calibration") & (copy == 0)]
    order = list(rng.permutation(calibration))
    body_order = list(rng.permutation(body))
    original = {
        (t, i): label
        for label, t, i in zip(labels[copy == 0], task[copy == 0], item[copy == 0], strict=True)
    }
    repeated = copy == 1
    for label, t, i in zip(labels[repeated], task[repeated], item[repeated], strict=True):
        at = body_order.index(original[(t, i)])
        gap = max(1, (len(body_order) + 1) // 2)
        slots = [q for q in range(len(body_order) + 1) if abs(q - at) >= gap]
        body_order.insert(int(rng.choice(slots)), label)
    return order + body_order


def _sides(study: Study, rows: pd.DataFrame, rng: np.random.Generator) -> np.ndarray:
    """``swapped`` of one packet's rows (see the module docstring); false outside pairwise
    tasks."""
    pairwise = rows["task"].map(lambda t: study.tasks[t].pairwise is not None).to_numpy(bool)
    copy = rows["copy"].to_numpy()
    swapped = np.zeros(len(rows), dtype=bool)
    first = np.flatnonzero(pairwise & (copy == 0))
    ids = rows["item_id"].to_numpy()[first]
    pairs = [pair_systems(str(i)) or (f"{i}|a", f"{i}|b") for i in ids]
    swapped[first] = balanced_sides(pairs, rng)
    side = {
        (t, i): s
        for t, i, s in zip(
            rows["task"].to_numpy()[first],
            rows["item_id"].to_numpy()[first],
            swapped[first],
            strict=True,
        )
    }
    for at in np.flatnonzero(pairwise & (copy != 0)):
        swapped[at] = not side[(rows["task"].iloc[at], rows["item_id"].iloc[at])]
    return swapped


def seal(study: Study, assignments: pd.DataFrame, secret: bytes) -> pd.DataFrame:
    """The sealed key: ``assignments`` plus ``position`` (1-based, per packet), ``token`` and
    ``swapped`` (a pair's sides, false outside pairwise tasks).

    A packet is one (annotator, batch); its order and its pairs' sides are drawn with
    generators seeded from the study's seed and the packet, so the same seed gives the same
    packets.
    """
    parts = []
    for (annotator, batch), rows in assignments.groupby(["annotator_id", "batch"], sort=True):
        key = int.from_bytes(hashlib.sha256(f"{annotator}|{batch}".encode()).digest()[:8])
        rng = np.random.default_rng([study.design.seed, 3, key])
        ordered = rows.loc[_order(rows, rng)].copy()
        ordered["position"] = np.arange(1, len(ordered) + 1)
        ordered["swapped"] = _sides(
            study, ordered, np.random.default_rng([study.design.seed, 8, key])
        )
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
    key_table["swapped"] = key_table.pop("swapped")  # after the token, as KEY_COLUMNS
    return key_table
