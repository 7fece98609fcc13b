"""The bundled studies against their protocols' text (``../shared/seeds``): what the packets
carry is what the protocol says."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from raterlab.protocol import load_study

REPO = Path(__file__).resolve().parents[2]
SEEDS = REPO.parent / "shared" / "seeds"
needs_seeds = pytest.mark.skipif(not SEEDS.is_dir(), reason="needs ../shared/seeds")


def _seed(number: str) -> str:
    return next(SEEDS.glob(f"{number}_*.txt")).read_text(encoding="utf-8")


@needs_seeds
def test_correctness_ab_packets_carry_one_rubric_the_protocols() -> None:
    study = load_study(REPO / "studies" / "correctness_ab.yaml")
    guide = (REPO / "studies" / study.guide).read_text(encoding="utf-8")
    seed = _seed("000")
    levels = re.findall(r"^\*\*Score = (\d): ([^*]+)\*\*$", seed, re.MULTILINE)
    assert len(levels) == 5
    anchors = study.tasks["correctness"].fields["correctness"].anchors
    for score, label in levels:
        assert f"**Score = {score}: {label}**" in guide  # the guide quotes the protocol
        assert anchors[int(score)].startswith(label)  # INSTRUCTIONS.md shows the same scale
    # no second scale with other labels or anchors
    assert len(re.findall(r"Score = 5|\| 5 \|", guide)) == 1
    for line in re.findall(
        r"^- .+$", seed.split("### Edge Cases & Guidance")[1].split("---")[0], re.M
    ):
        if "Metric E" not in line:  # the protocol's other metric is not this study's
            assert line in guide


def test_rag_triplet_packets_keep_an_optional_time_column(tmp_path) -> None:
    """Seed 001 asks for no times: the template keeps ``time_spent_s`` (the README's packet)
    and a return that leaves it empty is accepted; a number there still has to be seconds."""
    import pandas as pd

    from raterlab import warehouse
    from raterlab.ingest.one_file import ingest_file
    from raterlab.settings import Home
    from tests.ingest.conftest import issue, write

    study = load_study(REPO / "studies" / "rag_triplet.yaml")
    home = Home(tmp_path / "home")
    key, _ = issue(study, home)
    rows = key[(key["batch"] == "pilot") & (key["task"] == "retrieval")]
    annotator = rows["annotator_id"].iloc[0]
    path = home.outbox / study.name / annotator / "pilot" / f"{annotator}_retrieval_annotations.csv"
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    assert "time_spent_s" in frame.columns
    instructions = (path.parent / "INSTRUCTIONS.md").read_text(encoding="utf-8")
    assert "| `time_spent_s` | seconds you spent on the item | no | |" in instructions
    frame[["topically_relevant", "evidence_sufficient", "misleading"]] = ["1", "0", "0"]
    with warehouse.connect(home.warehouse) as con:
        blank = ingest_file(study, write(frame, tmp_path / "blank.csv"), home, con)
        assert blank.status == "accepted", blank.report
        wrong = ingest_file(
            study, write(frame.assign(time_spent_s="soon"), tmp_path / "w.csv"), home, con
        )
        assert wrong.status == "rejected"


@pytest.fixture(scope="module")
def empathy_home(tmp_path_factory):
    from raterlab.settings import Home
    from tests.ingest.conftest import issue

    study = load_study(REPO / "studies" / "empathy.yaml")
    home = Home(tmp_path_factory.mktemp("empathy") / "home")
    key, _ = issue(study, home)
    return study, home, key


@needs_seeds
def test_empathy_packets_carry_the_guides_content_warning_and_confidentiality(empathy_home):
    study, home, key = empathy_home
    seed = _seed("003")
    ethics = re.findall(
        r"^- \*\*(?:Content warning|Confidentiality|No identifying).*(?:\n  .*)*", seed, re.M
    )
    assert len(ethics) == 3
    for annotator, batch in (
        key[["annotator_id", "batch"]].drop_duplicates().itertuples(index=False)
    ):
        guide = (home.outbox / study.name / annotator / batch / "guide.md").read_text()
        for text in ethics:
            assert text in guide


def test_empathy_packets_say_where_to_break_every_30_samples(empathy_home):
    study, home, key = empathy_home
    rows = key[(key["annotator_id"] == "ann_gray") & (key["batch"] == "pilot")]
    assert len(rows) > 30  # the pilot packet holds 30 samples and more
    folder = home.outbox / study.name / "ann_gray" / "pilot"
    text = (folder / "INSTRUCTIONS.md").read_text(encoding="utf-8")
    assert "Take a 5-minute break every 30 samples: after samples 30 (spreadsheet rows 31" in text


def test_the_terminal_tool_says_break_after_30_samples(empathy_home, tmp_path):
    import asyncio
    import shutil

    from textual.widgets import Static

    from raterlab.settings import Home
    from raterlab.terminal.app import LabelApp
    from raterlab.terminal.model import Labeler

    study, home, _ = empathy_home
    headers = []
    for position in (29, 30):
        copy = Home(tmp_path / f"home{position}")
        shutil.copytree(home.root, copy.root)
        lab = Labeler.start(study, copy, "ann_gray", "pilot", None)
        lab.session.position = position

        async def run(lab=lab):
            app = LabelApp(lab)
            async with app.run_test(size=(100, 30)):
                headers.append(str(app.query_one("#header", Static).content))

        asyncio.run(run())
        lab.close()
    assert "break" not in headers[0]
    assert "30 done: take a 5-minute break" in headers[1]


def test_the_guide_may_name_the_topics_it_warns_of_and_nothing_else(empathy_home, tmp_path):
    """The content warning names 'anxiety', an item's hidden emotion_category: the guide may
    (``packet.guide_may_name``; it is the same in every packet), no other file may, and the
    guide may still not name a hidden model."""
    import shutil

    import pandas as pd

    from raterlab.design import read_generations
    from raterlab.design.verify import verify_no_hidden_values

    study, home, _ = empathy_home
    generations = read_generations(study)
    files = pd.DataFrame(
        {
            "file": [
                str(p.relative_to(home.outbox))
                for p in home.outbox.rglob("*")
                if p.is_file() and p.name != "packet.json"  # hashes, as the pipeline's check
            ]
        }
    )
    assert verify_no_hidden_values(study, generations, files, home.outbox)[0] == []
    layout = study.packet.model_copy(update={"guide_may_name": []})
    strict = study.model_copy(update={"packet": layout})
    problems = verify_no_hidden_values(strict, generations, files, home.outbox)[0]
    assert problems and all("guide.md holds hidden value 'anxiety'" in p for p in problems)

    outbox = tmp_path / "outbox"
    shutil.copytree(home.outbox, outbox)
    model = next(r["model"] for r in generations["record"] if r.get("model"))
    guide = next(outbox.rglob("guide.md"))
    guide.write_text(guide.read_text() + f"\nThe replies come from {model}.\n")
    problems = verify_no_hidden_values(study, generations, files, outbox)[0]
    assert problems == [f"{guide.relative_to(outbox)} holds hidden value {model!r}"]
