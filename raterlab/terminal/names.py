"""Key names of a label as the plugin protocol's ``HumanLabel`` spells them (camelCase).

Kept apart from :mod:`raterlab.terminal.answers` so that starting the tool does not import the
ingest's checking code (pandas, Pandera) before the first screen.
"""

from __future__ import annotations

from raterlab.protocol.names import WORD


def camel(name: str) -> str:
    """``trigger_correct`` -> ``triggerCorrect`` (names already in camelCase are kept)."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def id_key(unit: str) -> str:
    """The id key of an exported label: ``scenarioId`` for unit ``scenario``, else ``itemId``."""
    return f"{camel(unit)}Id" if WORD.fullmatch(unit) else "itemId"
