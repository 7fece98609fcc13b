"""``raterlab label``: terminal labeling of a packet (the plugin protocol's labeling CLI).

raterlab label STUDY --annotator ID [--dimension NAME] [--batch B]
raterlab label --resume --session-id ID
raterlab label --export --session-id ID --format json|csv [--out FILE]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from raterlab.label import session as sessions
from raterlab.label.items import PacketError
from raterlab.label.model import Labeler, export
from raterlab.label.session import SessionError
from raterlab.protocol import StudyError, load_study
from raterlab.settings import Home, studies_dir


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "label",
        help="label a packet in the terminal (sessions in $RATERLAB_HOME/sessions/)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("study", nargs="?", help="study name (a file in studies/)")
    parser.add_argument("--annotator", help="your annotator id")
    parser.add_argument("--dimension", help="the task to label, when the packet has several")
    parser.add_argument("--batch", help="the packet (default: the first not yet returned)")
    parser.add_argument("--resume", action="store_true", help="continue a saved session")
    parser.add_argument("--export", action="store_true", help="print a session's labels")
    parser.add_argument("--session-id", help="the session to resume or export")
    parser.add_argument("--format", choices=("json", "csv"), default="json")
    parser.add_argument("--out", type=Path, help="with --export: write to this file")
    parser.set_defaults(func=run)


def _labeler(args: argparse.Namespace, home: Home) -> Labeler:
    if args.resume or args.export:
        if not args.session_id:
            raise SessionError("name the session with --session-id")
        session = sessions.load(home, args.session_id)
        study = load_study(studies_dir() / f"{session.study}.yaml")
        return Labeler.resume(study, home, session)
    if not args.study or not args.annotator:
        raise SessionError("give the study and --annotator (or --resume --session-id ID)")
    study = load_study(studies_dir() / f"{args.study}.yaml")
    return Labeler.start(study, home, args.annotator, args.batch, args.dimension)


def run(args: argparse.Namespace) -> int:
    home = Home.from_env()
    try:
        labeler = _labeler(args, home)
    except (SessionError, PacketError, StudyError, FileNotFoundError) as exc:
        print(f"raterlab label: {exc}", file=sys.stderr)
        return 2
    if args.export:
        text = export(labeler, args.format)
        if args.out:
            args.out.write_text(text, encoding="utf-8")
            print(f"{labeler.session.completedScenarios} label(s) written to {args.out}")
        else:
            sys.stdout.write(text)
        return 0
    from raterlab.label.app import LabelApp

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
