"""Labeling sessions on disk: ``$RATERLAB_HOME/sessions/<session id>.json``.

A session holds the plugin protocol's ``LabelingSession`` fields (sessionId, labelerId,
dimension, runId, startedAt, lastUpdatedAt, totalScenarios, completedScenarios,
skippedScenarios, labels) plus what resuming needs: the study and task, the packet's item
tokens in order, where the annotator is, and the answers of the item in progress.

Writes never leave a session half written, and one process at a time works on a session:

- every save goes to a temporary file of its own (unique name, fsynced) renamed over the
  session file, and the previous version is kept beside it as ``<id>.prev.json``;
- a process that opens a session holds an exclusive lock on ``<id>.lock`` (``flock``, released
  by the system when the process ends, however it ends), with its pid and host written in it,
  so a second ``--resume`` is refused with who holds it;
- a session file that cannot be read is never silently replaced: it is kept as
  ``<id>.broken-<time>.json`` and the session resumes from the last good copy, saying so.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import tempfile
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

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
    later: dict[str, dict] = field(default_factory=dict)
    """Drafts of items the annotator stepped back from, by token: ``{"draft", "seconds"}``,
    given back when the item is reached again."""
    finishedAt: str | None = None
    returnFile: str | None = None

    def label_of(self, token: str, key: str) -> dict | None:
        return next((label for label in self.labels if label.get(key) == token), None)


def sessions_dir(home: Home) -> Path:
    return home.root / "sessions"


def session_path(home: Home, session_id: str) -> Path:
    return sessions_dir(home) / f"{session_id}.json"


def previous_path(home: Home, session_id: str) -> Path:
    """The session as it was before its last save (the last good copy)."""
    return sessions_dir(home) / f"{session_id}.prev.json"


def session_files(home: Home) -> list[Path]:
    """The session files (not their previous copies, broken copies or temporary files)."""
    folder = sessions_dir(home)
    return sorted(
        p
        for p in folder.glob("*.json")
        if not p.name.startswith(".")
        and not p.name.endswith(".prev.json")
        and ".broken-" not in p.name
    )


def save(home: Home, session: LabelingSession) -> Path:
    """Write the session atomically: a temporary file of its own (so two writers never share
    one), fsynced, renamed over the session file; the replaced version stays as the previous
    copy (a hard link, so there is no moment without a complete session file)."""
    session.lastUpdatedAt = now()
    path = session_path(home, session.sessionId)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(asdict(session), out, indent=1, ensure_ascii=False)
            out.flush()
            os.fsync(out.fileno())
        if path.is_file() and _readable(path):
            _keep_previous(path, previous_path(home, session.sessionId))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def _keep_previous(path: Path, previous: Path) -> None:
    link = previous.with_name(f".{previous.name}.{os.getpid()}.tmp")
    link.unlink(missing_ok=True)
    os.link(path, link)
    os.replace(link, previous)


def _readable(path: Path) -> bool:
    try:
        _parse(path)
    except SessionError:
        return False
    return True


def _parse(path: Path) -> LabelingSession:
    try:
        return LabelingSession(**json.loads(path.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, TypeError) as exc:
        raise SessionError(f"{path}: not a labeling session file ({exc})") from None


def load(home: Home, session_id: str) -> LabelingSession:
    """The session as saved; refuses a broken file (:func:`recover` resumes from its last good
    copy)."""
    path = _existing(home, session_id)
    try:
        return _parse(path)
    except SessionError as broken:
        hint = ""
        if previous_path(home, session_id).is_file():
            hint = f"; raterlab label --resume --session-id {session_id} resumes its last good copy"
        raise SessionError(f"{broken}{hint}") from None


def recover(home: Home, session_id: str) -> tuple[LabelingSession, str | None]:
    """The session, and a note when its file was broken and the last good copy was used
    instead (the broken file is kept aside, never deleted). Refuses when no good copy is
    left."""
    path = _existing(home, session_id)
    try:
        return _parse(path), None
    except SessionError as broken:
        previous = previous_path(home, session_id)
        if not previous.is_file():
            raise SessionError(f"{broken}; there is no earlier copy of it to resume") from None
        session = _parse(previous)
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
        aside = path.with_name(f"{session_id}.broken-{stamp}.json")
        note = (
            f"{broken}; resumed from its last good copy (saved {session.lastUpdatedAt}, "
            f"{len(session.labels)} label(s)); the broken file is kept as {aside.name}"
        )
        os.replace(path, aside)
        save(home, session)  # a copy of its own: the last good copy stays untouched
        return session, note


def _existing(home: Home, session_id: str) -> Path:
    path = session_path(home, session_id)
    if not path.is_file():
        known = sorted(p.stem for p in session_files(home))
        hint = f"; sessions here: {', '.join(known)}" if known else ""
        raise SessionError(f"no session {session_id!r} in {sessions_dir(home)}{hint}")
    return path


class SessionLock:
    """An exclusive lock on one session for the life of this process (or until released).

    ``flock`` on ``<id>.lock``: the system drops it when the process ends, however it ends,
    so a crashed session never stays locked. The holder's pid, host and start time are
    written in the file so a refused second process can say who has it."""

    def __init__(self, home: Home, session_id: str):
        self.path = sessions_dir(home) / f"{session_id}.lock"
        self._handle: IO[str] | None = None

    def acquire(self) -> SessionLock:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = self.path.open("a+", encoding="utf-8")
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            handle.close()
            name = self.path.stem
            raise SessionError(
                f"session {name} is open in {holder}; finish or quit there first "
                f"(one terminal per session)"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()} on {socket.gethostname()} since {now()}\n")
        handle.flush()
        self._handle = handle
        return self

    def release(self) -> None:
        if self._handle is not None:
            self._handle.close()  # closing the descriptor drops the flock
            self._handle = None


def open_sessions(home: Home, study: str, annotator: str, batch: str, task: str) -> list[str]:
    """Ids of unfinished sessions on the same packet and task (a broken session file counts,
    read from its last good copy, so it is resumed rather than started over)."""
    found = []
    for path in session_files(home):
        try:
            data = asdict(_parse(path))
        except SessionError:
            previous = path.with_name(f"{path.stem}.prev.json")
            if not previous.is_file():
                continue
            try:
                data = asdict(_parse(previous))
            except SessionError:
                continue
        same = (data.get("study"), data.get("labelerId"), data.get("runId"), data.get("dimension"))
        if same == (study, annotator, batch, task) and not data.get("finishedAt"):
            found.append(data["sessionId"])
    return found
