"""Import a judge file into a study (``raterlab judges import STUDY FILE``, and the demo's
bundled judge files): validate it against the study's items and store each judge's verdicts
(:mod:`raterlab.judges.verdicts`)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from raterlab.design import read_generations
from raterlab.judges.verdicts import judges_dir, read_judge_file, store_imported
from raterlab.protocol import Study

BUNDLED_FILE = "judge_verdicts.csv"
"""A bundled study's judge file, in its folder beside the generations."""


def import_judge_file(study: Study, path: Path, root: Path) -> tuple[pd.DataFrame, list[Path]]:
    """Validate ``path`` against ``study`` (its items as the design makes them: a pairwise
    task's pairs) and store it under ``root`` (``RATERLAB_HOME``); the verdicts and the files
    written, one per judge. Raises :class:`raterlab.judges.verdicts.JudgeFileError`."""
    generations = read_generations(study)
    tasks_of = dict(zip(generations["item_id"].astype(str), generations["task"], strict=True))
    verdicts = read_judge_file(study, path, tasks_of)
    return verdicts, store_imported(verdicts, judges_dir(root, study.name))
