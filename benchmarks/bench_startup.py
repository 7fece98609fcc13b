"""Start-up of the command line: CPU seconds before a command does anything.

Each case runs in a fresh Python process (best of ``--repeat``): ``raterlab --help``, every
subcommand's ``--help``, and the terminal tool's first screen (its modules imported, a
``Labeler`` not yet made: what stands between the command and the first item). With
``--against REV`` the same cases run, in the same session and alternating, on a worktree of
that revision (its own ``.venv`` is not needed: the current interpreter imports the
worktree's ``raterlab``), and the table gives the ratio.

Run by hand: ``.venv/bin/python benchmarks/bench_startup.py [--against 27bb06c]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FIRST_SCREEN = (
    "import raterlab.cli.label, importlib.util\n"
    "app = 'raterlab.terminal.app' if importlib.util.find_spec('raterlab.terminal') "
    "else 'raterlab.label.app'\n"
    "importlib.import_module(app)"
)
"""The terminal tool's modules (its package was ``raterlab.label`` before a4abb53)."""


def cases(root: Path) -> dict[str, str]:
    """Case name -> Python code run in a fresh process (with ``root`` first on the path)."""
    commands = _commands(root)
    run = "from raterlab.cli import main\ntry:\n    main({})\nexcept SystemExit:\n    pass"
    out = {"raterlab --help": run.format("['--help']")}
    out |= {f"raterlab {c} --help": run.format(repr([c, "--help"])) for c in commands}
    out["label: first screen's imports"] = FIRST_SCREEN
    return out


def _commands(root: Path) -> list[str]:
    listing = subprocess.run(
        [sys.executable, "-c", "from raterlab.cli import build_parser; import argparse\n"
         "p = build_parser()\n"
         "sub = next(a for a in p._actions if isinstance(a, argparse._SubParsersAction))\n"
         "print(' '.join(sub.choices))"],
        cwd=root, capture_output=True, text=True, check=True,
        env={**os.environ, "PYTHONPATH": str(root)},
    )  # fmt: skip
    return listing.stdout.split()


def cpu_seconds(code: str, root: Path) -> float:
    """User + system CPU of one fresh process running ``code``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [sys.executable, "-c", code],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        capture_output=True,
        check=False,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--against", help="a git revision to measure beside this checkout")
    args = parser.parse_args()
    roots = {"now": REPO}
    with tempfile.TemporaryDirectory() as tmp:
        if args.against:
            old = Path(tmp) / "old"
            subprocess.run(
                ["git", "worktree", "add", "--detach", str(old), args.against],
                cwd=REPO, check=True, capture_output=True,
            )  # fmt: skip
            roots[args.against] = old
        try:
            table = {name: cases(root) for name, root in roots.items()}
            names = list(table["now"])
            best = {name: {} for name in roots}
            for case in names:
                for _ in range(args.repeat):
                    for name, root in roots.items():
                        code = table[name].get(case)
                        if code is None:
                            continue
                        t = cpu_seconds(code, root)
                        best[name][case] = min(best[name].get(case, t), t)
        finally:
            if args.against:
                subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=REPO)
    print(f"load average {os.getloadavg()[0]:.2f}; CPU seconds, best of {args.repeat}")
    header = ["case", *roots] + (["ratio"] if args.against else [])
    print(" | ".join(header))
    for case in names:
        row = [case] + [f"{best[n].get(case, float('nan')):.2f}" for n in roots]
        if args.against and case in best[args.against]:
            row.append(f"{best[args.against][case] / best['now'][case]:.0f}x")
        print(" | ".join(row))


if __name__ == "__main__":
    main()
