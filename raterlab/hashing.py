"""Stable hashing: the same integer for the same parts in every process (unlike ``hash``),
for seeds and orders that must not change between runs."""

from __future__ import annotations

import hashlib


def stable_int(*parts: object) -> int:
    """A 63-bit integer from ``parts``: the first 8 bytes of the SHA-256 of their ``|``-joined
    text, shifted right once so it fits a signed 64-bit integer."""
    text = "|".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8]) >> 1
