"""The ``raterlab`` subcommands: each command's module and one-line help.

The command line imports a command's module only when that command runs, so ``raterlab
--help`` and the commands that need little (``label``) do not pay for pandas, SciPy or
Dagster. A module's ``register`` adds the full parsers of its commands.
"""

from __future__ import annotations

COMMANDS: dict[str, tuple[str, str]] = {
    "study": ("study", "check study files; write the study JSON Schema"),
    "simulate": (
        "simulate",
        "simulated annotators fill the outbox packets and drop returns in the inbox",
    ),
    "validate": ("ingest", "say what ingesting a returned file would do; writes nothing"),
    "ingest": ("ingest", "ingest one returned file now (outside the schedule)"),
    "import": ("ingest", "load annotations collected elsewhere into a study (no packets)"),
    "history": ("history", "every version of ratings: current, replaced, withdrawn"),
    "withdraw": ("history", "withdraw an annotator's rating of an item (kept in history)"),
    "agree": ("agree", "agreement coefficients (alpha, kappas, AC1/AC2, ICC) of a ratings file"),
    "adjudicate": ("adjudicate", "adjudication queue, packets, returned decisions, and consensus"),
    "calibrate": (
        "calibrate",
        "LLM judges (or metrics) against human ratings: correlations, kappa, human ceiling",
    ),
    "plan": (
        "plan",
        "study size before annotation: comparison power, agreement interval widths, "
        "human labels with a judge",
    ),
    "judges": ("judges", "judge verdicts of a study (import a judge file)"),
    "pilot": ("pilot", "pilot gate attempts; a new pilot round after a failed gate"),
    "report": ("report", "write a study report, or serve the reports"),
    "label": ("label", "label a packet in the terminal (sessions in $RATERLAB_HOME/sessions/)"),
    "labelstudio": ("labelstudio", "Label Studio: configs and tasks out, exports in"),
    "xlsx": (
        "spreadsheet",
        "write .xlsx packets (validated dropdowns, locked ids) beside the CSV ones",
    ),
    "tables": ("tables", "document and check the declared warehouse tables"),
}
"""Command name -> (module under ``raterlab.cli``, help shown by ``raterlab --help``)."""


def modules() -> list[str]:
    """Every command module, once, in the order of :data:`COMMANDS`."""
    return list(dict.fromkeys(module for module, _ in COMMANDS.values()))
