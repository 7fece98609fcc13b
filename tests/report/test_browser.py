"""Each study's report opened in headless Chromium (Debian's ``chromium``): the sections are
in the rendered DOM and every plot is drawn (its pixel size appears among the images of the
printed page; a broken image would print as a 16 px icon), except a tall plot folded away
until the reader opens it."""

from __future__ import annotations

import base64
import re
import shutil
import struct
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.report.test_report import IMG, SECTIONS, sections

BROWSER = next(
    (p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None
)
pytestmark = pytest.mark.skipif(
    BROWSER is None, reason="no Chromium found (Debian: apt-get install chromium)"
)
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--no-pdf-header-footer",
)


def chromium(*args: str) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(
            [BROWSER, *FLAGS, f"--user-data-dir={profile}", *args],
            capture_output=True,
            timeout=120,
            check=True,
        )


def png_size(data: bytes) -> tuple[int, int]:
    return struct.unpack(">II", data[16:24])


@pytest.mark.parametrize(
    "name", ["correctness_ab", "plugin_triggers", "rag_triplet", "empathy", "gold_tiers"]
)
def test_report_renders_in_chromium(reports, name, tmp_path: Path):
    page = reports[name]
    dom = chromium("--dump-dom", page.as_uri()).stdout.decode("utf-8")
    assert [s for s in SECTIONS if s not in sections(dom)] == []
    pdf = tmp_path / "report.pdf"
    chromium(f"--print-to-pdf={pdf}", page.as_uri())
    printed = pdf.read_bytes()
    drawn = set(
        zip(
            map(int, re.findall(rb"/Width (\d+)", printed)),
            map(int, re.findall(rb"/Height (\d+)", printed)),
            strict=False,
        )
    )
    # Every plot on the page is drawn; a tall one folded in <details> waits for a click.
    shown = re.sub(r"<details>.*?</details>", "", page.read_text(encoding="utf-8"), flags=re.S)
    plots = [png_size(base64.b64decode(i)) for i in IMG.findall(shown)]
    assert plots and [size for size in plots if size not in drawn] == []
