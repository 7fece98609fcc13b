"""The labeling tool's logic, without a terminal: which item and question are current, what an
answer does, going back, saving, time per item, and the finished return.

:class:`Labeler` is driven by the Textual app (:mod:`raterlab.terminal.app`) and directly by
tests. Every answer is checked with ingest's rules (:func:`raterlab.terminal.answers.problems`)
before it is kept; the session is saved after every kept answer; the time an item is on
screen is added to that item automatically, from when it is first shown (:meth:`Labeler.shown`),
so start-up is never counted. A Labeler holds its session's lock until :meth:`Labeler.close`.
A finished session writes its return into ``$RATERLAB_HOME/inbox/<study>/`` under the name a
returned packet file has, so the inbox sensor ingests it like any other return.

What only answering needs (the ingest's checks, pandas) is imported on first use, not at
start-up: the first screen does not wait for it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from raterlab.design.items import Item, PacketError, batches, packet_items
from raterlab.files import write_atomic
from raterlab.protocol import Study
from raterlab.settings import Home
from raterlab.terminal import session as sessions
from raterlab.terminal.form import Question, is_asked, questions
from raterlab.terminal.names import id_key
from raterlab.terminal.session import LabelingSession, SessionError, SessionLock

if TYPE_CHECKING:
    from raterlab.terminal.answers import Problem

SECONDS = "timeSpentS"
"""Key of the automatically recorded time in an exported label (the protocol's time_spent)."""


def resolve_task(study: Study, dimension: str | None, items: list[Item]) -> str:
    """The task a session labels: ``--dimension`` (a task of the study, ``-`` and ``_`` alike),
    else the packet's only task."""
    in_packet = list(dict.fromkeys(i.task for i in items))
    if dimension is None:
        if len(in_packet) == 1:
            return in_packet[0]
        raise SessionError(
            f"this packet holds several dimensions; choose one with --dimension "
            f"({', '.join(in_packet)})"
        )
    for task in study.tasks:
        if matches_dimension(task, dimension):
            if task not in in_packet:
                raise SessionError(f"this packet has no items of dimension {task!r}")
            return task
    raise SessionError(
        f"study {study.name} has no dimension {dimension!r} (its dimensions: "
        f"{', '.join(study.tasks)})"
    )


def return_path(home: Home, study: Study, annotator: str, batch: str, task: str) -> Path:
    from raterlab.design.packets import returned_name, template_name

    template = template_name(study, annotator, task)
    return home.inbox / study.name / returned_name(annotator, batch, template)


def _pick_batch(home: Home, study: Study, annotator: str, batch: str | None) -> str:
    if batch is not None:
        return batch
    have = batches(home, study, annotator)
    if not have:
        raise PacketError(f"no packets for {annotator} in {home.outbox / study.name}")
    return have[0] if len(have) == 1 else _first_open(home, study, annotator, have)


def _first_open(home: Home, study: Study, annotator: str, have: list[str]) -> str:
    for batch in have:
        tasks = {i.task for i in packet_items(home, study, annotator, batch)}
        if any(not return_path(home, study, annotator, batch, t).exists() for t in tasks):
            return batch
    raise SessionError(f"every packet of {annotator} has been returned; name one with --batch")


def matches_dimension(task: str, dimension: str) -> bool:
    """``--dimension`` names a task with ``-`` and ``_`` alike."""
    return task.replace("-", "_") == dimension.replace("-", "_")


def locate_packet(
    home: Home,
    load: Callable[[str], Study],
    study: str | None,
    annotator: str | None,
    batch: str | None,
    dimension: str | None,
) -> tuple[Study, str]:
    """The study and annotator of the packet asked for, filling in what was not given from
    the outbox: the one study and annotator whose packet ``batch`` (the protocol's run id)
    holds ``dimension``. Refuses, listing them, when none or several fit."""
    names = [study] if study else sorted(p.name for p in home.outbox.glob("*") if p.is_dir())
    fits = []
    for name in names:
        people = [annotator] if annotator else _annotators(home, name)
        if study is None and not people:
            continue
        loaded = load(name)
        for person in people:
            if _holds(home, loaded, person, batch, dimension):
                fits.append((loaded, person))
    if len(fits) == 1 or (study and annotator):
        return fits[0] if fits else (load(study), annotator)
    asked = " ".join(
        f"{flag} {value}"
        for flag, value in (("--run-id", batch), ("--dimension", dimension))
        if value
    )
    if not fits:
        raise PacketError(f"no packet in {home.outbox} fits {asked or 'what was asked'}")
    listed = ", ".join(f"{s.name} {person}" for s, person in fits)
    raise SessionError(
        f"several packets fit {asked or 'what was asked'} ({listed}); name the study and "
        f"--annotator (or set RATERLAB_ANNOTATOR)"
    )


def _annotators(home: Home, study: str) -> list[str]:
    folder = home.outbox / study
    return sorted(p.name for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []


def _holds(
    home: Home, study: Study, annotator: str, batch: str | None, dimension: str | None
) -> bool:
    have = batches(home, study, annotator)
    wanted = [batch] if batch else have
    for name in (b for b in wanted if b in have):
        tasks = {i.task for i in packet_items(home, study, annotator, name)}
        if dimension is None or any(matches_dimension(t, dimension) for t in tasks):
            return True
    return False


class Labeler:
    """One annotator working through one task of one packet."""

    def __init__(
        self,
        study: Study,
        home: Home,
        session: LabelingSession,
        items: list[Item],
        clock: Callable[[], float] = time.monotonic,
        lock: SessionLock | None = None,
    ):
        self.study = study
        self.home = home
        self.session = session
        self.task_name = session.dimension
        self.task = study.tasks[self.task_name]
        self.questions: list[Question] = questions(self.task)
        by_token = {i.token: i for i in items}
        self.items = [by_token[t] for t in session.items]
        self.key = id_key(self.task.unit)
        self._clock = clock
        self._since = clock()
        self._lock = lock
        self.notice: str | None = None
        """Something the annotator must read on the first screen (a recovered session)."""
        self.question_index = self._first_open_question()

    @classmethod
    def start(
        cls,
        study: Study,
        home: Home,
        annotator: str,
        batch: str | None = None,
        dimension: str | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> Labeler:
        batch = _pick_batch(home, study, annotator, batch)
        items = packet_items(home, study, annotator, batch)
        task = resolve_task(study, dimension, items)
        busy = sessions.open_sessions(home, study.name, annotator, batch, task)
        if busy:
            raise SessionError(
                f"session {busy[0]} is already open on this packet; continue it with "
                f"raterlab label --resume --session-id {busy[0]}"
            )
        mine = [i for i in items if i.task == task]
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
        session_id = f"{study.name}-{annotator}-{batch}-{task}-{stamp}".replace("_", "-")
        lock = SessionLock(home, session_id).acquire()
        session = LabelingSession(
            sessionId=session_id,
            labelerId=annotator,
            dimension=task,
            runId=batch,
            startedAt=sessions.now(),
            lastUpdatedAt=sessions.now(),
            totalScenarios=len(mine),
            study=study.name,
            studyVersion=study.version,
            items=[i.token for i in mine],
        )
        sessions.save(home, session)
        return cls(study, home, session, mine, clock, lock)

    @classmethod
    def resume(
        cls,
        study: Study,
        home: Home,
        session: LabelingSession,
        clock: Callable[[], float] = time.monotonic,
        lock: SessionLock | None = None,
    ) -> Labeler:
        """Continue ``session``; refused while another process has it open (``lock``: the
        session's lock, when the caller already holds it)."""
        lock = lock or SessionLock(home, session.sessionId).acquire()
        try:
            items = packet_items(home, study, session.labelerId, session.runId)
        except BaseException:
            lock.release()
            raise
        return cls(study, home, session, items, clock, lock)

    def close(self) -> None:
        """Let another process open the session (the lock also ends with this process)."""
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    # -- where the annotator is -------------------------------------------------------------

    @property
    def done(self) -> bool:
        return self.session.position >= len(self.items)

    @property
    def item(self) -> Item:
        return self.items[self.session.position]

    @property
    def question(self) -> Question:
        return self.questions[self.question_index]

    @property
    def answers(self) -> dict[str, str]:
        return self.session.draft

    def _asked(self, index: int) -> bool:
        return is_asked(self.questions[index], self.session.draft)

    def _first_open_question(self) -> int:
        for index, q in enumerate(self.questions):
            if self._asked(index) and q.field not in self.session.draft:
                return index
        return 0

    # -- answering ----------------------------------------------------------------------------

    def shown(self) -> None:
        """The current item is on screen from now: its time counts from here, so start-up
        (imports, reading the packet, drawing) is never counted as time on the item."""
        self._since = self._clock()

    def _elapsed(self) -> float:
        now = self._clock()
        spent, self._since = now - self._since, now
        return spent

    def _relevant(self, found: list[Problem], upto: int) -> list[Problem]:
        answered = {q.field for q in self.questions[: upto + 1]}
        return [p for p in found if p.column in answered]

    def _row(self, answers: dict[str, str], seconds: float) -> dict[str, str]:
        from raterlab.terminal.answers import row_cells

        return row_cells(
            self.study, self.task_name, self.session.labelerId, self.item.token, answers, seconds
        )

    def answer(self, text: str) -> list[Problem]:
        """Answer the current question (a choice key or typed text); problems if refused."""
        from raterlab.terminal.answers import Problem, problems

        q = self.question
        value = text.strip()
        if q.kind == "choice":
            match = next((c for c in q.choices if value.lower() in (c.key, c.value)), None)
            if match is None:
                keys = "/".join(c.key.upper() for c in q.choices)
                return [Problem(q.field, "key", f"press one of {keys}")]
            value = match.value
        tentative = {**self.session.draft, q.field: value}
        for other in self.questions:
            if not is_asked(other, tentative):
                tentative.pop(other.field, None)
        row = self._row(tentative, 0)
        found = self._relevant(problems(self.study, self.task_name, row), self.question_index)
        if found:
            return found
        self.session.draft = tentative
        return self._advance()

    def warnings(self) -> list[str]:
        """The study's edge-case warnings that ingest would report for the answers given so
        far to the current item (the annotator may still change them)."""
        from raterlab.terminal.answers import edge_warnings

        if self.done or not self.study.edge_cases:
            return []
        row = self._row(self.answers, 0)
        return edge_warnings(self.study, self.task_name, self.item.shown, row)

    def _advance(self) -> list[Problem]:
        from raterlab.terminal.answers import problems

        for index in range(self.question_index + 1, len(self.questions)):
            if self._asked(index):
                self.question_index = index
                self.save()
                return []
        found = problems(self.study, self.task_name, self._row(self.session.draft, 0))
        if found:
            fields = [q.field for q in self.questions]
            first = min(fields.index(p.column) for p in found if p.column in fields)
            self.question_index = first
            self.save()
            return found
        self._complete_item()
        return []

    def _complete_item(self) -> None:
        from raterlab.terminal.answers import to_label

        seconds = self.session.draftSeconds + self._elapsed()
        label = {
            self.key: self.item.token,
            "dimension": self.task_name,
            "labelerId": self.session.labelerId,
            "timestamp": sessions.now(),
            **to_label(self.study, self.task_name, self.session.draft),
            SECONDS: round(seconds, 1),
        }
        self.session.labels = [
            lb for lb in self.session.labels if lb.get(self.key) != self.item.token
        ] + [label]
        self.session.position += 1
        kept = {} if self.done else self.session.later.pop(self.item.token, {})
        self.session.draft = dict(kept.get("draft", {}))
        self.session.draftSeconds = float(kept.get("seconds", 0.0))
        self.question_index = self._first_open_question()
        self._count()
        self.save()

    def _count(self) -> None:
        self.session.completedScenarios = len(self.session.labels)
        self.session.skippedScenarios = sum(bool(lb.get("skipped")) for lb in self.session.labels)

    # -- going back ---------------------------------------------------------------------------

    @property
    def can_go_back_item(self) -> bool:
        return self.task.allow_back and self.session.position > 0

    def back(self) -> str | None:
        """One step back: the previous question of this item, else the previous item when the
        study allows it. Returns why not, when it cannot."""
        for index in range(self.question_index - 1, -1, -1):
            if self._asked(index):
                self.question_index = index
                self.save()
                return None
        if self.session.position == 0:
            return "this is the first item"
        if not self.task.allow_back:
            return "this study does not allow going back to an item once you have moved on"
        from raterlab.terminal.answers import from_label

        self._keep_for_later()
        self.session.position -= 1
        label = self.session.label_of(self.item.token, self.key) or {}
        self.session.labels = [lb for lb in self.session.labels if lb is not label]
        self.session.draft = from_label(self.study, self.task_name, label)
        self.session.draftSeconds = float(label.get(SECONDS, 0.0))
        self.question_index = 0
        self._count()
        self.save()
        return None

    def _keep_for_later(self) -> None:
        """Keep the current item's answers and seconds, given back when it is reached again."""
        seconds = self.session.draftSeconds + self._elapsed()
        if not self.done and (self.session.draft or seconds):
            self.session.later[self.item.token] = {
                "draft": dict(self.session.draft),
                "seconds": round(seconds, 3),
            }

    # -- saving and finishing -----------------------------------------------------------------

    def save(self) -> Path:
        if not self.done:
            self.session.draftSeconds += self._elapsed()
        return sessions.save(self.home, self.session)

    def return_rows(self) -> list[dict[str, str]]:
        """The returned file's rows for the labelled items, in packet order."""
        from raterlab.terminal.answers import from_label, row_cells

        by_token = {lb[self.key]: lb for lb in self.session.labels}
        rows = []
        for item in self.items:
            label = by_token.get(item.token)
            if label is not None:
                answers = from_label(self.study, self.task_name, label)
                rows.append(
                    row_cells(
                        self.study,
                        self.task_name,
                        self.session.labelerId,
                        item.token,
                        answers,
                        float(label.get(SECONDS, 0.0)),
                    )
                )
        return rows

    def finish(self) -> Path:
        """Write the return into the study's inbox (atomically) and close the session."""
        from raterlab.csvsafe import rows_csv
        from raterlab.design.packets import public_row, return_columns

        if not self.done:
            raise SessionError(
                f"{len(self.items) - self.session.position} item(s) are not labelled yet"
            )
        path = return_path(
            self.home, self.study, self.session.labelerId, self.session.runId, self.task_name
        )
        columns = return_columns(self.study, self.task_name)
        rows = [public_row(self.study, row) for row in self.return_rows()]
        write_atomic(path, rows_csv(columns, rows))
        self.session.finishedAt = sessions.now()
        self.session.returnFile = str(path)
        self.save()
        return path


def export(labeler: Labeler, fmt: str) -> str:
    """The session's labels as the protocol's JSON export, or as the returned-file CSV."""
    from raterlab.csvsafe import rows_csv
    from raterlab.design.packets import public_row, return_columns

    if fmt == "csv":
        columns = return_columns(labeler.study, labeler.task_name)
        rows = [public_row(labeler.study, row) for row in labeler.return_rows()]
        return rows_csv(columns, rows).decode("utf-8")
    document = {
        "exportedAt": sessions.now(),
        "dimension": labeler.session.dimension,
        "runId": labeler.session.runId,
        "labelerId": labeler.session.labelerId,
        "labels": labeler.session.labels,
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
