"""``raterlab label``: terminal labeling of a packet (the plugin protocol's labeling CLI).

raterlab label [STUDY] [--annotator ID] --dimension NAME [--run-id BATCH]
raterlab label --resume --session-id ID
raterlab label --export --session-id ID --format json|csv [--out FILE]

The run id is the packet (batch) to label, as the outbox names it (``pilot``, ``main``...).
The study and the annotator (``--annotator``, else ``$RATERLAB_ANNOTATOR``) may be left out
when only one packet in ``$RATERLAB_HOME/outbox`` fits the run id and dimension, as on an
annotator's own machine.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from raterlab.settings import Home, studies_dir

if TYPE_CHECKING:
    from raterlab.design.items import Item
    from raterlab.protocol import Study
    from raterlab.terminal import session as sessions
    from raterlab.terminal.model import Labeler


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "label",
        help="label a packet in the terminal (sessions in $RATERLAB_HOME/sessions/)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("study", nargs="?", help="study name (a file in studies/)")
    parser.add_argument(
        "--annotator",
        default=os.environ.get("RATERLAB_ANNOTATOR"),
        help="your annotator id (default: $RATERLAB_ANNOTATOR, else the only one with a packet)",
    )
    parser.add_argument("--dimension", help="the task to label, when the packet has several")
    parser.add_argument(
        "--run-id",
        "--batch",
        dest="batch",
        help="the packet to label (default: the first not yet returned)",
    )
    parser.add_argument("--resume", action="store_true", help="continue a saved session")
    parser.add_argument("--export", action="store_true", help="print a session's labels")
    parser.add_argument("--session-id", help="the session to resume or export")
    parser.add_argument("--format", choices=("json", "csv"), default="json")
    parser.add_argument("--out", type=Path, help="with --export: write to this file")
    parser.set_defaults(func=run)


def _study(name: str) -> Study:
    from raterlab.protocol import load_study

    return load_study(studies_dir() / f"{name}.yaml")


def _labeler(args: argparse.Namespace, home: Home) -> Labeler:
    from raterlab.terminal import session as sessions
    from raterlab.terminal.model import Labeler, locate_packet
    from raterlab.terminal.session import SessionError

    if args.resume or args.export:
        if not args.session_id:
            raise SessionError("name the session with --session-id")
        if args.export:
            session = sessions.load(home, args.session_id)
            return Labeler(_study(session.study), home, session, _packet(home, session))
        lock = sessions.SessionLock(home, args.session_id).acquire()
        try:
            session, note = sessions.recover(home, args.session_id)
            labeler = Labeler.resume(_study(session.study), home, session, lock=lock)
        except BaseException:
            lock.release()
            raise
        if note:
            print(f"raterlab label: {note}", file=sys.stderr)
            labeler.notice = note
        return labeler
    study, annotator = locate_packet(
        home, _study, args.study, args.annotator, args.batch, args.dimension
    )
    return Labeler.start(study, home, annotator, args.batch, args.dimension)


def _packet(home: Home, session: sessions.LabelingSession) -> list[Item]:
    from raterlab.design.items import packet_items

    return packet_items(home, _study(session.study), session.labelerId, session.runId)


def run(args: argparse.Namespace) -> int:
    from raterlab.design.items import PacketError
    from raterlab.protocol import StudyError
    from raterlab.terminal.session import SessionError

    home = Home.from_env()
    try:
        labeler = _labeler(args, home)
    except (SessionError, PacketError, StudyError, FileNotFoundError) as exc:
        print(f"raterlab label: {exc}", file=sys.stderr)
        return 2
    try:
        if args.export:
            return _export(labeler, args)
        return _label(labeler, home)
    finally:
        labeler.close()


def _export(labeler: Labeler, args: argparse.Namespace) -> int:
    from raterlab.terminal.model import export

    text = export(labeler, args.format)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
        print(f"{labeler.session.completedScenarios} label(s) written to {args.out}")
    else:
        sys.stdout.write(text)
    return 0


def _label(labeler: Labeler, home: Home) -> int:
    from raterlab.terminal import session as sessions
    from raterlab.terminal.app import LabelApp

    outcome = LabelApp(labeler).run()
    session = labeler.session
    print(
        f"session {session.sessionId}: {session.completedScenarios}/{session.totalScenarios} "
        f"labelled, saved in {sessions.session_path(home, session.sessionId)}"
    )
    if outcome == "finished":
        print(f"return written to {session.returnFile}")
    else:
        print(f"continue with: raterlab label --resume --session-id {session.sessionId}")
    return 0
