"""The blinding secret: created with safe permissions; a missing or different secret with
sealed packets outstanding is a loud error, never a silent re-key."""

from __future__ import annotations

import stat

import pytest

from raterlab import warehouse
from raterlab.design.blinding import SecretMismatch, load_or_create_secret
from tests.ingest.conftest import SECRET


def test_a_new_secret_is_private_from_the_start(tmp_path) -> None:
    path = tmp_path / "secrets" / "blinding.key"
    with warehouse.connect(tmp_path / "warehouse.duckdb") as con:
        secret = load_or_create_secret(path, con)
        assert len(secret) == 32 and load_or_create_secret(path, con) == secret
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_lost_secret_with_sealed_packets_is_an_error(issued) -> None:
    _, home, _, _ = issued
    with warehouse.connect(home.warehouse) as con:
        with pytest.raises(SecretMismatch, match="is missing, but packets of mini were sealed"):
            load_or_create_secret(home.blinding_secret, con)
        assert not home.blinding_secret.exists()
        home.blinding_secret.parent.mkdir(parents=True)
        home.blinding_secret.write_bytes(b"x" * 32)
        with pytest.raises(SecretMismatch, match="is not the one the packets of mini"):
            load_or_create_secret(home.blinding_secret, con)
        home.blinding_secret.write_bytes(SECRET)
        assert load_or_create_secret(home.blinding_secret, con) == SECRET
