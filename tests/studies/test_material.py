"""Reading sample material: ``!prose`` is reflowed, and a file that does not hold what the
study's dataclasses declare is refused with the place named."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import STUDIES

sys.path.insert(0, str(STUDIES))
from _generate.material import MaterialError, read_material, typed

sys.path.remove(str(STUDIES))


@dataclass(frozen=True)
class Item:
    name: str
    sizes: tuple[int, ...]
    note: str | None = None


@dataclass(frozen=True)
class Material:
    title: str
    items: tuple[Item, ...]


def _folder(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def test_material_and_list_files_make_one_typed_material(tmp_path: Path) -> None:
    folder = _folder(
        tmp_path,
        {
            "material.yaml": "title: !prose |\n  Two wrapped\n  lines.\n\n  ```\n  a\n  b\n  ```\n",
            "items.yaml": "- {name: x, sizes: [1, 2]}\n- {name: y, sizes: [], note: hi}\n",
        },
    )
    material = typed(Material, read_material(folder))
    assert material.title == "Two wrapped lines.\n\n```\na\nb\n```"
    assert material.items == (Item("x", (1, 2)), Item("y", (), "hi"))


@pytest.mark.parametrize(
    ("items", "message"),
    [
        ("- {name: x, sizes: [1], size: 2}", "items[0]: unknown keys ['size']"),
        ("- {name: x, sizes: [one]}", "items[0].sizes[0]: expected int, got 'one'"),
        ("- {name: x, sizes: 1}", "items[0].sizes: expected a list, got 1"),
        ("- {name: x, sizes: [true]}", "items[0].sizes[0]: expected int, got True"),
    ],
)
def test_a_value_of_the_wrong_shape_is_named(tmp_path: Path, items: str, message: str) -> None:
    folder = _folder(tmp_path, {"material.yaml": "title: t\n", "items.yaml": items + "\n"})
    with pytest.raises(MaterialError, match=message.replace("[", r"\[").replace("]", r"\]")):
        typed(Material, read_material(folder))


def test_a_key_given_twice_is_refused(tmp_path: Path) -> None:
    folder = _folder(tmp_path, {"material.yaml": "items: []\n", "items.yaml": "[]\n"})
    with pytest.raises(MaterialError, match="already defined"):
        read_material(folder)
