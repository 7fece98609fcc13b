"""JSON text read back into Python values by msgspec, exactly as Python's own
:func:`json.loads` reads it.

Every step that slices or judges items reads the study's records, stored as JSON text
(``raw.generations``), for every run: 100,000 records took 0.65-0.8 s with
:func:`json.loads`, 0.24-0.31 s here. msgspec reads them in C, and a reader of a few keys
of each record (:func:`keys_of`) gets only those built as Python values. msgspec reads a text as
:func:`json.loads` does (integers of any size, the last of repeated keys); the texts it
refuses and :func:`json.loads` reads (``NaN`` and ``Infinity``, which ``json.dumps`` writes
for those floats, out-of-range numbers, lone surrogates) are read by :func:`json.loads`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import msgspec

_DECODER = msgspec.json.Decoder()


def loads(text: str) -> Any:
    """``text`` as :func:`json.loads` reads it (its errors included)."""
    try:
        return _DECODER.decode(text)
    except msgspec.MsgspecError:
        return json.loads(text)


def keys_of(texts: Iterable[object], keys: tuple[str, ...]) -> list[dict | None]:
    """Each JSON object of ``texts`` with only ``keys`` (in that order, those it has), as
    ``{k: json.loads(t)[k] for k in keys if k in json.loads(t)}``; ``None`` for a text that
    is not a string. The other keys' values are checked, not built."""
    keys = tuple(dict.fromkeys(keys))
    fields = [(f"k{n}", Any, msgspec.UNSET) for n in range(len(keys))]
    names = {f"k{n}": key for n, key in enumerate(keys)}
    decoder = msgspec.json.Decoder(msgspec.defstruct("Keys", fields, rename=names))
    unset = msgspec.UNSET
    out: list[dict | None] = []
    for text in texts:
        if not isinstance(text, str):
            out.append(None)
            continue
        try:
            found = decoder.decode(text)
        except msgspec.MsgspecError:
            record = json.loads(text)
            out.append(None if record is None else {k: record[k] for k in keys if k in record})
            continue
        out.append(
            {
                key: value
                for name, key in names.items()
                if (value := getattr(found, name)) is not unset
            }
        )
    return out
