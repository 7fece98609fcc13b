"""Which annotator a Label Studio user is, so an annotation counts only for its author.

The rule: with a user map (``--user-map FILE``: a CSV with columns ``user`` and
``annotator_id``, ``user`` being the Label Studio user's number or email), the map says, and
a user it does not list is no annotator. Without one, a user the export names by email is
the annotator whose id is that email or its part before ``@`` (``ann_dube@lab.example`` is
``ann_dube``); a user named by number only is no annotator. Label Studio 1.x's JSON and
JSON_MIN exports name users by number, so those need the map (the numbers are listed by
``GET /api/users`` and on the Organization page).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

from raterlab.labelstudio.formats import Author

MAP_COLUMNS = ("user", "annotator_id")


class UserMapError(ValueError):
    """The user map file cannot be used (names file, row, column and value)."""


@dataclass(frozen=True)
class Users:
    """Label Studio users -> annotator ids (see the module docstring)."""

    mapped: dict[str, str] | None = None
    """User number or lower-cased email -> annotator id; ``None`` without a map."""
    annotators: frozenset[str] = field(default_factory=frozenset)
    """The study's annotator ids (those the sealed key knows)."""

    def annotator_of(self, author: Author) -> str | None:
        """The annotator ``author`` is, or ``None`` when the rule names none."""
        if self.mapped is not None:
            for name in (author.id, (author.email or "").lower()):
                if name and name in self.mapped:
                    return self.mapped[name]
            return None
        if not author.email:
            return None
        for name in (author.email, author.email.split("@", 1)[0]):
            if name in self.annotators:
                return name
        return None

    def who(self, author: Author) -> str:
        """The annotator ``author`` is, else the user as the export names them."""
        return self.annotator_of(author) or f"{author} (no annotator)"

    def describe(self, author: Author) -> str:
        """``author`` with the annotator the rule makes them, for a report line."""
        annotator = self.annotator_of(author)
        return f"{author} ({annotator})" if annotator else f"{author} (no annotator)"


def read_user_map(path: Path, annotators: frozenset[str]) -> Users:
    """Read a user map (see the module docstring); every annotator id must be one of
    ``annotators`` and every user listed once."""
    path = Path(path)
    try:
        with path.open(encoding="utf-8-sig", newline="") as handle:
            rows = list(csv.DictReader(handle))
            header = rows[0].keys() if rows else []
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise UserMapError(f"{path}: cannot be read as CSV ({exc})") from None
    missing = [c for c in MAP_COLUMNS if c not in header]
    if missing:
        raise UserMapError(
            f"{path}: needs the columns {', '.join(MAP_COLUMNS)} (missing {', '.join(missing)})"
        )
    mapped: dict[str, str] = {}
    for number, row in enumerate(rows, start=2):
        user = (row["user"] or "").strip().lower()
        annotator = (row["annotator_id"] or "").strip()
        if not user:
            raise UserMapError(f"{path}, row {number}, column user: empty")
        if annotator not in annotators:
            raise UserMapError(
                f"{path}, row {number}, column annotator_id: {annotator!r} is not an annotator "
                f"of the study ({', '.join(sorted(annotators))})"
            )
        if user in mapped:
            raise UserMapError(f"{path}, row {number}, column user: {user!r} is listed twice")
        mapped[user] = annotator
    return Users(mapped, annotators)
