"""Read a study's sample material from ``studies/_samples/<study>/`` into typed objects.

The folder's ``material.yaml`` holds a mapping; every other ``<name>.yaml`` holds the value
of the key ``<name>`` (a long list such as ``prompts.yaml``). Text tagged ``!prose`` is
reflowed as it is read (:func:`text.prose`), so the files keep the wrapped lines a writer
types while the generations get one line per paragraph. :func:`typed` then builds the
study's dataclasses from the plain data, checking every value against the annotation.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from pathlib import Path
from typing import Any, TypeVar

import yaml

from .text import prose

T = TypeVar("T")
_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class MaterialError(ValueError):
    """A material file does not hold what the study's dataclasses declare."""


class _Loader(_BaseLoader):  # type: ignore[misc, valid-type]
    """YAML's safe loader plus the ``!prose`` tag."""


def _construct_prose(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> str:
    return prose(loader.construct_scalar(node))


_Loader.add_constructor("!prose", _construct_prose)


def read_material(folder: Path) -> dict[str, Any]:
    """The plain data of ``folder``: ``material.yaml``'s keys plus one key per other file."""
    data: dict[str, Any] = {}
    for path in sorted(folder.glob("*.yaml")):
        with path.open(encoding="utf-8") as f:
            content = yaml.load(f, Loader=_Loader)  # _Loader is a safe loader
        part = content if path.stem == "material" else {path.stem: content}
        if not isinstance(part, dict):
            raise MaterialError(f"{path}: expected a mapping")
        clash = data.keys() & part.keys()
        if clash:
            raise MaterialError(f"{path}: {sorted(clash)} already defined in {folder}")
        data |= part
    return data


def typed(cls: type[T], data: Any, where: str = "") -> T:
    """An instance of the dataclass ``cls`` from the mapping ``data``, converted field by
    field by the type annotations (nested dataclasses, tuples, lists, dicts, ``X | None``)."""
    if not isinstance(data, dict):
        raise MaterialError(f"{where or cls.__name__}: expected a mapping, got {data!r:.60}")
    hints = typing.get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = data.keys() - names
    if unknown:
        raise MaterialError(f"{where or cls.__name__}: unknown keys {sorted(unknown)}")
    values = {k: _convert(hints[k], v, f"{where}.{k}" if where else k) for k, v in data.items()}
    return cls(**values)


def _convert(tp: Any, value: Any, where: str) -> Any:
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if dataclasses.is_dataclass(tp):
        return typed(tp, value, where)  # type: ignore[arg-type]
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        (inner,) = [a for a in args if a is not type(None)]
        return _convert(inner, value, where)
    if origin in (tuple, list):
        if not isinstance(value, list):
            raise MaterialError(f"{where}: expected a list, got {value!r:.60}")
        if origin is list or args[-1] is Ellipsis:
            items = [_convert(args[0], v, f"{where}[{i}]") for i, v in enumerate(value)]
        else:
            if len(value) != len(args):
                raise MaterialError(f"{where}: expected {len(args)} items, got {len(value)}")
            items = [
                _convert(a, v, f"{where}[{i}]")
                for i, (a, v) in enumerate(zip(args, value, strict=True))
            ]
        return tuple(items) if origin is tuple else items
    if origin is dict:
        if not isinstance(value, dict):
            raise MaterialError(f"{where}: expected a mapping, got {value!r:.60}")
        key_type, value_type = args
        return {
            _convert(key_type, k, where): _convert(value_type, v, f"{where}.{k}")
            for k, v in value.items()
        }
    if tp is Any:
        return value
    wanted = (int, float) if tp is float else tp
    if not isinstance(value, wanted) or (tp is not bool and isinstance(value, bool)):
        raise MaterialError(f"{where}: expected {tp.__name__}, got {value!r:.60}")
    return value
