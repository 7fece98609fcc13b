"""The mini study with packets issued into a temporary RATERLAB_HOME (the ingest fixture)."""

from tests.ingest.conftest import issued

__all__ = ["issued"]
