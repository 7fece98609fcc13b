"""Giving the memory a step freed back to the system.

glibc's ``malloc`` keeps what a program frees in its heaps for later allocations, and
returns it only from the top of a heap when that grows past its trim threshold; what is
freed below a live block stays resident. A Dagster run executes its steps one after the
other in one process, so what one step freed (its frames of a whole study) stayed resident
under the next: at 100,000 items ``malloc_trim(0)`` after ``consensus``, ``agreement`` or
``rater_quality`` gave back 200-410 MB of 860-1,160 MB (glibc's heaps held 250-460 MB free),
in 10-20 ms (``benchmarks/README.md``, "End to end").
"""

import ctypes
import sys
from functools import cache


@cache
def _malloc_trim() -> ctypes._CFuncPtr | None:
    """glibc's ``malloc_trim``, ``None`` where the process does not run on glibc."""
    if sys.platform != "linux":
        return None
    try:
        return ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None


def return_freed_memory() -> bool:
    """Give the pages glibc's heaps hold free back to the system (``malloc_trim(0)``, which
    since glibc 2.8 releases free pages anywhere in a heap, not only at its top). Returns
    whether any memory was released; ``False`` without glibc."""
    trim = _malloc_trim()
    return bool(trim(0)) if trim is not None else False
