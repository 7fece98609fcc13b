"""Importing raterlab sets how Polars, PyArrow and DuckDB allocate (see ``raterlab/__init__.py``),
for its own process when imported first and for the processes it starts, and leaves a
user's own settings alone."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

SHOW = (
    "import os, sys; {imports}; "
    "print(os.environ.get('_RJEM_MALLOC_CONF')); print(os.environ.get('ARROW_DEFAULT_MEMORY_POOL')); "
    "print(os.environ.get('DUCKDB_JE_MALLOC_CONF'))"
)
SET = ("system", "background_thread:true,dirty_decay_ms:100,muzzy_decay_ms:0")
"""What raterlab sets for PyArrow and DuckDB."""
ALLOCATOR_SETTINGS = ("_RJEM_MALLOC_CONF", "ARROW_DEFAULT_MEMORY_POOL", "DUCKDB_JE_MALLOC_CONF")


def _environment(imports: str, **env: str) -> list[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ALLOCATOR_SETTINGS}
    out = subprocess.run(
        [sys.executable, "-c", SHOW.format(imports=imports)],
        env={**clean, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.split()


@pytest.mark.parametrize(
    ("imports", "jemalloc"),
    [
        ("import raterlab", "muzzy_decay_ms:0"),
        ("import raterlab, polars", "dirty_decay_ms:500,muzzy_decay_ms:1000,muzzy_decay_ms:0"),
        ("import polars, raterlab", "dirty_decay_ms:500,muzzy_decay_ms:1000,muzzy_decay_ms:0"),
    ],
)
def test_freed_pages_are_returned_whatever_is_imported_first(imports, jemalloc) -> None:
    assert _environment(imports) == [jemalloc, *SET]


def test_a_users_own_settings_are_kept() -> None:
    found = _environment(
        "import raterlab",
        _RJEM_MALLOC_CONF="muzzy_decay_ms:5",
        ARROW_DEFAULT_MEMORY_POOL="mimalloc",
        DUCKDB_JE_MALLOC_CONF="narenas:2",
    )
    assert found == ["muzzy_decay_ms:5", "mimalloc", "narenas:2"]


def test_a_process_that_imports_raterlab_first_allocates_as_set() -> None:
    found = _environment(
        "import raterlab, pyarrow; print(pyarrow.default_memory_pool().backend_name)"
    )
    assert found[0] == "system"  # the backend PyArrow allocates with, printed first


DUCKDB_FREES = """
import time
import raterlab, duckdb

def resident_mb():
    with open("/proc/self/status") as status:
        return next(int(l.split()[1]) // 1024 for l in status if l.startswith("VmRSS:"))

con = duckdb.connect()
con.execute("CREATE TABLE t AS SELECT repeat('x', 40) || range::VARCHAR AS s FROM range(4000000)")
held = resident_mb()
con.execute("DROP TABLE t")
time.sleep(1)
print(held - resident_mb())
"""


@pytest.mark.skipif(sys.platform != "linux", reason="DuckDB's jemalloc")
def test_memory_duckdb_freed_is_returned_to_the_system() -> None:
    clean = {k: v for k, v in os.environ.items() if k not in ALLOCATOR_SETTINGS}
    out = subprocess.run(
        [sys.executable, "-c", DUCKDB_FREES], env=clean, capture_output=True, text=True, check=True
    )
    assert int(out.stdout) > 150  # of about 240 MB the table held


def _arenas_limited(**env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k not in ("MALLOC_ARENA_MAX", "GLIBC_TUNABLES")}
    out = subprocess.run(
        [sys.executable, "-c", "import raterlab; print(raterlab.GLIBC_ARENAS_LIMITED)"],
        env={**clean, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.strip()


@pytest.mark.skipif(sys.platform != "linux", reason="glibc's malloc")
def test_glibc_arenas_are_limited_unless_the_user_set_them() -> None:
    glibc = os.confstr("CS_GNU_LIBC_VERSION") if hasattr(os, "confstr") else None
    assert _arenas_limited() == str(bool(glibc))
    assert _arenas_limited(MALLOC_ARENA_MAX="8") == "False"
    assert _arenas_limited(GLIBC_TUNABLES="glibc.malloc.arena_max=4") == "False"
