"""Labeling sessions on disk: ``$RATERLAB_HOME/sessions/<session id>.json``.

A session holds the plugin protocol's ``LabelingSession`` fields (sessionId, labelerId,
dimension, runId, startedAt, lastUpdatedAt, totalScenarios, completedScenarios,
skippedScenarios, labels) plus what resuming needs: the study and task, the packet's item
tokens in order, where the annotator is, and the answers of the item in progress. It is
written after every answer to a temporary file that is fsynced and renamed over the old one,
so a killed process or a closed terminal leaves the last complete state.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from raterlab.settings import Home


class SessionError(RuntimeError):
    """A session cannot be started, found or resumed as asked."""


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


@dataclass
class LabelingSession:
    sessionId: str
    labelerId: str
    dimension: str
    runId: str
    startedAt: str
    lastUpdatedAt: str
    totalScenarios: int
    completedScenarios: int = 0
    skippedScenarios: int = 0
    labels: list[dict] = field(default_factory=list)
    study: str = ""
    studyVersion: str = ""
    items: list[str] = field(default_factory=list)
    """The packet's item tokens, in packet order (never an item id)."""
    position: int = 0
    draft: dict[str, str] = field(default_factory=dict)
    """Answers (text cells) given so far to the item at ``position``."""
    draftSeconds: float = 0.0
    finishedAt: str | None = None
    returnFile: str | None = None

    def label_of(self, token: str, key: str) -> dict | None:
        return next((label for label in self.labels if label.get(key) == token), None)


def sessions_dir(home: Home) -> Path:
    return home.root / "sessions"


def session_path(home: Home, session_id: str) -> Path:
    return sessions_dir(home) / f"{session_id}.json"


def save(home: Home, session: LabelingSession) -> Path:
    """Write the session atomically (temporary file, fsync, rename)."""
    session.lastUpdatedAt = now()
    path = session_path(home, session.sessionId)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    with tmp.open("w", encoding="utf-8") as handle:
        json.dump(asdict(session), handle, indent=1, ensure_ascii=False)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
    return path


def load(home: Home, session_id: str) -> LabelingSession:
    path = session_path(home, session_id)
    if not path.is_file():
        known = sorted(p.stem for p in sessions_dir(home).glob("*.json"))
        hint = f"; sessions here: {', '.join(known)}" if known else ""
        raise SessionError(f"no session {session_id!r} in {sessions_dir(home)}{hint}")
    try:
        return LabelingSession(**json.loads(path.read_text(encoding="utf-8")))
    except (json.JSONDecodeError, TypeError) as exc:
        raise SessionError(f"{path}: not a labeling session file ({exc})") from None


def open_sessions(home: Home, study: str, annotator: str, batch: str, task: str) -> list[str]:
    """Ids of unfinished sessions on the same packet and task."""
    found = []
    for path in sorted(sessions_dir(home).glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError:
            continue
        same = (data.get("study"), data.get("labelerId"), data.get("runId"), data.get("dimension"))
        if same == (study, annotator, batch, task) and not data.get("finishedAt"):
            found.append(data["sessionId"])
    return found
