"""``raterlab report``: write a study's report from the warehouse, or serve the reports.

Browsers do not follow ``file://`` links from a web page such as the Dagster UI, so
``raterlab report serve`` serves ``$RATERLAB_HOME/reports`` on the local machine; with
``RATERLAB_REPORTS_URL`` set to its address, the ``report`` asset links there instead.
"""

from __future__ import annotations

import argparse
import functools
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

from raterlab.settings import Home, studies_dir


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("report", help="write a study report, or serve the reports")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    write = actions.add_parser("write", help="write reports/<study>/index.html now")
    write.add_argument("study", help="study name")
    write.set_defaults(func=run_write)
    serve = actions.add_parser("serve", help="serve $RATERLAB_HOME/reports over HTTP")
    serve.add_argument("--host", default="127.0.0.1", help="address (default: this machine)")
    serve.add_argument("--port", type=int, default=8765, help="port (default: 8765)")
    serve.set_defaults(func=run_serve)


def run_write(args: argparse.Namespace) -> int:
    from raterlab import warehouse
    from raterlab.protocol import load_study
    from raterlab.report import write_report

    home = Home.from_env()
    study = load_study(studies_dir() / f"{args.study}.yaml")
    with warehouse.connect(home.warehouse, read_only=True) as con:
        path = write_report(con, study, home.reports)
    print(path)
    return 0


def run_serve(args: argparse.Namespace) -> int:
    reports = Home.from_env().reports
    reports.mkdir(parents=True, exist_ok=True)
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(reports))
    with ThreadingHTTPServer((args.host, args.port), handler) as server:
        print(f"serving {reports} at http://{args.host}:{args.port}/<study>/index.html", flush=True)
        print(
            f"link the UI to it: export RATERLAB_REPORTS_URL=http://{args.host}:{args.port}",
            flush=True,
        )
        server.serve_forever()
    return 0
