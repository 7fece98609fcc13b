"""Writing a study's exports: the export folder is written beside the old one and swapped in,
so a re-run replaces it whole and a reader never sees half an export."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from raterlab.exports import exporters_for
from raterlab.exports.bundle import ExportBundle


def _carry_figures(target: Path, work: Path) -> set[Path]:
    """Copy the previous export's PNG figures into ``work`` at the same places, so a figure
    whose inputs are unchanged is not drawn again (:mod:`raterlab.figures`); returns them,
    relative to ``work``."""
    carried = set()
    for png in target.rglob("*.png") if target.is_dir() else []:
        relative = png.relative_to(target)
        (work / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(png, work / relative)
        carried.add(relative)
    return carried


def write_exports(bundle: ExportBundle, root: Path) -> list[Path]:
    """Run the study's exporters into ``root/<study>/`` (replaced whole); returns the files
    written, relative to ``root/<study>``. The previous export's figures are carried over
    for the exporters to keep when their inputs are unchanged; one no exporter wrote is
    removed."""
    target = root / bundle.study.name
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{bundle.study.name}-", dir=root))
    try:
        carried = _carry_figures(target, work)
        files = [p.relative_to(work) for f in exporters_for(bundle.study) for p in f(bundle, work)]
        for stale in carried - set(files):
            (work / stale).unlink()
            for folder in (work / stale).parents:
                if folder == work or any(folder.iterdir()):
                    break
                folder.rmdir()
        if target.exists():
            old = target.with_name(f".{target.name}.old")
            shutil.rmtree(old, ignore_errors=True)
            os.replace(target, old)
            os.replace(work, target)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(work, target)
    except Exception:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return files
