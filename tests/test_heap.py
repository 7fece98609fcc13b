"""What a step freed goes back to the system (raterlab.heap.return_freed_memory)."""

import sys

import pytest

from raterlab.heap import memory_returned, return_freed_memory


def _resident_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


@pytest.mark.skipif(sys.platform != "linux", reason="glibc's malloc")
def test_memory_freed_under_a_live_block_is_returned() -> None:
    blocks = [bytes(2000) for _ in range(100_000)]  # 200 MB of malloc'd blocks in the heap
    above = bytes(2000)  # allocated after them: glibc cannot trim the heap's top
    del blocks
    held = _resident_mb()
    assert return_freed_memory()
    assert _resident_mb() < held - 100
    assert len(above) == 2000


@pytest.mark.skipif(sys.platform != "linux", reason="glibc's malloc")
def test_a_step_that_fails_still_returns_what_it_freed() -> None:
    held = _resident_mb()
    with pytest.raises(RuntimeError), memory_returned():
        blocks = [bytes(2000) for _ in range(100_000)]
        above = bytes(2000)
        assert _resident_mb() > held + 150
        del blocks
        raise RuntimeError("the step failed")
    assert _resident_mb() < held + 50
    assert len(above) == 2000
