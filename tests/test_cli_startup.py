"""The command line loads only what the command being run needs."""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from raterlab.cli import build_parser, main
from raterlab.cli.commands import COMMANDS, modules

HEAVY = ("pandas", "scipy", "dagster", "matplotlib", "polars", "duckdb", "pyarrow", "numpy")


def _modules_loaded_by(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys; print(' '.join(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
    )
    return set(out.stdout.split())


def test_help_imports_no_heavy_package():
    loaded = _modules_loaded_by(
        "from raterlab.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass"
    )
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_commands_help_imports_no_heavy_package(command):
    loaded = _modules_loaded_by(
        "from raterlab.cli import main\n"
        f"try:\n    main([{command!r}, '--help'])\nexcept SystemExit:\n    pass"
    )
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))


@pytest.mark.parametrize(
    "package", ["raterlab.simulate", "raterlab.judges", "raterlab.agreement", "raterlab.design"]
)
def test_a_lazy_package_imports_a_name_when_it_is_used(package):
    """Importing the package (or one light module in it) loads no pandas; its public names
    still resolve, each from its own module."""
    assert not _modules_loaded_by(f"import {package}") & set(HEAVY)
    module = importlib.import_module(package)
    assert module.__all__ and all(getattr(module, name) is not None for name in module.__all__)


def test_importing_the_cli_imports_no_command_module():
    loaded = _modules_loaded_by("import raterlab.cli")
    assert not {f"raterlab.cli.{m}" for m in modules()} & loaded


@pytest.mark.parametrize("module", modules())
def test_every_command_of_a_module_is_listed_with_its_own_help(module):
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    importlib.import_module(f"raterlab.cli.{module}").register(sub)
    listed = {name: help_text for name, (owner, help_text) in COMMANDS.items() if owner == module}
    registered = {action.dest: action.help for action in sub._choices_actions}
    assert registered == listed


def test_a_command_runs_through_its_own_module(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["agree", "--help"])
    assert exit_.value.code == 0
    assert "--unit" in capsys.readouterr().out


def test_an_unknown_command_is_refused_with_the_list(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["agreee"])
    assert exit_.value.code == 2
    assert "invalid choice: 'agreee'" in capsys.readouterr().err


def test_the_parser_without_a_command_lists_every_command():
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert list(sub.choices) == list(COMMANDS)


@pytest.mark.parametrize(
    "package", ["raterlab.simulate", "raterlab.judges", "raterlab.agreement", "raterlab.design"]
)
def test_no_public_name_of_a_lazy_package_is_also_a_module_name(package):
    """A submodule, once imported, is an attribute of its package and would shadow a lazily
    exported name of the same spelling (``raterlab.agreement.icc`` was a module and a
    function)."""
    module = importlib.import_module(package)
    modules = {p.stem for p in Path(module.__file__).parent.glob("*.py")}
    assert not set(module.__all__) & modules
