"""A package's public names, imported from their modules when first used (PEP 562).

A package whose ``__init__`` imported every module made any import of it (a constant for a
command-line option, one submodule) cost pandas and SciPy. With :func:`exports`, ``from
raterlab.simulate import simulate`` and ``raterlab.simulate.simulate`` work as before, but
``import raterlab.simulate.names`` loads only that module.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping


def exports(
    package: str, where: Mapping[str, str]
) -> tuple[list[str], Callable[[str], object], Callable[[], list[str]]]:
    """``__all__``, ``__getattr__`` and ``__dir__`` for ``package``, whose public names are
    ``where``'s keys, each found in the module (relative to the package) its value names."""

    def __getattr__(name: str) -> object:
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = importlib.import_module(f"{package}.{where[name]}")
        return getattr(module, name)

    def __dir__() -> list[str]:
        return sorted(where)

    return sorted(where), __getattr__, __dir__
